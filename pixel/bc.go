package pixel

import "encoding/binary"

// The block formats follow the Direct3D 10 functional specification's
// "Block Compression" section (also Khronos Data Format Specification §19,
// S3TC and RGTC): 4×4 pixels per block, pixel i = 4·row + column, indices
// stored least significant bits first, all multi-byte fields little-endian.
// Where the specification leaves the exact rounding to the implementation,
// this package expands 5- and 6-bit endpoints to 8 bits by bit replication
// and rounds every interpolated value once, to nearest (halves up).

// DecodeBlock decodes one block of a compressed format (len(b) ≥ its block
// size) into 16 RGBA pixels, row-major. It panics on an uncompressed format.
func DecodeBlock(f Format, b []byte, out *[64]byte) {
	switch f {
	case BC1:
		colorBlock(b[:8], true, out)
	case BC2:
		colorBlock(b[8:16], false, out)
		a := binary.LittleEndian.Uint64(b[:8])
		for i := range 16 {
			out[i*4+3] = byte(a>>(4*i)&0xF) * 17
		}
	case BC3:
		colorBlock(b[8:16], false, out)
		var a [16]byte
		unsignedChannel(b[:8], &a)
		for i := range 16 {
			out[i*4+3] = a[i]
		}
	case BC4, BC4S, BC5, BC5S:
		var r, g [16]byte
		signed := f == BC4S || f == BC5S
		channel(b[:8], signed, &r)
		two := f == BC5 || f == BC5S
		if two {
			channel(b[8:16], signed, &g)
		}
		for i := range 16 {
			out[i*4+0] = r[i]
			out[i*4+1] = g[i]
			out[i*4+2] = 0
			out[i*4+3] = 255
		}
	case BC7:
		decodeBC7(b[:16], out)
	case BC6HU, BC6HS:
		decodeBC6H(b[:16], f == BC6HS, out)
	default:
		panic("pixel: DecodeBlock of uncompressed format " + f.String())
	}
}

// expand565 splits a BCn endpoint (red in bits 11–15, green 5–10, blue 0–4:
// the block formats' own order) into 8-bit channels by bit replication.
func expand565(c uint16) [3]int {
	r, g, b := int(c>>11&31), int(c>>5&63), int(c&31)
	return [3]int{r<<3 | r>>2, g<<2 | g>>4, b<<3 | b>>2}
}

// colorBlock decodes a BC1 colour block. With punchThrough (BC1 proper),
// c0 ≤ c1 selects the 3-colour mode whose index 3 is transparent black;
// BC2 and BC3 colour blocks always use the 4-colour mode.
func colorBlock(b []byte, punchThrough bool, out *[64]byte) {
	c0 := binary.LittleEndian.Uint16(b[0:])
	c1 := binary.LittleEndian.Uint16(b[2:])
	e0, e1 := expand565(c0), expand565(c1)
	var pal [4][4]byte
	for ch := range 3 {
		a, z := e0[ch], e1[ch]
		pal[0][ch], pal[1][ch] = byte(a), byte(z)
		if c0 > c1 || !punchThrough {
			pal[2][ch] = unorm(2*a+z, 3)
			pal[3][ch] = unorm(a+2*z, 3)
		} else {
			pal[2][ch] = unorm(a+z, 2)
		}
	}
	pal[0][3], pal[1][3], pal[2][3] = 255, 255, 255
	if c0 > c1 || !punchThrough {
		pal[3][3] = 255
	}
	idx := binary.LittleEndian.Uint32(b[4:])
	for i := range 16 {
		copy(out[i*4:i*4+4], pal[idx>>(2*i)&3][:])
	}
}

// channel decodes one interpolated 8-byte channel block (BC3 alpha, BC4,
// each half of BC5), unsigned or signed.
func channel(b []byte, signed bool, out *[16]byte) {
	if signed {
		signedChannel(b, out)
	} else {
		unsignedChannel(b, out)
	}
}

// channelIndices returns the 16 3-bit indices of a channel block.
func channelIndices(b []byte) uint64 {
	return uint64(b[2]) | uint64(b[3])<<8 | uint64(b[4])<<16 | uint64(b[5])<<24 |
		uint64(b[6])<<32 | uint64(b[7])<<40
}

// weights returns, for index k of a channel block, the numerator weights
// of the two endpoints and the denominator: value = (w0·e0 + w1·e1)/d.
// eight selects the 8-value mode (e0 > e1); in the 6-value mode indices 6
// and 7 are the range's ends and come back with d = 0.
func weights(k int, eight bool) (w0, w1, d int) {
	switch {
	case k == 0:
		return 1, 0, 1
	case k == 1:
		return 0, 1, 1
	case eight:
		return 8 - k, k - 1, 7
	case k <= 5:
		return 6 - k, k - 1, 5
	}
	return 0, 0, 0
}

func unsignedChannel(b []byte, out *[16]byte) {
	e0, e1 := int(b[0]), int(b[1])
	eight := e0 > e1
	var pal [8]byte
	for k := range 8 {
		w0, w1, d := weights(k, eight)
		switch {
		case d > 0:
			pal[k] = unorm(w0*e0+w1*e1, d)
		case k == 6:
			pal[k] = 0
		default:
			pal[k] = 255
		}
	}
	idx := channelIndices(b)
	for i := range 16 {
		out[i] = pal[idx>>(3*i)&7]
	}
}

// signedChannel decodes a BC4/BC5 SNORM channel: endpoints are two's
// complement bytes, −128 reads as −127 (both mean −1.0), values are
// interpolated in the signed range and mapped −1..1 → 0..255 (normal-map
// convention, 0 → 127.5 → 128) with a single rounding.
func signedChannel(b []byte, out *[16]byte) {
	e0, e1 := max(int(int8(b[0])), -127), max(int(int8(b[1])), -127)
	eight := e0 > e1
	var pal [8]byte
	for k := range 8 {
		w0, w1, d := weights(k, eight)
		switch {
		case d > 0:
			pal[k] = snorm(w0*e0+w1*e1, d)
		case k == 6:
			pal[k] = 0 // −1.0
		default:
			pal[k] = 255 // +1.0
		}
	}
	idx := channelIndices(b)
	for i := range 16 {
		out[i] = pal[idx>>(3*i)&7]
	}
}
