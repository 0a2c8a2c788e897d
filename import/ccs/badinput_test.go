package ccs

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/import/ccs/ccswrite"
)

// wantFormatError checks that err is a *binread.FormatError (possibly
// wrapped) whose text holds every fragment.
func wantFormatError(t *testing.T, err error, fragments ...string) *binread.FormatError {
	t.Helper()
	var fe *binread.FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v (%T), want a *binread.FormatError", err, err)
	}
	for _, f := range fragments {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("error %q does not mention %q", err, f)
		}
	}
	return fe
}

// Every truncation of a valid file fails with a FormatError and never
// panics.
func TestTruncated(t *testing.T) {
	data := mustKite()
	for n := 0; n < len(data)-12; n++ {
		_, _, err := decodeBytes(t, "cut.ccs", data[:n])
		if err == nil {
			t.Fatalf("truncated to %d bytes: no error", n)
		}
		if n >= 12 {
			wantFormatError(t, err)
		}
	}
}

// Every error names the offset and what was expected (the command line
// puts the file name in front).
func TestWrongMagic(t *testing.T) {
	data := mustKite()
	copy(data[8:], "XXXX")
	_, _, err := decodeBytes(t, "bad.ccs", data)
	fe := wantFormatError(t, err, "CCSF")
	if fe.Off != 8 {
		t.Errorf("offset 0x%x, want 0x8", fe.Off)
	}
}

// Hostile counts are checked against the bytes present before anything is
// allocated.
func TestHostileCounts(t *testing.T) {
	t.Run("index", func(t *testing.T) {
		data := mustKite()
		binary.LittleEndian.PutUint32(data[0x44:], 0xFFFFFFF0)
		_, _, err := decodeBytes(t, "x.ccs", data)
		wantFormatError(t, err, "file table", "does not fit")
	})
	t.Run("keys", func(t *testing.T) {
		b := ccswrite.New("k", 0x110)
		o := b.Object("OBJ_a", "a.max")
		anm := b.Object("ANM_a", "a.max")
		huge := ccswrite.Track{Kind: 2, Words: []uint32{0x7FFFFFFF, 0, 0, 0, 0}}
		b.Anime(anm, 2, false, []ccswrite.Record{ccswrite.ObjCtrl(o, huge, ccswrite.Absent, ccswrite.Absent, ccswrite.Absent)})
		_, _, err := decodeBytes(t, "x.ccs", b.Bytes())
		wantFormatError(t, err, "position track keys", "does not fit")
	})
	t.Run("morph", func(t *testing.T) {
		b := ccswrite.New("m", 0x110)
		m := b.Object("MPH_a", "a.max")
		anm := b.Object("ANM_a", "a.max")
		rec := ccswrite.Record{Code: 0x1901, Body: []uint32{m, 0xFFFF}}
		b.Anime(anm, 2, false, nil, []ccswrite.Record{rec})
		_, _, err := decodeBytes(t, "x.ccs", b.Bytes())
		wantFormatError(t, err, "F_Morpher targets", "does not fit")
	})
	t.Run("anime words", func(t *testing.T) {
		b := ccswrite.New("w", 0x110)
		anm := b.Object("ANM_a", "a.max")
		b.Chunk(0x0700, anm, 2, 1000, 0xCCCCFF01, 1, 0xFFFFFFFF)
		_, _, err := decodeBytes(t, "x.ccs", b.Bytes())
		wantFormatError(t, err, "record length 1000 words overruns")
	})
	t.Run("chunk size", func(t *testing.T) {
		b := ccswrite.New("s", 0x110)
		o := b.Object("OBJ_a", "a.max")
		b.ChunkSized(0x0100, 0x10000000, o, 0, 0, 0)
		_, _, err := decodeBytes(t, "x.ccs", b.Bytes())
		wantFormatError(t, err, "overruns the file")
	})
	t.Run("record size", func(t *testing.T) {
		b := ccswrite.New("r", 0x110)
		o := b.Object("OBJ_a", "a.max")
		anm := b.Object("ANM_a", "a.max")
		big := uint32(5000)
		rec := ccswrite.Note(o, 1, 2)
		rec.Size = &big
		b.Anime(anm, 2, false, []ccswrite.Record{rec})
		_, _, err := decodeBytes(t, "x.ccs", b.Bytes())
		wantFormatError(t, err, "overruns the record sequence")
	})
}

