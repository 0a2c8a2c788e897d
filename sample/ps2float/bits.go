package ps2float

import "math"

// Bit-field constants of the single-precision layout.
const (
	signBit  = 0x80000000
	fracMask = 0x007FFFFF
	hidden   = 0x00800000
	// Max is the largest EE magnitude, (2 − 2^-23)·2^128; overflows clamp
	// to ±Max.
	Max = 0x7FFFFFFF
	// One is 1.0.
	One = 0x3F800000
)

func expOf(x uint32) int32  { return int32(x>>23) & 0xFF }
func sigOf(x uint32) uint32 { return x&fracMask | hidden }

// pack assembles a result from a sign bit, an exponent and a 24-bit
// significand (hidden bit set), clamping overflow to ±Max and flushing
// underflow to a signed zero.
func pack(sign uint32, e int32, sig uint32) uint32 {
	if e > 255 {
		return sign | Max
	}
	if e < 1 {
		return sign
	}
	return sign | uint32(e)<<23 | sig&fracMask
}

// IsZero reports whether x reads as zero on the EE: its exponent field is
// 0, whatever its fraction bits.
func IsZero(x uint32) bool { return expOf(x) == 0 }

// F32 returns the bit pattern of a Go float32 (for constants and inputs).
func F32(f float32) uint32 { return math.Float32bits(f) }

// ToFloat64 gives the EE value of x exactly: exponent 0 is a signed zero
// and exponent 255 the binade above 2^128 that float32 cannot hold.
func ToFloat64(x uint32) float64 {
	e := expOf(x)
	var v float64
	if e != 0 {
		v = math.Ldexp(float64(sigOf(x)), int(e)-150)
	}
	if x&signBit != 0 {
		return -v
	}
	return v
}

// Neg flips the sign bit (0 ⊖ x gives +0 for a zero, Neg gives −0).
func Neg(x uint32) uint32 { return x ^ signBit }

// Abs clears the sign bit.
func Abs(x uint32) uint32 { return x &^ signBit }
