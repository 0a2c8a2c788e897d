package bfres

import (
	"encoding/binary"
	"fmt"

	"github.com/animbake/bake/import/binread"
)

// Switch FMDL record (version 8 and earlier; BfresLibrary
// Switch/Model/ModelParser.cs read for the facts, checked on the samples).
const nxFMDLSize = 0x78

// readNXModels reads every FMDL of the models list.
func (f *resFile) readNXModels() ([]*Model, error) {
	entries, err := f.nxListEntries(nxModels, nxFMDLSize)
	if err != nil {
		return nil, err
	}
	var out []*Model
	for _, e := range entries {
		m, err := f.readNXFMDL(e.Data, e.Name)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// readNXFMDL reads the Switch FMDL at off: name (0x10), skeleton (0x20),
// vertex-buffer array (0x28), shape array and dictionary (0x30, 0x38),
// material array and dictionary (0x40, 0x48), then u16 counts of vertex
// buffers, shapes and materials (0x68–0x6C).
func (f *resFile) readNXFMDL(off int, name string) (*Model, error) {
	what := "model " + name
	if _, err := f.nxBlockHeader(off, "FMDL", what, nxFMDLSize); err != nil {
		return nil, err
	}
	m := &Model{Name: name}
	sk, ok, err := f.offsetAt(off+0x20, what+" skeleton")
	if err != nil {
		return nil, err
	}
	if ok {
		if m.Skeleton, err = f.readNXSkeleton(sk, name); err != nil {
			return nil, err
		}
	}
	return m, f.nxModelBody(off, m)
}

// Switch model records (version 8; BfresLibrary Switch/Model/*.cs and
// Shared/Models/*.cs read for the facts, checked on the samples).
const (
	nxFVTXSize    = 0x60
	nxAttribSize  = 0x10 // name, u32 format, u16 offset, u16 buffer index
	nxBufInfoSize = 0x10 // the size and stride records: u32 value, 12 bytes
	nxFSHPSize    = 0x70
	nxMeshSize    = 0x38
	nxFMATSize    = 0xB8
)

// nxModelBody reads the vertex buffers, materials and shapes of the
// Switch FMDL at off into m.
func (f *resFile) nxModelBody(off int, m *Model) error {
	what := "model " + m.Name
	r, _ := f.at(off+0x68, 6, what+" counts")
	numVB, _ := r.U16("vertex buffer count")
	numShape, _ := r.U16("shape count")
	numMat, _ := r.U16("material count")
	if numVB > 0 {
		arr, err := f.requiredOffsetAt(off+0x28, what+" vertex buffer array")
		if err != nil {
			return err
		}
		if _, err := f.arrayFits(arr, int(numVB), nxFVTXSize, what+" vertex buffers"); err != nil {
			return err
		}
		for i := range int(numVB) {
			vb, err := f.readNXFVTX(arr+i*nxFVTXSize, i)
			if err != nil {
				return err
			}
			m.VertexBuffers = append(m.VertexBuffers, vb)
		}
	}
	mats, err := f.nxDictValues(off+0x40, off+0x48, nxFMATSize, int(numMat), what+" materials")
	if err != nil {
		return err
	}
	for _, e := range mats {
		mat, err := f.readNXFMAT(e.Data, e.Name)
		if err != nil {
			return err
		}
		m.Materials = append(m.Materials, mat)
	}
	shapes, err := f.nxDictValues(off+0x30, off+0x38, nxFSHPSize, int(numShape), what+" shapes")
	if err != nil {
		return err
	}
	for _, e := range shapes {
		s, err := f.readNXFSHP(e.Data, e.Name, m)
		if err != nil {
			return err
		}
		m.Shapes = append(m.Shapes, s)
	}
	return nil
}

// readNXFVTX reads the Switch FVTX at off: the attribute array (0x10),
// the buffer size and stride arrays (0x38, 0x40), the s32 offset of its
// buffers in the GPU data block (0x50), u8 attribute and buffer counts
// (0x54), u32 vertex count (0x58) and u16 vertex skin count (0x5C). The
// buffers follow one another from the block's offset plus that one, each
// starting on an 8-byte boundary of the file.
func (f *resFile) readNXFVTX(off, index int) (*VertexBuffer, error) {
	what := "vertex buffer"
	r, err := f.nxBlockHeader(off, "FVTX", what, nxFVTXSize)
	if err != nil {
		return nil, err
	}
	vb := &VertexBuffer{Index: index, Off: off, Order: binary.LittleEndian}
	r.Seek(0x50, "buffer offset")
	bufOff, _ := r.I32("buffer offset")
	numAttrib, _ := r.U8("attribute count")
	numBuf, _ := r.U8("buffer count")
	r.Skip(2, "index")
	count, _ := r.U32("vertex count")
	skin, _ := r.U16("vertex skin count")
	if skin > 8 {
		return nil, binread.Errorf(int64(off+0x5C), "vertex buffer %d: vertex skin count %d (at most 8 weights per vertex are possible)", index, skin)
	}
	vb.SkinCount = int(skin)
	if numBuf > 0 {
		sizes, err := f.nxInfoArray(off+0x38, int(numBuf), what+" buffer sizes")
		if err != nil {
			return nil, err
		}
		strides, err := f.nxInfoArray(off+0x40, int(numBuf), what+" buffer strides")
		if err != nil {
			return nil, err
		}
		if f.nx.BufferOffset == 0 {
			return nil, binread.Errorf(0x90, "vertex buffer %d has buffers but the file has no buffer info", index)
		}
		p := int64(f.nx.BufferOffset) + int64(bufOff)
		for i := range int(numBuf) {
			p = (p + 7) &^ 7
			if p < 0 || p+int64(sizes[i]) > int64(len(f.data)) {
				return nil, binread.Errorf(int64(off+0x50), "vertex buffer %d: buffer %d (%d bytes at 0x%x) lies outside the file (0x%x bytes)", index, i, sizes[i], p, len(f.data))
			}
			vb.Buffers = append(vb.Buffers, VertexBufferData{Stride: int(strides[i]), Data: f.data[p : p+int64(sizes[i])], Off: int(p)})
			p += int64(sizes[i])
		}
	}
	if err := vb.setCount(count, off+0x58); err != nil {
		return nil, err
	}
	if numAttrib == 0 {
		return vb, nil
	}
	arr, err := f.requiredOffsetAt(off+0x10, what+" attribute array")
	if err != nil {
		return nil, err
	}
	if _, err := f.arrayFits(arr, int(numAttrib), nxAttribSize, what+" attributes"); err != nil {
		return nil, err
	}
	for i := range int(numAttrib) {
		pos := arr + i*nxAttribSize
		a := VertexAttrib{pos: pos}
		if a.Name, err = f.nameAt(pos, "vertex attribute"); err != nil {
			return nil, err
		}
		ar, _ := f.at(pos+8, 8, "vertex attribute")
		format, _ := ar.U32("format")
		o, _ := ar.U16("offset")
		b, _ := ar.U16("buffer index")
		a.Buffer, a.Offset = int(b), int(o)
		if a.Format, err = nxAttribFormat(format); err != nil {
			return nil, binread.Errorf(int64(pos+8), "vertex attribute %s: %v", a.Name, err)
		}
		if err := vb.addAttrib(a, pos+8, pos+0x0E); err != nil {
			return nil, err
		}
	}
	return vb, nil
}

// nxInfoArray reads n of the 16-byte records (a u32 value, 12 bytes) of
// the array whose offset is stored at pos: the buffer sizes or strides.
func (f *resFile) nxInfoArray(pos, n int, what string) ([]uint32, error) {
	arr, err := f.requiredOffsetAt(pos, what)
	if err != nil {
		return nil, err
	}
	r, err := f.at(arr, n*nxBufInfoSize, what)
	if err != nil {
		return nil, err
	}
	out := make([]uint32, n)
	for i := range out {
		r.Seek(i*nxBufInfoSize, what)
		out[i], _ = r.U32(what)
	}
	return out, nil
}

// nxChannelLayouts maps an nn::gfx channel format (the format word's
// second byte) to the GX2 component layout holding the same components
// (AttribFormat's low byte): integer layouts first, float layouts second
// (0 where the channel has no float form).
var nxChannelLayouts = map[uint32][2]uint32{
	0x01: {0x01, 0},    // R4_G4
	0x02: {0x00, 0},    // R8
	0x09: {0x04, 0},    // R8_G8
	0x0A: {0x02, 0x03}, // R16
	0x0B: {0x0A, 0},    // R8_G8_B8_A8
	0x0E: {0x0B, 0},    // R10_G10_B10_A2
	0x12: {0x07, 0x08}, // R16_G16
	0x14: {0x05, 0x06}, // R32
	0x15: {0x0E, 0x0F}, // R16_G16_B16_A16
	0x17: {0x0C, 0x0D}, // R32_G32
	0x18: {0x10, 0x11}, // R32_G32_B32
	0x19: {0x12, 0x13}, // R32_G32_B32_A32
}

// nn::gfx type formats (the format word's low byte).
const (
	nxTypeUnorm   = 1
	nxTypeSnorm   = 2
	nxTypeUint    = 3
	nxTypeSint    = 4
	nxTypeFloat   = 5
	nxTypeUscaled = 8 // integer given to the shader as float, not normalised
	nxTypeSscaled = 9
)

// nxAttribFormat translates a Switch attribute format (an nn::gfx
// AttributeFormat: channel format << 8 | type format, stored as a
// little-endian u32) into the GX2 format of the same components and
// conversion, which decodeAttrib knows: unorm, snorm, uint, sint, float
// and the scaled (int-to-float) kinds. Other combinations are refused.
func nxAttribFormat(v uint32) (AttribFormat, error) {
	typ, channel := v&0xFF, v>>8&0xFF
	l, ok := nxChannelLayouts[channel]
	if !ok || v>>16 != 0 {
		return 0, fmt.Errorf("unknown Switch attribute format 0x%04x (channel format 0x%02x, type %d)", v, channel, typ)
	}
	var gx2 uint32
	switch typ {
	case nxTypeUnorm:
		gx2 = l[0]
	case nxTypeSnorm:
		gx2 = l[0] | attribSigned
	case nxTypeUint:
		gx2 = l[0] | attribInteger
	case nxTypeSint:
		gx2 = l[0] | attribInteger | attribSigned
	case nxTypeUscaled:
		gx2 = l[0] | attribScaled
	case nxTypeSscaled:
		gx2 = l[0] | attribScaled | attribSigned
	case nxTypeFloat:
		if l[1] == 0 {
			return 0, fmt.Errorf("Switch attribute format 0x%04x: channel format 0x%02x has no float form", v, channel)
		}
		gx2 = l[1] | attribScaled
	default:
		return 0, fmt.Errorf("Switch attribute format 0x%04x: type %d is not a vertex type", v, typ)
	}
	f := AttribFormat(gx2)
	if _, err := f.layout(); err != nil {
		return 0, fmt.Errorf("Switch attribute format 0x%04x has no vertex decoding (%v)", v, err)
	}
	return f, nil
}

// Switch primitive topologies (nn::gfx PrimitiveTopology) as the GX2
// primitive types of the same drawing; adjacency and patch lists have no
// glTF mode.
var nxPrimitives = map[uint32]uint32{0: 0x01, 1: 0x02, 2: 0x03, 3: 0x04, 4: 0x06}

// readNXFSHP reads the Switch FSHP at off: name (0x10), FVTX (0x18), mesh
// array (0x20), skin bone indices (0x28), then u32 flags (0x58), u16
// index, material, bone and vertex-buffer indices and skin-bone count
// (0x5C–0x64), u8 vertex skin count, mesh count and key-shape count
// (0x66–0x68).
func (f *resFile) readNXFSHP(off int, name string, m *Model) (*Shape, error) {
	what := "shape " + name
	r, err := f.nxBlockHeader(off, "FSHP", what, nxFSHPSize)
	if err != nil {
		return nil, err
	}
	s := &Shape{Name: name, Off: off, BoneAt: off + 0x60}
	r.Seek(0x58, "flags")
	numSkinBone, numMesh := s.readFields(r)
	fields := shapeFields{material: off + 0x5E, vertexBuffer: off + 0x62, skinCount: off + 0x66, meshCount: off + 0x67,
		vbOffset: off + 0x18, meshArray: off + 0x20, skinBones: off + 0x28}
	return s, f.shapeBody(s, m, numSkinBone, numMesh, fields, nxMeshSize, f.readNXMesh, what)
}

// readNXMesh reads one Switch mesh (LOD) record: sub-mesh array (0x00),
// buffer-size record (0x18: u32 byte size), u32 offset of the indices in
// the GPU data block (0x20), u32 primitive topology, u32 index format (0
// u8, 1 u16, 2 u32, little-endian), u32 index count, u32 first vertex and
// u16 sub-mesh count (0x24–0x34).
func (f *resFile) readNXMesh(pos int, what string, vertexCount int) (ShapeMesh, error) {
	var sm ShapeMesh
	r, _ := f.at(pos, nxMeshSize, what+" mesh")
	r.Seek(0x20, "index buffer offset")
	faceOff, _ := r.U32("index buffer offset")
	prim, _ := r.U32("primitive topology")
	sm.IndexFormat, _ = r.U32("index format")
	indexCount, _ := r.U32("index count")
	sm.FirstVertex, _ = r.U32("first vertex")
	numSub, _ := r.U16("sub-mesh count")
	var ok bool
	if sm.Primitive, ok = nxPrimitives[prim]; !ok {
		return sm, binread.Errorf(int64(pos+0x24), "%s: primitive topology %d cannot be drawn in glTF (points, lines, line strips, triangles and triangle strips can)", what, prim)
	}
	if sm.IndexFormat > 2 {
		return sm, binread.Errorf(int64(pos+0x28), "%s: unknown index format %d", what, sm.IndexFormat)
	}
	isize := 1 << sm.IndexFormat
	sizeRec, err := f.requiredOffsetAt(pos+0x18, what+" index buffer size")
	if err != nil {
		return sm, err
	}
	sr, err := f.at(sizeRec, 4, what+" index buffer size")
	if err != nil {
		return sm, err
	}
	size, _ := sr.U32("index buffer size")
	if f.nx.BufferOffset == 0 {
		return sm, binread.Errorf(0x90, "%s has indices but the file has no buffer info", what)
	}
	start := int64(f.nx.BufferOffset) + int64(faceOff)
	if start+int64(size) > int64(len(f.data)) {
		return sm, binread.Errorf(int64(pos+0x20), "%s: index buffer of %d bytes at 0x%x lies outside the file (0x%x bytes)", what, size, start, len(f.data))
	}
	buf := VertexBufferData{Data: f.data[start : start+int64(size)], Off: int(start)}
	return sm, f.readMeshIndices(&sm, buf, indexCount, isize, int(numSub), pos+0x2C, pos, binary.LittleEndian, what, vertexCount)
}
