package pixel

import "fmt"

// ASTC (Adaptive Scalable Texture Compression), LDR profile, 2D blocks:
// the Khronos Data Format Specification's ASTC chapter (also
// KHR_texture_compression_astc_ldr). Every block is 128 bits whatever its
// footprint (4×4 … 12×12 texels). Decoding follows the specification step
// by step: block mode, partitions and colour endpoint modes, the integer
// sequence encoding (bits, trits, quints) of endpoints and weights, their
// unquantization, weight infill from the weight grid to the texels, and
// interpolation at 16 bits. Blocks the LDR profile cannot decode (reserved
// modes, HDR endpoint modes or void extents, too many weights or endpoint
// values, a partition count of 4 with two weight planes) give the error
// colour, magenta (255, 0, 255, 255), as the specification requires.

// ASTC is an ASTC LDR format: its block footprint and whether its colours
// are sRGB-encoded (which changes how endpoints widen to 16 bits).
type ASTC struct {
	BlockW, BlockH int
	SRGB           bool
}

// Valid reports whether the footprint is one of the 2D block sizes of the
// specification (4×4 up to 12×12).
func (f ASTC) Valid() bool {
	switch [2]int{f.BlockW, f.BlockH} {
	case [2]int{4, 4}, [2]int{5, 4}, [2]int{5, 5}, [2]int{6, 5}, [2]int{6, 6}, [2]int{8, 5}, [2]int{8, 6},
		[2]int{8, 8}, [2]int{10, 5}, [2]int{10, 6}, [2]int{10, 8}, [2]int{10, 10}, [2]int{12, 10}, [2]int{12, 12}:
		return true
	}
	return false
}

func (f ASTC) String() string {
	s := fmt.Sprintf("ASTC_%dx%d", f.BlockW, f.BlockH)
	if f.SRGB {
		s += "_SRGB"
	}
	return s
}

// ASTCBlockBytes is the size of every ASTC block.
const ASTCBlockBytes = 16

// Elements returns the blocks per row and the block rows of a w×h image.
func (f ASTC) Elements(w, h int) (cols, rows int, err error) {
	if !f.Valid() {
		return 0, 0, fmt.Errorf("ASTC block footprint %d×%d is not a 2D ASTC footprint", f.BlockW, f.BlockH)
	}
	if err := checkDims(w, h); err != nil {
		return 0, 0, err
	}
	return (w + f.BlockW - 1) / f.BlockW, (h + f.BlockH - 1) / f.BlockH, nil
}

// DecodeASTC converts a w×h ASTC image stored as packed rows of blocks into
// 8-bit RGBA rows top to bottom, cropping blocks at the right and bottom
// edges.
func DecodeASTC(f ASTC, src []byte, w, h int) ([]byte, error) {
	cols, rows, err := f.Elements(w, h)
	if err != nil {
		return nil, err
	}
	if n := cols * rows * ASTCBlockBytes; len(src) < n {
		return nil, fmt.Errorf("%s image of %d×%d needs %d bytes, only %d given", f, w, h, n, len(src))
	}
	dst := make([]byte, w*h*4)
	block := make([]byte, f.BlockW*f.BlockH*4)
	for by := range rows {
		for bx := range cols {
			off := (by*cols + bx) * ASTCBlockBytes
			DecodeASTCBlock(f, src[off:off+ASTCBlockBytes], block)
			for py := 0; py < f.BlockH && by*f.BlockH+py < h; py++ {
				for px := 0; px < f.BlockW && bx*f.BlockW+px < w; px++ {
					d := ((by*f.BlockH+py)*w + bx*f.BlockW + px) * 4
					copy(dst[d:d+4], block[(py*f.BlockW+px)*4:])
				}
			}
		}
	}
	return dst, nil
}

// astcErrorColor is what an undecodable block gives.
var astcErrorColor = [4]byte{255, 0, 255, 255}

