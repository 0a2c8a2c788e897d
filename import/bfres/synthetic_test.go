package bfres

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/bfres/bfreswrite"
	"github.com/animbake/bake/internal/modeltest"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

const (
	v3 = 0x03000001 // the runtime's own version: 0x20-byte curves, old headers
	v4 = 0x04050003 // BotW: 0x24-byte curves
)

// richFile describes a file that uses every sub-file kind the importer reads.
func richFile(version uint32) *bfreswrite.File {
	lin := func(target uint32, a, b float32) bfreswrite.Curve { // value a at frame 0 rising to b at frame 40
		return bfreswrite.Curve{Type: 1, FrameFormat: 0, KeyFormat: 0, Target: target, Start: 0, End: 40, Scale: 1,
			Frames: []float64{0, 40}, Keys: []float64{float64(a), float64(b - a), float64(b), 0}}
	}
	return &bfreswrite.File{
		Version: version,
		Name:    "Rich_Animation",
		Models: []bfreswrite.Model{{Name: "Skel", SkelFlags: 0x1200, Bones: []bfreswrite.Bone{
			{Name: "Root", Parent: -1, S: [3]float32{1, 1, 1}, R: [4]float32{0, 0, 0, 1}},
			{Name: "Arm", Parent: 0, Flags: boneSegmentScaleCompensate, S: [3]float32{1, 1, 1}, R: [4]float32{0.1, 0.2, 0.3, 1}, T: [3]float32{1, 0, 0}},
			{Name: "Hand", Parent: 1, S: [3]float32{1, 1, 1}, R: [4]float32{0, 0, 0, 1}, T: [3]float32{4, 5, 6}},
		}}},
		FSKA: []bfreswrite.FSKA{{Name: "Wave", Flags: 0x1204, Frames: 40, Bones: []bfreswrite.BoneAnim{
			// Base scale (2,2,2); rotate Z curve 0 → 1; rotate X/Y from the bind pose.
			{Name: "Arm", Flags: boneAnimBaseScale | 1<<11 | boneSegmentScaleCompensate, Base: []float32{2, 2, 2},
				Curves: []bfreswrite.Curve{lin(0x28, 0, 1)}},
			// No base values: translate X curve 0 → 8; translate Y/Z from the bind pose.
			{Name: "Hand", Flags: 1 << 13, Curves: []bfreswrite.Curve{lin(0x10, 0, 8)}},
			// Not in the skeleton: bound to nothing, so dropped (a flat root
			// with base translate when there is no skeleton at all).
			{Name: "Ghost", Flags: boneAnimBaseTranslate, Base: []float32{7, 8, 9}},
		}}},
		FSHU: []bfreswrite.FSHU{{Name: "Scroll", Group: GroupTexSRTAnims, Flags: 0x4, Frames: 40, Mats: []bfreswrite.ShuMat{{
			Name: "Body", Params: []bfreswrite.Param{{Name: "tex_srt0", NumFloat: 1,
				Curves: []bfreswrite.Curve{lin(0x14, 0, 0.5)},
				Consts: []bfreswrite.Const{{Target: 0, Bits: 0}, {Target: 0x04, Bits: math.Float32bits(1)}, {Target: 0x08, Bits: math.Float32bits(3)}}}},
		}}}},
		FTXP: []bfreswrite.FTXP{{Name: "Blink", Frames: 10, Textures: []string{"eye_open", "eye_closed"},
			Mats: []bfreswrite.TxpMat{{Name: "Eye", Pats: []bfreswrite.Pat{{Sampler: "_a0", Curve: &bfreswrite.Curve{
				Type: 4, FrameFormat: 2, KeyFormat: 2, Start: 0, End: 5, IsInt: true, IOffset: 1, Frames: []float64{0, 5}, Keys: []float64{-1, 0}}}}}}}},
		FVIS: []bfreswrite.FVIS{
			// Ghost2 is not in the skeleton either.
			{Name: "Wave", Flags: 0x4, Frames: 40, Names: []string{"Hand", "Arm", "Ghost2"}, Base: []bool{true, false, true},
				Curves: []bfreswrite.Curve{{Type: 6, FrameFormat: 1, Target: 1, Start: 0, End: 20, IsInt: true, Frames: []float64{0, 640}, Keys: []float64{2}}}},
			{Name: "MatVis", Material: true, Frames: 5, Names: []string{"Body"}, Base: []bool{true}},
		},
	}
}

