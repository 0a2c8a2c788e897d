package ps2float

// Div is the EE's div.s fd, fs, ft (and VU0 VDIV): a 25-digit radix-2 SRT
// division on the significands, truncated (ps2-ee-float.md §5.2). It is
// neither round-to-nearest nor round-toward-zero in general. x/0 and 0/0
// give ±Max (sign = XOR of signs); 0/x gives a signed zero.
func Div(fs, ft uint32) uint32 {
	sign := (fs ^ ft) & signBit
	if expOf(ft) == 0 {
		return sign | Max
	}
	if expOf(fs) == 0 {
		return sign
	}
	a, b := sigOf(fs)<<2, sigOf(ft)<<2
	s, c, q := a, uint32(0), int32(1)
	var quo uint32
	for range 25 {
		quo = quo<<1 + uint32(q)
		var x uint32
		switch q {
		case 1:
			x = ^b
			c++
		case -1:
			x = b
		}
		ns, nc := csa(s, c, x)
		if q != 0 {
			q = selectDigit(ns, nc)
		} else {
			q = selectDigit(s, c)
		}
		s, c = ns<<1, nc<<1
	}
	e := expOf(fs) - expOf(ft) + 126
	if quo >= 1<<24 {
		quo >>= 1
		e++
	}
	return pack(sign, e, quo)
}

// Sqrt is the EE's sqrt.s (and VU0 VSQRT): a radix-2 SRT square root of
// |x|, truncated; the sign is ignored and sqrt(±0) = +0 (§5.2).
func Sqrt(x uint32) uint32 {
	if expOf(x) == 0 {
		return 0
	}
	m := sigOf(x) << 1
	if x&hidden == 0 { // even biased exponent
		m <<= 1
	}
	s, c, q := m, uint32(0), int32(1)
	var quo uint32
	for i := range 25 {
		adj := quo + uint32(q)<<(24-i)
		quo += uint32(q) << (25 - i)
		var xa uint32
		switch q {
		case 1:
			xa = ^adj
			c++
		case -1:
			xa = adj
		}
		ns, nc := csa(s, c, xa)
		if q != 0 {
			q = selectDigit(ns, nc)
		} else {
			q = selectDigit(s, c)
		}
		s, c = ns<<1, nc<<1
	}
	e := (expOf(x) + 127) >> 1
	return uint32(e)<<23 | (quo>>2)&fracMask
}

// Rsqrt is rsqrt.s (and VU0 VRSQRT): fs / sqrt(|ft|), two separate
// roundings (§5.1).
func Rsqrt(fs, ft uint32) uint32 {
	if expOf(ft) == 0 {
		return fs&signBit | Max
	}
	return Div(fs, Sqrt(ft))
}

// selectDigit is the SRT quotient-digit selection from a carry-save
// remainder (§5.2 "sel").
func selectDigit(s, c uint32) int32 {
	const mask = 1<<24 - 1
	t := int32((s&^mask + c) | s&mask)
	switch {
	case t >= 1<<23:
		return 1
	case t < -(1 << 24):
		return -1
	}
	return 0
}
