package ccs

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/import/ccs/ccswrite"
	"github.com/animbake/bake/model"
)

// stripSource drops what legitimately differs between containers.
func sameContent(t *testing.T, got, want *model.File) {
	t.Helper()
	if !reflect.DeepEqual(got.Animations, want.Animations) {
		t.Errorf("animations differ")
	}
	if !reflect.DeepEqual(got.Nodes, want.Nodes) {
		t.Errorf("nodes differ")
	}
}

// A gzip-compressed copy (.ccs / .cmp) converts to the same animations as
// the plain file (ccs-container.md §1).
func TestGzipCopy(t *testing.T) {
	plain, _ := kiteFile()
	want := mustDecode(t, plain)
	for _, name := range []string{"ctu1body.cmp", ""} {
		gz := ccswrite.Gzip(plain, name)
		if !Sniff(gz[:min(len(gz), format.HeadSize)]) {
			t.Errorf("sniffer rejects the gzip copy (FNAME %q)", name)
		}
		got := mustDecode(t, gz)
		sameContent(t, got, want)
		if got.Name != "" {
			t.Errorf("a single gzip file got File.Name %q", got.Name)
		}
	}
}

// A DATA.BIN of three gzip members on 0x800 sectors converts to one file
// per member, named from each CCSF header, with the same animations as the
// plain files.
func TestDataBIN(t *testing.T) {
	kite, _ := kiteFile()
	other := ccswrite.New("eex1body", 0x110)
	o := other.Object("OBJ_eex1body", "eex1.max")
	anm := other.Object("ANM_eex1wait", "eex1wait.max")
	other.Anime(anm, 3, true, []ccswrite.Record{ccswrite.ObjCtrl(o, ccswrite.Const(1, 2, 3), ccswrite.Absent, ccswrite.Absent, ccswrite.Absent)})
	second := other.Bytes()
	bin := ccswrite.DataBIN(ccswrite.Gzip(kite, "ctu1body.cmp"), ccswrite.Gzip(second, "eex1body.cmp"), ccswrite.Gzip(kite, "ctu1body.cmp"))
	files, _, err := decodeBytes(t, "DATA.BIN", bin)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 3 {
		t.Fatalf("%d files, want 3", len(files))
	}
	names := []string{files[0].Name, files[1].Name, files[2].Name}
	if !reflect.DeepEqual(names, []string{"ctu1body", "eex1body", "ctu1body-2"}) {
		t.Errorf("member names %v", names)
	}
	sameContent(t, files[0], mustDecode(t, kite))
	sameContent(t, files[1], mustDecode(t, second))
	sameContent(t, files[2], mustDecode(t, kite))
	if off := files[1].Extras["ccsMemberOffset"].(int64); off%ccswrite.SectorSize != 0 || off == 0 {
		t.Errorf("second member at 0x%x, want a later sector boundary", off)
	}
}

// Inflating is capped at opts.Inflate(): a gzip bomb fails cleanly.
func TestGzipBomb(t *testing.T) {
	big := make([]byte, 1<<20)
	copy(big, mustKite())
	gz := ccswrite.Gzip(big, "bomb.ccs")
	_, err := Decode(format.BytesInput("bomb.ccs", gz), &format.Options{MaxInflate: 1 << 16})
	var fe *binread.FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v, want a FormatError", err)
	}
	if !bytes.Contains([]byte(err.Error()), []byte("cap")) {
		t.Errorf("error %q does not name the cap", err)
	}
}

func mustKite() []byte { b, _ := kiteFile(); return b }

// The sniffer accepts plain CCSF files and gzip streams whose first
// inflated bytes are a CCSF header, and rejects gzip streams of other data
// when the head is enough to tell.
func TestSniff(t *testing.T) {
	kite := mustKite()
	if !Sniff(kite[:64]) {
		t.Error("plain file rejected")
	}
	notCCS := ccswrite.Gzip([]byte("hello, this is not a CCSF file at all"), "")
	if Sniff(notCCS[:min(64, len(notCCS))]) {
		t.Error("gzip of text accepted")
	}
	if Sniff([]byte("\x01\x00\xCC\xCC\x0d\x00\x00\x00XXXX")) {
		t.Error("header chunk without CCSF magic accepted")
	}
	if Sniff(nil) || Sniff([]byte{0x1F, 0x8B}) {
		t.Error("short input accepted")
	}
}

// Sectors that do not start a gzip member are passed over, as the DATA.BIN
// tools do, with a notice when they are not empty.
func TestDataBINForeignSector(t *testing.T) {
	kite := mustKite()
	junk := make([]byte, ccswrite.SectorSize)
	copy(junk, "not a gzip member")
	bin := ccswrite.DataBIN(ccswrite.Gzip(kite, "a.cmp"), junk, make([]byte, ccswrite.SectorSize), ccswrite.Gzip(kite, "b.cmp"))
	files, warnings, err := decodeBytes(t, "DATA.BIN", bin)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || len(warnings) != 1 {
		t.Errorf("%d files and notices %q; want 2 files and one notice", len(files), warnings)
	}
}

// A broken member of a DATA.BIN does not stop the others: they are
// returned together with the broken member's error, naming its offset.
func TestDataBINBrokenMember(t *testing.T) {
	kite := mustKite()
	broken := kite[:len(kite)-40] // cut inside the last Anime chunk
	bin := ccswrite.DataBIN(ccswrite.Gzip(kite, "a.cmp"), ccswrite.Gzip(broken, "b.cmp"))
	files, _, err := decodeBytes(t, "DATA.BIN", bin)
	if len(files) != 1 || err == nil || !bytes.Contains([]byte(err.Error()), []byte("gzip member at file offset 0x800")) {
		t.Errorf("%d files, error %v; want 1 file and the member's error", len(files), err)
	}
	_, _, err = decodeBytes(t, "DATA.BIN", ccswrite.DataBIN(ccswrite.Gzip(broken, "b.cmp"), ccswrite.Gzip(broken, "c.cmp")))
	wantFormatError(t, err, "gzip member at file offset 0x0", "overruns")
}

// When 64 bytes cannot inflate 12, the sniffer reads the first dynamic
// block's literal code lengths: a CCSF header's bytes 00 01 0D 43 46 53 CC
// must all be literals there. Gzipped text named x.ccs has no 0xCC literal
// and is rejected whatever its FNAME says; the writer's file, gzipped
// without FNAME, passes within the head.
func TestSniffLiteralLengths(t *testing.T) {
	text := ccswrite.Gzip([]byte("hello hello hello this is some text that is long enough to compress somewhat hello"), "x.ccs")
	body, _, _ := gzipBody(text[:64])
	if maybe, decided := headerLiteralsPresent(body); maybe || !decided {
		t.Errorf("text: maybe %v decided %v, want a decided no", maybe, decided)
	}
	if Sniff(text[:64]) {
		t.Error("gzipped text named x.ccs accepted")
	}
	kite := ccswrite.Gzip(mustKite(), "")
	body, _, _ = gzipBody(kite[:64])
	if maybe, decided := headerLiteralsPresent(body); !maybe || !decided {
		t.Errorf("kite: maybe %v decided %v, want a decided yes", maybe, decided)
	}
	if !Sniff(kite[:64]) {
		t.Error("gzipped kite file rejected")
	}
}
