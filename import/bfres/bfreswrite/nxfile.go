package bfreswrite

import (
	"encoding/binary"
	"math"
)

// VSwitch is the Switch binary version the project writes: 0.8.0.0, that
// of Super Mario Odyssey's files (docs/formats/bfres-switch.md).
const VSwitch = 0x00080000

// Switch record sizes (version 8; the importer's nx_*.go files give the
// field offsets).
const (
	nxHeaderSize   = 0xD0
	nxFMDLSize     = 0x78
	nxFSKLSize     = 0x58
	nxBoneSize     = 0x60
	nxFSKASize     = 0x60
	nxBoneAnimSize = 0x28
)

// Switch header lists, in header order (value array at 0x28 + 16·i, its
// dictionary at 0x30 + 16·i; counts from 0xBC).
const (
	nxModels = iota
	nxSkeletalAnims
	nxMaterialAnims
	nxBoneVisAnims
)

// switchBytes lays out a Switch image: the header, the sub-file lists (each
// a contiguous array of records with its dictionary: models, FSKA, FMAA
// made of the FSHU and FTXP, FBVS made of the bone FVIS; material FVIS
// have no Switch form here and are left out), the embedded files, the
// string pool (u16 length, characters, NUL, padded to 2 bytes), then the
// GPU block.
func (tf *File) switchBytes() []byte {
	w := &writer{version: tf.Version, order: binary.LittleEndian, nx: true}
	w.reserve(nxHeaderSize)
	copy(w.b, "FRES    ")
	w.put32(8, tf.Version)
	w.b[0x0C], w.b[0x0D] = 0xFF, 0xFE
	w.b[0x0E] = 0x0C // alignment, log2
	w.str(0x20, tf.Name)
	list := func(i int, names []string, size int, write func(k, at int)) {
		if len(names) == 0 {
			return
		}
		arr := w.reserve(size * len(names))
		for k := range names {
			write(k, arr+k*size)
		}
		w.off(0x28+16*i, arr)
		w.off(0x30+16*i, w.nxDict(names))
		w.put16(0xBC+2*i, uint16(len(names)))
	}
	var names []string
	for _, m := range tf.Models {
		names = append(names, m.Name)
	}
	list(nxModels, names, nxFMDLSize, func(k, at int) { w.nxModel(at, tf.Models[k]) })
	names = nil
	for _, a := range tf.FSKA {
		names = append(names, a.Name)
	}
	list(nxSkeletalAnims, names, nxFSKASize, func(k, at int) { w.nxFSKA(at, tf.FSKA[k]) })
	mas := tf.nxMaterialAnims()
	names = nil
	for _, a := range mas {
		names = append(names, a.name)
	}
	list(nxMaterialAnims, names, nxFMAASize, func(k, at int) { w.nxFMAA(at, mas[k]) })
	var vis []FVIS
	names = nil
	for _, a := range tf.FVIS {
		if !a.Material { // material visibility lives in FMAA on the Switch, not written
			vis = append(vis, a)
			names = append(names, a.Name)
		}
	}
	list(nxBoneVisAnims, names, nxFBVSSize, func(k, at int) { w.nxFBVS(at, vis[k]) })
	if len(tf.Embedded) > 0 {
		// The embedded files: (u64 data offset, u64 size) records, their
		// dictionary at 0xA0, their data on 8-byte boundaries.
		arr := w.reserve(0x10 * len(tf.Embedded))
		names = nil
		for i, e := range tf.Embedded {
			names = append(names, e.Name)
			for len(w.b)%8 != 0 {
				w.b = append(w.b, 0)
			}
			w.off(arr+0x10*i, w.pos())
			w.order.PutUint64(w.b[arr+0x10*i+8:], uint64(len(e.Data)))
			w.b = append(w.b, e.Data...)
		}
		w.off(0x98, arr)
		w.off(0xA0, w.nxDict(names))
		w.put16(0xC8, uint16(len(tf.Embedded)))
	}
	w.nxStringPool()
	if len(w.gpu) > 0 {
		// The buffer info (u32, u32 size, u64 offset of the GPU block, 16
		// reserved bytes) and the block, on an 8-byte boundary.
		info := w.reserve(0x20)
		w.put32(info+4, uint32(len(w.gpu)))
		for len(w.b)%8 != 0 {
			w.b = append(w.b, 0)
		}
		w.order.PutUint64(w.b[info+8:], uint64(len(w.b)))
		w.b = append(w.b, w.gpu...)
		w.off(0x90, info)
	}
	w.put32(0x1C, uint32(len(w.b)))
	return w.b
}