// Object ids outside the index, External cycles and parent cycles are
// reported with the offset of the record or chunk that holds them.
func TestBadObjectReferences(t *testing.T) {
	t.Run("outside", func(t *testing.T) {
		b := ccswrite.New("o", 0x110)
		anm := b.Object("ANM_a", "a.max")
		b.Anime(anm, 2, false, []ccswrite.Record{ccswrite.ObjCtrl(999, ccswrite.Const(1, 2, 3), ccswrite.Absent, ccswrite.Absent, ccswrite.Absent)})
		_, _, err := decodeBytes(t, "x.ccs", b.Bytes())
		wantFormatError(t, err, "object id 999 is outside the object table")
	})
	t.Run("null", func(t *testing.T) {
		b := ccswrite.New("o", 0x110)
		anm := b.Object("ANM_a", "a.max")
		b.Anime(anm, 2, false, nil, []ccswrite.Record{ccswrite.Note(0, 1, 1)})
		_, _, err := decodeBytes(t, "x.ccs", b.Bytes())
		wantFormatError(t, err, "F_Note", "object id 0")
	})
	t.Run("anime object", func(t *testing.T) {
		b := ccswrite.New("o", 0x110)
		b.Anime(77, 2, false)
		_, _, err := decodeBytes(t, "x.ccs", b.Bytes())
		wantFormatError(t, err, "Anime object id 77")
	})
	t.Run("external cycle", func(t *testing.T) {
		b := ccswrite.New("e", 0x110)
		x := b.Object("OBJ_x", "a.max")
		y := b.Object("OBJ_y", "b.max")
		anm := b.Object("ANM_a", "a.max")
		b.External(x, 0, y)
		b.External(y, 0, x)
		b.Anime(anm, 2, false, []ccswrite.Record{ccswrite.ObjCtrl(x, ccswrite.Const(1, 2, 3), ccswrite.Absent, ccswrite.Absent, ccswrite.Absent)})
		_, _, err := decodeBytes(t, "x.ccs", b.Bytes())
		wantFormatError(t, err, "cycle")
	})
	t.Run("parent cycle", func(t *testing.T) {
		b := ccswrite.New("p", 0x110)
		x := b.Object("OBJ_x", "a.max")
		y := b.Object("OBJ_y", "a.max")
		anm := b.Object("ANM_a", "a.max")
		b.ObjectChunk(x, y)
		b.ObjectChunk(y, x)
		b.Anime(anm, 2, false, []ccswrite.Record{ccswrite.ObjCtrl(x, ccswrite.Const(1, 2, 3), ccswrite.Absent, ccswrite.Absent, ccswrite.Absent)})
		_, _, err := decodeBytes(t, "x.ccs", b.Bytes())
		wantFormatError(t, err, "cycle")
	})
}

// Records must start with Top 0 and end with an end marker of -1 or -2.
func TestBadFrameMarkers(t *testing.T) {
	b := ccswrite.New("t", 0x110)
	anm := b.Object("ANM_a", "a.max")
	b.AnimeRecords(anm, 2, ccswrite.Top(0), ccswrite.Top(1))
	_, _, err := decodeBytes(t, "x.ccs", b.Bytes())
	wantFormatError(t, err, "without an end marker")

	b = ccswrite.New("t", 0x110)
	anm = b.Object("ANM_a", "a.max")
	b.AnimeRecords(anm, 2, ccswrite.Top(0), ccswrite.Top(-3))
	_, _, err = decodeBytes(t, "x.ccs", b.Bytes())
	wantFormatError(t, err, "end marker -3")

	b = ccswrite.New("t", 0x110)
	anm = b.Object("ANM_a", "a.max")
	b.AnimeRecords(anm, 2, ccswrite.Note(1, 1, 1), ccswrite.Top(-1))
	_, _, err = decodeBytes(t, "x.ccs", b.Bytes())
	wantFormatError(t, err, "Top 0 first")
}

