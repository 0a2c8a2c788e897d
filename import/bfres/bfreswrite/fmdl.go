package bfreswrite

import (
	"encoding/binary"
	"math"
)

// GX2 attribute formats the demo and tests write (GX2AttribFormat: layout
// in the low byte, 0x100 integer, 0x200 signed, 0x800 scaled/float).
const (
	Attrib8UInt         = 0x100
	Attrib8_8UNorm      = 0x004
	Attrib8_8UInt       = 0x104
	Attrib16_16UNorm    = 0x007
	Attrib8_8_8_8SNorm  = 0x20A
	Attrib8_8_8_8UNorm  = 0x00A
	Attrib10_10_10_2SN  = 0x20B
	Attrib32_32Float    = 0x80D
	Attrib32_32_32Float = 0x811
	Attrib16x4Float     = 0x80F
)

// GX2 primitive types and index formats.
const (
	PrimTriangles     = 0x04
	PrimTriangleStrip = 0x06
	PrimQuads         = 0x13
	IndexU16          = 4
	IndexU32          = 9
)

// VertexAttrib is an FVTX attribute: name, GX2 format, buffer and byte
// offset in a vertex, and per-vertex values the writer encodes (one slice
// per vertex, as many components as the format has).
type VertexAttrib struct {
	Name   string
	Format uint32
	Buffer int
	Offset int
	Values [][]float64
}

// VertexBuffer is an FVTX: vertex count, skin count, the stride of each
// GX2 buffer and the attributes. Count 0 means the first attribute's
// number of values; Sizes, when set, overrides a buffer's byte size (for
// hostile tests); values that do not fit are not written.
type VertexBuffer struct {
	Count     int
	SkinCount int
	Strides   []int
	Sizes     []int
	Attribs   []VertexAttrib
}

// Mesh is one level of detail of a shape: primitive type, index format,
// indices, first vertex and sub-meshes ({byte offset, count}; nil draws
// every index as one sub-mesh).
type Mesh struct {
	Primitive   uint32
	IndexFormat uint32
	Indices     []uint32
	FirstVertex uint32
	SubMeshes   [][2]uint32
}

// Shape is an FSHP: material, bone (for skin count 0), vertex buffer,
// skin bone indices and meshes (LOD 0 first).
type Shape struct {
	Name         string
	Material     int
	Bone         int
	VertexBuffer int
	SkinBones    []uint16
	Meshes       []Mesh
}

// RenderInfo is a material render info: ints, floats or strings.
type RenderInfo struct {
	Name    string
	Ints    []int32
	Floats  []float32
	Strings []string
}

// RenderState is the GX2 render state of a material (see the importer's
// RenderState for the bits).
type RenderState struct {
	Flags, PolygonControl, DepthControl, AlphaControl uint32
	AlphaRef                                          float32
	ColorControl, BlendTarget, BlendControl           uint32
}

// Sampler is a material sampler and the texture (FTEX name) it samples.
type Sampler struct {
	Name    string
	Texture string
	Words   [3]uint32
}

// ShaderParam is a raw shader parameter: type and bytes.
type ShaderParam struct {
	Name string
	Type uint8
	Data []byte
}

// Material is an FMAT.
type Material struct {
	Name          string
	RenderInfo    []RenderInfo
	RenderState   *RenderState
	ShaderArchive string
	ShadingModel  string
	// SamplerAssign maps shader sampler names to the material's.
	SamplerAssign [][2]string
	Samplers      []Sampler
	Params        []ShaderParam
}

// Record sizes of the model layouts written (Wii U).
const (
	fmdlSize      = 0x30
	fvtxSize      = 0x20
	attribSize    = 0x0C
	gx2BufferSize = 0x18
	fshpSize      = 0x40
	meshSize      = 0x1C
	fmatSize      = 0x4C
)