func decodeBytes(t testing.TB, path string, data []byte, opts *format.Options) *model.File {
	t.Helper()
	files, err := Decode(format.BytesInput(path, data), opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := files[0].Validate(); err != nil {
		t.Fatal(err)
	}
	return files[0]
}

func closeTo(a, b []float64, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol {
			return false
		}
	}
	return true
}

// Both header layouts (3.0 with 0x20-byte curves, 4.5 with 0x24-byte
// curves, §4.1, §6.1, §10) decode the same description to the same model.
func TestSyntheticBothVersions(t *testing.T) {
	var warns []string
	opts := &format.Options{Warn: func(s string) { warns = append(warns, s) }}
	f3 := decodeBytes(t, "Rich_Animation.bfres", richFile(v3).Bytes(), opts)
	f4 := decodeBytes(t, "Rich_Animation.bfres", richFile(v4).Bytes(), opts)
	if f3.Extras["version"] != "3.0.0.1" || f4.Extras["version"] != "4.5.0.3" {
		t.Errorf("versions %v, %v", f3.Extras["version"], f4.Extras["version"])
	}
	f3.Extras["version"], f3.Source = nil, model.Source{}
	f4.Extras["version"], f4.Source = nil, model.Source{}
	if !reflect.DeepEqual(f3, f4) {
		t.Error("3.0 and 4.5 layouts decode differently")
	}
	checkRich(t, f4)
	// One warning per input names both unbound bones (FSKA Ghost, FVIS Ghost2).
	n := 0
	for _, w := range warns {
		if strings.Contains(w, "2 animated bones are not in the skeleton of model Skel") && strings.Contains(w, "Ghost, Ghost2") {
			n++
		}
	}
	if n != 2 { // two inputs: the 3.0 and the 4.5 file
		t.Errorf("%d warnings naming the unbound bones Ghost, Ghost2 for 2 inputs: %q", n, warns)
	}
}

