package bfreswrite

import (
	"encoding/binary"
	"math"
)

// Switch model records (version 8; the importer's nx_model.go and
// nx_fmat.go give the field offsets).
const (
	nxFVTXSize         = 0x60
	nxAttribSize       = 0x10
	nxBufInfoSize      = 0x10
	nxFSHPSize         = 0x70
	nxMeshSize         = 0x38
	nxFMATSize         = 0xB8
	nxRenderInfoSize   = 0x18
	nxSamplerSize      = 0x20
	nxShaderParamSize  = 0x20
	nxShaderAssignSize = 0x48
)

// nxChannels maps a GX2 component layout (the attribute format's low byte)
// to the nn::gfx channel format of the same components, and nxFloatLayouts
// marks the GX2 float layouts.
var (
	nxChannels = map[uint32]uint32{0x00: 0x02, 0x01: 0x01, 0x02: 0x0A, 0x03: 0x0A, 0x04: 0x09, 0x05: 0x14, 0x06: 0x14,
		0x07: 0x12, 0x08: 0x12, 0x0A: 0x0B, 0x0B: 0x0E, 0x0C: 0x17, 0x0D: 0x17, 0x0E: 0x15, 0x0F: 0x15,
		0x10: 0x18, 0x11: 0x18, 0x12: 0x19, 0x13: 0x19}
	nxFloatLayouts = map[uint32]bool{0x03: true, 0x06: true, 0x08: true, 0x0D: true, 0x0F: true, 0x11: true, 0x13: true}
)

// SwitchAttribFormat returns the Switch attribute format (nn::gfx channel
// format << 8 | type format) of a GX2 attribute format: the same
// components, read the same way.
func SwitchAttribFormat(gx2 uint32) uint32 {
	layout := gx2 & 0xFF
	var typ uint32
	switch {
	case nxFloatLayouts[layout]:
		typ = 5
	case gx2&0x800 != 0 && gx2&0x200 != 0:
		typ = 9
	case gx2&0x800 != 0:
		typ = 8
	case gx2&0x300 == 0x300:
		typ = 4
	case gx2&0x100 != 0:
		typ = 3
	case gx2&0x200 != 0:
		typ = 2
	default:
		typ = 1
	}
	return nxChannels[layout]<<8 | typ
}

// nxAddressModes maps GX2 clamp modes (wrap, mirror, clamp, mirror once,
// then the half-border and border forms) to Switch address modes (repeat
// 0, mirror 1, clamp to edge 2, clamp to border 3, mirror once 4).
var nxAddressModes = [8]uint8{0, 1, 2, 4, 2, 4, 3, 4}

// nxPrims maps GX2 primitive types to Switch primitive topologies.
var nxPrims = map[uint32]uint32{0x01: 0, 0x02: 1, 0x03: 2, 0x04: 3, 0x06: 4}

// nxMeshes writes the vertex buffers, materials and shapes of the Switch
// FMDL at p; their vertex and index data go to the GPU block (w.gpu).
func (w *writer) nxMeshes(p int, m Model) {
	total := 0
	vbs := 0
	if len(m.VertexBuffers) > 0 {
		vbs = w.reserve(nxFVTXSize * len(m.VertexBuffers))
		w.off(p+0x28, vbs)
	}
	for i, vb := range m.VertexBuffers {
		total += w.nxFVTX(vbs+i*nxFVTXSize, i, vb)
	}
	if len(m.Materials) > 0 {
		arr := w.reserve(nxFMATSize * len(m.Materials))
		var names []string
		for i, mat := range m.Materials {
			w.nxFMAT(arr+i*nxFMATSize, i, mat)
			names = append(names, mat.Name)
		}
		w.off(p+0x40, arr)
		w.off(p+0x48, w.nxDict(names))
	}
	if len(m.Shapes) > 0 {
		arr := w.reserve(nxFSHPSize * len(m.Shapes))
		var names []string
		for i, s := range m.Shapes {
			vb, skin := 0, 0
			if s.VertexBuffer < len(m.VertexBuffers) {
				vb, skin = vbs+s.VertexBuffer*nxFVTXSize, m.VertexBuffers[s.VertexBuffer].SkinCount
			}
			w.nxFSHP(arr+i*nxFSHPSize, i, s, vb, skin)
			names = append(names, s.Name)
		}
		w.off(p+0x30, arr)
		w.off(p+0x38, w.nxDict(names))
	}
	w.put16(p+0x68, uint16(len(m.VertexBuffers)))
	w.put16(p+0x6A, uint16(len(m.Shapes)))
	w.put16(p+0x6C, uint16(len(m.Materials)))
	w.put32(p+0x70, uint32(total))
}