// skinTables writes the FSKL matrix counts, matrix-to-bone list and inverse
// model matrices (3.4 and later: an array; before: in each bone at +0x40),
// and the bones' smooth and rigid matrix indices.
// A model without these lists keeps what the bones' own InverseModel
// wrote (subfiles.go).
func (w *writer) skinTables(sk, arr int, m Model) {
	ns, nr := len(m.SmoothMatrices), len(m.RigidMatrices)
	if ns+nr == 0 {
		return
	}
	w.put16(sk+0x0A, uint16(ns))
	w.put16(sk+0x0C, uint16(nr))
	size := boneSize(w.version)
	for i := range m.Bones {
		w.put16(arr+i*size+8, 0xFFFF)
		w.put16(arr+i*size+10, 0xFFFF)
	}
	// (A palette bone past the skeleton, for hostile tests, gets no index.)
	for k, b := range m.SmoothMatrices {
		if int(b) < len(m.Bones) {
			w.put16(arr+int(b)*size+8, uint16(k))
		}
	}
	for k, b := range m.RigidMatrices {
		if int(b) < len(m.Bones) {
			w.put16(arr+int(b)*size+10, uint16(ns+k))
		}
	}
	w.off(sk+0x18, w.pos())
	for _, b := range append(append([]uint16(nil), m.SmoothMatrices...), m.RigidMatrices...) {
		w.b = binary.BigEndian.AppendUint16(w.b, b)
	}
	w.align()
	if ns == 0 {
		return
	}
	if w.new() {
		w.off(sk+0x1C, w.pos())
		for k := range ns {
			for _, v := range m.InverseModel[k] {
				w.b = binary.BigEndian.AppendUint32(w.b, math.Float32bits(v))
			}
		}
		return
	}
	for k, b := range m.SmoothMatrices {
		for j, v := range m.InverseModel[k] {
			if int(b) < len(m.Bones) {
				w.putF(arr+int(b)*size+0x40+4*j, v)
			}
		}
	}
}

// meshes writes the vertex buffers, shapes and materials of an FMDL whose
// header is at p.
func (w *writer) meshes(p int, m Model) {
	total := 0
	vbs := w.reserve(fvtxSize * len(m.VertexBuffers))
	if len(m.VertexBuffers) > 0 {
		w.off(p+0x10, vbs)
	}
	for i, vb := range m.VertexBuffers {
		total += w.fvtx(vbs+i*fvtxSize, i, vb)
	}
	var matPos []int
	var matNames []string
	for _, mat := range m.Materials {
		matPos = append(matPos, w.fmat(mat))
		matNames = append(matNames, mat.Name)
	}
	var shapePos []int
	var shapeNames []string
	for i, s := range m.Shapes {
		vb := 0
		if s.VertexBuffer < len(m.VertexBuffers) {
			vb = vbs + s.VertexBuffer*fvtxSize
		}
		skin := 0
		if s.VertexBuffer < len(m.VertexBuffers) {
			skin = m.VertexBuffers[s.VertexBuffer].SkinCount
		}
		shapePos = append(shapePos, w.fshp(i, s, vb, skin))
		shapeNames = append(shapeNames, s.Name)
	}
	if len(shapePos) > 0 {
		w.off(p+0x14, w.dict(shapeNames, shapePos))
	}
	if len(matPos) > 0 {
		w.off(p+0x18, w.dict(matNames, matPos))
	}
	w.put16(p+0x20, uint16(len(m.VertexBuffers)))
	w.put16(p+0x22, uint16(len(m.Shapes)))
	w.put16(p+0x24, uint16(len(m.Materials)))
	w.put32(p+0x28, uint32(total))
}

// fvtx writes the FVTX header at h and its attributes and buffers; it
// returns the vertex count.
func (w *writer) fvtx(h, index int, vb VertexBuffer) int {
	count := vb.Count
	if count == 0 && len(vb.Attribs) > 0 {
		count = len(vb.Attribs[0].Values)
	}
	copy(w.b[h:], "FVTX")
	w.b[h+4] = uint8(len(vb.Attribs))
	w.b[h+5] = uint8(len(vb.Strides))
	w.put16(h+6, uint16(index))
	w.put32(h+8, uint32(count))
	w.b[h+0x0C] = uint8(vb.SkinCount)
	attrs := w.reserve(attribSize * len(vb.Attribs))
	if len(vb.Attribs) > 0 {
		w.off(h+0x10, attrs)
	}
	var names []string
	var pos []int
	for i, a := range vb.Attribs {
		ap := attrs + i*attribSize
		w.str(ap, a.Name)
		w.b[ap+4] = uint8(a.Buffer)
		w.put16(ap+6, uint16(a.Offset))
		w.put32(ap+8, a.Format)
		names = append(names, a.Name)
		pos = append(pos, ap)
	}
	if len(names) > 0 {
		w.off(h+0x14, w.dict(names, pos))
	}
	bufs := w.reserve(gx2BufferSize * len(vb.Strides))
	if len(vb.Strides) > 0 {
		w.off(h+0x18, bufs)
	}
	for bi, stride := range vb.Strides {
		data := vb.bufferData(bi, stride, count, binary.BigEndian)
		w.gx2Buffer(bufs+bi*gx2BufferSize, data, stride)
	}
	return count
}

