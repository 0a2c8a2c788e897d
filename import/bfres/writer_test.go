package bfres

import (
	"encoding/binary"
	"math"
	"sort"
)

// This file is a small BFRES writer for tests and the fuzz seed corpus. It
// lays out Wii U FRES images (big-endian, self-relative offsets) of either
// the 3.0 or the 4.x layout from plain descriptions. Index groups are
// written as a chain (each node's left link descends to the next, with
// decreasing reference bits) rather than a real Patricia tree: the reader
// never looks names up, and a chain satisfies its link checks.

type testCurve struct {
	typ, ff, kk, pre, post int
	target                 uint32
	start, end             float32
	scale, offset          float32
	iOffset                int32
	isInt                  bool // write iOffset instead of offset
	delta                  float32
	frames, keys           []float64 // raw values as stored
}

type testBone struct {
	name   string
	parent int16
	flags  uint32
	s      [3]float32
	r      [4]float32
	t      [3]float32
}

type testModel struct {
	name      string
	skelFlags uint32
	bones     []testBone
}

type testBoneAnim struct {
	name   string
	flags  uint32
	base   []float32
	curves []testCurve
}

type testFSKA struct {
	name   string
	flags  uint32
	frames int32
	bones  []testBoneAnim
}

type testConst struct{ target, bits uint32 }

type testParam struct {
	name     string
	curves   []testCurve // float curves first
	numFloat int
	consts   []testConst
}

type testShuMat struct {
	name   string
	params []testParam
}

type testFSHU struct {
	name   string
	group  int
	flags  uint32
	frames int32
	mats   []testShuMat
}

type testPat struct {
	sampler string
	base    uint16
	curve   *testCurve
}

type testTxpMat struct {
	name string
	pats []testPat
}

type testFTXP struct {
	name     string
	flags    uint16
	frames   int32
	textures []string
	mats     []testTxpMat
}

type testFVIS struct {
	name     string
	flags    uint16
	frames   int32
	names    []string
	base     []bool
	curves   []testCurve
	material bool
}

type testFile struct {
	version uint32
	name    string
	models  []testModel
	fska    []testFSKA
	fshu    []testFSHU
	ftxp    []testFTXP
	fvis    []testFVIS
}

// writer accumulates the image; strings are patched in at the end.
type writer struct {
	b       []byte
	version uint32
	strs    []strFix
}

type strFix struct {
	at int
	s  string
}

func (w *writer) pos() int { return len(w.b) }

func (w *writer) align() {
	for len(w.b)%4 != 0 {
		w.b = append(w.b, 0)
	}
}

func (w *writer) reserve(n int) int {
	p := len(w.b)
	w.b = append(w.b, make([]byte, n)...)
	return p
}

func (w *writer) put32(at int, v uint32) { binary.BigEndian.PutUint32(w.b[at:], v) }
func (w *writer) put16(at int, v uint16) { binary.BigEndian.PutUint16(w.b[at:], v) }
func (w *writer) putF(at int, v float32) { w.put32(at, math.Float32bits(v)) }

// off stores the self-relative offset from at to target.
func (w *writer) off(at, target int) { w.put32(at, uint32(int32(target-at))) }

// str records a string offset at at, resolved when the pool is written.
func (w *writer) str(at int, s string) { w.strs = append(w.strs, strFix{at, s}) }

func (w *writer) new() bool { return w.version >= Version3_4 }

