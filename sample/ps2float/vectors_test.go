package ps2float

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// The hardware and model vectors of ps2-ee-float.md §8, by number.
func TestSpecVectors(t *testing.T) {
	tests := []struct {
		n    int
		got  uint32
		want uint32
	}{
		{1, Add(0x3FFFFFFF, 0x3F800000), 0x403FFFFF},
		{2, Add(0x7F800001, 0x3F800000), 0x7F800001},
		{3, Add(0x7F800000, 0x7F800000), 0x7FFFFFFF},
		{4, Add(0x7FFFFFFF, 0xFFFFFFFF), 0x00000000},
		{5, Add(0x00000001, 0x3F800000), 0x3F800000},
		{6, Add(0xB3E2A618, 0x42546666), 0x42546666},
		{7, Add(0x4B1ED4A7, 0x43A02666), 0x4B1ED5E7},
		{8, Mul(0x3F800000, 0x3FFFFFFF), 0x3FFFFFFE},
		{9, Mul(0x3FFFFFFF, 0x3F800000), 0x3FFFFFFF},
		{10, Mul(0x3F800000, 0x7FFFFFFF), 0x7FFFFFFE},
		{11, Mul(0xB063B75B, 0x42FECCCD), 0xB3E2A618},
		{12, Mul(0x46FCC888, 0x43A0DA10), 0x4B1ED4A7},
		{13, Mul(0x3F800000, 0x43018000), 0x43017FFF},
		{14, Mul(0x3E800000, 0x40490FDB), 0x3F490FDA},
		{15, Madd(0, 0x3F800000, 0x3FFFFFFF), 0x3FFFFFFE},
		{16, Div(0x3F800000, 0x3FFFFFFF), 0x3F000001},
		{17, Div(0x3F800000, 0x00000000), 0x7FFFFFFF},
		{18, Div(0x80000000, 0x00000000), 0xFFFFFFFF},
		{19, Rsqrt(0x3F800000, 0x41C80000), 0x3E4CCCCD},
		{20, Rsqrt(0x7FFFFFFF, 0x7FFFFFFF), 0x5FB504F2},
		{21, Sqrt(0x7FFFFFFF), 0x5FB504F3},
		{22, Sqrt(0xDEADBEEF), 0x4F152108},
		{23, Itof(0x7FFFFFFF), 0x4EFFFFFF},
		{24, Itof(-1077852242), 0xCE807D70},
		{25, uint32(Ftoi(0xBFC00000)), 0xFFFFFFFF},
		{26, uint32(Ftoi(0x7F800000)), 0x7FFFFFFF},
		{27, Msub(0x7F800000, 0x7F800000, 0x7F800000), 0xFFFFFFFF},
		{28, Div(0x435F0000, 0x44400000), 0x3E94AAAA},
		{29, Div(0x41C80000, 0x45500000), 0x3BF62763},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("§8 vector %d: got %08X, want %08X", tc.n, tc.got, tc.want)
		}
	}
}

// ps2-ee-float.md §8 vector 14 with the operands swapped is exact, and
// 9.5 lists 128.5 as the first affected multiple of 0.5 below 129.5 (§3.1).
func TestMulOperandOrder(t *testing.T) {
	if got := Mul(0x40490FDB, 0x3E800000); got != 0x3F490FDB {
		t.Errorf("π × 0.25 = %08X, want 3F490FDB (fs = π is exact)", got)
	}
	if got := Mul(0x43018000, 0x3F800000); got != 0x43018000 {
		t.Errorf("129.5 × 1 = %08X, want 43018000 (fs × 1.0 is exact)", got)
	}
	// §3.1: 128.5 is the first multiple of 0.5 where 1.0 × x loses an ulp.
	for x := 0.5; x < 128.5; x += 0.5 {
		b := F32(float32(x))
		if got := Mul(One, b); got != b {
			t.Fatalf("1.0 × %v = %08X, want it unchanged (§3.1: first affected is 128.5)", x, got)
		}
	}
	if b := F32(128.5); Mul(One, b) == b {
		t.Errorf("1.0 × 128.5 should lose one ulp (§3.1)")
	}
}

// §1 and §2: signed zeros and denormal inputs.
func TestSignedZeros(t *testing.T) {
	const pz, nz = 0x00000000, 0x80000000
	for _, tc := range []struct {
		name      string
		got, want uint32
	}{
		{"(+0)+(−0)", Add(pz, nz), pz},
		{"(−0)+(−0)", Add(nz, nz), nz},
		{"(−0)−(+0)", Sub(nz, pz), nz},
		{"x+(−x)", Add(0x40400000, 0xC0400000), pz},
		{"(−0)×(+0)", Mul(nz, pz), nz},
		{"denormal×1", Mul(0x00000001, One), pz},
		{"sqrt(−0)", Sqrt(nz), pz},
		{"sqrt(−4)", Sqrt(0xC0800000), 0x40000000},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %08X, want %08X", tc.name, tc.got, tc.want)
		}
	}
}