// bufferData encodes buffer bi of a vertex buffer (stride bytes per
// vertex, count vertices, or the size Sizes gives): every attribute it
// holds, at its offset in each vertex, in the given byte order; values
// that do not fit are not written.
func (vb *VertexBuffer) bufferData(bi, stride, count int, order byteOrder) []byte {
	size := count * stride
	if bi < len(vb.Sizes) {
		size = vb.Sizes[bi]
	}
	data := make([]byte, size)
	for _, a := range vb.Attribs {
		if a.Buffer != bi {
			continue
		}
		for v, vals := range a.Values {
			el := encodeAttrib(a.Format, vals, order)
			if at := v*stride + a.Offset; at+len(el) <= len(data) {
				copy(data[at:], el)
			}
		}
	}
	return data
}

// gx2Buffer fills the GX2 buffer record at r and appends its data.
func (w *writer) gx2Buffer(r int, data []byte, stride int) {
	w.put32(r+4, uint32(len(data)))
	w.put16(r+0x0C, uint16(stride))
	w.put16(r+0x0E, 1)
	if len(data) > 0 {
		w.off(r+0x14, w.pos())
		w.b = append(w.b, data...)
		w.align()
	}
}

// fshp writes a shape and its meshes; vb is the position of its FVTX.
func (w *writer) fshp(index int, s Shape, vb, skin int) int {
	p := w.reserve(fshpSize)
	copy(w.b[p:], "FSHP")
	w.str(p+4, s.Name)
	w.put16(p+0x0C, uint16(index))
	w.put16(p+0x0E, uint16(s.Material))
	w.put16(p+0x10, uint16(s.Bone))
	w.put16(p+0x12, uint16(s.VertexBuffer))
	w.put16(p+0x14, uint16(len(s.SkinBones)))
	w.b[p+0x16] = uint8(skin)
	w.b[p+0x17] = uint8(len(s.Meshes))
	if vb != 0 {
		w.off(p+0x20, vb)
	}
	arr := w.reserve(meshSize * len(s.Meshes))
	if len(s.Meshes) > 0 {
		w.off(p+0x24, arr)
	}
	for i, m := range s.Meshes {
		w.mesh(arr+i*meshSize, m)
	}
	if len(s.SkinBones) > 0 {
		w.off(p+0x28, w.pos())
		for _, b := range s.SkinBones {
			w.b = binary.BigEndian.AppendUint16(w.b, b)
		}
		w.align()
	}
	return p
}

// mesh writes a mesh record at r, its sub-meshes and its index buffer.
func (w *writer) mesh(r int, m Mesh) {
	w.put32(r, m.Primitive)
	w.put32(r+4, m.IndexFormat)
	w.put32(r+8, uint32(len(m.Indices)))
	subs := m.SubMeshes
	subs, data, size := w.meshData(r+0x10, m, binary.BigEndian)
	w.put16(r+0x0C, uint16(len(subs)))
	w.put32(r+0x18, m.FirstVertex)
	ib := w.reserve(gx2BufferSize)
	w.off(r+0x14, ib)
	w.gx2Buffer(ib, data, size)
}

// meshData writes a mesh's sub-meshes (all its indices as one when it
// gives none) and stores their offset at subsAt; it returns them with the
// index bytes in order (u32 for IndexU32 and GX2 format 1, else u16) and
// the index size.
func (w *writer) meshData(subsAt int, m Mesh, order byteOrder) (subs [][2]uint32, data []byte, size int) {
	subs, size = m.SubMeshes, 2
	if m.IndexFormat == IndexU32 || m.IndexFormat == 1 {
		size = 4
	}
	if subs == nil {
		subs = [][2]uint32{{0, uint32(len(m.Indices))}}
	}
	w.off(subsAt, w.pos())
	for _, s := range subs {
		w.b = w.order.AppendUint32(w.b, s[0])
		w.b = w.order.AppendUint32(w.b, s[1])
	}
	for _, i := range m.Indices {
		if size == 2 {
			data = order.AppendUint16(data, uint16(i))
		} else {
			data = order.AppendUint32(data, i)
		}
	}
	return subs, data, size
}

