package bfres

import (
	"encoding/binary"

	"github.com/animbake/bake/import/binread"
)

// Model is a decoded FMDL: its skeleton, vertex buffers, shapes and
// materials (Wii U layout; docs/formats/bfres.md, model section).
type Model struct {
	Name          string
	Skeleton      *Skeleton // nil when the model has none
	VertexBuffers []*VertexBuffer
	Shapes        []*Shape
	Materials     []*Material
}

// VertexBuffer is a decoded FVTX: vertex count, skin count and attributes
// with the buffers they read. Attribute formats are GX2's (the Switch's
// are translated, nx_model.go).
type VertexBuffer struct {
	Index     int
	Count     int
	SkinCount int
	Attribs   []VertexAttrib
	Buffers   []VertexBufferData
	Off       int              // file offset of the FVTX, for messages
	Order     binary.ByteOrder // of the vertex data: nil means big-endian (Wii U)
}

// byteOrder returns the byte order of the vertex data.
func (vb *VertexBuffer) byteOrder() binary.ByteOrder {
	if vb.Order != nil {
		return vb.Order
	}
	return byteOrder
}

// Attrib returns the attribute named name, or nil.
func (vb *VertexBuffer) Attrib(name string) *VertexAttrib {
	for i := range vb.Attribs {
		if vb.Attribs[i].Name == name {
			return &vb.Attribs[i]
		}
	}
	return nil
}

// Record sizes of the Wii U model structures.
const (
	fmdlHeaderSize   = 0x28
	fvtxHeaderSize   = 0x20
	attribRecordSize = 0x0C
	gx2BufferSize    = 0x18
)