// §6: the conversion vectors of convert.expected quoted in the text.
func TestConversions(t *testing.T) {
	for _, tc := range []struct {
		in   uint32
		want int32
	}{
		{0x3FC00000, 1}, {0xBFC00000, -1}, {0x3FC147AE, 1},
		{0x4F000000, 0x7FFFFFFF}, {0xCF000000, -0x80000000},
		{0x4EFFFFFF, 0x7FFFFF80}, {0x00000001, 0}, {0x3F000000, 0},
	} {
		if got := Ftoi(tc.in); got != tc.want {
			t.Errorf("cvt.w.s %08X = %d, want %d", tc.in, got, tc.want)
		}
	}
	for _, tc := range []struct {
		in   int32
		want uint32
	}{
		{0x3FC147AE, 0x4E7F051E}, {-0x80000000, 0xCF000000}, {1, One}, {768, 0x44400000},
	} {
		if got := Itof(tc.in); got != tc.want {
			t.Errorf("cvt.s.w %d = %08X, want %08X", tc.in, got, tc.want)
		}
	}
	// u32 beyond 2^31: truncated, 0xFFFFFF00 is exact, 0xFFFFFFFF truncates to it.
	if got := U32tof(0xFFFFFFFF); got != 0x4F7FFFFF {
		t.Errorf("u32tof(0xFFFFFFFF) = %08X, want 4F7FFFFF", got)
	}
}

// §1 compare: −0 and denormals equal zero; the exponent-255 binade orders.
func TestLess(t *testing.T) {
	if Less(0x80000000, 0) || Less(0, 0x00000001) {
		t.Error("zeros must compare equal")
	}
	if !Less(0x7F800000, 0x7F800001) || !Less(0xBF800000, 0) || Less(0x3F800000, 0xBF800000) {
		t.Error("sign-magnitude order broken")
	}
}

// §9.5 worked example 3: a ccAnm step acc + delta·(t/dur).
func TestWorkedCcAnmStep(t *testing.T) {
	tt, dur := Itof(223), Itof(768)
	if tt != 0x435F0000 || dur != 0x44400000 {
		t.Fatalf("cvt: %08X %08X", tt, dur)
	}
	q := Div(tt, dur)
	if q != 0x3E94AAAA {
		t.Fatalf("quotient %08X, want 3E94AAAA", q)
	}
	const delta = 0xC06CCCCD
	for _, p := range []uint32{Mul(delta, q), Mul(q, delta)} {
		if p != 0xBF898443 {
			t.Errorf("product %08X, want BF898443", p)
		}
	}
	if got := Add(0x41200000, Mul(delta, q)); got != 0x410ECF78 {
		t.Errorf("sum %08X, want 410ECF78 (IEEE gives 410ECF77)", got)
	}
}

// §2.2 and §9.3: for same-sign addition the EE equals IEEE round toward
// zero, and for effective subtraction it is RTZ or one ulp larger in
// magnitude; §3.1: Mul is RTZ or one ulp below; §5.2: Div and Sqrt are
// RTZ or RTZ+1. RTZ is formed from an exact float64 result.
func TestAgainstRoundTowardZero(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	randF := func() uint32 {
		e := uint32(100 + r.IntN(54))
		return r.Uint32()&(signBit|fracMask) | e<<23
	}
	for i := 0; i < 20000; i++ {
		a, b := randF(), randF()
		if d := expOf(a) - expOf(b); d > 28 || d < -28 {
			continue
		}
		exact := ToFloat64(a) + ToFloat64(b)
		rtz := rtz32(exact)
		got := Add(a, b)
		sameSign := (a^b)&signBit == 0
		if sameSign && got != rtz {
			t.Fatalf("%08X+%08X = %08X, RTZ %08X", a, b, got, rtz)
		}
		if !sameSign && got != rtz && got != rtz+1 {
			t.Fatalf("%08X+%08X = %08X, RTZ %08X", a, b, got, rtz)
		}
		p := Mul(a, b)
		prtz := rtz32(ToFloat64(a) * ToFloat64(b))
		if p != prtz && p != prtz-1 {
			t.Fatalf("%08X×%08X = %08X, RTZ %08X", a, b, p, prtz)
		}
		qd := Div(a, b)
		qrtz := rtz32(ToFloat64(a) / ToFloat64(b))
		if qd != qrtz && qd != qrtz+1 {
			t.Fatalf("%08X/%08X = %08X, RTZ %08X", a, b, qd, qrtz)
		}
		sq := Sqrt(a)
		srtz := rtz32(math.Sqrt(math.Abs(ToFloat64(a))))
		if sq != srtz && sq != srtz+1 {
			t.Fatalf("sqrt %08X = %08X, RTZ %08X", a, sq, srtz)
		}
	}
}

// rtz32 narrows an exact (or correctly bounded) float64 toward zero
// (ps2-ee-float.md §9.3).
func rtz32(x float64) uint32 {
	f := float32(x)
	if math.Abs(float64(f)) > math.Abs(x) {
		f = math.Nextafter32(f, 0)
	}
	return math.Float32bits(f)
}

func TestToFloat64(t *testing.T) {
	for _, tc := range []struct {
		in   uint32
		want float64
	}{
		{0x7FFFFFFF, (2 - math.Ldexp(1, -23)) * math.Ldexp(1, 128)},
		{0x7F800000, math.Ldexp(1, 128)},
		{0x00000001, 0},
		{0xC0400000, -3},
	} {
		if got := ToFloat64(tc.in); got != tc.want {
			t.Errorf("ToFloat64(%08X) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func ExampleAdd() {
	fmt.Printf("%08X\n", Add(0x3FFFFFFF, One))
	// Output: 403FFFFF
}

// The fast path of mulMantissa (multiplier with 16 low zero bits) agrees
// with the full Booth model.
func TestMulFastPathMatchesBooth(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 10000 {
		a := r.Uint32()&fracMask | hidden
		b := (r.Uint32()&fracMask | hidden) &^ 0xFFFF
		f := uint64(a) * uint64(b)
		if got := boothProduct(a, b, f); got != f {
			t.Fatalf("%06X × %06X: Booth %X, exact %X", a, b, got, f)
		}
	}
}
