package pixel

import (
	"math"
	"strconv"
	"strings"
)

// BC6H stores half-float RGB (unsigned UF16 or signed SF16) in 16-byte
// blocks of fourteen modes (D3D11 functional specification, BC6H format).
// This package gives 8-bit pixels: each decoded half is clamped to 0..1 and
// scaled to 0..255, rounding to nearest. That is a plain clamp, not a tone
// map: values above 1 (HDR highlights) saturate and negative values become
// 0; no transfer function is applied (the value is stored as a UNORM
// texture would store it). Alpha is 255.

// bc6Mode describes one mode: regions (1 or 2), whether the other
// endpoints are deltas from the first ("transformed"), the bits of the
// first endpoint and of the deltas (red, green, blue), and where each
// endpoint bit lies in the block.
type bc6Mode struct {
	regions     int
	transformed bool
	baseBits    int
	deltaBits   [3]int
	layout      string
}

// bc6Modes by mode number 0–13 (the specification's modes 1–14). A layout
// lists the block's endpoint bits in order after the mode bits: a field is
// a component (r, g, b) and an endpoint (w, x, y, z: region 0's two, then
// region 1's), then one bit number or a run "first-last" (which may run
// downwards).
var bc6Modes = [14]bc6Mode{
	{2, true, 10, [3]int{5, 5, 5}, "gy4 by4 bz4 rw0-9 gw0-9 bw0-9 rx0-4 gz4 gy0-3 gx0-4 bz0 gz0-3 bx0-4 bz1 by0-3 ry0-4 bz2 rz0-4 bz3"},
	{2, true, 7, [3]int{6, 6, 6}, "gy5 gz4-5 rw0-6 bz0-1 by4 gw0-6 by5 bz2 gy4 bw0-6 bz3 bz5-4 rx0-5 gy0-3 gx0-5 gz0-3 bx0-5 by0-3 ry0-5 rz0-5"},
	{2, true, 11, [3]int{5, 4, 4}, "rw0-9 gw0-9 bw0-9 rx0-4 rw10 gy0-3 gx0-3 gw10 bz0 gz0-3 bx0-3 bw10 bz1 by0-3 ry0-4 bz2 rz0-4 bz3"},
	{2, true, 11, [3]int{4, 5, 4}, "rw0-9 gw0-9 bw0-9 rx0-3 rw10 gz4 gy0-3 gx0-4 gw10 gz0-3 bx0-3 bw10 bz1 by0-3 ry0-3 bz0 bz2 rz0-3 gy4 bz3"},
	{2, true, 11, [3]int{4, 4, 5}, "rw0-9 gw0-9 bw0-9 rx0-3 rw10 by4 gy0-3 gx0-3 gw10 bz0 gz0-3 bx0-4 bw10 by0-3 ry0-3 bz1-2 rz0-3 bz4-3"},
	{2, true, 9, [3]int{5, 5, 5}, "rw0-8 by4 gw0-8 gy4 bw0-8 bz4 rx0-4 gz4 gy0-3 gx0-4 bz0 gz0-3 bx0-4 bz1 by0-3 ry0-4 bz2 rz0-4 bz3"},
	{2, true, 8, [3]int{6, 5, 5}, "rw0-7 gz4 by4 gw0-7 bz2 gy4 bw0-7 bz3-4 rx0-5 gy0-3 gx0-4 bz0 gz0-3 bx0-4 bz1 by0-3 ry0-5 rz0-5"},
	{2, true, 8, [3]int{5, 6, 5}, "rw0-7 bz0 by4 gw0-7 gy5-4 bw0-7 gz5 bz4 rx0-4 gz4 gy0-3 gx0-5 gz0-3 bx0-4 bz1 by0-3 ry0-4 bz2 rz0-4 bz3"},
	{2, true, 8, [3]int{5, 5, 6}, "rw0-7 bz1 by4 gw0-7 by5 gy4 bw0-7 bz5-4 rx0-4 gz4 gy0-3 gx0-4 bz0 gz0-3 bx0-5 by0-3 ry0-4 bz2 rz0-4 bz3"},
	{2, false, 6, [3]int{6, 6, 6}, "rw0-5 gz4 bz0-1 by4 gw0-5 gy5 by5 bz2 gy4 bw0-5 gz5 bz3 bz5-4 rx0-5 gy0-3 gx0-5 gz0-3 bx0-5 by0-3 ry0-5 rz0-5"},
	{1, false, 10, [3]int{10, 10, 10}, "rw0-9 gw0-9 bw0-9 rx0-9 gx0-9 bx0-9"},
	{1, true, 11, [3]int{9, 9, 9}, "rw0-9 gw0-9 bw0-9 rx0-8 rw10 gx0-8 gw10 bx0-8 bw10"},
	{1, true, 12, [3]int{8, 8, 8}, "rw0-9 gw0-9 bw0-9 rx0-7 rw11-10 gx0-7 gw11-10 bx0-7 bw11-10"},
	{1, true, 16, [3]int{4, 4, 4}, "rw0-9 gw0-9 bw0-9 rx0-3 rw15-10 gx0-3 gw15-10 bx0-3 bw15-10"},
}

// bc6Bit is one endpoint bit: which of the 12 values (endpoint·3 +
// component, endpoints w x y z) and which bit of it.
type bc6Bit struct{ value, bit uint8 }

