package sarc_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/animbake/bake/format"
	_ "github.com/animbake/bake/import/bfres"
	"github.com/animbake/bake/import/bfres/bfreswrite"
	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/import/sarc"
	"github.com/animbake/bake/import/sarc/sarcwrite"
	"github.com/animbake/bake/internal/modeltest"
	"github.com/animbake/bake/internal/testfiles"
	"github.com/animbake/bake/model"
)

// demoMembers are the BFRES demo inputs as archive members (a model and
// its animation file, which find each other as siblings) plus a file no
// importer recognises.
func demoMembers() []sarcwrite.File {
	var files []sarcwrite.File
	for _, f := range bfreswrite.Demo() {
		if f.Name != "Demo_Animation.sbfres" {
			files = append(files, sarcwrite.File{Name: f.Name, Data: f.Data, Align: 0x100})
		}
	}
	return append(files, sarcwrite.File{Name: "InitModel.byml", Data: []byte("YB\x03\x00\x10\x00\x00\x00")})
}

func decode(t *testing.T, name string, data []byte, opts *format.Options) ([]*model.File, error) {
	t.Helper()
	f, files, err := format.Decode(format.BytesInput(name, data), opts)
	if f.Name != sarc.FormatName {
		t.Fatalf("%s identified as %q, want sarc", name, f.Name)
	}
	return files, err
}

func byName(files []*model.File) map[string]*model.File {
	m := map[string]*model.File{}
	for _, f := range files {
		m[f.Name] = f
	}
	return m
}

// TestDecodeMembers converts an archive's members as files of a folder:
// the model finds its animation file beside it (Demo_Animation.bfres, as
// bfres looks for X_Animation.bfres beside X.bfres), both members give an
// output named after them, and the unrecognised BYML is skipped; plain
// and Yaz0 archives, both byte orders, give the same files.
func TestDecodeMembers(t *testing.T) {
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"Demo.sarc", sarcwrite.Write(demoMembers(), sarcwrite.Options{})},
		{"Demo.pack", sarcwrite.Write(demoMembers(), sarcwrite.Options{LittleEndian: true})},
		{"Demo.szs", sarcwrite.Compressed(demoMembers(), sarcwrite.Options{})},
	} {
		var warnings []string
		files, err := decode(t, c.name, c.data, &format.Options{Warn: func(m string) { warnings = append(warnings, m) }})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := byName(files)
		if len(files) != 2 || got["Demo"] == nil || got["Demo_Animation"] == nil {
			t.Fatalf("%s: files %v, want Demo and Demo_Animation", c.name, keys(got))
		}
		mdl := got["Demo"]
		if len(mdl.Meshes) == 0 || len(mdl.Animations) == 0 {
			t.Errorf("%s: the model has %d meshes and %d animations; want its meshes and the sibling's clips", c.name, len(mdl.Meshes), len(mdl.Animations))
		}
		if mdl.Extras["archiveMember"] != "Demo.bfres" || mdl.Extras["memberFormat"] != "bfres" {
			t.Errorf("%s: extras %v", c.name, mdl.Extras)
		}
		if mdl.Extras["animationFiles"] == nil {
			t.Errorf("%s: the model's animation files are not recorded", c.name)
		}
		modeltest.CheckDecoded(t, files, func(*model.Animation) []float64 { return []float64{0, 0.5, 7.25} })
		for _, w := range warnings {
			if !strings.HasPrefix(w, "Demo") {
				t.Errorf("%s: warning %q does not name its member", c.name, w)
			}
		}
	}
}

func keys(m map[string]*model.File) []string {
	var k []string
	for n := range m {
		k = append(k, n)
	}
	return k
}

