package ps2float

import "math/bits"

// Itof is cvt.s.w: a signed 32-bit integer to float, the magnitude
// truncated to 24 significant bits (not rounded) (ps2-ee-float.md §6).
func Itof(i int32) uint32 {
	if i == 0 {
		return 0
	}
	var sign uint32
	mag := uint32(i)
	if i < 0 {
		sign, mag = signBit, -mag
	}
	return fromMagnitude(sign, mag)
}

// U32tof converts an unsigned 32-bit count (ccAnm's segment times and
// durations) to float. Below 2^31 it is cvt.s.w. Above, the game's code
// sequence is not identified (§11); every candidate truncates, so this
// gives the value truncated to 24 significant bits.
func U32tof(u uint32) uint32 {
	if u == 0 {
		return 0
	}
	return fromMagnitude(0, u)
}

func fromMagnitude(sign, mag uint32) uint32 {
	n := int32(bits.Len32(mag))
	if n > 24 {
		mag >>= uint(n - 24)
	} else {
		mag <<= uint(24 - n)
	}
	return pack(sign, 126+n, mag)
}

// Ftoi is cvt.w.s: float to signed 32-bit integer, truncated toward zero;
// |x| ≥ 2^31 (the exponent-255 binade included) saturates, exponent 0 is 0.
func Ftoi(x uint32) int32 {
	e := expOf(x)
	if e < 127 {
		return 0
	}
	neg := x&signBit != 0
	if e >= 158 {
		if neg {
			return -1 << 31
		}
		return 1<<31 - 1
	}
	var mag uint32
	if e <= 150 {
		mag = sigOf(x) >> uint(150-e)
	} else {
		mag = sigOf(x) << uint(e-150)
	}
	if neg {
		return -int32(mag)
	}
	return int32(mag)
}

// Less is c.lt.s: all exponent-0 patterns equal zero, otherwise a
// sign-magnitude order that includes the exponent-255 binade. −0 < 0 is
// false.
func Less(a, b uint32) bool {
	if IsZero(a) {
		a = 0
	}
	if IsZero(b) {
		b = 0
	}
	return key(a) < key(b)
}

// key maps a (zero-normalised) pattern to an integer with the same order.
func key(x uint32) int64 {
	if x&signBit != 0 {
		return -int64(x &^ signBit)
	}
	return int64(x)
}