// readModelsFull reads every FMDL of the models group in full.
func (f *resFile) readModelsFull() ([]*Model, error) {
	off := f.header.Groups[GroupModels]
	if off == 0 {
		return nil, nil
	}
	entries, err := f.readDict(off, "models")
	if err != nil {
		return nil, err
	}
	var out []*Model
	for _, e := range entries {
		m, err := f.readFMDL(e.Data, e.Name)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// readFMDL reads the FMDL at off. Layout (Wii U): magic, name, path,
// skeleton, vertex-buffer array, shape dict, material dict, user-data dict
// (offsets at 0x04–0x1C), then u16 counts of vertex buffers, shapes,
// materials and user data at 0x20–0x26.
func (f *resFile) readFMDL(off int, name string) (*Model, error) {
	what := "model " + name
	if err := f.expectMagic(off, "FMDL", what); err != nil {
		return nil, err
	}
	r, err := f.at(off, fmdlHeaderSize, what+" header")
	if err != nil {
		return nil, err
	}
	m := &Model{Name: name}
	if m.Skeleton, err = f.readModelSkeleton(off, name); err != nil {
		return nil, err
	}
	r.Seek(0x20, "counts")
	numVB, _ := r.U16("vertex buffer count")
	numShape, _ := r.U16("shape count")
	numMat, _ := r.U16("material count")
	if numVB > 0 {
		arr, err := f.requiredOffsetAt(off+0x10, what+" vertex buffer array")
		if err != nil {
			return nil, err
		}
		if _, err := f.arrayFits(arr, int(numVB), fvtxHeaderSize, what+" vertex buffers"); err != nil {
			return nil, err
		}
		for i := range int(numVB) {
			vb, err := f.readFVTX(arr+i*fvtxHeaderSize, i)
			if err != nil {
				return nil, err
			}
			m.VertexBuffers = append(m.VertexBuffers, vb)
		}
	}
	if err := f.eachDictEntry(off+0x18, int(numMat), what+" materials", func(i int, e dictEntry) error {
		mat, err := f.readFMAT(e.Data, e.Name)
		m.Materials = append(m.Materials, mat)
		return err
	}); err != nil {
		return nil, err
	}
	if err := f.eachDictEntry(off+0x14, int(numShape), what+" shapes", func(i int, e dictEntry) error {
		s, err := f.readFSHP(e.Data, e.Name, m)
		m.Shapes = append(m.Shapes, s)
		return err
	}); err != nil {
		return nil, err
	}
	return m, nil
}

// eachDictEntry reads the index group whose offset is stored at pos and
// calls fn per entry; the entry count must equal the header's count.
func (f *resFile) eachDictEntry(pos, count int, what string, fn func(i int, e dictEntry) error) error {
	d, ok, err := f.offsetAt(pos, what+" index group")
	if err != nil {
		return err
	}
	if !ok {
		if count > 0 {
			return binread.Errorf(int64(pos), "%s: %d entries counted but the index group offset is null", what, count)
		}
		return nil
	}
	entries, err := f.readDict(d, what)
	if err != nil {
		return err
	}
	if len(entries) != count {
		return binread.Errorf(int64(d+4), "%s index group holds %d entries, the header counts %d", what, len(entries), count)
	}
	for i, e := range entries {
		if err := fn(i, e); err != nil {
			return err
		}
	}
	return nil
}

// arrayFits checks that count records of size bytes at off lie in the file.
func (f *resFile) arrayFits(off, count, size int, what string) (int, error) {
	r, err := f.at(off, len(f.data)-off, what)
	if err != nil {
		return 0, err
	}
	return r.Count(uint64(count), size, what)
}

// readFVTX reads the FVTX at off: u8 attribute count, u8 buffer count, u16
// index, u32 vertex count, u8 vertex skin count (0x04–0x0C), then offsets
// to the attribute array (0x10), attribute dict (0x14) and buffer array
// (0x18). Attributes are 12 bytes (name, u8 buffer, pad, u16 offset, u32
// format); buffers are GX2 buffer records of 0x18 bytes (u32 size at 0x04,
// u16 stride at 0x0C, u16 buffering count at 0x0E, data offset at 0x14).
func (f *resFile) readFVTX(off, index int) (*VertexBuffer, error) {
	what := "vertex buffer"
	if err := f.expectMagic(off, "FVTX", what); err != nil {
		return nil, err
	}
	r, err := f.at(off, fvtxHeaderSize, what+" header")
	if err != nil {
		return nil, err
	}
	vb := &VertexBuffer{Index: index, Off: off}
	r.Seek(4, "counts")
	numAttrib, _ := r.U8("attribute count")
	numBuf, _ := r.U8("buffer count")
	r.Skip(2, "index")
	count, _ := r.U32("vertex count")
	skin, _ := r.U8("vertex skin count")
	vb.SkinCount = int(skin)
	if vb.SkinCount > 8 {
		return nil, binread.Errorf(int64(off+0x0C), "vertex buffer %d: vertex skin count %d (at most 8 weights per vertex are possible)", index, skin)
	}
	if numBuf > 0 {
		barr, err := f.requiredOffsetAt(off+0x18, what+" buffer array")
		if err != nil {
			return nil, err
		}
		if _, err := f.arrayFits(barr, int(numBuf), gx2BufferSize, what+" buffers"); err != nil {
			return nil, err
		}
		for i := range int(numBuf) {
			b, err := f.readGX2Buffer(barr+i*gx2BufferSize, "vertex buffer")
			if err != nil {
				return nil, err
			}
			vb.Buffers = append(vb.Buffers, b)
		}
	}
	if err := vb.setCount(count, off+8); err != nil {
		return nil, err
	}
	if numAttrib > 0 {
		aarr, err := f.requiredOffsetAt(off+0x10, what+" attribute array")
		if err != nil {
			return nil, err
		}
		if _, err := f.arrayFits(aarr, int(numAttrib), attribRecordSize, what+" attributes"); err != nil {
			return nil, err
		}
		for i := range int(numAttrib) {
			pos := aarr + i*attribRecordSize
			a := VertexAttrib{pos: pos}
			if a.Name, err = f.nameAt(pos, "vertex attribute"); err != nil {
				return nil, err
			}
			ar, _ := f.at(pos+4, 8, "vertex attribute")
			b, _ := ar.U8("buffer index")
			ar.Skip(1, "padding")
			o, _ := ar.U16("offset")
			fm, _ := ar.U32("format")
			a.Buffer, a.Offset, a.Format = int(b), int(o), AttribFormat(fm)
			if err := vb.addAttrib(a, pos+8, pos+4); err != nil {
				return nil, err
			}
		}
	}
	return vb, nil
}

// setCount sets the vertex count read at countAt, which the largest buffer
// bounds: a vertex takes at least one byte of each buffer an attribute
// reads.
func (vb *VertexBuffer) setCount(count uint32, countAt int) error {
	largest := 0
	for _, b := range vb.Buffers {
		largest = max(largest, len(b.Data))
	}
	if uint64(count) > uint64(largest) && count > 1 {
		return binread.Errorf(int64(countAt), "vertex buffer %d counts %d vertices, more than its largest buffer has bytes (%d)", vb.Index, count, largest)
	}
	vb.Count = int(count)
	return nil
}

// addAttrib checks attribute a (its format read at formatAt, its buffer
// index at bufferAt) and adds it: a known format, an existing buffer, a
// name not taken.
func (vb *VertexBuffer) addAttrib(a VertexAttrib, formatAt, bufferAt int) error {
	if _, err := a.Format.layout(); err != nil {
		return binread.Errorf(int64(formatAt), "vertex attribute %s: %v", a.Name, err)
	}
	if a.Buffer >= len(vb.Buffers) {
		return binread.Errorf(int64(bufferAt), "vertex attribute %s reads buffer %d, the vertex buffer has %d", a.Name, a.Buffer, len(vb.Buffers))
	}
	for _, prev := range vb.Attribs {
		if prev.Name == a.Name {
			return binread.Errorf(int64(a.pos), "vertex buffer %d has two attributes named %q", vb.Index, a.Name)
		}
	}
	vb.Attribs = append(vb.Attribs, a)
	return nil
}

// readGX2Buffer reads a GX2 buffer record (vertex or index data): the
// first of its buffering copies, which the runtime draws from.
func (f *resFile) readGX2Buffer(pos int, what string) (VertexBufferData, error) {
	var b VertexBufferData
	r, err := f.at(pos, gx2BufferSize, what+" record")
	if err != nil {
		return b, err
	}
	r.Skip(4, "data pointer")
	size, _ := r.U32("size")
	r.Skip(4, "handle")
	stride, _ := r.U16("stride")
	b.Stride = int(stride)
	if size == 0 {
		return b, nil
	}
	data, err := f.requiredOffsetAt(pos+0x14, what+" data")
	if err != nil {
		return b, err
	}
	if int64(data)+int64(size) > int64(len(f.data)) {
		return b, binread.Errorf(int64(pos+4), "%s of %d bytes at 0x%x runs past the end of the file (0x%x bytes)", what, size, data, len(f.data))
	}
	b.Data = f.data[data : data+int(size)]
	b.Off = data
	return b, nil
}

// byteOrder is the byte order of Wii U vertex and index data.
var byteOrder binary.ByteOrder = binary.BigEndian

// littleEndian is the byte order of the GX2 index formats marked LE.
var littleEndian binary.ByteOrder = binary.LittleEndian
