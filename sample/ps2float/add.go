package ps2float

import "math/bits"

// Add is the EE's add.s (and VU0 VADD): the operand with the smaller
// exponent keeps one guard bit below the larger operand's last place (gap
// ≥ 25: it is dropped), the two are added exactly and the sum is truncated
// toward zero (ps2-ee-float.md §2.1, §9.4).
func Add(a, b uint32) uint32 {
	ea, eb := expOf(a), expOf(b)
	switch {
	case ea == 0 && eb == 0:
		return a & b & signBit
	case ea == 0:
		return b
	case eb == 0:
		return a
	}
	d := ea - eb
	switch {
	case d >= 25:
		return a
	case d <= -25:
		return b
	case d > 0:
		b &= ^uint32(0) << uint(d-1)
	case d < 0:
		a &= ^uint32(0) << uint(-d-1)
	}
	emin := min(ea, eb)
	va := int64(sigOf(a)) << uint(ea-emin)
	vb := int64(sigOf(b)) << uint(eb-emin)
	if a&signBit != 0 {
		va = -va
	}
	if b&signBit != 0 {
		vb = -vb
	}
	s := va + vb
	if s == 0 {
		return 0
	}
	var sign uint32
	if s < 0 {
		sign, s = signBit, -s
	}
	mag := uint64(s)
	n := int32(bits.Len64(mag))
	if n > 24 {
		mag >>= uint(n - 24)
	} else {
		mag <<= uint(24 - n)
	}
	return pack(sign, emin+n-24, uint32(mag))
}

// Sub is the EE's sub.s: Add with the sign of b flipped.
func Sub(a, b uint32) uint32 { return Add(a, b^signBit) }