// nxBlock starts a sub-file record at at: its magic and block header (u32
// next-block offset, u64 size).
func (w *writer) nxBlock(at int, magic string, size int) {
	copy(w.b[at:], magic)
	w.put32(at+4, uint32(size))
	w.order.PutUint64(w.b[at+8:], uint64(size))
}

// nxDict writes a Switch dictionary of names ("_DIC", count, then the
// root and one 16-byte node per name: u32 reference bit, u16 left and
// right links, u64 name). The nodes form a chain whose downward links go
// to increasing reference bits, as the reader's check wants; the values
// are the records of the list's array, in the same order.
func (w *writer) nxDict(names []string) int {
	n := len(names)
	p := w.reserve(8 + 16*(n+1))
	copy(w.b[p:], "_DIC")
	w.put32(p+4, uint32(n))
	root := p + 8
	w.put32(root, 0xFFFFFFFF)
	w.str(root+8, "")
	if n > 0 {
		w.put16(root+4, 1)
	}
	w.dictChain(p+8, names, func(i int) uint32 { return uint32(i - 1) })
	return p
}

// nxStringPool writes the pool of every string the image names, sorted,
// and resolves their offsets; the pool's offset and size go to the header.
func (w *writer) nxStringPool() {
	for len(w.b)%8 != 0 {
		w.b = append(w.b, 0)
	}
	pool := w.pos()
	seen := map[string]int{}
	for _, s := range w.sortedStrings() {
		seen[s] = w.pos()
		w.b = w.order.AppendUint16(w.b, uint16(len(s)))
		w.b = append(w.b, s...)
		w.b = append(w.b, 0)
		if len(w.b)%2 != 0 {
			w.b = append(w.b, 0)
		}
	}
	w.off(0xB0, pool)
	w.put32(0xB8, uint32(w.pos()-pool))
	for _, f := range w.strs {
		w.off(f.at, seen[f.s])
	}
}

// nxModel writes the FMDL record at p and its skeleton.
func (w *writer) nxModel(p int, m Model) {
	w.nxBlock(p, "FMDL", nxFMDLSize)
	w.str(p+0x10, m.Name)
	sk := w.reserve(nxFSKLSize)
	w.off(p+0x20, sk)
	w.nxBlock(sk, "FSKL", nxFSKLSize)
	w.put32(sk+0x48, m.SkelFlags)
	w.put16(sk+0x4C, uint16(len(m.Bones)))
	if len(m.Bones) > 0 {
		arr := w.reserve(nxBoneSize * len(m.Bones))
		w.off(sk+0x18, arr)
		names := make([]string, len(m.Bones))
		for i, b := range m.Bones {
			bp := arr + i*nxBoneSize
			names[i] = b.Name
			w.str(bp, b.Name)
			w.put16(bp+0x28, uint16(i))
			w.put16(bp+0x2A, uint16(b.Parent))
			w.put16(bp+0x2C, 0xFFFF)
			w.put16(bp+0x2E, 0xFFFF)
			w.put16(bp+0x30, 0xFFFF)
			w.put32(bp+0x34, b.Flags)
			for j, v := range append(append(b.S[:], b.R[:]...), b.T[:]...) {
				w.putF(bp+0x38+4*j, v)
			}
		}
		w.off(sk+0x10, w.nxDict(names))
		w.nxSkinTables(sk, arr, m)
	}
	w.nxMeshes(p, m)
}

// nxSkinTables writes the matrix palette of a Switch FSKL at sk (bones at
// arr): counts at 0x4E and 0x50, the matrix-to-bone list (0x20), the
// inverse model matrices (0x28) and each bone's smooth and rigid index.
func (w *writer) nxSkinTables(sk, arr int, m Model) {
	ns, nr := len(m.SmoothMatrices), len(m.RigidMatrices)
	if ns+nr == 0 {
		return
	}
	w.put16(sk+0x4E, uint16(ns))
	w.put16(sk+0x50, uint16(nr))
	for k, b := range m.SmoothMatrices {
		if int(b) < len(m.Bones) {
			w.put16(arr+int(b)*nxBoneSize+0x2C, uint16(k))
		}
	}
	for k, b := range m.RigidMatrices {
		if int(b) < len(m.Bones) {
			w.put16(arr+int(b)*nxBoneSize+0x2E, uint16(ns+k))
		}
	}
	w.off(sk+0x20, w.pos())
	for _, b := range append(append([]uint16(nil), m.SmoothMatrices...), m.RigidMatrices...) {
		w.b = w.order.AppendUint16(w.b, b)
	}
	w.align()
	if ns > 0 {
		w.off(sk+0x28, w.pos())
		for k := range ns {
			for _, v := range m.InverseModel[k] {
				w.b = w.order.AppendUint32(w.b, math.Float32bits(v))
			}
		}
	}
}

