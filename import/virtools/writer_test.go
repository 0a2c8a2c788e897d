package virtools

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"math"

	"github.com/animbake/bake/import/binread"
)

// This file is a small Virtools file writer for tests and fuzz seeds. It
// writes exactly the layout the reader expects (virtools-container.md §1–7)
// so that every field can be set to a hand-chosen value.

// testSection is one identified section of a chunk.
type testSection struct {
	id    uint32
	words []uint32
}

// testChunk is a chunk to write.
type testChunk struct {
	dataVersion, classByte, chunkVersion, options uint8
	sections                                      []testSection
	extraWords                                    []uint32 // raw data appended after the sections (corruption tests)
}

// testObject is one object-table entry with its chunk.
type testObject struct {
	fileID  uint32
	classID int32
	name    string
	chunk   *testChunk // nil: size 0
}

// testFile is a whole file to write.
type testFile struct {
	objects        []testObject
	managers       []testChunk
	rawData        bool   // store Data uncompressed (write mode 0)
	badCRC         bool   // corrupt the stored CRC
	trailing       []byte // bytes after the Data section
	ckVersion      uint32
	header1Extra   []byte // bytes after the included-file block
	overrideHeader func(h []byte)
	version        uint32 // file version; 0 means 8
}

// words builds a chunk's data buffer: id, next, payload per section.
func (c *testChunk) data() []uint32 {
	var buf []uint32
	for i, s := range c.sections {
		start := len(buf)
		buf = append(buf, s.id, 0)
		buf = append(buf, s.words...)
		if i < len(c.sections)-1 {
			buf[start+1] = uint32(len(buf))
		}
	}
	return append(buf, c.extraWords...)
}

// bytes serialises the chunk (ChunkVersion 7 layout, no position lists
// unless the options ask for them, in which case they are empty).
func (c *testChunk) bytes() []byte {
	cv := c.chunkVersion
	if cv == 0 {
		cv = 7
	}
	dv := c.dataVersion
	if dv == 0 {
		dv = 10
	}
	opts := c.options
	if opts == 0 {
		opts = ChunkOptFile
	}
	d := c.data()
	out := le32(nil, uint32(dv)|uint32(c.classByte)<<8|uint32(cv)<<16|uint32(opts)<<24, uint32(len(d)))
	out = le32(out, d...)
	for _, bit := range []uint8{ChunkOptIDs, ChunkOptChunks, ChunkOptManagers} {
		if opts&bit != 0 {
			out = le32(out, 0)
		}
	}
	return out
}

func le32(b []byte, v ...uint32) []byte {
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, x)
	}
	return b
}

func f32(v float32) uint32 { return math.Float32bits(v) }

func f32s(v ...float32) []uint32 {
	out := make([]uint32, len(v))
	for i, x := range v {
		out[i] = f32(x)
	}
	return out
}

