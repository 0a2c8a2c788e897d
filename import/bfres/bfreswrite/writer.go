package bfreswrite

import (
	"encoding/binary"
	"math"
	"sort"
)

// writer accumulates the image; strings are patched in at the end. It
// writes the Wii U layout (big-endian, self-relative s32 offsets), or with
// nx the Switch layout (little-endian, u64 absolute offsets; nxfile.go).
type writer struct {
	b       []byte
	version uint32
	strs    []strFix
	order   byteOrder
	nx      bool
	gpu     []byte // Switch: the GPU data block (vertex and index buffers)
}

// byteOrder puts and appends in one byte order.
type byteOrder interface {
	binary.ByteOrder
	binary.AppendByteOrder
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

func (w *writer) put32(at int, v uint32) { w.order.PutUint32(w.b[at:], v) }
func (w *writer) put16(at int, v uint16) { w.order.PutUint16(w.b[at:], v) }
func (w *writer) putF(at int, v float32) { w.put32(at, math.Float32bits(v)) }

// off stores the offset of target at at: self-relative s32 on the Wii U,
// the absolute u64 on the Switch.
func (w *writer) off(at, target int) {
	if w.nx {
		w.order.PutUint64(w.b[at:], uint64(target))
		return
	}
	w.put32(at, uint32(int32(target-at)))
}

// offSize is the size of a stored offset.
func (w *writer) offSize() int {
	if w.nx {
		return 8
	}
	return 4
}

// str records a string offset at at, resolved when the pool is written.
func (w *writer) str(at int, s string) { w.strs = append(w.strs, strFix{at, s}) }

func (w *writer) new() bool { return w.version >= Version3_4 }

// curveLayout gives the curve header's size, where its fields (flags …
// delta) start and where its two array offsets lie (§4.1; the Switch curve
// leads with its u64 array offsets, bfres-container.md §11).
func (w *writer) curveLayout() (size, fields, arrays int) {
	switch {
	case w.nx:
		return 0x30, 0x10, 0
	case w.new():
		return 0x24, 0, 0x1C
	}
	return 0x20, 0, 0x18
}

// curves writes n curve headers followed by their arrays; it returns the
// position of the first header.
func (w *writer) curves(cs []Curve) int {
	size, fields, arrays := w.curveLayout()
	first := w.reserve(size * len(cs))
	for i, c := range cs {
		base := first + i*size
		h := base + fields
		flags := uint16(c.FrameFormat | c.KeyFormat<<2 | c.Type<<4 | c.Pre<<8 | c.Post<<12)
		w.put16(h, flags)
		n := len(c.Frames)
		if n == 0 {
			n = len(c.Keys) // baked: key count = samples
			if c.Type == 7 {
				n = int(c.End-c.Start) + 1
			}
		}
		w.put16(h+2, uint16(n))
		w.put32(h+4, c.Target)
		w.putF(h+8, c.Start)
		w.putF(h+12, c.End)
		w.putF(h+16, c.Scale)
		if c.IsInt {
			w.put32(h+20, uint32(c.IOffset))
		} else {
			w.putF(h+20, c.Offset)
		}
		if size != 0x20 {
			w.putF(h+0x18, c.Delta)
		}
		arr := base + arrays
		if len(c.Frames) > 0 {
			w.off(arr, w.pos())
			for _, f := range c.Frames {
				switch c.FrameFormat {
				case 0:
					w.b = w.order.AppendUint32(w.b, math.Float32bits(float32(f)))
				case 1:
					w.b = w.order.AppendUint16(w.b, uint16(int16(f)))
				default:
					w.b = append(w.b, uint8(f))
				}
			}
			w.align()
		}
		w.off(arr+w.offSize(), w.pos())
		for _, k := range c.Keys {
			switch {
			case c.Type >= 6:
				w.b = w.order.AppendUint32(w.b, uint32(int64(k)))
			case c.KeyFormat == 0 && c.Type < 4:
				w.b = w.order.AppendUint32(w.b, math.Float32bits(float32(k)))
			case c.KeyFormat == 0:
				w.b = w.order.AppendUint32(w.b, uint32(int32(k)))
			case c.KeyFormat == 1:
				w.b = w.order.AppendUint16(w.b, uint16(int16(k)))
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
	// Decreasing reference bits along the chain (§3).
	w.dictChain(p+8, names, func(i int) uint32 { return uint32(n - i) })
	for i := 1; i <= n; i++ {
		w.off(p+8+16*i+12, data[i-1])
	}
	return p
}

// dictChain fills the entry nodes (16 bytes each, after the root at
// root) of a dictionary of names as a chain: node i's left link descends
// to node i+1 (the last's to the root), its right link to itself, with
// reference bit refBit(i), and its name at +8.
func (w *writer) dictChain(root int, names []string, refBit func(i int) uint32) {
	n := len(names)
	for i := 1; i <= n; i++ {
		nd := root + 16*i
		w.put32(nd, refBit(i))
		next := uint16(i + 1)
		if i == n {
			next = 0
		}
		w.put16(nd+4, next)
		w.put16(nd+6, uint16(i))
		w.str(nd+8, names[i-1])
	}
}

// sortedStrings lists every string the image names, once each, sorted:
// the string pool's order.
func (w *writer) sortedStrings() []string {
	seen := map[string]bool{}
	var all []string
	for _, f := range w.strs {
		if !seen[f.s] {
			seen[f.s] = true
			all = append(all, f.s)
		}
	}
	sort.Strings(all)
	return all
}