// curves writes n curve headers followed by their arrays; it returns the
// position of the first header.
func (w *writer) curves(cs []testCurve) int {
	size := curveSize(w.version)
	first := w.reserve(size * len(cs))
	for i, c := range cs {
		h := first + i*size
		flags := uint16(c.ff | c.kk<<2 | c.typ<<4 | c.pre<<8 | c.post<<12)
		w.put16(h, flags)
		n := len(c.frames)
		if n == 0 {
			n = len(c.keys) // baked: key count = samples
			if c.typ == 7 {
				n = int(c.end-c.start) + 1
			}
		}
		w.put16(h+2, uint16(n))
		w.put32(h+4, c.target)
		w.putF(h+8, c.start)
		w.putF(h+12, c.end)
		w.putF(h+16, c.scale)
		if c.isInt {
			w.put32(h+20, uint32(c.iOffset))
		} else {
			w.putF(h+20, c.offset)
		}
		arrays := h + 0x18
		if w.new() {
			w.putF(h+0x18, c.delta)
			arrays = h + 0x1C
		}
		if len(c.frames) > 0 {
			w.off(arrays, w.pos())
			for _, f := range c.frames {
				switch c.ff {
				case 0:
					w.b = binary.BigEndian.AppendUint32(w.b, math.Float32bits(float32(f)))
				case 1:
					w.b = binary.BigEndian.AppendUint16(w.b, uint16(int16(f)))
				default:
					w.b = append(w.b, uint8(f))
				}
			}
			w.align()
		}
		w.off(arrays+4, w.pos())
		for _, k := range c.keys {
			switch {
			case c.typ >= 6:
				w.b = binary.BigEndian.AppendUint32(w.b, uint32(int64(k)))
			case c.kk == 0 && c.typ < 4:
				w.b = binary.BigEndian.AppendUint32(w.b, math.Float32bits(float32(k)))
			case c.kk == 0:
				w.b = binary.BigEndian.AppendUint32(w.b, uint32(int32(k)))
			case c.kk == 1:
				w.b = binary.BigEndian.AppendUint16(w.b, uint16(int16(k)))
			default:
				w.b = append(w.b, uint8(int8(k)))
			}
		}
		w.align()
	}
	return first
}

// dict writes an index group of the given names and data positions.
func (w *writer) dict(names []string, data []int) int {
	n := len(names)
	p := w.reserve(8 + 16*(n+1))
	w.put32(p, uint32(8+16*(n+1)))
	w.put32(p+4, uint32(n))
	root := p + 8
	w.put32(root, 0xFFFFFFFF)
	if n > 0 {
		w.put16(root+4, 1)
	}
	for i := 1; i <= n; i++ {
		nd := p + 8 + 16*i
		w.put32(nd, uint32(n-i)) // decreasing reference bits along the chain
		next := uint16(i + 1)
		if i == n {
			next = 0
		}
		w.put16(nd+4, next)
		w.put16(nd+6, uint16(i))
		w.str(nd+8, names[i-1])
		w.off(nd+12, data[i-1])
	}
	return p
}

func (w *writer) model(m testModel) int {
	p := w.reserve(0x2C)
	copy(w.b[p:], "FMDL")
	w.str(p+4, m.name)
	sk := w.reserve(0x20)
	w.off(p+0x0C, sk)
	copy(w.b[sk:], "FSKL")
	w.put32(sk+4, m.skelFlags)
	w.put16(sk+8, uint16(len(m.bones)))
	size := boneSize(w.version)
	arr := w.reserve(size * len(m.bones))
	if len(m.bones) > 0 {
		w.off(sk+0x14, arr)
	}
	for i, b := range m.bones {
		bp := arr + i*size
		w.str(bp, b.name)
		w.put16(bp+4, uint16(i))
		w.put16(bp+6, uint16(b.parent))
		w.put32(bp+0x10, b.flags)
		for j, v := range append(append(b.s[:], b.r[:]...), b.t[:]...) {
			w.putF(bp+0x14+4*j, v)
		}
	}
	return p
}

func (w *writer) fska(a testFSKA) int {
	p := w.reserve(fskaHeaderSize)
	copy(w.b[p:], "FSKA")
	w.str(p+4, a.name)
	w.put32(p+0x0C, a.flags)
	total := 0
	for _, b := range a.bones {
		total += len(b.curves)
	}
	if w.new() {
		w.put32(p+0x10, uint32(a.frames))
		w.put16(p+0x14, uint16(len(a.bones)))
		w.put32(p+0x18, uint32(total))
	} else {
		w.put16(p+0x10, uint16(a.frames))
		w.put16(p+0x12, uint16(len(a.bones)))
		w.put32(p+0x14, uint32(total))
	}
	arr := w.reserve(boneAnimSize * len(a.bones))
	if len(a.bones) > 0 {
		w.off(p+0x20, arr)
	}
	for i, b := range a.bones {
		bp := arr + i*boneAnimSize
		w.put32(bp, b.flags)
		w.str(bp+4, b.name)
		w.b[bp+0x0A] = uint8(len(b.curves))
		if len(b.curves) > 0 {
			w.off(bp+0x10, w.curves(b.curves))
		}
		if len(b.base) > 0 {
			w.off(bp+0x14, w.pos())
			for _, v := range b.base {
				w.b = binary.BigEndian.AppendUint32(w.b, math.Float32bits(v))
			}
		}
	}
	return p
}

