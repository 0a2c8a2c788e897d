package virtools

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/import/virtools/vtwrite"
	"github.com/animbake/bake/internal/modeltest"
)

// expectFormatError decodes data and requires a *binread.FormatError whose
// message contains want.
func expectFormatError(t *testing.T, name string, data []byte, opts *format.Options, want string) *binread.FormatError {
	t.Helper()
	if opts == nil {
		opts = &format.Options{}
	}
	_, err := DecodeBytes(data, opts)
	var fe *binread.FormatError
	if !errors.As(err, &fe) {
		t.Errorf("%s: error %v is not a FormatError", name, err)
		return nil
	}
	if !strings.Contains(err.Error(), want) {
		t.Errorf("%s: %q does not mention %q", name, err, want)
	}
	return fe
}

// TestBadHeader: short file, wrong magic, unsupported version, nonzero
// reserved field, sections past the end of the file.
func TestBadHeader(t *testing.T) {
	good := vtwrite.SampleScene().Bytes()
	expectFormatError(t, "short", good[:40], nil, "need 64 bytes")
	bad := append([]byte(nil), good...)
	copy(bad, "Nemo Fx")
	if fe := expectFormatError(t, "magic", bad, nil, "signature"); fe != nil && fe.Off != 0 {
		t.Errorf("magic error at 0x%x", fe.Off)
	}
	bad = append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(bad[0x10:], 9)
	if fe := expectFormatError(t, "version", bad, nil, "file version 9"); fe != nil && fe.Off != 0x10 {
		t.Errorf("version error at 0x%x", fe.Off)
	}
	bad = append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(bad[0x14:], 1)
	expectFormatError(t, "zero field", bad, nil, "reserved field")
	bad = append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(bad[0x20:], 1<<30)
	expectFormatError(t, "data size", bad, nil, "run past the end")
}

// TestTruncatedEverywhere cuts a valid file at every length and requires
// a clean FormatError each time (never a panic, never success).
func TestTruncatedEverywhere(t *testing.T) {
	for _, v := range []uint32{8, 7, 6} {
		for _, raw := range []bool{false, true} {
			tf := vtwrite.SampleScene()
			tf.RawData, tf.Version = raw, v
			good := tf.Bytes()
			for n := 0; n < len(good); n++ {
				_, err := DecodeBytes(good[:n], &format.Options{})
				var fe *binread.FormatError
				if !errors.As(err, &fe) {
					t.Fatalf("version %d raw %v, cut at %d: %v", v, raw, n, err)
				}
			}
		}
	}
}

// TestCorruptSections: damaged zlib streams and size fields that disagree
// with the data.
func TestCorruptSections(t *testing.T) {
	good := vtwrite.SampleScene().Bytes()
	h, _ := parseHeaderNoCheck(good)
	bad := append([]byte(nil), good...)
	bad[64+int(h.Hdr1PackSize)+5] ^= 0xff
	expectFormatError(t, "data zlib", bad, nil, "Data section")
	bad = append([]byte(nil), good...)
	bad[64+3] ^= 0xff
	expectFormatError(t, "header1 zlib", bad, nil, "Header1 section")
	bad = append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(bad[0x24:], binary.LittleEndian.Uint32(bad[0x24:])+4)
	expectFormatError(t, "unpack size", bad, nil, "inflates to")
	// The inflate cap (opts.Inflate()) stops a section before inflating.
	expectFormatError(t, "cap", good, &format.Options{MaxInflate: 100}, "exceeds the limit")
}

// TestHostileCounts: object and manager counts far beyond the bytes
// present, in a raw file so that the counts are read as written.
func TestHostileCounts(t *testing.T) {
	tf := vtwrite.SampleScene()
	tf.RawData = true
	tf.OverrideHeader = func(h []byte) { binary.LittleEndian.PutUint32(h[0x2c:], 0xffffffff) }
	expectFormatError(t, "object count", tf.Bytes(), nil, "object table: count 4294967295")
	tf.OverrideHeader = func(h []byte) { binary.LittleEndian.PutUint32(h[0x28:], 0x7fffffff) }
	expectFormatError(t, "manager count", tf.Bytes(), nil, "manager blocks: count 2147483647")
}