// TestDecodeNested opens an archive inside an archive inside a Yaz0
// archive: members land under folders named after the archives without
// their extension, and siblings are found within their own archive only.
func TestDecodeNested(t *testing.T) {
	inner := sarcwrite.Compressed(demoMembers(), sarcwrite.Options{LittleEndian: true})
	mid := sarcwrite.Write([]sarcwrite.File{{Name: "sub/inner.szs", Data: inner}}, sarcwrite.Options{LittleEndian: true})
	outer := sarcwrite.Compressed([]sarcwrite.File{{Name: "layout.lyarc", Data: mid}}, sarcwrite.Options{})
	files, err := decode(t, "Outer.szs", outer, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := byName(files)
	m := got["layout/sub/inner/Demo"]
	if len(files) != 2 || m == nil || got["layout/sub/inner/Demo_Animation"] == nil {
		t.Fatalf("files %v", keys(got))
	}
	if m.Extras["archiveMember"] != "layout.lyarc/sub/inner.szs/Demo.bfres" {
		t.Errorf("member path %v", m.Extras["archiveMember"])
	}
	if len(m.Animations) == 0 {
		t.Errorf("the nested model did not find its animation sibling")
	}
}

// TestDecodeSameStem keeps the extensions of two recognised members that
// would otherwise share an output name.
func TestDecodeSameStem(t *testing.T) {
	d := bfreswrite.Demo()
	img := sarcwrite.Write([]sarcwrite.File{{Name: "A.bfres", Data: d[1].Data}, {Name: "A.sbfres", Data: d[2].Data}}, sarcwrite.Options{})
	files, err := decode(t, "A.sarc", img, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := byName(files)
	if len(files) != 2 || got["A.bfres"] == nil || got["A.sbfres"] == nil {
		t.Errorf("files %v, want A.bfres and A.sbfres", keys(got))
	}
}

// TestDecodeMemberFails returns the members that decode together with the
// error of one that does not, naming it.
func TestDecodeMemberFails(t *testing.T) {
	members := append(demoMembers(), sarcwrite.File{Name: "Broken.bfres", Data: []byte("FRES\x00\x04\x05\x03broken")})
	files, err := decode(t, "Mixed.sarc", sarcwrite.Write(members, sarcwrite.Options{}), nil)
	var me *sarc.MemberError
	if !errors.As(err, &me) || me.Member != "Broken.bfres" || !strings.HasPrefix(err.Error(), "member Broken.bfres: offset 0x0: ") {
		t.Fatalf("error %v, want a MemberError naming Broken.bfres", err)
	}
	if len(files) != 2 {
		t.Errorf("%d files decoded, want the 2 good members", len(files))
	}
}

// laterMagic starts the files of a test format whose importer recognises
// them but has no reader for them yet (format.NotYetSupported).
const laterMagic = "LATER\x00\x01\x02"

func init() {
	format.Register(format.Format{Name: "sarc-test-later",
		Sniff: func(head []byte) bool { return strings.HasPrefix(string(head), laterMagic) },
		Decode: func(*format.Input, *format.Options) ([]*model.File, error) {
			return nil, &format.NotYetSupported{Err: binread.Errorf(0, "this layout is not supported yet")}
		}})
}

// TestDecodeNotYetSupported skips, with a warning naming it, a member its
// importer recognises but cannot read yet (format.NotYetSupported: Switch
// BFRES before its reader was written), as it skips unrecognised members.
func TestDecodeNotYetSupported(t *testing.T) {
	members := append(demoMembers(), sarcwrite.File{Name: "Later.bin", Data: []byte(laterMagic + "data")})
	var warnings []string
	files, err := decode(t, "Later.sarc", sarcwrite.Write(members, sarcwrite.Options{}), &format.Options{Warn: func(m string) { warnings = append(warnings, m) }})
	if err != nil || len(files) != 2 {
		t.Fatalf("%d files, %v; want the 2 demo files and no error", len(files), err)
	}
	found := false
	for _, w := range warnings {
		found = found || w == "Later.bin: offset 0x0: this layout is not supported yet; skipped"
	}
	if !found {
		t.Errorf("no warning naming Later.bin in %q", warnings)
	}
}

// TestDecodeNothingRecognised gives no files and no error for an archive
// of files no importer reads (the caller reports "nothing to convert").
func TestDecodeNothingRecognised(t *testing.T) {
	files, err := decode(t, "Only.sarc", sarcwrite.Write([]sarcwrite.File{{Name: "a.byml", Data: []byte("YB")}}, sarcwrite.Options{}), nil)
	if err != nil || len(files) != 0 {
		t.Errorf("got %d files, %v", len(files), err)
	}
}

// TestDecodeLimits refuses nesting beyond MaxDepth and Yaz0 beyond the
// inflate budget, naming the member.
func TestDecodeLimits(t *testing.T) {
	img := sarcwrite.Write([]sarcwrite.File{{Name: "a.bin", Data: []byte{1}}}, sarcwrite.Options{})
	for range sarc.MaxDepth + 1 {
		img = sarcwrite.Write([]sarcwrite.File{{Name: "n.sarc", Data: img}}, sarcwrite.Options{})
	}
	_, err := decode(t, "Deep.sarc", img, nil)
	want := "member n.sarc/n.sarc/n.sarc/n.sarc/n.sarc/n.sarc/n.sarc/n.sarc/n.sarc: offset 0x"
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "more than 8 archives deep") {
		t.Errorf("deep nesting: %v", err)
	}

	inner := sarcwrite.Compressed(demoMembers(), sarcwrite.Options{})
	outer := sarcwrite.Write([]sarcwrite.File{{Name: "x.szs", Data: inner}}, sarcwrite.Options{})
	_, err = decode(t, "Big.sarc", outer, &format.Options{MaxInflate: 1000})
	var fe *binread.FormatError
	if !errors.As(err, &fe) || !strings.HasPrefix(err.Error(), "member x.szs: offset 0x4: Yaz0 decompressed size") {
		t.Errorf("inflate cap: %v", err)
	}
}

// TestSniff recognises plain and Yaz0 archives by content only.
func TestSniff(t *testing.T) {
	img := sarcwrite.Write(demoMembers(), sarcwrite.Options{})
	for _, c := range []struct {
		head []byte
		want bool
	}{
		{img[:64], true},
		{sarcwrite.Compressed(demoMembers(), sarcwrite.Options{})[:64], true},
		{bfreswrite.Demo()[2].Data[:64], false}, // Yaz0 around FRES: bfres's
		{[]byte("SARC\x14\x00\x12\x34"), false},
		{[]byte("SARC"), false},
	} {
		if got := sarc.Sniff(c.head); got != c.want {
			t.Errorf("Sniff(%q) = %v, want %v", c.head[:min(len(c.head), 21)], got, c.want)
		}
	}
}

// TestRealArchives parses every SARC among the real samples (Super Mario
// Odyssey ObjectData and LayoutData, SOURCES.md §4b and §4c): every name
// hashes to its stored hash, no member overlaps another, and the nested
// layout archive holds its BNTX.
func TestRealArchives(t *testing.T) {
	for _, c := range []struct {
		path    []string
		members int
		model   string
	}{
		{[]string{"bfres-switch", "BombHei.szs"}, 0, "BombHei.bfres"},
		{[]string{"bfres-switch", "BlockShine.szs"}, 0, "BlockShine.bfres"},
		{[]string{"bfres-switch", "MarioShadowChaseCap.szs"}, 8, "MarioShadowChaseCap.bfres"},
		{[]string{"bfres-switch", "DevGenericCube2U.szs"}, 11, "DevGenericCube2U.bfres"},
		{[]string{"bntx", "HideAndSeekIcon.szs"}, 6, "layout.lyarc"},
	} {
		raw := testfiles.ReadSample(t, c.path...)
		data, err := binread.DecodeYaz0(raw, 1<<30)
		if err != nil {
			t.Fatal(err)
		}
		a, err := sarc.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", c.path[1], err)
		}
		if c.members > 0 && len(a.Members) != c.members {
			t.Errorf("%s: %d members, want %d", c.path[1], len(a.Members), c.members)
		}
		found := false
		for _, m := range a.Members {
			found = found || m.Name == c.model
			if m.Name == "layout.lyarc" {
				in, err := sarc.Parse(m.Data)
				if err != nil || len(in.Members) != 5 {
					t.Fatalf("layout.lyarc: %v", err)
				}
			}
		}
		if !found {
			t.Errorf("%s: no member %s", c.path[1], c.model)
		}
	}
}
