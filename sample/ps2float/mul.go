package ps2float

// Mul is the EE's mul.s fd, fs, ft (and VU0 VMUL): the 48-bit significand
// product as the EE's Booth multiplier forms it (§3.2), truncated. The
// result is the round-toward-zero product or one ulp below it, and it
// depends on which operand is fs (ps2-ee-float.md §3.1).
func Mul(fs, ft uint32) uint32 {
	p, _ := mul(fs, ft)
	return p
}

// mul is Mul that also reports whether the product overflowed.
func mul(fs, ft uint32) (uint32, bool) {
	sign := (fs ^ ft) & signBit
	if expOf(fs) == 0 || expOf(ft) == 0 {
		return sign, false
	}
	e := expOf(fs) + expOf(ft) - 127
	p := mulMantissa(sigOf(fs), sigOf(ft)) >> 23
	if p >= 1<<24 {
		p >>= 1
		e++
	}
	return pack(sign, e, uint32(p)), e > 255
}

// Madd is madd.s: acc + fs × ft with the product rounded as Mul, then
// added as Add (not fused). When the product overflows the result is
// +Max for a non-negative product and −Max otherwise (§4). The rule that
// reuses ACC after an earlier overflowing ACC write needs state and is not
// modelled; animation data never gets there.
func Madd(acc, fs, ft uint32) uint32 {
	p, over := mul(fs, ft)
	if over {
		return p&signBit | Max
	}
	return Add(acc, p)
}

// Msub is msub.s: acc − fs × ft, the product rounded as Mul; an
// overflowing product gives +Max when it is negative, −Max otherwise (§4).
func Msub(acc, fs, ft uint32) uint32 {
	p, over := mul(fs, ft)
	if over {
		return ^p&signBit | Max
	}
	return Sub(acc, p)
}

// csa is a carry-save adder over 32-bit words: the bitwise sum and the
// shifted majority carry.
func csa(x, y, z uint32) (sum, carry uint32) {
	u := x ^ y
	return u ^ z, (u&z | x&y) << 1
}

// booth returns partial product k of the radix-4 Booth recoding of b for
// multiplicand a, and the pending +1 of a negative digit (§3.2 steps 1–2).
func booth(a, b uint32, k uint) (pp, neg uint32) {
	w := (b << 1 >> (2 * k)) & 7
	if w == 0 || w == 7 {
		return 0, 0
	}
	pp = a << (2 * k)
	if w == 3 || w == 4 {
		pp <<= 1
	}
	if w >= 4 {
		pp ^= ^uint32(0) << (2 * k)
		neg = 1 << (2 * k)
	}
	return pp, neg
}

// mulMantissa is the EE's product of two 24-bit significands: exact, or
// 2^15 less when the truncated carry-save tree's bit 15 disagrees with the
// exact product's (ps2-ee-float.md §3.2 steps 3–4).
func mulMantissa(a, b uint32) uint64 {
	f := uint64(a) * uint64(b)
	if b&0xFFFF == 0 {
		// Every Booth window reads only zeros: no partial products, L = 0,
		// and the exact product's low 16 bits are zero too, so they agree.
		return f
	}
	return boothProduct(a, b, f)
}

// boothProduct applies the carry-save tree's bit-15 verdict to the exact
// product f of a and b.
func boothProduct(a, b uint32, f uint64) uint64 {
	var pp, n [8]uint32
	for k := range pp {
		pp[k], n[k] = booth(a, b, uint(k))
	}
	s0, c0 := csa(pp[1], pp[2], pp[3])
	s1, c1 := csa(pp[4]&^0x7FF, pp[5]&^0xFFF, pp[6])
	c1 |= n[6] | pp[5]&0x800
	pp7 := pp[7] | (pp[5]&0x400 + n[5])
	s2, c2 := csa(pp[0], s0, c0)
	s3, c3 := csa(pp7, s1, c1)
	s4, c4 := csa(c2, s3, c3)
	s5, c5 := csa(s2, s4, c4)
	c5 += n[7]
	l := s5&^0x7FFF + c5&^0x7FFF
	if (uint64(l)^f)&0x8000 != 0 {
		return f - 0x8000
	}
	return f
}
