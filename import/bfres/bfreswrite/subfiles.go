package bfreswrite

import (
	"encoding/binary"
	"math"
)

// model writes an FMDL holding only its FSKL skeleton.
func (w *writer) model(m Model) int {
	p := w.reserve(fmdlSize)
	copy(w.b[p:], "FMDL")
	w.str(p+4, m.Name)
	sk := w.reserve(0x20)
	w.off(p+0x0C, sk)
	copy(w.b[sk:], "FSKL")
	w.put32(sk+4, m.SkelFlags)
	w.put16(sk+8, uint16(len(m.Bones)))
	size := boneSize(w.version)
	arr := w.reserve(size * len(m.Bones))
	if len(m.Bones) > 0 {
		w.off(sk+0x14, arr)
	}
	var smooth []*[12]float32
	var smoothBones []int
	for i, b := range m.Bones {
		if b.InverseModel != nil {
			smooth = append(smooth, b.InverseModel)
			smoothBones = append(smoothBones, i)
		}
	}
	next := 0
	for i, b := range m.Bones {
		bp := arr + i*size
		w.str(bp, b.Name)
		w.put16(bp+4, uint16(i))
		w.put16(bp+6, uint16(b.Parent))
		w.put32(bp+0x10, b.Flags)
		for j, v := range append(append(b.S[:], b.R[:]...), b.T[:]...) {
			w.putF(bp+0x14+4*j, v)
		}
		switch {
		case b.InverseModel != nil:
			w.put16(bp+8, uint16(next))
			next++
			if !w.new() {
				w.matrix(bp+0x40, b.InverseModel)
			}
		case len(smooth) > 0:
			w.put16(bp+8, 0xFFFF) // no smooth matrix
		}
	}
	if len(smooth) > 0 {
		w.put16(sk+0x0A, uint16(len(smooth)))
		list := w.reserve(2 * len(smooth))
		w.off(sk+0x18, list)
		for k, b := range smoothBones {
			w.put16(list+2*k, uint16(b))
		}
		w.align()
		if w.new() {
			table := w.reserve(0x30 * len(smooth))
			w.off(sk+0x1C, table)
			for k, m := range smooth {
				w.matrix(table+0x30*k, m)
			}
		}
	}
	w.skinTables(sk, arr, m)
	w.meshes(p, m)
	return p
}

// matrix writes a 3×4 matrix at at.
func (w *writer) matrix(at int, m *[12]float32) {
	for j, v := range m {
		w.putF(at+4*j, v)
	}
}

// fska writes a skeletal animation and its bone animations.
func (w *writer) fska(a FSKA) int {
	p := w.reserve(fskaHeaderSize)
	copy(w.b[p:], "FSKA")
	w.str(p+4, a.Name)
	w.put32(p+0x0C, a.Flags)
	total := 0
	for _, b := range a.Bones {
		total += len(b.Curves)
	}
	if w.new() {
		w.put32(p+0x10, uint32(a.Frames))
		w.put16(p+0x14, uint16(len(a.Bones)))
		w.put32(p+0x18, uint32(total))
	} else {
		w.put16(p+0x10, uint16(a.Frames))
		w.put16(p+0x12, uint16(len(a.Bones)))
		w.put32(p+0x14, uint32(total))
	}
	arr := w.reserve(boneAnimSize * len(a.Bones))
	if len(a.Bones) > 0 {
		w.off(p+0x20, arr)
	}
	for i, b := range a.Bones {
		bp := arr + i*boneAnimSize
		w.put32(bp, b.Flags)
		w.str(bp+4, b.Name)
		w.b[bp+0x0A] = uint8(len(b.Curves))
		w.boneAnimData(bp+0x10, bp+0x14, b)
	}
	return p
}

// boneAnimData writes a bone anim's curves and base values and stores their
// offsets at curvesAt and baseAt (left null when there are none).
func (w *writer) boneAnimData(curvesAt, baseAt int, b BoneAnim) {
	if len(b.Curves) > 0 {
		w.off(curvesAt, w.curves(b.Curves))
	}
	if len(b.Base) > 0 {
		w.off(baseAt, w.pos())
		for _, v := range b.Base {
			w.b = w.order.AppendUint32(w.b, math.Float32bits(v))
		}
	}
}