func checkRich(t *testing.T, f *model.File) {
	if f.Axes.Name != "bfres" || f.Axes.Basis != model.IdentityBasis || f.Axes.Scale != 1 {
		t.Errorf("axes %+v", f.Axes)
	}
	// Skeleton bones under their parents, and nothing else: Ghost and Ghost2
	// bind to no bone of the skeleton (§6.1), so the game plays nothing on
	// them and no node is invented for them.
	var got []string
	for _, n := range f.Nodes {
		p := "-"
		if n.Parent >= 0 {
			p = f.Nodes[n.Parent].Name
		}
		got = append(got, n.Name+"<"+p)
	}
	if want := "Root<- Arm<Root Hand<Arm"; strings.Join(got, " ") != want {
		t.Errorf("nodes %q, want %q", strings.Join(got, " "), want)
	}
	if f.Nodes[2].Translation != [3]float64{4, 5, 6} {
		t.Errorf("Hand rest translation %v, want the bind pose (4,5,6)", f.Nodes[2].Translation)
	}
	if f.Nodes[1].Extras["segmentScaleCompensate"] != true {
		t.Error("Arm does not record segment scale compensation")
	}
	if len(f.Animations) != 4 {
		t.Fatalf("%d animations, want 4 (Wave = FSKA + FVIS, Scroll, Blink, MatVis)", len(f.Animations))
	}
	wave := &f.Animations[0]
	// §8 step 1: loop flag → repeat with period frameCount.
	if wave.Name != "Wave" || wave.Frames != 40 || wave.End != 40 || wave.Period != 40 || wave.Loop != model.LoopRepeat || wave.FPS != 30 {
		t.Errorf("Wave timing %v %v %v %v %v %v", wave.Name, wave.Frames, wave.End, wave.Period, wave.Loop, wave.FPS)
	}
	if !reflect.DeepEqual(wave.Extras["subfiles"], []string{"FSKA", "FVIS"}) {
		t.Errorf("Wave subfiles %v", wave.Extras["subfiles"])
	}
	// Arm: base scale 2; rotation Euler (bind X 0.1, bind Y 0.2, curve Z = t).
	if v := modeltest.EvalCurve(t, modeltest.Channel(t, wave, "Arm", model.PathScale).Curve, 10); !closeTo(v, []float64{2, 2, 2}, 0) {
		t.Errorf("Arm scale %v", v)
	}
	rot := modeltest.Channel(t, wave, "Arm", model.PathRotation)
	eu, ok := rot.Curve.(*model.EulerRotation)
	if !ok || eu.Order != "ZYX" {
		t.Fatalf("Arm rotation is %T, want an Euler ZYX rotation", rot.Curve)
	}
	q := sample.EulerToQuat(float64(float32(0.1)), float64(float32(0.2)), 0.5, "ZYX")
	if v := modeltest.EvalCurve(t, rot.Curve, 20); !closeTo(v, q[:], 1e-7) {
		t.Errorf("Arm rotation at 20: %v, want %v", v, q)
	}
	if modeltest.FindChannel(wave, "Arm", model.PathTranslation) != nil {
		t.Error("Arm has a translation channel without base value or curve")
	}
	// Hand: translate X curve 0 → 8, Y and Z from the bind pose.
	if v := modeltest.EvalCurve(t, modeltest.Channel(t, wave, "Hand", model.PathTranslation).Curve, 10); !closeTo(v, []float64{2, 5, 6}, 1e-6) {
		t.Errorf("Hand translation at 10: %v, want (2,5,6)", v)
	}
	if modeltest.FindChannel(wave, "Hand", model.PathRotation) != nil || modeltest.FindChannel(wave, "Hand", model.PathScale) != nil {
		t.Error("Hand has rotation or scale channels without base values or curves")
	}
	// The unbound bones have no channel at all; the clip lists them, sorted,
	// the FSKA's Ghost and the merged FVIS's Ghost2 together.
	for _, c := range wave.Channels {
		if c.Node == "Ghost" || c.Node == "Ghost2" {
			t.Errorf("channel %s on unbound bone %s", c.Path, c.Node)
		}
	}
	if got := wave.Extras["unboundBones"]; !reflect.DeepEqual(got, []string{"Ghost", "Ghost2"}) {
		t.Errorf("Wave unboundBones %v, want [Ghost Ghost2]", got)
	}
	// FSKA 3 bones − Ghost = Arm S+R, Hand T; FVIS 3 entries − Ghost2 = 2.
	if len(wave.Channels) != 5 {
		t.Errorf("Wave has %d channels, want 5", len(wave.Channels))
	}
	// FVIS merged in: Hand visible from its base bit; Arm from a bool curve
	// with 10.5 frames 0 and 20 (raw 640), word 0b10.
	if v := modeltest.EvalCurve(t, modeltest.Channel(t, wave, "Hand", model.PathVisibility).Curve, 30); v[0] != 1 {
		t.Errorf("Hand visibility %v", v)
	}
	vis := modeltest.Channel(t, wave, "Arm", model.PathVisibility)
	if a, b := modeltest.EvalCurve(t, vis.Curve, 19.9), modeltest.EvalCurve(t, vis.Curve, 20); a[0] != 0 || b[0] != 1 {
		t.Errorf("Arm visibility %v then %v, want 0 then 1", a, b)
	}
	for _, a := range f.Animations[1:] {
		if _, ok := a.Extras["unboundBones"]; ok {
			t.Errorf("%s lists unbound bones but animates no bone", a.Name)
		}
	}
	if e, _ := sample.Compile(vis.Curve); !sample.IsStepped(e) {
		t.Error("visibility is not stepped")
	}
	// Texture SRT: translate Y curve, scale constants (1, 3), mode recorded.
	scroll := &f.Animations[1]
	if v := modeltest.EvalCurve(t, modeltest.Channel(t, scroll, "Body", model.PathUVOffset).Curve, 20); !closeTo(v, []float64{0, 0.25}, 1e-7) {
		t.Errorf("uvOffset at 20: %v", v)
	}
	if v := modeltest.EvalCurve(t, modeltest.Channel(t, scroll, "Body", model.PathUVScale).Curve, 20); !closeTo(v, []float64{1, 3}, 0) {
		t.Errorf("uvScale %v", v)
	}
	if modeltest.FindChannel(scroll, "Body", model.PathUVRotation) != nil {
		t.Error("uvRotation channel without curve or constant")
	}
	// Texture pattern: s8 keys −1, 0 plus int offset 1 → 0, 1.
	blink := &f.Animations[2]
	tp := modeltest.Channel(t, blink, "Eye", model.PathTexturePattern)
	if !reflect.DeepEqual(tp.Labels, []string{"eye_open", "eye_closed"}) {
		t.Errorf("labels %v", tp.Labels)
	}
	if a, b := modeltest.EvalCurve(t, tp.Curve, 4.9), modeltest.EvalCurve(t, tp.Curve, 5); a[0] != 0 || b[0] != 1 {
		t.Errorf("texture pattern %v then %v, want 0 then 1", a, b)
	}
	if blink.Loop != model.LoopOnce || blink.End != 10 {
		t.Errorf("Blink loop %v end %v", blink.Loop, blink.End)
	}
	mv := &f.Animations[3]
	if v := modeltest.EvalCurve(t, modeltest.Channel(t, mv, "Body", model.PathVisibility).Curve, 0); v[0] != 1 {
		t.Errorf("material visibility %v", v)
	}
}

