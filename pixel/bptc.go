package pixel

// Tables and helpers shared by BC6H and BC7 (BPTC): the Direct3D 11
// functional specification's "BC6H" and "BC7" format sections, also the
// Khronos Data Format Specification's BPTC chapter. A 128-bit block is read
// least significant bit first (bit 0 is bit 0 of byte 0).

// bits128 reads fields of a 16-byte block, least significant bit first.
type bits128 struct {
	b   []byte
	pos int
}

// read returns the next n bits (n ≤ 32) as an unsigned value.
func (r *bits128) read(n int) int {
	v := 0
	for i := range n {
		p := r.pos + i
		v |= int(r.b[p>>3]>>(p&7)&1) << i
	}
	r.pos += n
	return v
}

// bit returns bit p of the block.
func (r *bits128) bit(p int) int { return int(r.b[p>>3] >> (p & 7) & 1) }

// bptcWeights are the interpolation weights (out of 64) of 2-, 3- and
// 4-bit indices.
var bptcWeights = [5][]int{
	2: {0, 21, 43, 64},
	3: {0, 9, 18, 27, 37, 46, 55, 64},
	4: {0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64},
}

// bptcLerp interpolates two endpoints with a weight out of 64, rounding.
func bptcLerp(e0, e1, w int) int { return ((64-w)*e0 + w*e1 + 32) >> 6 }

// partitions2 gives, per two-subset partition, the subset of each pixel:
// bit i is pixel i's subset (BC6H uses the first 32).
var partitions2 = [64]uint16{
	0xCCCC, 0x8888, 0xEEEE, 0xECC8, 0xC880, 0xFEEC, 0xFEC8, 0xEC80,
	0xC800, 0xFFEC, 0xFE80, 0xE800, 0xFFE8, 0xFF00, 0xFFF0, 0xF000,
	0xF710, 0x008E, 0x7100, 0x08CE, 0x008C, 0x7310, 0x3100, 0x8CCE,
	0x088C, 0x3110, 0x6666, 0x366C, 0x17E8, 0x0FF0, 0x718E, 0x399C,
	0xAAAA, 0xF0F0, 0x5A5A, 0x33CC, 0x3C3C, 0x55AA, 0x9696, 0xA55A,
	0x73CE, 0x13C8, 0x324C, 0x3BDC, 0x6996, 0xC33C, 0x9966, 0x0660,
	0x0272, 0x04E4, 0x4E40, 0x2720, 0xC936, 0x936C, 0x39C6, 0x639C,
	0x9336, 0x9CC6, 0x817E, 0xE718, 0xCCF0, 0x0FCC, 0x7744, 0xEE22,
}

// partitions3 gives, per three-subset partition, two bits per pixel
// (pixel i in bits 2i, 2i+1).
var partitions3 = [64]uint32{
	0xAA685050, 0x6A5A5040, 0x5A5A4200, 0x5450A0A8, 0xA5A50000, 0xA0A05050, 0x5555A0A0, 0x5A5A5050,
	0xAA550000, 0xAA555500, 0xAAAA5500, 0x90909090, 0x94949494, 0xA4A4A4A4, 0xA9A59450, 0x2A0A4250,
	0xA5945040, 0x0A425054, 0xA5A5A500, 0x55A0A0A0, 0xA8A85454, 0x6A6A4040, 0xA4A45000, 0x1A1A0500,
	0x0050A4A4, 0xAAA59090, 0x14696914, 0x69691400, 0xA08585A0, 0xAA821414, 0x50A4A450, 0x6A5A0200,
	0xA9A58000, 0x5090A0A8, 0xA8A09050, 0x24242424, 0x00AA5500, 0x24924924, 0x24499224, 0x50A50A50,
	0x500AA550, 0xAAAA4444, 0x66660000, 0xA5A0A5A0, 0x50A050A0, 0x69286928, 0x44AAAA44, 0x66666600,
	0xAA444444, 0x54A854A8, 0x95809580, 0x96969600, 0xA85454A8, 0x80959580, 0xAA141414, 0x96960000,
	0xAAAA1414, 0xA05050A0, 0xA0A5A5A0, 0x96000000, 0x40804080, 0xA9A8A9A8, 0xAAAAAA44, 0x2A4A5254,
}

// anchor2 is the anchor pixel of subset 1 of each two-subset partition;
// anchor3 those of subsets 1 and 2 of each three-subset partition. Subset
// 0's anchor is always pixel 0. An anchor's index is stored with one bit
// fewer (its top bit is implicitly 0).
var anchor2 = [64]uint8{
	15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
	15, 2, 8, 2, 2, 8, 8, 15, 2, 8, 2, 2, 8, 8, 2, 2,
	15, 15, 6, 8, 2, 8, 15, 15, 2, 8, 2, 2, 2, 15, 15, 6,
	6, 2, 6, 8, 15, 15, 2, 2, 15, 15, 15, 15, 15, 2, 2, 15,
}

var anchor3 = [2][64]uint8{{
	3, 3, 15, 15, 8, 3, 15, 15, 8, 8, 6, 6, 6, 5, 3, 3,
	3, 3, 8, 15, 3, 3, 6, 10, 5, 8, 8, 6, 8, 5, 15, 15,
	8, 15, 3, 5, 6, 10, 8, 15, 15, 3, 15, 5, 15, 15, 15, 15,
	3, 15, 5, 5, 5, 8, 5, 10, 5, 10, 8, 13, 15, 12, 3, 3,
}, {
	15, 8, 8, 3, 15, 15, 3, 8, 15, 15, 15, 15, 15, 15, 15, 8,
	15, 8, 15, 3, 15, 8, 15, 8, 3, 15, 6, 10, 15, 15, 10, 8,
	15, 3, 15, 10, 10, 8, 9, 10, 6, 15, 8, 15, 3, 6, 6, 8,
	15, 3, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 3, 15, 15, 8,
}}

// subsetOf returns the subset of pixel i in partition p of a block with
// n subsets (1, 2 or 3).
func subsetOf(n, p, i int) int {
	switch n {
	case 2:
		return int(partitions2[p] >> i & 1)
	case 3:
		return int(partitions3[p] >> (2 * i) & 3)
	}
	return 0
}

// isAnchor reports whether pixel i is the anchor of its subset.
func isAnchor(n, p, i int) bool {
	switch {
	case i == 0:
		return true
	case n == 2:
		return i == int(anchor2[p])
	case n == 3:
		return i == int(anchor3[0][p]) || i == int(anchor3[1][p])
	}
	return false
}