// DecodeASTCBlock decodes one 16-byte block into BlockW·BlockH RGBA texels,
// row-major (out must hold that many).
func DecodeASTCBlock(f ASTC, b []byte, out []byte) {
	if !decodeASTCBlock(f, b, out) {
		for i := 0; i+4 <= len(out); i += 4 {
			copy(out[i:], astcErrorColor[:])
		}
	}
}

// astcBlockMode is a decoded block mode: the weight grid, whether it has
// two planes, and the weights' quantization range.
type astcBlockMode struct {
	gridW, gridH int
	dualPlane    bool
	weightRange  int // an index into astcWeightRanges
}

// astcWeightRanges are the weight quantization ranges by index (the block
// mode's R bits and H bit).
var astcWeightRanges = [12]int{2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32}

// astcColorRanges are the endpoint quantization ranges, coarsest first.
var astcColorRanges = [21]int{2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 40, 48, 64, 80, 96, 128, 160, 192, 256}

// decodeBlockMode reads the 11-bit block mode (the specification's
// "Block mode" table); ok is false for the reserved encodings.
func decodeBlockMode(m int) (bm astcBlockMode, ok bool) {
	r := m >> 4 & 1
	h := m >> 9 & 1
	d := m >> 10 & 1
	a := m >> 5 & 3
	if m&3 != 0 {
		r |= (m & 3) << 1
		b := m >> 7 & 3
		switch m >> 2 & 3 {
		case 0:
			bm.gridW, bm.gridH = b+4, a+2
		case 1:
			bm.gridW, bm.gridH = b+8, a+2
		case 2:
			bm.gridW, bm.gridH = a+2, b+8
		case 3:
			if m>>8&1 == 1 {
				bm.gridW, bm.gridH = b&1+2, a+2
			} else {
				bm.gridW, bm.gridH = a+2, b&1+6
			}
		}
	} else {
		r |= (m >> 2 & 3) << 1
		if m>>2&3 == 0 {
			return bm, false
		}
		b := m >> 9 & 3
		switch m >> 7 & 3 {
		case 0:
			bm.gridW, bm.gridH = 12, a+2
		case 1:
			bm.gridW, bm.gridH = a+2, 12
		case 2:
			bm.gridW, bm.gridH = a+6, b+6
			d, h = 0, 0
		case 3:
			switch a {
			case 0:
				bm.gridW, bm.gridH = 6, 10
			case 1:
				bm.gridW, bm.gridH = 10, 6
			default:
				return bm, false
			}
		}
	}
	if r < 2 {
		return bm, false
	}
	bm.dualPlane = d == 1
	bm.weightRange = r - 2 + 6*h
	return bm, true
}

// iseShape gives how values of a range are stored by the integer
// sequence encoding: a trit or a quint (or neither) and the low bits.
func iseShape(rng int) (trits, quints bool, bits int) {
	switch {
	case rng%3 == 0 && isPow2(rng/3):
		return true, false, log2(rng / 3)
	case rng%5 == 0 && isPow2(rng/5):
		return false, true, log2(rng / 5)
	}
	return false, false, log2(rng)
}

func isPow2(v int) bool { return v > 0 && v&(v-1) == 0 }

func log2(v int) int {
	n := 0
	for v > 1 {
		v >>= 1
		n++
	}
	return n
}

// iseBits returns the bits n values of a range take.
func iseBits(n, rng int) int {
	trits, quints, bits := iseShape(rng)
	switch {
	case trits:
		return (8*n+4)/5 + n*bits
	case quints:
		return (7*n+2)/3 + n*bits
	}
	return n * bits
}