// nxFSKA writes the FSKA record at p and its bone animations.
func (w *writer) nxFSKA(p int, a FSKA) {
	w.nxBlock(p, "FSKA", nxFSKASize)
	w.str(p+0x10, a.Name)
	w.str(p+0x18, "")
	total := 0
	for _, b := range a.Bones {
		total += len(b.Curves)
	}
	w.put32(p+0x48, a.Flags)
	w.put32(p+0x4C, uint32(a.Frames))
	w.put32(p+0x50, uint32(total))
	w.put16(p+0x58, uint16(len(a.Bones)))
	if len(a.Bones) == 0 {
		return
	}
	arr := w.reserve(nxBoneAnimSize * len(a.Bones))
	w.off(p+0x30, arr)
	for i, b := range a.Bones {
		bp := arr + i*nxBoneAnimSize
		w.str(bp, b.Name)
		w.put32(bp+0x18, b.Flags)
		w.b[bp+0x1E] = uint8(len(b.Curves))
		w.boneAnimData(bp+0x08, bp+0x10, b)
	}
}

// Switch animation records (version 8; the importer's nx_matanim.go gives
// the field offsets).
const (
	nxFMAASize        = 0x78
	nxMatAnimSize     = 0x40
	nxParamAnimSize   = 0x18
	nxPatAnimInfoSize = 0x10
	nxFBVSSize        = 0x68
)

// nxMaterialAnim is one FMAA to write: the Switch merges an FSHU's and an
// FTXP's contents into one material animation.
type nxMaterialAnim struct {
	name     string
	flags    uint16
	frames   int32
	params   []ShuMat
	patterns *FTXP
}

// nxMaterialAnims gathers the FMAA of a description: one per FSHU and one
// per FTXP, in that order (an FTXP named like an FSHU joins it).
func (tf *File) nxMaterialAnims() []nxMaterialAnim {
	var out []nxMaterialAnim
	for _, a := range tf.FSHU {
		out = append(out, nxMaterialAnim{name: a.Name, flags: uint16(a.Flags), frames: a.Frames, params: a.Mats})
	}
	for i := range tf.FTXP {
		a := &tf.FTXP[i]
		joined := false
		for k := range out {
			if out[k].name == a.Name {
				out[k].patterns, joined = a, true
			}
		}
		if !joined {
			out = append(out, nxMaterialAnim{name: a.Name, flags: a.Flags, frames: a.Frames, patterns: a})
		}
	}
	return out
}

