package pixel

import "fmt"

// NibbleOrder says which half of a byte holds the first of two 4-bit indices.
type NibbleOrder int

const (
	// LowNibbleFirst: pixel 2k is bits 0–3 of byte k (PS2 GS PSMT4, BMP is the other way).
	LowNibbleFirst NibbleOrder = iota
	// HighNibbleFirst: pixel 2k is bits 4–7 of byte k.
	HighNibbleFirst
)

// Expand converts an indexed image into RGBA rows: bits is 4 or 8, the
// indices are packed one after another without row padding (pixel i is
// index i: byte i for 8-bit, nibble i for 4-bit in the given order), and
// palette holds 4 bytes R, G, B, A per entry in index order (any CLUT
// reordering, such as the PS2's, is the caller's). An index past the end of
// the palette is an error naming the pixel.
func Expand(indices []byte, w, h, bits int, order NibbleOrder, palette []byte) ([]byte, error) {
	if err := checkDims(w, h); err != nil {
		return nil, err
	}
	if bits != 4 && bits != 8 {
		return nil, fmt.Errorf("indexed image with %d bits per pixel: only 4 and 8 are supported", bits)
	}
	if len(palette)%4 != 0 {
		return nil, fmt.Errorf("palette of %d bytes is not a whole number of 4-byte RGBA entries", len(palette))
	}
	n := w * h
	need := n
	if bits == 4 {
		need = (n + 1) / 2
	}
	if len(indices) < need {
		return nil, fmt.Errorf("%d×%d image of %d-bit indices needs %d bytes, only %d given", w, h, bits, need, len(indices))
	}
	entries := len(palette) / 4
	dst := make([]byte, n*4)
	for i := range n {
		var k int
		if bits == 8 {
			k = int(indices[i])
		} else {
			b := indices[i/2]
			if (i%2 == 0) == (order == LowNibbleFirst) {
				k = int(b & 0xF)
			} else {
				k = int(b >> 4)
			}
		}
		if k >= entries {
			return nil, fmt.Errorf("pixel %d (x %d, y %d) uses palette entry %d, but the palette has %d", i, i%w, i/w, k, entries)
		}
		copy(dst[i*4:i*4+4], palette[k*4:k*4+4])
	}
	return dst, nil
}

// PS2Alpha converts a PS2 GS alpha (0x80 = opaque, 0..0x80 the usual range)
// to 0..255: round(a·255/128), with values above 0x80 (which the GS would
// treat as more than opaque) clamped to 255.
func PS2Alpha(a byte) byte {
	if a >= 0x80 {
		return 255
	}
	return unorm(int(a)*255, 128)
}