// readISE decodes n values of a range from the bits that bit(p) returns,
// starting at start. Bits past the sequence's own length read as 0, as the
// specification requires of a last, partial trit or quint group.
func readISE(bit func(p int) int, start, n, rng int) []int {
	trits, quints, bits := iseShape(rng)
	out := make([]int, n)
	end := start + iseBits(n, rng)
	pos := start
	take := func(k int) int {
		v := 0
		for i := range k {
			if pos+i < end {
				v |= bit(pos+i) << i
			}
		}
		pos += k
		return v
	}
	var g *iseGroup
	switch {
	case trits:
		g = &tritGroup
	case quints:
		g = &quintGroup
	default:
		for i := range out {
			out[i] = take(bits)
		}
		return out
	}
	// Groups of 5 trits or 3 quints: each value's low bits, then some of
	// the group's packed bits.
	size := len(g.widths)
	for i := 0; i < n; i += size {
		m := make([]int, size)
		packed, shift := 0, 0
		for j, w := range g.widths {
			m[j] = take(bits)
			packed |= take(w) << shift
			shift += w
		}
		high := g.unpack(packed)
		for j := 0; j < size && i+j < n; j++ {
			out[i+j] = high[j]<<bits | m[j]
		}
	}
	return out
}

// iseGroup describes a group of the integer sequence encoding: how many
// of the group's packed bits follow each value's low bits, and how the
// packed bits unpack into the values' trits or quints.
type iseGroup struct {
	widths []int
	unpack func(packed int) []int
}

var (
	tritGroup  = iseGroup{[]int{2, 2, 1, 2, 1}, func(t int) []int { v := decodeTrits(t); return v[:] }}
	quintGroup = iseGroup{[]int{3, 2, 2}, func(q int) []int { v := decodeQuints(q); return v[:] }}
)

// bitsOf returns bits hi..lo of v (hi ≥ lo).
func bitsOf(v, hi, lo int) int { return v >> lo & (1<<(hi-lo+1) - 1) }

// decodeTrits unpacks 8 bits into 5 trits (the specification's trit
// decoding procedure).
func decodeTrits(t int) [5]int {
	var c, t3, t4 int
	if bitsOf(t, 4, 2) == 7 {
		c = bitsOf(t, 7, 5)<<2 | bitsOf(t, 1, 0)
		t4, t3 = 2, 2
	} else {
		c = bitsOf(t, 4, 0)
		if bitsOf(t, 6, 5) == 3 {
			t4, t3 = 2, bitsOf(t, 7, 7)
		} else {
			t4, t3 = bitsOf(t, 7, 7), bitsOf(t, 6, 5)
		}
	}
	var t0, t1, t2 int
	switch {
	case bitsOf(c, 1, 0) == 3:
		t2, t1 = 2, bitsOf(c, 4, 4)
		t0 = bitsOf(c, 3, 3)<<1 | bitsOf(c, 2, 2)&^bitsOf(c, 3, 3)
	case bitsOf(c, 3, 2) == 3:
		t2, t1, t0 = 2, 2, bitsOf(c, 1, 0)
	default:
		t2, t1 = bitsOf(c, 4, 4), bitsOf(c, 3, 2)
		t0 = bitsOf(c, 1, 1)<<1 | bitsOf(c, 0, 0)&^bitsOf(c, 1, 1)
	}
	return [5]int{t0, t1, t2, t3, t4}
}

// decodeQuints unpacks 7 bits into 3 quints.
func decodeQuints(q int) [3]int {
	if bitsOf(q, 2, 1) == 3 && bitsOf(q, 6, 5) == 0 {
		q0 := bitsOf(q, 0, 0)
		not0 := q0 ^ 1
		return [3]int{4, 4, q0<<2 | (bitsOf(q, 4, 4)&not0)<<1 | bitsOf(q, 3, 3)&not0}
	}
	var c, q2 int
	if bitsOf(q, 2, 1) == 3 {
		q2 = 4
		c = bitsOf(q, 4, 3)<<3 | (^bitsOf(q, 6, 5)&3)<<1 | bitsOf(q, 0, 0)
	} else {
		q2 = bitsOf(q, 6, 5)
		c = bitsOf(q, 4, 0)
	}
	if bitsOf(c, 2, 0) == 5 {
		return [3]int{bitsOf(c, 4, 3), 4, q2}
	}
	return [3]int{bitsOf(c, 2, 0), bitsOf(c, 4, 3), q2}
}