// A Yaz0 .sbfres decodes to the same model as the plain file.
func TestSyntheticYaz0(t *testing.T) {
	plain := richFile(v4).Bytes()
	packed := bfreswrite.Yaz0(plain)
	if len(packed) >= len(plain) {
		t.Logf("note: test encoder did not shrink the file (%d → %d)", len(plain), len(packed))
	}
	a := decodeBytes(t, "x.bfres", plain, nil)
	b := decodeBytes(t, "x.sbfres", packed, nil)
	a.Source, b.Source = model.Source{}, model.Source{}
	if !reflect.DeepEqual(a, b) {
		t.Error("Yaz0 file decodes differently")
	}
	if !Sniff(packed[:64]) || !Sniff(plain[:64]) {
		t.Error("sniffer refuses the files")
	}
}

// siblingInput serves in-memory siblings by base name.
func siblingInput(path string, data []byte, siblings map[string][]byte) *format.Input {
	in := format.BytesInput(path, data)
	in.OpenSibling = func(p string) (*format.Input, error) {
		for name, d := range siblings {
			if strings.HasSuffix(p, name) {
				return format.BytesInput(p, d), nil
			}
		}
		return nil, os.ErrNotExist
	}
	return in
}

// X_Animation.bfres without a model binds to the skeleton of X.sbfres;
// without any skeleton, bones are flat roots and a warning says so.
func TestSiblingSkeleton(t *testing.T) {
	anim := richFile(v4)
	anim.Models = nil
	skelFile := richFile(v4)
	skelFile.FSKA, skelFile.FSHU, skelFile.FTXP, skelFile.FVIS = nil, nil, nil, nil
	skelFile.Models[0].Name = "FromSibling"
	in := siblingInput("dir/Rich_Animation.bfres", anim.Bytes(), map[string][]byte{"Rich.sbfres": bfreswrite.Yaz0(skelFile.Bytes())})
	files, err := Decode(in, nil)
	if err != nil {
		t.Fatal(err)
	}
	sk := files[0].Extras["skeleton"].(map[string]any)
	if sk["model"] != "FromSibling" || sk["from"] != "Rich.sbfres" {
		t.Errorf("skeleton from %v", sk)
	}
	if files[0].Nodes[1].Parent != 0 {
		t.Error("sibling skeleton hierarchy lost")
	}
	// opts.Skeleton names the file explicitly.
	in = siblingInput("dir/Other.bfres", anim.Bytes(), map[string][]byte{"models/m.bfres": skelFile.Bytes()})
	files, err = Decode(in, &format.Options{Skeleton: "models/m.bfres"})
	if err != nil || files[0].Extras["skeleton"].(map[string]any)["model"] != "FromSibling" {
		t.Errorf("opts.Skeleton: %v %v", err, files)
	}
	if _, err := Decode(in, &format.Options{Skeleton: "missing.bfres"}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing opts.Skeleton: %v", err)
	}
	// No skeleton at all.
	var warns []string
	files, err = Decode(format.BytesInput("Lonely.bfres", anim.Bytes()), &format.Options{Warn: func(s string) { warns = append(warns, s) }})
	if err != nil {
		t.Fatal(err)
	}
	// The flat bones share no root: a node named after the file holds them
	// (boneskin.go).
	nodes := files[0].Nodes
	if nodes[0].Name != "Lonely" || nodes[0].Parent != -1 || nodes[0].Kind != "" {
		t.Errorf("no added root named after the file: %+v", nodes[0])
	}
	for _, n := range nodes[1:] {
		if n.Parent != 0 || n.Rotation != [4]float64{0, 0, 0, 1} || n.Scale != [3]float64{1, 1, 1} || n.Translation != [3]float64{} {
			t.Errorf("node %s is not a flat identity bone under the added root: %+v", n.Name, n)
		}
	}
	if s := files[0].Skins; len(s) != 1 || s[0].Skeleton != "Lonely" || len(s[0].Joints) != len(nodes)-1 {
		t.Errorf("skin %+v", s)
	}
	if !strings.Contains(strings.Join(warns, "\n"), "no skeleton") {
		t.Errorf("no warning about the missing skeleton: %q", warns)
	}
	// Without a skeleton nothing is unbound: Ghost is a flat bone driven by
	// its base translate (7, 8, 9), Ghost2 by its base bit 1.
	lonely := modeltest.Animation(t, files[0], "Wave")
	if v := modeltest.EvalCurve(t, modeltest.Channel(t, lonely, "Ghost", model.PathTranslation).Curve, 0); !closeTo(v, []float64{7, 8, 9}, 0) {
		t.Errorf("Ghost translation %v, want its base (7,8,9)", v)
	}
	if v := modeltest.EvalCurve(t, modeltest.Channel(t, lonely, "Ghost2", model.PathVisibility).Curve, 0); v[0] != 1 {
		t.Errorf("Ghost2 visibility %v, want its base bit 1", v)
	}
	if _, ok := lonely.Extras["unboundBones"]; ok {
		t.Error("unboundBones without a skeleton")
	}
}