// fshu writes a shader-parameter (or colour, texture-SRT) animation.
func (w *writer) fshu(a FSHU) int {
	p := w.reserve(0x34)
	copy(w.b[p:], "FSHU")
	w.str(p+4, a.Name)
	w.put32(p+0x0C, a.Flags)
	if w.new() {
		w.put32(p+0x10, uint32(a.Frames))
		w.put16(p+0x14, uint16(len(a.Mats)))
	} else {
		w.put16(p+0x10, uint16(a.Frames))
		w.put16(p+0x12, uint16(len(a.Mats)))
	}
	arr := w.reserve(shuMatAnimSize * len(a.Mats))
	if len(a.Mats) > 0 {
		w.off(p+0x2C, arr)
	}
	for i, m := range a.Mats {
		mp := arr + i*shuMatAnimSize
		var curves []Curve
		var consts []Const
		for _, pa := range m.Params {
			curves = append(curves, pa.Curves...)
			consts = append(consts, pa.Consts...)
		}
		w.put16(mp, uint16(len(m.Params)))
		w.put16(mp+2, uint16(len(curves)))
		w.put16(mp+4, uint16(len(consts)))
		w.str(mp+0x10, m.Name)
		info := w.reserve(paramAnimSize * len(m.Params))
		w.off(mp+0x14, info)
		bc, bk := 0, 0
		for j, pa := range m.Params {
			ip := info + j*paramAnimSize
			w.put16(ip, uint16(bc))
			w.put16(ip+2, uint16(pa.NumFloat))
			w.put16(ip+4, uint16(len(pa.Curves)-pa.NumFloat))
			w.put16(ip+6, uint16(bk))
			w.put16(ip+8, uint16(len(pa.Consts)))
			w.put16(ip+10, 0xFFFF)
			w.str(ip+12, pa.Name)
			bc += len(pa.Curves)
			bk += len(pa.Consts)
		}
		if len(curves) > 0 {
			w.off(mp+0x18, w.curves(curves))
		}
		if len(consts) > 0 {
			w.off(mp+0x1C, w.pos())
			for _, c := range consts {
				w.b = binary.BigEndian.AppendUint32(w.b, c.Target)
				w.b = binary.BigEndian.AppendUint32(w.b, c.Bits)
			}
		}
	}
	return p
}

// ftxp writes a texture pattern animation.
func (w *writer) ftxp(a FTXP) int {
	p := w.reserve(0x38)
	copy(w.b[p:], "FTXP")
	w.str(p+4, a.Name)
	w.put16(p+0x0C, a.Flags)
	if w.new() {
		w.put32(p+0x10, uint32(a.Frames))
		w.put16(p+0x14, uint16(len(a.Textures)))
		w.put16(p+0x16, uint16(len(a.Mats)))
	} else {
		w.put16(p+0x0E, uint16(a.Frames))
		w.put16(p+0x10, uint16(len(a.Textures)))
		w.put16(p+0x12, uint16(len(a.Mats)))
	}
	arr := w.reserve(txpMatAnimSize * len(a.Mats))
	if len(a.Mats) > 0 {
		w.off(p+0x2C, arr)
	}
	for i, m := range a.Mats {
		mp := arr + i*txpMatAnimSize
		var curves []Curve
		w.put16(mp, uint16(len(m.Pats)))
		w.str(mp+0x0C, m.Name)
		info := w.reserve(patAnimInfoSize * len(m.Pats))
		w.off(mp+0x10, info)
		for j, pa := range m.Pats {
			ip := info + j*patAnimInfoSize
			w.b[ip] = 0xFF
			if pa.Curve != nil {
				w.b[ip] = uint8(len(curves))
				curves = append(curves, *pa.Curve)
			}
			w.str(ip+4, pa.Sampler)
		}
		w.put16(mp+2, uint16(len(curves)))
		base := w.reserve(2 * len(m.Pats))
		w.off(mp+0x18, base)
		for j, pa := range m.Pats {
			w.put16(base+2*j, pa.Base)
		}
		w.align()
		if len(curves) > 0 {
			w.off(mp+0x14, w.curves(curves))
		}
	}
	if len(a.Textures) > 0 {
		if w.new() {
			data := make([]int, len(a.Textures))
			for i := range data {
				data[i] = p // FTEX offsets are unused by the reader
			}
			w.off(p+0x30, w.dict(a.Textures, data))
		} else {
			refs := w.reserve(8 * len(a.Textures))
			w.off(p+0x30, refs)
			for i, t := range a.Textures {
				w.str(refs+8*i, t)
			}
		}
	}
	return p
}

// fvis writes a bone or material visibility animation.
func (w *writer) fvis(a FVIS) int {
	p := w.reserve(0x34)
	copy(w.b[p:], "FVIS")
	w.str(p+4, a.Name)
	flags := a.Flags
	if a.Material {
		flags |= fvisMaterial
	}
	w.put16(p+0x0C, flags)
	if w.new() {
		w.put32(p+0x10, uint32(a.Frames))
		w.put16(p+0x14, uint16(len(a.Names)))
		w.put16(p+0x16, uint16(len(a.Curves)))
	} else {
		w.put16(p+0x0E, uint16(a.Frames))
		w.put16(p+0x10, uint16(len(a.Names)))
		w.put16(p+0x12, uint16(len(a.Curves)))
	}
	names := w.reserve(4 * len(a.Names))
	w.off(p+0x24, names)
	for i, n := range a.Names {
		w.str(names+4*i, n)
	}
	base := w.reserve(4 * ((len(a.Names) + 31) / 32))
	w.off(p+0x2C, base)
	for i, b := range a.Base {
		if b {
			w.b[base+4*(i/32)+3-(i%32)/8] |= 1 << (i % 8)
		}
	}
	if len(a.Curves) > 0 {
		w.off(p+0x28, w.curves(a.Curves))
	}
	return p
}