// tqUnquant is a row of the specification's unquantization tables for a
// range stored as a trit or a quint plus low bits: the bit layout of B
// (most significant first; '0' a zero bit, 'b' bit 1 of the low bits, 'c'
// bit 2 …) and the multiplier C.
type tqUnquant struct {
	layout string
	c      int
}

// Colour (9-bit layouts) and weight (7-bit) rows, by range.
var (
	colorUnquant = map[int]tqUnquant{
		6: {"000000000", 204}, 10: {"000000000", 113}, 12: {"b000b0bb0", 93}, 20: {"b0000bb00", 54},
		24: {"cb000cbcb", 44}, 40: {"cb0000cbc", 26}, 48: {"dcb000dcb", 22}, 80: {"dcb0000dc", 13},
		96: {"edcb000ed", 11}, 160: {"edcb0000e", 6}, 192: {"fedcb000f", 5},
	}
	weightUnquant = map[int]tqUnquant{
		6: {"0000000", 50}, 10: {"0000000", 28}, 12: {"b000b0b", 23}, 20: {"b0000b0", 13}, 24: {"cb000cb", 11},
	}
)

// unquantize applies a table row to a value with the given low bits: D is
// the trit or quint, A the low bits' bit 0 repeated over the layout's
// width, B the layout filled from the low bits; the result is
// (A & 0x80) | ((D·C + B) XOR A) >> 2 for 9 bits (colours, 0..255), with
// 0x20 for 7 bits (weights, 0..63).
func (u tqUnquant) unquantize(v, bits int) int {
	d, m := v>>bits, v&(1<<bits-1)
	width := len(u.layout)
	a := 0
	if m&1 == 1 {
		a = 1<<width - 1
	}
	bb := 0
	for _, ch := range u.layout {
		bb <<= 1
		if ch != '0' {
			bb |= m >> (ch - 'a') & 1
		}
	}
	t := (d*u.c + bb) ^ a
	return a&(1<<(width-2)) | t>>2
}

// unquantizeColor maps an endpoint value of a range to 0..255.
func unquantizeColor(v, rng int) int {
	trits, quints, bits := iseShape(rng)
	if !trits && !quints {
		return replicate(v, bits, 8)
	}
	return colorUnquant[rng].unquantize(v, bits)
}

// unquantizeWeight maps a weight value of a range to 0..64: replicated to
// 6 bits or unquantized by the table, then values above 32 move up by one
// so that the top is 64; ranges with no low bits are multiples of 32 or 16.
func unquantizeWeight(v, rng int) int {
	trits, quints, bits := iseShape(rng)
	var w int
	switch {
	case !trits && !quints:
		w = replicate(v, bits, 6)
	case bits == 0:
		if trits {
			return v * 32
		}
		return v * 16
	default:
		w = weightUnquant[rng].unquantize(v, bits)
	}
	if w > 32 {
		w++
	}
	return w
}

// replicate widens an n-bit value to m bits by repeating its bits from
// the top.
func replicate(v, n, m int) int {
	if n == 0 {
		return 0
	}
	out, have := 0, 0
	for have < m {
		out = out<<n | v
		have += n
	}
	return out >> (have - m)
}