// Quaternion rotation mode (§6.2 bits 12–14 = 0): four curves/bases x, y,
// z, w (target 0x2C for w), normalised.
func TestQuaternionMode(t *testing.T) {
	tf := &bfreswrite.File{Version: v4, Name: "Q", FSKA: []bfreswrite.FSKA{{Name: "Turn", Flags: 0x0200, Frames: 10, Bones: []bfreswrite.BoneAnim{
		{Name: "B", Flags: boneAnimBaseRotate | 1<<12, Base: []float32{0, 0, 0.6, 0.8},
			// w curve: step int? no: linear from 0.8 to 0 over 10 frames.
			Curves: []bfreswrite.Curve{{Type: 1, Target: 0x2C, Start: 0, End: 10, Scale: 1, Frames: []float64{0, 10}, Keys: []float64{0.8, -0.8, 0, 0}}}},
	}}}}
	checkQuaternionMode(t, decodeBytes(t, "Q.bfres", tf.Bytes(), nil))
	// The same in the Switch layout (the FSKA flags and curve targets are
	// the Wii U's, bfres-container.md §11).
	checkQuaternionMode(t, decodeBytes(t, "Q.bfres", switchOf(tf).Bytes(), nil))
}

func checkQuaternionMode(t *testing.T, f *model.File) {
	t.Helper()
	ch := modeltest.Channel(t, &f.Animations[0], "B", model.PathRotation)
	if _, ok := ch.Curve.(*model.NW4FQuaternion); !ok {
		t.Fatalf("rotation is %T", ch.Curve)
	}
	// At frame 10, w = 0: (0, 0, 0.6, 0) normalised → (0, 0, 1, 0).
	if v := modeltest.EvalCurve(t, ch.Curve, 10); !closeTo(v, []float64{0, 0, 1, 0}, 1e-7) {
		t.Errorf("rotation at 10: %v", v)
	}
	// At frame 0: (0, 0, 0.6, 0.8) is already unit.
	if v := modeltest.EvalCurve(t, ch.Curve, 0); !closeTo(v, []float64{0, 0, 0.6, 0.8}, 1e-7) {
		t.Errorf("rotation at 0: %v", v)
	}
}