// gpuAppend adds data to the GPU block on an 8-byte boundary and returns
// its offset in the block.
func (w *writer) gpuAppend(data []byte) int {
	for len(w.gpu)%8 != 0 {
		w.gpu = append(w.gpu, 0)
	}
	at := len(w.gpu)
	w.gpu = append(w.gpu, data...)
	return at
}

// nxFVTX writes the Switch FVTX record at h, its attributes and the
// records of its buffers, whose bytes go to the GPU block one after the
// other; it returns the vertex count.
func (w *writer) nxFVTX(h, index int, vb VertexBuffer) int {
	count := vb.Count
	if count == 0 && len(vb.Attribs) > 0 {
		count = len(vb.Attribs[0].Values)
	}
	w.nxBlock(h, "FVTX", nxFVTXSize)
	if len(vb.Attribs) > 0 {
		attrs := w.reserve(nxAttribSize * len(vb.Attribs))
		var names []string
		for i, a := range vb.Attribs {
			ap := attrs + i*nxAttribSize
			w.str(ap, a.Name)
			w.put32(ap+8, SwitchAttribFormat(a.Format))
			w.put16(ap+0x0C, uint16(a.Offset))
			w.put16(ap+0x0E, uint16(a.Buffer))
			names = append(names, a.Name)
		}
		w.off(h+0x10, attrs)
		w.off(h+0x18, w.nxDict(names))
	}
	w.b[h+0x54] = uint8(len(vb.Attribs))
	w.b[h+0x55] = uint8(len(vb.Strides))
	w.put16(h+0x56, uint16(index))
	w.put32(h+0x58, uint32(count))
	w.put16(h+0x5C, uint16(vb.SkinCount))
	if len(vb.Strides) == 0 {
		return count
	}
	sizes := w.reserve(nxBufInfoSize * len(vb.Strides))
	strides := w.reserve(nxBufInfoSize * len(vb.Strides))
	w.off(h+0x38, sizes)
	w.off(h+0x40, strides)
	for bi, stride := range vb.Strides {
		data := vb.bufferData(bi, stride, count, binary.LittleEndian)
		at := w.gpuAppend(data)
		if bi == 0 {
			w.put32(h+0x50, uint32(at))
		}
		w.put32(sizes+bi*nxBufInfoSize, uint32(len(data)))
		w.put32(strides+bi*nxBufInfoSize, uint32(stride))
	}
	return count
}

// nxFSHP writes the Switch FSHP record at p and its meshes; vb is the
// position of its FVTX.
func (w *writer) nxFSHP(p, index int, s Shape, vb, skin int) {
	w.nxBlock(p, "FSHP", nxFSHPSize)
	w.str(p+0x10, s.Name)
	if vb != 0 {
		w.off(p+0x18, vb)
	}
	w.put16(p+0x5C, uint16(index))
	w.put16(p+0x5E, uint16(s.Material))
	w.put16(p+0x60, uint16(s.Bone))
	w.put16(p+0x62, uint16(s.VertexBuffer))
	w.put16(p+0x64, uint16(len(s.SkinBones)))
	w.b[p+0x66] = uint8(skin)
	w.b[p+0x67] = uint8(len(s.Meshes))
	if len(s.Meshes) > 0 {
		arr := w.reserve(nxMeshSize * len(s.Meshes))
		w.off(p+0x20, arr)
		for i, m := range s.Meshes {
			w.nxMesh(arr+i*nxMeshSize, m)
		}
	}
	if len(s.SkinBones) > 0 {
		w.off(p+0x28, w.pos())
		for _, b := range s.SkinBones {
			w.b = w.order.AppendUint16(w.b, b)
		}
		w.align()
	}
}

// nxMesh writes a Switch mesh record at r: its sub-meshes, the buffer-size
// record and the indices (little-endian u16 or u32) in the GPU block.
func (w *writer) nxMesh(r int, m Mesh) {
	subs, data, size := w.meshData(r, m, binary.LittleEndian)
	format := uint32(size / 2) // Switch index format: 1 u16, 2 u32
	rec := w.reserve(nxBufInfoSize)
	w.put32(rec, uint32(len(data)))
	w.off(r+0x18, rec)
	w.put32(r+0x20, uint32(w.gpuAppend(data)))
	prim, ok := nxPrims[m.Primitive]
	if !ok {
		prim = 0x100 | m.Primitive // no Switch topology: an invalid one, for hostile tests
	}
	w.put32(r+0x24, prim)
	w.put32(r+0x28, format)
	w.put32(r+0x2C, uint32(len(m.Indices)))
	w.put32(r+0x30, m.FirstVertex)
	w.put16(r+0x34, uint16(len(subs)))
}