// TestBadChunks: chunk sizes and identifier links outside their buffer.
func TestBadChunks(t *testing.T) {
	// A section link beyond the chunk's data.
	tf := vtwrite.SampleScene()
	tf.Objects[iChild].Chunk = &vtwrite.Chunk{ExtraWords: []uint32{identEntityData, 99, 0, 0}}
	fe := expectFormatError(t, "link", tf.Bytes(), nil, "links to dword 99")
	if fe != nil && !strings.Contains(fe.Msg, `object #1 "Child"`) {
		t.Errorf("error does not name the object: %s", fe.Msg)
	}
	// A link pointing backwards (a cycle in the section list).
	tf = vtwrite.SampleScene()
	tf.Objects[iChild].Chunk = &vtwrite.Chunk{ExtraWords: []uint32{0x4, 2, 0x8, 1}}
	expectFormatError(t, "backward link", tf.Bytes(), nil, "links to dword 1")
	// A section shorter than its payload.
	tf = vtwrite.SampleScene()
	tf.Objects[iChild].Chunk = &vtwrite.Chunk{Sections: []vtwrite.Section{{ID: identEntityData, Words: []uint32{0, 0, 1}}}}
	expectFormatError(t, "short section", tf.Bytes(), nil, "world matrix row needs 3 dwords")
	// An unsupported chunk version.
	tf = vtwrite.SampleScene()
	tf.Objects[iChild].Chunk.ChunkVersion = 5
	expectFormatError(t, "chunk version", tf.Bytes(), nil, "chunk version 5")
	// A data-dword count beyond the block.
	tf = vtwrite.SampleScene()
	tf.RawData = true
	data := tf.Bytes()
	h, _ := parseHeaderNoCheck(data)
	c, _ := ParseContainer(data, 1<<20, func(string, ...any) {})
	off := 64 + int(h.Hdr1PackSize) + int(c.Objects[iChild].FileIndex-64-c.Header.Hdr1UnPackSize) + 8
	binary.LittleEndian.PutUint32(data[off:], 1<<28)
	expectFormatError(t, "N", data, nil, "chunk data dwords")
}

// TestBadReferences: a reference index outside the object table, a raw
// id that no object has, and references to objects of the wrong class.
func TestBadReferences(t *testing.T) {
	tf := vtwrite.SampleScene()
	tf.Objects[iChild].Chunk.Sections[1] = vtwrite.EntitySection(EntityParentValid, vtwrite.TranslationRows(1, 2, 3), 500)
	expectFormatError(t, "index", tf.Bytes(), nil, "refers to object #500, the table has 10 objects")

	tf = vtwrite.SampleScene()
	tf.Objects[iChild].Chunk.Options = ChunkOptAllowDyn // no FILE option: raw CK_IDs
	tf.Objects[iChild].Chunk.Sections[1] = vtwrite.EntitySection(EntityParentValid, vtwrite.TranslationRows(1, 2, 3), 9999)
	expectFormatError(t, "raw id", tf.Bytes(), nil, "CK_ID 9999")

	// References bake does not need resolve to null, as in the engine: a
	// place and an animation-list entry outside the table do not fail.
	tf = vtwrite.SampleScene()
	tf.Objects[iChild].Chunk.Sections[0].Words = []uint32{2, 500, iAnim}
	tf.Objects[iChild].Chunk.Sections[1] = vtwrite.EntitySection(EntityPlaceValid|EntityParentValid, vtwrite.TranslationRows(11, 2, 3), 777, iParent)
	s := decodeTestScene(t, tf)
	if e := s.Entities[iChild]; e.Place != noRef || e.Parent != iParent || !equalInts(e.Animations, []int{iAnim}) {
		t.Errorf("lenient references: place %d parent %d animations %v", e.Place, e.Parent, e.Animations)
	}

	tf = vtwrite.SampleScene()
	tf.Objects[iAnim].Chunk.Sections[0] = vtwrite.ObjAnimSection(0, iKeyed, 10, nil)
	expectFormatError(t, "entity class", tf.Bytes(), nil, "not a 3D entity")

	tf = vtwrite.SampleScene()
	tf.Objects[iCurve].Chunk.Sections[1].Words[1] = iParent
	expectFormatError(t, "curve point class", tf.Bytes(), nil, "is not a curve point")
}