// storageCurves use every curve type, frame type and key type (§4.2–§4.4).
var storageCurves = []bfreswrite.Curve{
	{Type: 0, FrameFormat: 0, KeyFormat: 0, Start: 0, End: 1, Scale: 1, Frames: []float64{0, 1.5}, Keys: []float64{1.25, 2, 3, 4, 5, 0, 0, 0}},
	{Type: 0, FrameFormat: 1, KeyFormat: 1, Start: 0, End: 1, Scale: 0.5, Offset: 2, Frames: []float64{-32, 336}, Keys: []float64{-32768, 32767, 1, 2, 3, 0, 0, 0}},
	{Type: 1, FrameFormat: 2, KeyFormat: 2, Start: 0, End: 30, Scale: 2, Offset: 200, Frames: []float64{0, 20, 30}, Keys: []float64{-100, 127, 100, -50, 50, 0}},
	{Type: 2, KeyFormat: 1, Start: 3, End: 5, Scale: 1, Keys: []float64{1, 2, 3}},
	{Type: 4, FrameFormat: 0, KeyFormat: 0, Start: 0, End: 1, IsInt: true, IOffset: -5, Frames: []float64{0, 1}, Keys: []float64{-2000000000, 7}},
	{Type: 5, KeyFormat: 2, Start: 0, End: 1, IsInt: true, Keys: []float64{-1, 1}},
	{Type: 6, FrameFormat: 1, Start: 0, End: 290, IsInt: true, Frames: []float64{0, 1888, 9280}, Keys: []float64{6}},
	{Type: 7, Start: 0, End: 33, IsInt: true, Keys: []float64{0xFFFFFFFF, 1}},
}

// Every curve type, frame type and key type round-trips through the
// reader as raw values (§4.2–§4.4).
func TestCurveStorageRoundTrip(t *testing.T) {
	curves := storageCurves
	for _, version := range []uint32{v3, v4} {
		tf := &bfreswrite.File{Version: version, Name: "C", FVIS: []bfreswrite.FVIS{{Name: "V", Frames: 1, Names: []string{"n"}, Base: []bool{false}, Curves: curves}}}
		data := tf.Bytes()
		f, err := readHeader(data)
		if err != nil {
			t.Fatal(err)
		}
		es, err := f.readDict(f.header.Groups[GroupBoneVisAnims], "vis")
		if err != nil {
			t.Fatal(err)
		}
		v, err := f.readFVIS(es[0].Data, es[0].Name)
		if err != nil {
			t.Fatal(err)
		}
		checkStoredCurves(t, fmt.Sprintf("v%x", version), v.Curves, curves)
	}
}

// checkStoredCurves compares decoded curves with the description written.
func checkStoredCurves(t *testing.T, what string, got []*model.NW4FCurve, curves []bfreswrite.Curve) {
	t.Helper()
	if len(got) != len(curves) {
		t.Fatalf("%s: %d curves, want %d", what, len(got), len(curves))
	}
	for i, c := range got {
		w := curves[i]
		if c.CurveType != w.Type || c.FrameType != w.FrameFormat || c.KeyType != w.KeyFormat || c.StartFrame != w.Start || c.EndFrame != w.End {
			t.Errorf("%s curve %d header %+v", what, i, c)
		}
		if !reflect.DeepEqual(c.Keys, w.Keys) || (len(w.Frames) > 0 && !reflect.DeepEqual(c.Frames, w.Frames)) {
			t.Errorf("%s curve %d arrays %v %v, want %v %v", what, i, c.Frames, c.Keys, w.Frames, w.Keys)
		}
		if w.IsInt && c.IntOffset != w.IOffset || !w.IsInt && (c.Scale != w.Scale || c.Offset != w.Offset) {
			t.Errorf("%s curve %d scale/offset %v %v %v", what, i, c.Scale, c.Offset, c.IntOffset)
		}
		if err := c.Validate(); err != nil {
			t.Errorf("%s curve %d: %v", what, i, err)
		}
	}
}