// nxFMAT writes the Switch FMAT record at p: render infos, shader assign,
// texture names, samplers (address modes and filters from the GX2 words)
// and shader parameters (their 32-bit words little-endian).
func (w *writer) nxFMAT(p, index int, m Material) {
	w.nxBlock(p, "FMAT", nxFMATSize)
	w.str(p+0x10, m.Name)
	w.put32(p+0xA0, 1)
	w.put16(p+0xA4, uint16(index))
	w.put16(p+0xA6, uint16(len(m.RenderInfo)))
	w.b[p+0xA8] = uint8(len(m.Samplers))
	w.b[p+0xA9] = uint8(len(m.Samplers))
	w.put16(p+0xAA, uint16(len(m.Params)))
	if len(m.RenderInfo) > 0 {
		arr := w.reserve(nxRenderInfoSize * len(m.RenderInfo))
		var names []string
		for i, ri := range m.RenderInfo {
			w.nxRenderInfo(arr+i*nxRenderInfoSize, ri)
			names = append(names, ri.Name)
		}
		w.off(p+0x18, arr)
		w.off(p+0x20, w.nxDict(names))
	}
	sa := w.reserve(nxShaderAssignSize)
	w.off(p+0x28, sa)
	w.str(sa, m.ShaderArchive)
	w.str(sa+8, m.ShadingModel)
	if len(m.SamplerAssign) > 0 {
		vals := w.reserve(8 * len(m.SamplerAssign))
		var names []string
		for i, a := range m.SamplerAssign {
			names = append(names, a[0])
			w.str(vals+8*i, a[1])
		}
		w.off(sa+0x20, vals)
		w.off(sa+0x28, w.nxDict(names))
		w.b[sa+0x45] = uint8(len(m.SamplerAssign))
	}
	if len(m.Samplers) > 0 {
		texNames := w.reserve(8 * len(m.Samplers))
		smp := w.reserve(nxSamplerSize * len(m.Samplers))
		var names []string
		for i, s := range m.Samplers {
			w.str(texNames+8*i, s.Texture)
			sp := smp + nxSamplerSize*i
			word := s.Words[0]
			for k, clamp := range []uint32{word & 7, word >> 3 & 7, word >> 6 & 7} {
				w.b[sp+k] = nxAddressModes[clamp]
			}
			mag, minf := uint16(word>>9&1)+1, uint16(word>>12&1)+1 // GX2 point 0, bilinear 1 → 1, 2
			w.put16(sp+6, mag<<2|minf<<4)
			names = append(names, s.Name)
		}
		w.off(p+0x38, texNames)
		w.off(p+0x48, smp)
		w.off(p+0x50, w.nxDict(names))
	}
	if len(m.Params) > 0 {
		arr := w.reserve(nxShaderParamSize * len(m.Params))
		var names []string
		var data []byte
		for i, sp := range m.Params {
			r := arr + nxShaderParamSize*i
			w.str(r+8, sp.Name)
			w.b[r+0x10] = sp.Type
			w.b[r+0x11] = uint8(len(sp.Data))
			w.put16(r+0x12, uint16(len(data)))
			for k := 0; k+4 <= len(sp.Data); k += 4 {
				data = binary.LittleEndian.AppendUint32(data, binary.BigEndian.Uint32(sp.Data[k:]))
			}
			names = append(names, sp.Name)
		}
		w.off(p+0x58, arr)
		w.off(p+0x60, w.nxDict(names))
		w.put16(p+0xAE, uint16(len(data)))
		w.off(p+0x68, w.pos())
		w.b = append(w.b, data...)
		w.align()
	}
}

// nxRenderInfo writes a Switch render-info record at p and its values.
func (w *writer) nxRenderInfo(p int, ri RenderInfo) {
	n, typ := len(ri.Ints), uint8(0)
	if ri.Floats != nil {
		n, typ = len(ri.Floats), 1
	}
	if ri.Strings != nil {
		n, typ = len(ri.Strings), 2
	}
	w.str(p, ri.Name)
	w.put16(p+0x10, uint16(n))
	w.b[p+0x12] = typ
	if n == 0 {
		return
	}
	size := 4
	if typ == 2 {
		size = 8
	}
	vals := w.reserve(size * n)
	w.off(p+8, vals)
	for i := range n {
		switch typ {
		case 0:
			w.put32(vals+4*i, uint32(ri.Ints[i]))
		case 1:
			w.put32(vals+4*i, math.Float32bits(ri.Floats[i]))
		default:
			w.str(vals+8*i, ri.Strings[i])
		}
	}
}
