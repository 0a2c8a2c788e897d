package sample

import (
	"math"
	"testing"

	"github.com/animbake/bake/sample/ps2float"
)

// ps2-ee-float.md §9.5 item 4: _sceVu0ecossin (ccs-container.md §6.2)
// under the EE model, cos and sin bit patterns at six angles. The IEEE
// column of ccs-container.md §6.2 differs in the last bits (0.001:
// 3f7ffff7 / 3a87c3b6 there); the EE model values are the oracle.
func TestVu0CosSinBitPatterns(t *testing.T) {
	for _, tc := range []struct {
		r        float32
		cos, sin uint32
	}{
		{0.0, 0x3f800000, 0x00000000},
		{0.001, 0x3f7ffff9, 0x3a77def5},
		{0.5, 0x3f60a940, 0x3ef57746},
		{1.0, 0x3f0a5140, 0x3f576aa5},
		{-1.0, 0x3f0a5140, 0xbf576aa5},
		{3.0, 0xbf7d7026, 0x3e1081c5},
	} {
		c, s := Vu0CosSin(ps2float.F32(tc.r))
		if c != tc.cos || s != tc.sin {
			t.Errorf("r=%v: cos %08x sin %08x, want %08x %08x", tc.r, c, s, tc.cos, tc.sin)
		}
	}
}

// ps2-ee-float.md §1: "r < 0" is false for −0, so −0 takes the positive
// branch: v = π/2 − (−0) = π/2 and sin = +0.
func TestVu0CosSinNegativeZero(t *testing.T) {
	c, s := Vu0CosSin(0x80000000)
	if c != 0x3f800000 || s != 0 {
		t.Errorf("r=−0: cos %08x sin %08x", c, s)
	}
}

// ccs-container.md §6.1: the constants as the bytes 0x002f7520 should hold.
func TestVu0Constants(t *testing.T) {
	want := [4]float32{2.60188699e-06, -1.98074136e-04, 8.33302550e-03, -1.66666567e-01}
	for i, k := range []uint32{vu0K9, vu0K7, vu0K5, vu0K3} {
		if got := math.Float32frombits(k); got != want[i] {
			t.Errorf("coefficient %d = %v, want %v", i, got, want[i])
		}
	}
}

// ccs-anime-playback.txt "Rotations": s16(int(deg · 182.044)), truncated
// and wrapped. With 182.044f = 182.04400634765625:
//
//	90°    → 16383.96…  → 16383 (one quantum short of a quarter turn)
//	−45°   → −8191.98…  → −8191 (truncation toward zero)
//	360°   → 65535.84…  → 65535 → s16 −1
//	200°   → 36408.80…  → 36408 → s16 −29128
//	1e6°   → 182044006.35, float32 truncates to 182044000 (ulp 16),
//	         mod 65536 = 50528 → s16 −15008
func TestCcAnmRotationQuantisation(t *testing.T) {
	if ccQuantScale != 0x43360B44 {
		t.Errorf("182.044f = %08X", ccQuantScale)
	}
	for _, tc := range []struct {
		deg  float32
		want int16
	}{{0, 0}, {90, 16383}, {-45, -8191}, {360, -1}, {200, -29128}, {1e6, -15008}} {
		if got := ccQuantise(tc.deg); got != tc.want {
			t.Errorf("quantise(%v°) = %d, want %d", tc.deg, got, tc.want)
		}
	}
}

// ccs-container.md §6.3: sceVu0RotMatrix = Rx·Ry·Rz with the standard
// right-handed matrices, each applied in full even at angle 0. At the zero
// angle the VU0 gives cos 1, sin 0 exactly, so the all-zero rotation is the
// identity bit for bit. A single axis gives the polynomial's cos and sin in
// the documented places, but every later (zero-angle) rotation multiplies
// them again with its 1.0 in fs, and ps2-ee-float.md §3.1 says 1.0 × x may
// lose an ulp: sin(1) = 0x3f576aa5 comes out of Rz(1) exact, of Ry(0) as
// 1.0 ⊗ s, of Rx(0) as 1.0 ⊗ (1.0 ⊗ s); cos(1) = 0x3f0a5140 survives.
func TestVu0RotMatrixOrder(t *testing.T) {
	if m := Vu0RotMatrix(0, 0, 0); m != mat3Identity {
		t.Errorf("zero rotation: %v", m)
	}
	one := ps2float.F32(1)
	if ps2float.Mul(ps2float.One, 0x3f0a5140) != 0x3f0a5140 {
		t.Fatal("1.0 × cos(1) should be exact")
	}
	f := func(b uint32) float64 { return float64(math.Float32frombits(b)) }
	c := f(0x3f0a5140)
	s1 := f(ps2float.Mul(ps2float.One, 0x3f576aa5))                             // through Rx(0)
	s2 := f(ps2float.Mul(ps2float.One, ps2float.Mul(ps2float.One, 0x3f576aa5))) // through Ry(0), Rx(0)
	if s2 == f(0x3f576aa5) {
		t.Fatal("expected 1.0 × sin(1) to lose an ulp (§3.1)")
	}
	want := map[string][9]float64{
		"Z": {c, -s2, 0, s2, c, 0, 0, 0, 1},
		"Y": {c, 0, s1, 0, 1, 0, -s1, 0, c},
		"X": {1, 0, 0, 0, c, -f(0x3f576aa5), 0, f(0x3f576aa5), c},
	}
	got := map[string][9]float64{
		"Z": Vu0RotMatrix(0, 0, one),
		"Y": Vu0RotMatrix(0, one, 0),
		"X": Vu0RotMatrix(one, 0, 0),
	}
	for k := range want {
		if got[k] != want[k] {
			t.Errorf("R%s(1 rad) = %v, want %v", k, got[k], want[k])
		}
	}
	// Order: Rx(a)·Rz(b) puts sin a · sin b at row 2, column 0; Rz(b)·Rx(a)
	// would put 0 there.
	m := Vu0RotMatrix(one, 0, one)
	if math.Abs(m[6]-s1*s1) > 1e-6 || m[2] != 0 {
		t.Errorf("Rx·Rz: m[2][0] = %v (want sin² = %v), m[0][2] = %v (want 0)", m[6], s1*s1, m[2])
	}
}