// A truncated Switch file gets a clear error; Yaz0 that does not hold FRES too.
func TestUnsupportedContainers(t *testing.T) {
	sw := append([]byte("FRES    "), make([]byte, 64)...)
	if !Sniff(sw) {
		t.Error("sniffer refuses a Switch FRES")
	}
	_, err := Decode(format.BytesInput("a.bfres", sw), nil)
	if err == nil || !strings.Contains(err.Error(), "Switch FRES header") {
		t.Errorf("Switch: %v", err)
	}
	sarc := bfreswrite.Yaz0(append([]byte("SARC"), bytes.Repeat([]byte{1}, 40)...))
	if Sniff(sarc) {
		t.Error("sniffer accepts a Yaz0 SARC")
	}
	if _, err := Decode(format.BytesInput("a.szs", sarc), nil); err == nil || !strings.Contains(err.Error(), "no FRES") {
		t.Errorf("Yaz0 SARC: %v", err)
	}
}

// §8 step 6: Maya segment-scale compensation under a scaled parent cannot
// be expressed in glTF; the child is listed in the animation's extras.
func TestSegmentScaleCompensateMarked(t *testing.T) {
	tf := richFile(v4)
	tf.FSHU, tf.FTXP, tf.FVIS = nil, nil, nil
	tf.FSKA[0].Bones = append(tf.FSKA[0].Bones, bfreswrite.BoneAnim{Name: "Root", Flags: 1 << 6,
		Curves: []bfreswrite.Curve{{Type: 1, Target: 0x04, Start: 0, End: 40, Scale: 1, Frames: []float64{0, 40}, Keys: []float64{1, 1, 2, 0}}}})
	var warns []string
	f := decodeBytes(t, "S.bfres", tf.Bytes(), &format.Options{Warn: func(s string) { warns = append(warns, s) }})
	got := f.Animations[0].Extras["segmentScaleCompensateInexact"]
	if !reflect.DeepEqual(got, []string{"Arm"}) {
		t.Errorf("inexact SSC bones %v, want [Arm]", got)
	}
	if !strings.Contains(strings.Join(warns, "\n"), "segment-scale compensation") {
		t.Errorf("no warning: %q", warns)
	}
	// Without the parent's scale curve nothing is marked.
	f = decodeBytes(t, "S.bfres", richFile(v4).Bytes(), nil)
	if _, ok := f.Animations[0].Extras["segmentScaleCompensateInexact"]; ok {
		t.Error("marked without a scaled parent")
	}
}

// X_Animation.bfres and X_Animation.sbfres pair with X.bfres, then X.sbfres.
func TestSiblingNames(t *testing.T) {
	for in, want := range map[string][]string{
		"/a/Animal_Bass_Animation.bfres": {"Animal_Bass.bfres", "Animal_Bass.sbfres"},
		"Animal_Bass_Animation.sbfres":   {"Animal_Bass.bfres", "Animal_Bass.sbfres"},
		"Animal_Bass.bfres":              nil,
		"_Animation.bfres":               nil,
	} {
		if got := siblingNames(in); !reflect.DeepEqual(got, want) {
			t.Errorf("siblingNames(%q) = %v, want %v", in, got, want)
		}
	}
}

// The registry picks "bfres" for FRES and Yaz0-wrapped FRES heads.
func TestRegisteredSniffer(t *testing.T) {
	plain := richFile(v4).Bytes()
	for _, data := range [][]byte{plain, bfreswrite.Yaz0(plain)} {
		f, err := format.Sniff(data[:format.HeadSize])
		if err != nil || f.Name != "bfres" {
			t.Errorf("sniffed %q, %v", f.Name, err)
		}
	}
}