// fmat writes a material and returns its position.
func (w *writer) fmat(m Material) int {
	p := w.reserve(fmatSize)
	copy(w.b[p:], "FMAT")
	w.str(p+4, m.Name)
	w.put32(p+8, 1)
	w.put16(p+0x0E, uint16(len(m.RenderInfo)))
	w.b[p+0x10] = uint8(len(m.Samplers))
	w.b[p+0x11] = uint8(len(m.Samplers))
	w.put16(p+0x12, uint16(len(m.Params)))
	if len(m.RenderInfo) > 0 {
		var names []string
		var pos []int
		for _, ri := range m.RenderInfo {
			names = append(names, ri.Name)
			pos = append(pos, w.renderInfo(ri))
		}
		w.off(p+0x1C, w.dict(names, pos))
	}
	if rs := m.RenderState; rs != nil {
		r := w.reserve(0x30)
		w.off(p+0x20, r)
		for i, v := range []uint32{rs.Flags, rs.PolygonControl, rs.DepthControl, rs.AlphaControl,
			math.Float32bits(rs.AlphaRef), rs.ColorControl, rs.BlendTarget, rs.BlendControl} {
			w.put32(r+4*i, v)
		}
	}
	sa := w.reserve(0x1C)
	w.off(p+0x24, sa)
	w.str(sa, m.ShaderArchive)
	w.str(sa+4, m.ShadingModel)
	w.b[sa+0x0D] = uint8(len(m.SamplerAssign))
	if len(m.SamplerAssign) > 0 {
		var names []string
		var pos []int
		for _, a := range m.SamplerAssign {
			names = append(names, a[0])
			pos = append(pos, w.cstring(a[1]))
		}
		w.off(sa+0x14, w.dict(names, pos))
	}
	if len(m.Samplers) > 0 {
		refs := w.reserve(8 * len(m.Samplers))
		w.off(p+0x28, refs)
		smp := w.reserve(0x18 * len(m.Samplers))
		w.off(p+0x2C, smp)
		var names []string
		var pos []int
		for i, s := range m.Samplers {
			w.str(refs+8*i, s.Texture)
			sp := smp + 0x18*i
			for k, v := range s.Words {
				w.put32(sp+4*k, v)
			}
			w.str(sp+0x10, s.Name)
			w.b[sp+0x14] = uint8(i)
			names = append(names, s.Name)
			pos = append(pos, sp)
		}
		w.off(p+0x30, w.dict(names, pos))
	}
	if len(m.Params) > 0 {
		size, nameAt := 0x14, 0x10
		if w.version < Version3_4 {
			size, nameAt = 0x0C, 0x08
		}
		arr := w.reserve(size * len(m.Params))
		w.off(p+0x34, arr)
		var data []byte
		for i, sp := range m.Params {
			r := arr + size*i
			w.b[r] = sp.Type
			w.b[r+1] = uint8(len(sp.Data))
			w.put16(r+2, uint16(len(data)))
			w.str(r+nameAt, sp.Name)
			data = append(data, sp.Data...)
		}
		w.put16(p+0x16, uint16(len(data)))
		w.off(p+0x3C, w.pos())
		w.b = append(w.b, data...)
		w.align()
	}
	return p
}

// renderInfo writes a render-info record with its values inline.
func (w *writer) renderInfo(ri RenderInfo) int {
	n, typ := len(ri.Ints), uint8(0)
	if ri.Floats != nil {
		n, typ = len(ri.Floats), 1
	}
	if ri.Strings != nil {
		n, typ = len(ri.Strings), 2
	}
	p := w.reserve(8 + 4*n)
	w.put16(p, uint16(n))
	w.b[p+2] = typ
	w.str(p+4, ri.Name)
	for i := range n {
		switch typ {
		case 0:
			w.put32(p+8+4*i, uint32(ri.Ints[i]))
		case 1:
			w.putF(p+8+4*i, ri.Floats[i])
		default:
			w.str(p+8+4*i, ri.Strings[i])
		}
	}
	return p
}

// cstring appends a NUL-terminated string (shader assign values) and
// returns its position.
func (w *writer) cstring(s string) int {
	p := w.pos()
	w.b = append(w.b, s...)
	w.b = append(w.b, 0)
	w.align()
	return p
}

