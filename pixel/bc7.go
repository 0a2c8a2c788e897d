package pixel

import "math/bits"

// bc7Mode describes one of BC7's eight block modes (D3D11 functional
// specification, BC7 format): subsets, partition, rotation and
// index-selection bits, colour and alpha bits per endpoint, whether each
// endpoint or each subset has a p-bit (a shared low bit), and the bits of
// the primary and secondary indices.
type bc7Mode struct {
	subsets, partitionBits, rotationBits, indexSelBits int
	colorBits, alphaBits                               int
	endpointPBits, subsetPBits                         bool
	indexBits, index2Bits                              int
}

var bc7Modes = [8]bc7Mode{
	{3, 4, 0, 0, 4, 0, true, false, 3, 0},
	{2, 6, 0, 0, 6, 0, false, true, 3, 0},
	{3, 6, 0, 0, 5, 0, false, false, 2, 0},
	{2, 6, 0, 0, 7, 0, true, false, 2, 0},
	{1, 0, 2, 1, 5, 6, false, false, 2, 3},
	{1, 0, 2, 0, 7, 8, false, false, 2, 2},
	{1, 0, 0, 0, 7, 7, true, false, 4, 0},
	{2, 6, 0, 0, 5, 5, true, false, 2, 0},
}

// decodeBC7 decodes one 16-byte BC7 block into 16 RGBA pixels. The mode is
// the number of zero bits below the first set bit of byte 0; a block with
// byte 0 zero (the reserved mode 8) decodes to transparent black, as the
// specification requires of invalid blocks.
func decodeBC7(b []byte, out *[64]byte) {
	if b[0] == 0 {
		*out = [64]byte{}
		return
	}
	mode := bits.TrailingZeros8(b[0])
	m := bc7Modes[mode]
	r := bits128{b: b, pos: mode + 1}
	partition := r.read(m.partitionBits)
	rotation := r.read(m.rotationBits)
	indexSel := r.read(m.indexSelBits)

	// Endpoints: every endpoint's red, then green, blue and alpha.
	n := 2 * m.subsets
	var ep [6][4]int
	for ch := range 4 {
		width := m.colorBits
		if ch == 3 {
			width = m.alphaBits
		}
		for e := range n {
			ep[e][ch] = r.read(width)
		}
	}
	colorBits, alphaBits := m.colorBits, m.alphaBits
	if m.endpointPBits || m.subsetPBits {
		var p [6]int
		if m.endpointPBits {
			for e := range n {
				p[e] = r.read(1)
			}
		} else {
			for s := range m.subsets {
				p[2*s] = r.read(1)
				p[2*s+1] = p[2*s]
			}
		}
		for e := range n {
			for ch := range 4 {
				ep[e][ch] = ep[e][ch]<<1 | p[e]
			}
		}
		colorBits++
		if alphaBits > 0 {
			alphaBits++
		}
	}
	for e := range n {
		for ch := range 3 {
			ep[e][ch] = expandBits(ep[e][ch], colorBits)
		}
		if alphaBits > 0 {
			ep[e][3] = expandBits(ep[e][3], alphaBits)
		} else {
			ep[e][3] = 255
		}
	}

	// Indices: the primary set, then (modes 4 and 5) the secondary set,
	// whose only anchor is pixel 0.
	primary := r.pos
	secondary := primary + 16*m.indexBits - m.subsets
	for i := range 16 {
		s := subsetOf(m.subsets, partition, i)
		w := m.indexBits
		if isAnchor(m.subsets, partition, i) {
			w--
		}
		r.pos = primary
		ci := r.read(w)
		primary = r.pos
		colorW := bptcWeights[m.indexBits][ci]
		alphaW := colorW
		if m.index2Bits > 0 {
			w2 := m.index2Bits
			if i == 0 {
				w2--
			}
			r.pos = secondary
			ai := r.read(w2)
			secondary = r.pos
			alphaW = bptcWeights[m.index2Bits][ai]
			if indexSel == 1 {
				colorW, alphaW = alphaW, colorW
			}
		}
		e0, e1 := ep[2*s], ep[2*s+1]
		var px [4]int
		for ch := range 3 {
			px[ch] = bptcLerp(e0[ch], e1[ch], colorW)
		}
		px[3] = bptcLerp(e0[3], e1[3], alphaW)
		if rotation > 0 {
			px[3], px[rotation-1] = px[rotation-1], px[3]
		}
		for ch := range 4 {
			out[4*i+ch] = byte(px[ch])
		}
	}
}

// expandBits widens an n-bit value (4 ≤ n ≤ 8) to 8 bits by replicating
// its top bits into the low bits.
func expandBits(v, n int) int {
	v <<= 8 - n
	return v | v>>n
}
