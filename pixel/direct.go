package pixel

import "encoding/binary"

// decodeDirect converts packed uncompressed pixels (exactly w·h elements).
func decodeDirect(f Format, src, dst []byte) {
	switch f {
	case RGBA8:
		copy(dst, src)
	case R8:
		for i, v := range src {
			dst[i*4], dst[i*4+1], dst[i*4+2], dst[i*4+3] = v, 0, 0, 255
		}
	case RG8:
		for i := 0; i < len(src)/2; i++ {
			dst[i*4], dst[i*4+1], dst[i*4+2], dst[i*4+3] = src[2*i], src[2*i+1], 0, 255
		}
	case RGB565, RGB5A1, RGBA4:
		for i := 0; i < len(src)/2; i++ {
			p := Unpack16(f, binary.LittleEndian.Uint16(src[2*i:]))
			copy(dst[i*4:i*4+4], p[:])
		}
	}
}

// Unpack16 converts one 16-bit pixel of RGB565, RGB5A1 or RGBA4 to RGBA,
// expanding each n-bit channel to 8 bits by bit replication (exact for the
// ends: 0 → 0, all ones → 255). Other formats give transparent black.
func Unpack16(f Format, v uint16) [4]byte {
	switch f {
	case RGB565:
		return [4]byte{widen(v, 0, 5), widen(v, 5, 6), widen(v, 11, 5), 255}
	case RGB5A1:
		return [4]byte{widen(v, 0, 5), widen(v, 5, 5), widen(v, 10, 5), widen(v, 15, 1)}
	case RGBA4:
		return [4]byte{widen(v, 0, 4), widen(v, 4, 4), widen(v, 8, 4), widen(v, 12, 4)}
	}
	return [4]byte{}
}

// widen extracts n bits of v at shift and replicates them to fill 8 bits.
func widen(v uint16, shift, n uint) byte {
	x := uint(v>>shift) & (1<<n - 1)
	out := uint(0)
	for filled := uint(0); filled < 8; filled += n {
		out = out<<n | x
	}
	// out now holds ⌈8/n⌉ copies; keep the top 8 bits of the pattern.
	total := ((8 + n - 1) / n) * n
	return byte(out >> (total - 8))
}