func (w *writer) fshu(a testFSHU) int {
	p := w.reserve(0x34)
	copy(w.b[p:], "FSHU")
	w.str(p+4, a.name)
	w.put32(p+0x0C, a.flags)
	if w.new() {
		w.put32(p+0x10, uint32(a.frames))
		w.put16(p+0x14, uint16(len(a.mats)))
	} else {
		w.put16(p+0x10, uint16(a.frames))
		w.put16(p+0x12, uint16(len(a.mats)))
	}
	arr := w.reserve(shuMatAnimSize * len(a.mats))
	if len(a.mats) > 0 {
		w.off(p+0x2C, arr)
	}
	for i, m := range a.mats {
		mp := arr + i*shuMatAnimSize
		var curves []testCurve
		var consts []testConst
		for _, pa := range m.params {
			curves = append(curves, pa.curves...)
			consts = append(consts, pa.consts...)
		}
		w.put16(mp, uint16(len(m.params)))
		w.put16(mp+2, uint16(len(curves)))
		w.put16(mp+4, uint16(len(consts)))
		w.str(mp+0x10, m.name)
		info := w.reserve(paramAnimSize * len(m.params))
		w.off(mp+0x14, info)
		bc, bk := 0, 0
		for j, pa := range m.params {
			ip := info + j*paramAnimSize
			w.put16(ip, uint16(bc))
			w.put16(ip+2, uint16(pa.numFloat))
			w.put16(ip+4, uint16(len(pa.curves)-pa.numFloat))
			w.put16(ip+6, uint16(bk))
			w.put16(ip+8, uint16(len(pa.consts)))
			w.put16(ip+10, 0xFFFF)
			w.str(ip+12, pa.name)
			bc += len(pa.curves)
			bk += len(pa.consts)
		}
		if len(curves) > 0 {
			w.off(mp+0x18, w.curves(curves))
		}
		if len(consts) > 0 {
			w.off(mp+0x1C, w.pos())
			for _, c := range consts {
				w.b = binary.BigEndian.AppendUint32(w.b, c.target)
				w.b = binary.BigEndian.AppendUint32(w.b, c.bits)
			}
		}
	}
	return p
}

func (w *writer) ftxp(a testFTXP) int {
	p := w.reserve(0x38)
	copy(w.b[p:], "FTXP")
	w.str(p+4, a.name)
	w.put16(p+0x0C, a.flags)
	if w.new() {
		w.put32(p+0x10, uint32(a.frames))
		w.put16(p+0x14, uint16(len(a.textures)))
		w.put16(p+0x16, uint16(len(a.mats)))
	} else {
		w.put16(p+0x0E, uint16(a.frames))
		w.put16(p+0x10, uint16(len(a.textures)))
		w.put16(p+0x12, uint16(len(a.mats)))
	}
	arr := w.reserve(txpMatAnimSize * len(a.mats))
	if len(a.mats) > 0 {
		w.off(p+0x2C, arr)
	}
	for i, m := range a.mats {
		mp := arr + i*txpMatAnimSize
		var curves []testCurve
		w.put16(mp, uint16(len(m.pats)))
		w.str(mp+0x0C, m.name)
		info := w.reserve(patAnimInfoSize * len(m.pats))
		w.off(mp+0x10, info)
		for j, pa := range m.pats {
			ip := info + j*patAnimInfoSize
			w.b[ip] = 0xFF
			if pa.curve != nil {
				w.b[ip] = uint8(len(curves))
				curves = append(curves, *pa.curve)
			}
			w.str(ip+4, pa.sampler)
		}
		w.put16(mp+2, uint16(len(curves)))
		base := w.reserve(2 * len(m.pats))
		w.off(mp+0x18, base)
		for j, pa := range m.pats {
			w.put16(base+2*j, pa.base)
		}
		w.align()
		if len(curves) > 0 {
			w.off(mp+0x14, w.curves(curves))
		}
	}
	if len(a.textures) > 0 {
		if w.new() {
			data := make([]int, len(a.textures))
			for i := range data {
				data[i] = p // FTEX offsets are unused by the reader
			}
			w.off(p+0x30, w.dict(a.textures, data))
		} else {
			refs := w.reserve(8 * len(a.textures))
			w.off(p+0x30, refs)
			for i, t := range a.textures {
				w.str(refs+8*i, t)
			}
		}
	}
	return p
}

