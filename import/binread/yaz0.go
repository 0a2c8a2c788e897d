package binread

import (
	"encoding/binary"
)

// Yaz0HeaderSize is the size of a Yaz0 stream header: "Yaz0", the
// big-endian decompressed size and 8 reserved bytes.
const Yaz0HeaderSize = 16

// IsYaz0 reports whether data starts with the Yaz0 magic.
func IsYaz0(data []byte) bool {
	return len(data) >= 4 && string(data[:4]) == "Yaz0"
}

// DecodeYaz0 decompresses a whole Yaz0 stream (Nintendo's LZ77 variant used
// for .szs and .sbfres files). The header's size is checked against limit
// before anything is allocated, and every back-reference and literal is
// checked against the input and output bounds, so a hostile stream yields a
// *FormatError naming the input offset rather than a panic or an overrun.
func DecodeYaz0(data []byte, limit int64) ([]byte, error) {
	if len(data) < Yaz0HeaderSize {
		return nil, Errorf(0, "Yaz0 header needs %d bytes, file has %d", Yaz0HeaderSize, len(data))
	}
	if !IsYaz0(data) {
		return nil, Errorf(0, "expected Yaz0 magic, found %q", data[:4])
	}
	size := int64(binary.BigEndian.Uint32(data[4:8]))
	if size > limit {
		return nil, Errorf(4, "Yaz0 decompressed size %d exceeds the limit of %d bytes (raise --max-inflate to allow more)", size, limit)
	}
	// A group byte plus 8 literals give at most 8 output bytes per 9 input
	// bytes; a 3-byte back-reference at most 0x111. A size far beyond what
	// the input could produce is an error before the allocation.
	if maxOut := int64(len(data)-Yaz0HeaderSize) * 0x111 / 3; size > maxOut+8 {
		return nil, Errorf(4, "Yaz0 decompressed size %d cannot come from %d bytes of input", size, len(data)-Yaz0HeaderSize)
	}
	out := make([]byte, size)
	in, o := Yaz0HeaderSize, 0
	var group byte
	bits := 0
	for o < len(out) {
		if bits == 0 {
			if in >= len(data) {
				return nil, Errorf(int64(in), "Yaz0 stream ends after %d of %d bytes (expected a group header)", o, size)
			}
			group, bits = data[in], 8
			in++
		}
		literal := group&0x80 != 0
		group <<= 1
		bits--
		if literal {
			if in >= len(data) {
				return nil, Errorf(int64(in), "Yaz0 stream ends after %d of %d bytes (expected a literal)", o, size)
			}
			out[o] = data[in]
			o++
			in++
			continue
		}
		if in+2 > len(data) {
			return nil, Errorf(int64(in), "Yaz0 stream ends after %d of %d bytes (expected a back-reference)", o, size)
		}
		at := in
		b1, b2 := data[in], data[in+1]
		in += 2
		dist := int(b1&0x0F)<<8 | int(b2) + 1
		n := int(b1 >> 4)
		if n == 0 {
			if in >= len(data) {
				return nil, Errorf(int64(in), "Yaz0 stream ends inside a long back-reference")
			}
			n = int(data[in]) + 0x12
			in++
		} else {
			n += 2
		}
		if dist > o {
			return nil, Errorf(int64(at), "Yaz0 back-reference reaches %d bytes back but only %d bytes are decoded", dist, o)
		}
		if n > len(out)-o {
			return nil, Errorf(int64(at), "Yaz0 back-reference of %d bytes overruns the declared size %d (at output byte %d)", n, size, o)
		}
		for j := 0; j < n; j++ { // byte by byte: the source may overlap the destination
			out[o] = out[o-dist]
			o++
		}
	}
	return out, nil
}