// decodeASTCBlock decodes a block into out; false means the error colour.
func decodeASTCBlock(f ASTC, b []byte, out []byte) bool {
	bit := func(p int) int { return int(b[p>>3] >> (p & 7) & 1) }
	get := func(pos, k int) int {
		v := 0
		for i := range k {
			v |= bit(pos+i) << i
		}
		return v
	}
	mode := get(0, 11)
	if mode&0x1FF == 0x1FC {
		return voidExtent(f, get, out)
	}
	bm, ok := decodeBlockMode(mode)
	if !ok || bm.gridW > f.BlockW || bm.gridH > f.BlockH {
		return false
	}
	planes := 1
	if bm.dualPlane {
		planes = 2
	}
	nWeights := bm.gridW * bm.gridH * planes
	wRange := astcWeightRanges[bm.weightRange]
	weightBits := iseBits(nWeights, wRange)
	if nWeights > 64 || weightBits < 24 || weightBits > 96 {
		return false
	}
	parts := get(11, 2) + 1
	if parts == 4 && bm.dualPlane {
		return false
	}

	// Colour endpoint modes, and where the colour data ends: below the
	// weights, less any extra mode bits and the dual plane's component.
	below := 128 - weightBits
	var cems [4]int
	colorStart, seed := 17, 0
	if parts == 1 {
		cems[0] = get(13, 4)
	} else {
		seed = get(13, 10)
		colorStart = 29
		enc := get(23, 6)
		if enc&3 == 0 {
			for i := range parts {
				cems[i] = enc >> 2 & 15
			}
		} else {
			extra := 3*parts - 4
			below -= extra
			enc |= get(below, extra) << 6
			base := enc&3 - 1
			for i := range parts {
				class := base + enc>>(2+i)&1
				cems[i] = class<<2 | enc>>(2+parts+2*i)&3
			}
		}
	}
	ccs := -1
	if bm.dualPlane {
		below -= 2
		ccs = get(below, 2)
	}
	nValues := 0
	for _, cem := range cems[:parts] {
		switch cem {
		case 2, 3, 7, 11, 14, 15: // HDR endpoint modes
			return false
		}
		nValues += 2 * (cem>>2 + 1)
	}
	if nValues > 18 || below < colorStart {
		return false
	}
	cRange := -1
	for i := len(astcColorRanges) - 1; i >= 0; i-- {
		if iseBits(nValues, astcColorRanges[i]) <= below-colorStart {
			cRange = astcColorRanges[i]
			break
		}
	}
	if cRange < 6 {
		return false
	}
	values := readISE(bit, colorStart, nValues, cRange)
	for i, v := range values {
		values[i] = unquantizeColor(v, cRange)
	}
	var ends [4][2][4]int
	for i, cem := range cems[:parts] {
		n := 2 * (cem>>2 + 1)
		ends[i] = astcEndpoints(cem, values[:n])
		values = values[n:]
	}

	// Weights are stored from the top of the block down, bit-reversed.
	weights := readISE(func(p int) int { return bit(127 - p) }, 0, nWeights, wRange)
	for i, w := range weights {
		weights[i] = unquantizeWeight(w, wRange)
	}

	texels := f.BlockW * f.BlockH
	ds := (1024 + f.BlockW/2) / (f.BlockW - 1)
	dt := (1024 + f.BlockH/2) / (f.BlockH - 1)
	for t := range f.BlockH {
		for s := range f.BlockW {
			var w [2]int
			for p := range planes {
				w[p] = infill(weights, bm.gridW, bm.gridH, planes, p, ds*s, dt*t)
			}
			part := 0
			if parts > 1 {
				part = selectPartition(seed, s, t, parts, texels < 31)
			}
			o := (t*f.BlockW + s) * 4
			for c := range 4 {
				wc := w[0]
				if c == ccs {
					wc = w[1]
				}
				e0, e1 := widen16(ends[part][0][c], f.SRGB), widen16(ends[part][1][c], f.SRGB)
				out[o+c] = to8((e0*(64-wc)+e1*wc+32)>>6, f.SRGB)
			}
		}
	}
	return true
}

// widen16 expands an 8-bit endpoint to 16 bits: by replication for linear
// data, as the top byte with 0x80 below for sRGB.
func widen16(c int, srgb bool) int {
	if srgb {
		return c<<8 | 0x80
	}
	return c * 257
}

// to8 converts a 16-bit result to 8 bits: for sRGB its top byte (the
// specification's 8-bit sRGB value), for linear data the UNORM16 value
// v/65535 rounded to the nearest 8-bit step (as ARM's astcenc writes an
// 8-bit image).
func to8(v int, srgb bool) byte {
	if srgb {
		return byte(v >> 8)
	}
	return byte((v*255 + 65535/2) / 65535)
}