func (w *writer) fvis(a testFVIS) int {
	p := w.reserve(0x34)
	copy(w.b[p:], "FVIS")
	w.str(p+4, a.name)
	flags := a.flags
	if a.material {
		flags |= fvisMaterial
	}
	w.put16(p+0x0C, flags)
	if w.new() {
		w.put32(p+0x10, uint32(a.frames))
		w.put16(p+0x14, uint16(len(a.names)))
		w.put16(p+0x16, uint16(len(a.curves)))
	} else {
		w.put16(p+0x0E, uint16(a.frames))
		w.put16(p+0x10, uint16(len(a.names)))
		w.put16(p+0x12, uint16(len(a.curves)))
	}
	names := w.reserve(4 * len(a.names))
	w.off(p+0x24, names)
	for i, n := range a.names {
		w.str(names+4*i, n)
	}
	base := w.reserve(4 * ((len(a.names) + 31) / 32))
	w.off(p+0x2C, base)
	for i, b := range a.base {
		if b {
			w.b[base+4*(i/32)+3-(i%32)/8] |= 1 << (i % 8)
		}
	}
	if len(a.curves) > 0 {
		w.off(p+0x28, w.curves(a.curves))
	}
	return p
}

// bytes lays out the whole image.
func (tf *testFile) bytes() []byte {
	w := &writer{version: tf.version}
	h := w.reserve(HeaderSize)
	copy(w.b, "FRES")
	w.put32(4, tf.version)
	w.put16(8, 0xFEFF)
	w.put16(10, 0x10)
	w.put32(0x10, 4)
	w.str(0x14, tf.name)
	var groups [NumGroups][]string
	var datas [NumGroups][]int
	add := func(g int, name string, p int) {
		groups[g] = append(groups[g], name)
		datas[g] = append(datas[g], p)
	}
	for _, m := range tf.models {
		add(GroupModels, m.name, w.model(m))
	}
	for _, a := range tf.fska {
		add(GroupSkeletalAnims, a.name, w.fska(a))
	}
	for _, a := range tf.fshu {
		add(a.group, a.name, w.fshu(a))
	}
	for _, a := range tf.ftxp {
		add(GroupTexPatternAnims, a.name, w.ftxp(a))
	}
	for _, a := range tf.fvis {
		g := GroupBoneVisAnims
		if a.material {
			g = GroupMatVisAnims
		}
		add(g, a.name, w.fvis(a))
	}
	for g := range NumGroups {
		if len(groups[g]) > 0 {
			w.off(h+0x20+4*g, w.dict(groups[g], datas[g]))
			w.put16(h+0x50+2*g, uint16(len(groups[g])))
		}
	}
	// String pool: sorted, each u32 length, characters, NUL, padding.
	pool := w.pos()
	seen := map[string]int{}
	var all []string
	for _, f := range w.strs {
		if _, ok := seen[f.s]; !ok {
			seen[f.s] = 0
			all = append(all, f.s)
		}
	}
	sort.Strings(all)
	for _, s := range all {
		w.b = binary.BigEndian.AppendUint32(w.b, uint32(len(s)))
		seen[s] = w.pos()
		w.b = append(w.b, s...)
		w.b = append(w.b, 0)
		w.align()
	}
	w.off(0x1C, pool)
	w.put32(0x18, uint32(w.pos()-pool))
	for _, f := range w.strs {
		w.off(f.at, seen[f.s])
	}
	w.put32(0x0C, uint32(len(w.b)))
	return w.b
}

// yaz0Encode compresses data as Yaz0 with a greedy search for
// back-references (short and long forms), to exercise every decoder path.
func yaz0Encode(data []byte) []byte {
	out := []byte("Yaz0")
	out = binary.BigEndian.AppendUint32(out, uint32(len(data)))
	out = append(out, make([]byte, 8)...)
	for i := 0; i < len(data); {
		head := len(out)
		out = append(out, 0)
		for bit := 7; bit >= 0 && i < len(data); bit-- {
			bestLen, bestDist := 0, 0
			for d := 1; d <= min(i, 0x1000); d++ {
				n := 0
				for n < 0x111 && i+n < len(data) && data[i+n] == data[i+n-d] {
					n++
				}
				if n > bestLen {
					bestLen, bestDist = n, d
				}
			}
			if bestLen < 3 {
				out[head] |= 1 << bit
				out = append(out, data[i])
				i++
				continue
			}
			d := bestDist - 1
			if bestLen >= 0x12 {
				out = append(out, byte(d>>8), byte(d), byte(bestLen-0x12))
			} else {
				out = append(out, byte((bestLen-2)<<4|d>>8), byte(d))
			}
			i += bestLen
		}
	}
	return out
}