func zlibBytes(b []byte) []byte {
	var buf bytes.Buffer
	w, _ := zlib.NewWriterLevel(&buf, zlib.BestCompression)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// build writes the file.
func (f *testFile) build() []byte {
	version := f.version
	if version == 0 {
		version = 8
	}
	var hdr1 []byte
	var data []byte
	if version < 8 {
		maxID := uint32(0)
		for _, o := range f.objects {
			maxID = max(maxID, o.fileID&^ReferenceBit)
		}
		data = le32(data, maxID, uint32(len(f.objects)))
	}
	if version >= 6 {
		for _, m := range f.managers {
			data = le32(data, 0x3d242466, 0)
			cb := m.bytes()
			data = le32(data, uint32(len(cb)))
			data = append(data, cb...)
		}
	}
	offs := make([]int, len(f.objects))
	for i, o := range f.objects {
		offs[i] = len(data)
		if version < 7 {
			data = le32(data, o.fileID)
		}
		if o.chunk == nil {
			data = le32(data, 0)
			continue
		}
		ch := *o.chunk
		if version < 7 {
			// No object table: the name goes in section 1, the class in
			// the chunk's class byte.
			name := append([]byte(o.name), 0)
			w := []uint32{uint32(len(name))}
			for len(name)%4 != 0 {
				name = append(name, 0)
			}
			for j := 0; j < len(name); j += 4 {
				w = append(w, binary.LittleEndian.Uint32(name[j:]))
			}
			ch.sections = append([]testSection{{identObjectName, w}}, ch.sections...)
			ch.classByte = uint8(o.classID)
		}
		cb := ch.bytes()
		data = le32(data, uint32(len(cb)))
		data = append(data, cb...)
	}
	// Header1 size is needed for FileIndex; entries have fixed size given the names.
	h1size := 0
	for _, o := range f.objects {
		h1size += 16 + len(o.name)
	}
	if version >= 8 {
		h1size += 4 + 4 + 4 + len(f.header1Extra)
	}
	for i, o := range f.objects {
		hdr1 = le32(hdr1, o.fileID, uint32(o.classID), uint32(64+h1size+offs[i]), uint32(len(o.name)))
		hdr1 = append(hdr1, o.name...)
	}
	if version >= 8 {
		hdr1 = le32(hdr1, 0)    // no plugin dependencies
		hdr1 = le32(hdr1, 4, 0) // included-file block: size 4, count 0
		hdr1 = append(hdr1, f.header1Extra...)
	}

	mode := uint32(WriteWholeCompressed)
	storedHdr1, storedData := zlibBytes(hdr1), zlibBytes(data)
	if f.rawData {
		mode = 0
		storedHdr1, storedData = hdr1, data
	}
	if version == 7 {
		storedHdr1 = hdr1 // the table is never compressed
	}
	ck := f.ckVersion
	if ck == 0 {
		ck = 0x13022002
	}
	h := make([]byte, 0, 64)
	h = append(h, Magic...)
	maxID := uint32(0)
	for _, o := range f.objects {
		maxID = max(maxID, o.fileID&^ReferenceBit)
	}
	hdr1Pack, hdr1Unpack := uint32(len(storedHdr1)), uint32(len(hdr1))
	if version < 8 {
		hdr1Pack, hdr1Unpack = 0, 0
	}
	h = le32(h, 0, ck, version, 0, mode, hdr1Pack,
		uint32(len(storedData)), uint32(len(data)), uint32(len(f.managers)), uint32(len(f.objects)),
		maxID, 0, 0x02010001, hdr1Unpack)
	if f.overrideHeader != nil {
		f.overrideHeader(h)
	}
	out := h
	if version >= 7 {
		out = append(out, storedHdr1...)
	}
	out = append(out, storedData...)
	var crc uint32
	if version >= 8 {
		hd, _ := parseHeaderNoCheck(out)
		crc = ComputeCRC(out, hd)
	} else {
		crc = adler32From(0, data)
	}
	if f.badCRC {
		crc ^= 1
	}
	binary.LittleEndian.PutUint32(out[8:], crc)
	return append(out, f.trailing...)
}

// parseHeaderNoCheck reads the size fields the CRC needs without validating.
func parseHeaderNoCheck(b []byte) (*Header, bool) {
	h := &Header{}
	h.Hdr1PackSize = binary.LittleEndian.Uint32(b[0x1c:])
	h.DataPackSize = binary.LittleEndian.Uint32(b[0x20:])
	return h, uint64(64)+uint64(h.Hdr1PackSize)+uint64(h.DataPackSize) <= uint64(len(b))
}

// Helpers for common sections.

// entitySection is a CK3dEntity 0x100000 section: flags, moveable, rows, refs.
func entitySection(flags uint32, rows [4][3]float32, refs ...uint32) testSection {
	w := []uint32{flags, 0}
	for _, r := range rows {
		w = append(w, f32s(r[0], r[1], r[2])...)
	}
	return testSection{identEntityData, append(w, refs...)}
}

// identityRows returns the rows of a pure translation.
func translationRows(x, y, z float32) [4][3]float32 {
	return [4][3]float32{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {x, y, z}}
}

// objAnimSection is the 0x4000000 section: header then controller blocks,
// each given as (type, key dwords...) with the count computed here.
func objAnimSection(flags, entity uint32, length float32, merge []uint32, ctls ...testController) testSection {
	w := f32s(0, 0, 0, 0, 0, 0, 0)
	w = append(w, flags, entity, f32(length))
	w = append(w, merge...)
	for _, c := range ctls {
		w = append(w, c.typ, uint32(1+len(c.keys)), c.count)
		w = append(w, c.keys...)
	}
	return testSection{identObjAnimControllers, append(w, 0)}
}

// testController is one controller block: type, key count and key dwords.
type testController struct {
	typ   uint32
	count uint32
	keys  []uint32
}

// sampleScene is a small valid file: a parent entity, an animated child
// with linear controllers, a TCB-rotation animation inside a keyed
// animation, and a closed curve of three points.
// Table indices of sampleScene's objects.
const (
	iParent = iota
	iChild
	iAnim
	iArm
	iArmAnim
	iKeyed
	iCurve
	iP0
	iP1
	iP2
)

func sampleScene() *testFile {
	pointRows := func(x, z float32) [4][3]float32 { return translationRows(x, 0, z) }
	point := func(x, z float32) *testChunk {
		return &testChunk{classByte: 36, sections: []testSection{
			entitySection(EntityParentValid, pointRows(x, z), iCurve),
			{identPointData, append([]uint32{iCurve, 0, 0}, f32s(0, 0, 0, 0, 0, 0, 0, 0, 0)...)},
		}}
	}
	return &testFile{objects: []testObject{
		iParent: {100, Class3dObject, "Parent", &testChunk{classByte: 33, sections: []testSection{
			entitySection(0, translationRows(10, 0, 0)),
		}}},
		iChild: {101, Class3dObject, "Child", &testChunk{classByte: 33, sections: []testSection{
			{identEntityAnimations, []uint32{1, iAnim}},
			entitySection(EntityParentValid, translationRows(11, 2, 3), iParent),
		}}},
		iAnim: {102, ClassObjectAnimation, "Move", &testChunk{classByte: 15, sections: []testSection{
			objAnimSection(0, iChild, 10, nil,
				testController{CtrlLinearPosition, 2, f32s(0, 1, 2, 3, 10, 4, 5, 6)},
				testController{CtrlLinearRotation, 1, f32s(0, 0, 0, 0, 1)},
				testController{CtrlLinearScale, 1, f32s(0, 1, 1, 1)}),
		}}},
		iArm: {103, Class3dObject, "Arm", &testChunk{classByte: 33, sections: []testSection{
			entitySection(0, translationRows(0, 5, 0)),
		}}},
		iArmAnim: {104, ClassObjectAnimation, "Swing", &testChunk{classByte: 15, sections: []testSection{
			objAnimSection(0, iArm, 20, nil,
				testController{CtrlTCBRotation, 2, append(f32s(0, 0, 0, 0, 1, 0, 0, 0, 0, 0),
					f32s(20, 0, 0, 0.70710677, 0.70710677, 0, 0, 0, 0, 0)...)}),
		}}},
		iKeyed: {105, ClassKeyedAnimation, "Keyed", &testChunk{classByte: 18, sections: []testSection{
			{identAnimLength, f32s(40)},
			{identAnimRate, []uint32{5, f32(25)}},
			{identAnimRoot, []uint32{0, iArm}},
			{identKeyedAnimList, []uint32{1, iArmAnim}},
			{identKeyedAnimMerge, []uint32{0, f32(0.5)}},
		}}},
		iCurve: {106, ClassCurve, "Path", &testChunk{classByte: 43, sections: []testSection{
			entitySection(0, translationRows(0, 1, 0)),
			{identCurveData, []uint32{3, iP0, iP1, iP2, f32(0), 100, 0}},
		}}},
		iP0: {107, ClassCurvePoint, "Path_P0", point(0, 0)},
		iP1: {108, ClassCurvePoint, "Path_P1", point(10, 0)},
		iP2: {109, ClassCurvePoint, "Path_P2", point(0, 10)},
	}, managers: []testChunk{{dataVersion: 0, classByte: 82, options: 0x18, sections: []testSection{{0x1, []uint32{7}}}}}}
}

// readerOf wraps bytes in a little-endian binread.Reader.
func readerOf(b []byte) *binread.Reader { return binread.New(b, binary.LittleEndian) }