// infill returns the weight of plane p at a texel whose scaled coordinates
// are cs, ct (1024 across the block): bilinear from the weight grid with
// the specification's 4-bit fractions.
func infill(weights []int, gw, gh, planes, p, cs, ct int) int {
	gs := (cs*(gw-1) + 32) >> 6
	gt := (ct*(gh-1) + 32) >> 6
	js, fs := gs>>4, gs&15
	jt, ft := gt>>4, gt&15
	at := func(x, y int) int {
		x, y = min(x, gw-1), min(y, gh-1)
		return weights[(y*gw+x)*planes+p]
	}
	w11 := (fs*ft + 8) >> 4
	w10 := ft - w11
	w01 := fs - w11
	w00 := 16 - fs - ft + w11
	return (at(js, jt)*w00 + at(js+1, jt)*w01 + at(js, jt+1)*w10 + at(js+1, jt+1)*w11 + 8) >> 4
}

// voidExtent decodes a constant-colour block: four UNORM16 channels at
// bits 64–127. HDR void extents (bit 9) and malformed extents are errors
// in the LDR profile.
func voidExtent(f ASTC, get func(pos, k int) int, out []byte) bool {
	if get(9, 1) == 1 || get(10, 2) != 3 {
		return false
	}
	s0, s1, t0, t1 := get(12, 13), get(25, 13), get(38, 13), get(51, 13)
	all := 1<<13 - 1
	if !(s0 == all && s1 == all && t0 == all && t1 == all) && (s0 >= s1 || t0 >= t1) {
		return false
	}
	var px [4]byte
	for c := range 4 {
		px[c] = to8(get(64+16*c, 16), f.SRGB)
	}
	for i := 0; i+4 <= len(out); i += 4 {
		copy(out[i:], px[:])
	}
	return true
}

// astcEndpoints decodes the two 8-bit RGBA endpoints of an LDR colour
// endpoint mode from its unquantized values (the specification's
// "LDR endpoint decoding" for modes 0, 1, 4, 5, 6, 8, 9, 10, 12, 13).
func astcEndpoints(cem int, v []int) (e [2][4]int) {
	rgba := func(r, g, b, a int) [4]int { return [4]int{clamp255(r), clamp255(g), clamp255(b), clamp255(a)} }
	blue := func(r, g, b, a int) [4]int { return rgba((r+b)>>1, (g+b)>>1, b, a) }
	switch cem {
	case 0:
		return [2][4]int{rgba(v[0], v[0], v[0], 255), rgba(v[1], v[1], v[1], 255)}
	case 1:
		l0 := v[0]>>2 | v[1]&0xC0
		l1 := min(l0+v[1]&0x3F, 255)
		return [2][4]int{rgba(l0, l0, l0, 255), rgba(l1, l1, l1, 255)}
	case 4:
		return [2][4]int{rgba(v[0], v[0], v[0], v[2]), rgba(v[1], v[1], v[1], v[3])}
	case 5:
		b0, a0 := bitTransferSigned(v[1], v[0])
		b2, a2 := bitTransferSigned(v[3], v[2])
		return [2][4]int{rgba(b0, b0, b0, b2), rgba(b0+a0, b0+a0, b0+a0, b2+a2)}
	case 6:
		return [2][4]int{rgba(v[0]*v[3]>>8, v[1]*v[3]>>8, v[2]*v[3]>>8, 255), rgba(v[0], v[1], v[2], 255)}
	case 8, 12:
		a0, a1 := 255, 255
		if cem == 12 {
			a0, a1 = v[6], v[7]
		}
		if v[1]+v[3]+v[5] >= v[0]+v[2]+v[4] {
			return [2][4]int{rgba(v[0], v[2], v[4], a0), rgba(v[1], v[3], v[5], a1)}
		}
		return [2][4]int{blue(v[1], v[3], v[5], a1), blue(v[0], v[2], v[4], a0)}
	case 9, 13:
		r0, r1 := bitTransferSigned(v[1], v[0])
		g0, g1 := bitTransferSigned(v[3], v[2])
		bb0, bb1 := bitTransferSigned(v[5], v[4])
		a0, a1 := 255, 0
		if cem == 13 {
			a0, a1 = bitTransferSigned(v[7], v[6])
		}
		if r1+g1+bb1 >= 0 {
			return [2][4]int{rgba(r0, g0, bb0, a0), rgba(r0+r1, g0+g1, bb0+bb1, a0+a1)}
		}
		return [2][4]int{blue(r0+r1, g0+g1, bb0+bb1, a0+a1), blue(r0, g0, bb0, a0)}
	case 10:
		return [2][4]int{rgba(v[0]*v[3]>>8, v[1]*v[3]>>8, v[2]*v[3]>>8, v[4]), rgba(v[0], v[1], v[2], v[5])}
	}
	return e
}