// EncodeAttrib encodes one element of a GX2 attribute format, the inverse
// of the importer's decoding: normalised components round to the nearest
// step (signed ones clamp to [−1, 1]), integer and scaled ones round to the
// integer, halves round to nearest even, 10_10_10_2 packs x in the low
// bits (w unsigned in the signed normalised form).
func EncodeAttrib(format uint32, vals []float64) []byte {
	return encodeAttrib(format, vals, binary.BigEndian)
}

// encodeAttrib is EncodeAttrib in a byte order (the Switch's is
// little-endian): multi-byte components, and the packed 10_10_10_2 word,
// in that order.
func encodeAttrib(format uint32, vals []float64, order byteOrder) []byte {
	layout := format & 0xFF
	signed := format&0x200 != 0
	norm := format&0x900 == 0
	comp := func(i int) float64 {
		if i < len(vals) {
			return vals[i]
		}
		return 0
	}
	quant := func(v float64, bits int, signed, norm bool) uint32 {
		if norm {
			if signed {
				v = math.Max(-1, math.Min(1, v)) * float64(int64(1)<<(bits-1)-1)
			} else {
				v = math.Max(0, math.Min(1, v)) * float64(uint64(1)<<bits-1)
			}
		}
		return uint32(int64(math.Round(v))) & uint32(uint64(1)<<bits-1)
	}
	type spec struct {
		bits  []int
		float bool
	}
	specs := map[uint32]spec{
		0x00: {[]int{8}, false}, 0x02: {[]int{16}, false}, 0x03: {[]int{16}, true},
		0x04: {[]int{8, 8}, false}, 0x05: {[]int{32}, false}, 0x06: {[]int{32}, true},
		0x07: {[]int{16, 16}, false}, 0x08: {[]int{16, 16}, true}, 0x0A: {[]int{8, 8, 8, 8}, false},
		0x0C: {[]int{32, 32}, false}, 0x0D: {[]int{32, 32}, true}, 0x0E: {[]int{16, 16, 16, 16}, false},
		0x0F: {[]int{16, 16, 16, 16}, true}, 0x10: {[]int{32, 32, 32}, false}, 0x11: {[]int{32, 32, 32}, true},
		0x12: {[]int{32, 32, 32, 32}, false}, 0x13: {[]int{32, 32, 32, 32}, true},
	}
	if layout == 0x0B {
		var word uint32
		for i, bits := range []int{10, 10, 10, 2} {
			word |= quant(comp(i), bits, signed && !(bits == 2 && norm), norm) << (10 * i)
		}
		return order.AppendUint32(nil, word)
	}
	if layout == 0x01 {
		return []byte{byte(quant(comp(0), 4, false, true) | quant(comp(1), 4, false, true)<<4)}
	}
	sp := specs[layout]
	var out []byte
	for i, bits := range sp.bits {
		var raw uint32
		switch {
		case sp.float && bits == 16:
			raw = uint32(floatToHalf(float32(comp(i))))
		case sp.float:
			raw = math.Float32bits(float32(comp(i)))
		default:
			raw = quant(comp(i), bits, signed, norm)
		}
		switch bits {
		case 8:
			out = append(out, byte(raw))
		case 16:
			out = order.AppendUint16(out, uint16(raw))
		default:
			out = order.AppendUint32(out, raw)
		}
	}
	return out
}

// floatToHalf rounds a float32 to the nearest binary16 (ties to even);
// values beyond the half range become infinities, tiny ones subnormals.
func floatToHalf(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b >> 16 & 0x8000)
	exp := int(b>>23&0xFF) - 127 + 15
	mant := b & 0x7FFFFF
	switch {
	case b&0x7FFFFFFF == 0:
		return sign
	case b>>23&0xFF == 0xFF:
		if mant != 0 {
			return sign | 0x7E00
		}
		return sign | 0x7C00
	case exp >= 0x1F:
		return sign | 0x7C00
	case exp <= 0:
		if exp < -10 {
			return sign
		}
		mant |= 0x800000
		shift := uint(14 - exp)
		h := mant >> shift
		rem := mant & (1<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rem > half || rem == half && h&1 == 1 {
			h++
		}
		return sign | uint16(h)
	}
	h := uint32(exp)<<10 | mant>>13
	rem := mant & 0x1FFF
	if rem > 0x1000 || rem == 0x1000 && h&1 == 1 {
		h++
	}
	return sign | uint16(h)
}
