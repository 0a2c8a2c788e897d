package bfreswrite

import "encoding/binary"

// Yaz0 compresses data as Yaz0 with a greedy search for
// back-references (short and long forms), to exercise every decoder path.
func Yaz0(data []byte) []byte {
	out := []byte("Yaz0")
	out = binary.BigEndian.AppendUint32(out, uint32(len(data)))
	out = append(out, make([]byte, 8)...)
	for i := 0; i < len(data); {
		head := len(out)
		out = append(out, 0)
		for bit := 7; bit >= 0 && i < len(data); bit-- {
			bestLen, bestDist := 0, 0
			for d := 1; d <= min(i, 0x1000); d++ {
				n := 0
				for n < 0x111 && i+n < len(data) && data[i+n] == data[i+n-d] {
					n++
				}
				if n > bestLen {
					bestLen, bestDist = n, d
				}
			}
			if bestLen < 3 {
				out[head] |= 1 << bit
				out = append(out, data[i])
				i++
				continue
			}
			d := bestDist - 1
			if bestLen >= 0x12 {
				out = append(out, byte(d>>8), byte(d), byte(bestLen-0x12))
			} else {
				out = append(out, byte((bestLen-2)<<4|d>>8), byte(d))
			}
			i += bestLen
		}
	}
	return out
}