// bitTransferSigned moves the top bit of a into b and reads a's remaining
// 6 bits as a signed offset: it returns (base, offset).
func bitTransferSigned(a, b int) (base, offset int) {
	b = b>>1 | a&0x80
	a = a >> 1 & 0x3F
	if a&0x20 != 0 {
		a -= 0x40
	}
	return b, a
}

func clamp255(v int) int { return max(0, min(255, v)) }

// selectPartition is the specification's partition hash: the partition of
// texel (x, y) for a seed and partition count; small blocks (fewer than
// 31 texels) double the coordinates.
func selectPartition(seed, x, y, parts int, small bool) int {
	if small {
		x, y = x<<1, y<<1
	}
	seed += (parts - 1) * 1024
	r := hash52(uint32(seed))
	var s [13]uint32 // the specification's seed1 … seed12 (s[0] unused)
	for i, shift := range [11]uint{0, 4, 8, 12, 16, 20, 24, 28, 18, 22, 26} {
		s[i+1] = r >> shift & 0xF
	}
	s[12] = (r>>30 | r<<2) & 0xF
	for i := 1; i <= 12; i++ {
		s[i] *= s[i]
	}
	var sh1, sh2 uint
	if seed&1 != 0 {
		sh1, sh2 = 5, 5
		if seed&2 != 0 {
			sh1 = 4
		}
		if parts == 3 {
			sh2 = 6
		}
	} else {
		sh1, sh2 = 5, 5
		if parts == 3 {
			sh1 = 6
		}
		if seed&2 != 0 {
			sh2 = 4
		}
	}
	sh3 := sh2
	if seed&0x10 != 0 {
		sh3 = sh1
	}
	for i := 1; i <= 8; i++ {
		if i%2 == 1 {
			s[i] >>= sh1
		} else {
			s[i] >>= sh2
		}
	}
	for i := 9; i <= 12; i++ {
		s[i] >>= sh3
	}
	ux, uy := uint32(x), uint32(y)
	a := (s[1]*ux + s[2]*uy + r>>14) & 0x3F
	b := (s[3]*ux + s[4]*uy + r>>10) & 0x3F
	c := (s[5]*ux + s[6]*uy + r>>6) & 0x3F
	d := (s[7]*ux + s[8]*uy + r>>2) & 0x3F
	if parts < 4 {
		d = 0
	}
	if parts < 3 {
		c = 0
	}
	switch {
	case a >= b && a >= c && a >= d:
		return 0
	case b >= c && b >= d:
		return 1
	case c >= d:
		return 2
	}
	return 3
}

// hash52 is the specification's 32-bit mixing function of the seed.
func hash52(p uint32) uint32 {
	p ^= p >> 15
	p -= p << 17
	p += p << 7
	p += p << 4
	p ^= p >> 5
	p += p << 16
	p ^= p >> 7
	p ^= p >> 3
	p ^= p << 6
	p ^= p >> 17
	return p
}