// nxFMAA writes the FMAA record at p and its material anims: per material
// its param anims (curves, then constants) and pattern anims (a constant
// holding the base texture index, the curve if any), all curves of a
// material in one array.
func (w *writer) nxFMAA(p int, a nxMaterialAnim) {
	w.nxBlock(p, "FMAA", nxFMAASize)
	w.str(p+0x10, a.name)
	w.str(p+0x18, "")
	w.put16(p+0x60, a.flags)
	w.put32(p+0x68, uint32(a.frames))
	type mat struct {
		name   string
		params []Param
		pats   []Pat
	}
	var mats []mat
	index := map[string]int{}
	add := func(name string) *mat {
		if i, ok := index[name]; ok {
			return &mats[i]
		}
		index[name] = len(mats)
		mats = append(mats, mat{name: name})
		return &mats[len(mats)-1]
	}
	for _, m := range a.params {
		mm := add(m.Name)
		mm.params = append(mm.params, m.Params...)
	}
	if a.patterns != nil {
		for _, m := range a.patterns.Mats {
			mm := add(m.Name)
			mm.pats = append(mm.pats, m.Pats...)
		}
		if n := len(a.patterns.Textures); n > 0 {
			arr := w.reserve(8 * n)
			for i, t := range a.patterns.Textures {
				w.str(arr+8*i, t)
			}
			w.off(p+0x40, arr)
			w.put16(p+0x76, uint16(n))
		}
	}
	w.put16(p+0x64, uint16(len(mats)))
	if len(mats) == 0 {
		return
	}
	arr := w.reserve(nxMatAnimSize * len(mats))
	w.off(p+0x30, arr)
	totalCurves, totalParams, totalPats := 0, 0, 0
	for i, m := range mats {
		r := arr + i*nxMatAnimSize
		w.str(r, m.name)
		for _, at := range []int{0x2A, 0x2C, 0x2E, 0x30} {
			w.put16(r+at, 0xFFFF)
		}
		var curves []Curve
		var consts []Const
		if len(m.params) > 0 {
			infos := w.reserve(nxParamAnimSize * len(m.params))
			w.off(r+0x08, infos)
			for k, pa := range m.params {
				ip := infos + k*nxParamAnimSize
				w.str(ip, pa.Name)
				w.put16(ip+0x08, uint16(len(curves)))
				w.put16(ip+0x0A, uint16(pa.NumFloat))
				w.put16(ip+0x0C, uint16(len(pa.Curves)-pa.NumFloat))
				w.put16(ip+0x0E, uint16(len(consts)))
				w.put16(ip+0x10, uint16(len(pa.Consts)))
				w.put16(ip+0x12, 0xFFFF)
				curves = append(curves, pa.Curves...)
				consts = append(consts, pa.Consts...)
			}
		}
		if len(m.pats) > 0 {
			infos := w.reserve(nxPatAnimInfoSize * len(m.pats))
			w.off(r+0x10, infos)
			w.put16(r+0x2A, uint16(len(curves)))
			for k, pt := range m.pats {
				ip := infos + k*nxPatAnimInfoSize
				w.str(ip, pt.Sampler)
				w.put16(ip+0x08, 0xFFFF)
				if pt.Curve != nil {
					w.put16(ip+0x08, uint16(len(curves)))
					curves = append(curves, *pt.Curve)
				}
				w.put16(ip+0x0A, uint16(len(consts)))
				consts = append(consts, Const{Bits: uint32(pt.Base)})
				w.b[ip+0x0C] = 0xFF
			}
		}
		w.put16(r+0x32, uint16(len(m.params)))
		w.put16(r+0x34, uint16(len(m.pats)))
		w.put16(r+0x36, uint16(len(consts)))
		w.put16(r+0x38, uint16(len(curves)))
		if len(curves) > 0 {
			w.off(r+0x18, w.curves(curves))
		}
		if len(consts) > 0 {
			w.off(r+0x20, w.pos())
			for _, c := range consts {
				w.b = w.order.AppendUint32(w.b, c.Target)
				w.b = w.order.AppendUint32(w.b, c.Bits)
			}
		}
		totalCurves += len(curves)
		totalParams += len(m.params)
		totalPats += len(m.pats)
	}
	w.put16(p+0x66, uint16(totalCurves))
	w.put16(p+0x70, uint16(totalParams))
	w.put16(p+0x72, uint16(totalPats))
}

// nxFBVS writes the FBVS record at p: names, base bits and curves of a
// bone visibility animation.
func (w *writer) nxFBVS(p int, a FVIS) {
	w.nxBlock(p, "FBVS", nxFBVSSize)
	w.str(p+0x10, a.Name)
	w.str(p+0x18, "")
	w.put16(p+0x58, a.Flags)
	w.put32(p+0x5C, uint32(a.Frames))
	w.put16(p+0x60, uint16(len(a.Names)))
	w.put16(p+0x62, uint16(len(a.Curves)))
	if len(a.Names) > 0 {
		arr := w.reserve(8 * len(a.Names))
		for i, n := range a.Names {
			w.str(arr+8*i, n)
		}
		w.off(p+0x40, arr)
		bits := w.reserve(4 * ((len(a.Base) + 31) / 32))
		for i, b := range a.Base {
			if b {
				w.put32(bits+4*(i/32), w.order.Uint32(w.b[bits+4*(i/32):])|1<<(i%32))
			}
		}
		w.off(p+0x38, bits)
	}
	if len(a.Curves) > 0 {
		w.off(p+0x30, w.curves(a.Curves))
	}
}