// TestAbsurdKeyCounts: a key count that does not fit in the controller
// block, and a block that runs past its section.
func TestAbsurdKeyCounts(t *testing.T) {
	tf := vtwrite.SampleScene()
	tf.Objects[iAnim].Chunk.Sections[0] = vtwrite.ObjAnimSection(0, iChild, 10, nil,
		vtwrite.Controller{Type: CtrlLinearPosition, Count: 0x7fffffff, Keys: vtwrite.F32s(0, 1, 2, 3)})
	expectFormatError(t, "count", tf.Bytes(), nil, "2147483647 keys of 4 dwords do not fit")

	tf = vtwrite.SampleScene()
	s := vtwrite.ObjAnimSection(0, iChild, 10, nil, vtwrite.Controller{Type: CtrlLinearPosition, Count: 1, Keys: vtwrite.F32s(0, 1, 2, 3)})
	s.Words[10+1] = 1000 // the block size
	tf.Objects[iAnim].Chunk.Sections[0] = s
	expectFormatError(t, "block", tf.Bytes(), nil, "runs past the section")
}

// TestBadKeyValues: NaN keys and keys whose times go backwards.
func TestBadKeyValues(t *testing.T) {
	tf := vtwrite.SampleScene()
	tf.Objects[iAnim].Chunk.Sections[0] = vtwrite.ObjAnimSection(0, iChild, 10, nil,
		vtwrite.Controller{Type: CtrlLinearPosition, Count: 2, Keys: append(vtwrite.F32s(0, 1, 2, 3), 0x7fc00000, 0, 0, 0)})
	expectFormatError(t, "NaN", tf.Bytes(), nil, "NaN or infinite")
	tf = vtwrite.SampleScene()
	tf.Objects[iAnim].Chunk.Sections[0] = vtwrite.ObjAnimSection(0, iChild, 10, nil,
		vtwrite.Controller{Type: CtrlLinearPosition, Count: 2, Keys: vtwrite.F32s(5, 1, 2, 3, 1, 0, 0, 0)})
	expectFormatError(t, "order", tf.Bytes(), nil, "comes before the previous key")
	tf = vtwrite.SampleScene()
	tf.Objects[iParent].Chunk.Sections[0] = vtwrite.EntitySection(0, [4][3]float32{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {float32Inf(), 0, 0}})
	expectFormatError(t, "matrix", tf.Bytes(), nil, "world matrix row holds a NaN")
}

// TestCycles: merged animations that refer to each other, and a parent
// chain that loops.
func TestCycles(t *testing.T) {
	tf := vtwrite.SampleScene()
	tf.Objects[iAnim].Chunk.Sections[0] = vtwrite.ObjAnimSection(AnimMerged, iChild, 10, []uint32{vtwrite.F32(0.5), iAnim, iArmAnim})
	expectFormatError(t, "merge", tf.Bytes(), nil, "cycle")

	tf = vtwrite.SampleScene()
	tf.Objects[iParent].Chunk.Sections[0] = vtwrite.EntitySection(EntityParentValid, vtwrite.TranslationRows(0, 0, 0), iChild)
	expectFormatError(t, "parents", tf.Bytes(), nil, "parent chain loops")
}

// TestBezierUnreadable: a Bezier block that fits neither layout is
// skipped with a warning (virtools-controllers.md §6.1).
func TestBezierUnreadable(t *testing.T) {
	tf := vtwrite.SampleScene()
	keys := append(vtwrite.F32s(0, 1, 2, 3), 0x00010001, 0) // variable form of 5 dwords, plus one stray dword
	tf.Objects[iAnim].Chunk.Sections[0] = vtwrite.ObjAnimSection(0, iChild, 10, nil, vtwrite.Controller{Type: CtrlBezierPosition, Count: 1, Keys: keys})
	f, warnings := decodeTestFile(t, tf)
	if len(warnings) != 1 || !strings.Contains(warnings[0], "Bezier controller") {
		t.Errorf("warnings %q", warnings)
	}
	if a := modeltest.Animation(t, f, "Move"); len(a.Channels) != 0 {
		t.Errorf("%d channels", len(a.Channels))
	}
}

func float32Inf() float32 { return float32(math.Inf(1)) }
