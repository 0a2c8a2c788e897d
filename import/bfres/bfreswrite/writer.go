package bfreswrite

import (
	"encoding/binary"
	"math"
)

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
func (w *writer) curves(cs []Curve) int {
	size := curveSize(w.version)
	first := w.reserve(size * len(cs))
	for i, c := range cs {
		h := first + i*size
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
		arrays := h + 0x18
		if w.new() {
			w.putF(h+0x18, c.Delta)
			arrays = h + 0x1C
		}
		if len(c.Frames) > 0 {
			w.off(arrays, w.pos())
			for _, f := range c.Frames {
				switch c.FrameFormat {
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
		for _, k := range c.Keys {
			switch {
			case c.Type >= 6:
				w.b = binary.BigEndian.AppendUint32(w.b, uint32(int64(k)))
			case c.KeyFormat == 0 && c.Type < 4:
				w.b = binary.BigEndian.AppendUint32(w.b, math.Float32bits(float32(k)))
			case c.KeyFormat == 0:
				w.b = binary.BigEndian.AppendUint32(w.b, uint32(int32(k)))
			case c.KeyFormat == 1:
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