// bc6Layouts are the parsed layouts.
var bc6Layouts = func() (out [14][]bc6Bit) {
	for m, mode := range bc6Modes {
		for _, f := range strings.Fields(mode.layout) {
			comp := strings.IndexByte("rgb", f[0])
			ep := strings.IndexByte("wxyz", f[1])
			first, last, ok := strings.Cut(f[2:], "-")
			a, _ := strconv.Atoi(first)
			z := a
			if ok {
				z, _ = strconv.Atoi(last)
			}
			step := 1
			if z < a {
				step = -1
			}
			for b := a; ; b += step {
				out[m] = append(out[m], bc6Bit{uint8(3*ep + comp), uint8(b)})
				if b == z {
					break
				}
			}
		}
	}
	return out
}()

// bc6ModeOf returns the mode number of a block and the bits its mode field
// takes (2 or 5), or −1 for the reserved 5-bit values.
func bc6ModeOf(b0 byte) (mode, bits int) {
	switch b0 & 3 {
	case 0, 1:
		return int(b0 & 3), 2
	case 2:
		return 2 + int(b0>>2&7), 5
	}
	m := 10 + int(b0>>2&7)
	if m > 13 {
		return -1, 5
	}
	return m, 5
}

// decodeBC6H decodes one BC6H block into 16 RGBA pixels (see the package
// note above bc6Mode for the 8-bit conversion). Reserved modes decode to
// black, as the specification requires of invalid blocks.
func decodeBC6H(b []byte, signed bool, out *[64]byte) {
	mode, modeBits := bc6ModeOf(b[0])
	if mode < 0 {
		for i := range 16 {
			copy(out[4*i:], []byte{0, 0, 0, 255})
		}
		return
	}
	m := bc6Modes[mode]
	r := bits128{b: b, pos: modeBits}
	var e [12]int
	for _, f := range bc6Layouts[mode] {
		e[f.value] |= r.read(1) << f.bit
	}
	partition := 0
	if m.regions == 2 {
		partition = r.read(5)
	}
	n := 6 * m.regions // two endpoints of three components per region
	if signed {
		for c := range 3 {
			e[c] = signExtend(e[c], m.baseBits)
		}
	}
	for i := 3; i < n; i++ {
		if signed || m.transformed {
			e[i] = signExtend(e[i], m.deltaBits[i%3])
		}
		if m.transformed {
			e[i] = (e[i] + e[i%3]) & (1<<m.baseBits - 1)
			if signed {
				e[i] = signExtend(e[i], m.baseBits)
			}
		}
	}
	for i := range n {
		e[i] = bc6Unquantize(e[i], m.baseBits, signed)
	}
	indexBits := 3
	if m.regions == 1 {
		indexBits = 4
	}
	for i := range 16 {
		s := subsetOf(m.regions, partition, i)
		w := indexBits
		if isAnchor(m.regions, partition, i) {
			w--
		}
		wt := bptcWeights[indexBits][r.read(w)]
		for c := range 3 {
			v := bptcLerp(e[6*s+c], e[6*s+3+c], wt)
			out[4*i+c] = halfToByte(bc6Finish(v, signed))
		}
		out[4*i+3] = 255
	}
}

// signExtend reads the low n bits of v as a two's complement number.
func signExtend(v, n int) int {
	v &= 1<<n - 1
	if v>>(n-1)&1 == 1 {
		v -= 1 << n
	}
	return v
}

// bc6Unquantize scales an n-bit endpoint to the 16-bit interpolation range
// (unsigned 0..0xFFFF, signed −0x7FFF..0x7FFF), the specification's
// unquantize step.
func bc6Unquantize(v, n int, signed bool) int {
	if !signed {
		switch {
		case n >= 15 || v == 0:
			return v
		case v == 1<<n-1:
			return 0xFFFF
		}
		return (v<<16 + 0x8000) >> n
	}
	if n >= 16 {
		return v
	}
	neg := v < 0
	if neg {
		v = -v
	}
	switch {
	case v == 0:
	case v >= 1<<(n-1)-1:
		v = 0x7FFF
	default:
		v = (v<<15 + 0x4000) >> (n - 1)
	}
	if neg {
		return -v
	}
	return v
}

// bc6Finish maps an interpolated value to the bits of a half float: ×31/64
// unsigned, ×31/32 of the magnitude signed (the specification's
// finish_unquantize).
func bc6Finish(v int, signed bool) uint16 {
	if !signed {
		return uint16(v * 31 >> 6)
	}
	if v < 0 {
		return 0x8000 | uint16((-v)*31>>5)
	}
	return uint16(v * 31 >> 5)
}

// halfToByte converts a half float to 0..255: clamped to 0..1, scaled and
// rounded to nearest.
func halfToByte(h uint16) byte {
	exp, frac := int(h>>10&0x1F), float64(h&0x3FF)
	var f float64
	switch exp {
	case 0:
		f = frac / 1024 * math.Exp2(-14)
	case 31:
		f = math.Inf(1) // infinities and NaNs saturate
	default:
		f = (1 + frac/1024) * math.Exp2(float64(exp-15))
	}
	if h&0x8000 != 0 {
		return 0
	}
	return byte(math.Floor(min(f, 1)*255 + 0.5))
}