// Unknown records are skipped by size, and a controller with a track kind
// this reader does not know is skipped with a notice instead of failing.
func TestUnknownRecordsSkipped(t *testing.T) {
	b := ccswrite.New("u", 0x110)
	o := b.Object("OBJ_a", "a.max")
	anm := b.Object("ANM_a", "a.max")
	odd := ccswrite.Record{Code: 0x0102, Body: []uint32{o, 3, 1, 2, 3}} // kind 3
	b.Anime(anm, 3, false, []ccswrite.Record{odd, {Code: 0x7777, Body: []uint32{1, 2, 3}}},
		[]ccswrite.Record{{Code: 0x0604, Body: []uint32{9, 9}}})
	files, warnings, err := decodeBytes(t, "x.ccs", b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) == 0 {
		t.Error("no notice for the kind-3 track")
	}
	sk := files[0].Animations[0].Extras["ccsSkippedRecords"].(map[string]any)
	if sk["0x0102"] != int64(1) || sk["0x7777"] != int64(1) || sk["0x0604"] != int64(1) {
		t.Errorf("skipped %v", sk)
	}
}

// Hostile asset chunks inside an otherwise good file: each bad chunk is
// refused with its offset and reason (a notice, and File.Extras
// "ccsRefused"), the rest of the file converts, nothing is allocated past
// the chunk, nothing panics.
func TestHostileAssets(t *testing.T) {
	for _, c := range []struct {
		name, want string
		add        func(b *ccswrite.Builder, ids []uint32)
	}{
		{"vertex count beyond the chunk", "vertex count 4000000000 needs at least", func(b *ccswrite.Builder, id []uint32) {
			b.Chunk(0x0800, id[0], ccswrite.F(64), 0x00010000, 0, 0, 0, ccswrite.F(1), 5, 6, 4000000000)
		}},
		{"sub-mesh count beyond the chunk", "model sub-meshes", func(b *ccswrite.Builder, id []uint32) {
			b.Chunk(0x0800, id[0], ccswrite.F(64), 0xFFFF0000, 0, 0, 0, ccswrite.F(1))
		}},
		{"texture size that overflows", "log2 size 31×31", func(b *ccswrite.Builder, id []uint32) {
			b.Texture(id[1], id[2], 0, 0x00001301, 0x0000_1F1F, 0, 1)
		}},
		{"texture data size beyond the chunk", "overruns the chunk", func(b *ccswrite.Builder, id []uint32) {
			b.Texture(id[1], id[2], 0, 0x00001301, 0x0000_0101, 0, 0xFFFFFFFF, 0)
		}},
		{"CLUT count that does not match its chunk", "CLUT colours", func(b *ccswrite.Builder, id []uint32) {
			b.Chunk(0x0400, id[2], 0, 1, 0, 256, 0x80FFFFFF)
		}},
		{"texel beyond a short CLUT", "index 9 beyond its CLUT's 2 colours", func(b *ccswrite.Builder, id []uint32) {
			b.CLUT(id[2], [][4]byte{{1, 1, 1, 0x80}, {2, 2, 2, 0x80}})
			b.TextureData(id[1], id[2], 0x13, 1, 1, []byte{0, 1, 9, 0})
		}},
		{"clump count beyond the chunk", "clump nodes", func(b *ccswrite.Builder, id []uint32) {
			b.Chunk(0x0900, id[3], 0x40000000, 1)
		}},
	} {
		b := ccswrite.New("bad", 0x123)
		b.BareSetup = true
		obj := b.Object("OBJ_a", "a.max")
		ids := []uint32{b.Object("MDL_a", "a.max"), b.Object("TEX_a", "a.max"), b.Object("CLT_a", "a.max"), b.Object("CMP_a", "a.max")}
		anm := b.Object("ANM_a", "a.max")
		b.ObjectFull(obj, 0, ids[0], 0)
		c.add(b, ids)
		b.Anime(anm, 2, false, []ccswrite.Record{ccswrite.ObjCtrl(obj, ccswrite.Const(1, 2, 3), ccswrite.Absent, ccswrite.Absent, ccswrite.Absent)})
		files, warnings, err := decodeBytes(t, "bad.ccs", b.Bytes())
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if len(files) != 1 || len(files[0].Animations) != 1 || len(files[0].Meshes) != 0 {
			t.Errorf("%s: the animation should convert without the asset", c.name)
			continue
		}
		refused, _ := files[0].Extras["ccsRefused"].([]string)
		if len(refused) == 0 || !strings.Contains(strings.Join(refused, "\n"), c.want) || !strings.Contains(strings.Join(warnings, "\n"), c.want) {
			t.Errorf("%s: refused %q, notices %q; want %q with an offset", c.name, refused, warnings, c.want)
		}
		if len(refused) > 0 && !strings.Contains(refused[0], "offset 0x") {
			t.Errorf("%s: %q names no offset", c.name, refused[0])
		}
		if err := files[0].Validate(); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
