package sample

import (
	"math"
	"testing"
)

// OA §5.3 / controllers §2 worked example: Record Anim, frame 1000.25. The
// dot product is 0.9961226 (1 − d = 0.0039 <= 0.01), so VxMath's Slerp
// falls back to the plain blend 0.75·qa + 0.25·qb, unnormalised.
func TestVirtoolsSlerpLinearFallback_OA5_3(t *testing.T) {
	qa := [4]float64{0.2208105, 0.9395105, 0.1994405, -0.170379}
	qb := [4]float64{0.2350487, 0.9174988, 0.284031, -0.1501031}
	q := VirtoolsSlerp(0.25, qa, qb)
	vxNear(t, "q(1000.25)", q[:], []float64{0.2243701, 0.9340075, 0.2205881, -0.1653100}, 5e-7)
	n := math.Sqrt(vxDot4(q, q))
	vxNear(t, "|q|", []float64{n}, []float64{0.999349}, 5e-7)
}

// §5.3: keys more than 0.01 apart in dot product take the true slerp:
// identity to 90° about Z at t = 0.5 is 45° about Z, (0, 0, sin 22.5°,
// cos 22.5°), and a key stored negated gives the same value (short way).
func TestVirtoolsSlerpTrueAndShortWay_OA5_3(t *testing.T) {
	s2 := math.Sqrt(0.5)
	a := [4]float64{0, 0, 0, 1}
	b := [4]float64{0, 0, s2, s2}
	want := []float64{0, 0, math.Sin(math.Pi / 8), math.Cos(math.Pi / 8)}
	q := VirtoolsSlerp(0.5, a, b)
	vxNear(t, "slerp", q[:], want, 1e-15)
	q = VirtoolsSlerp(0.5, a, vxNeg4(b))
	vxNear(t, "slerp with negated key", q[:], want, 1e-15)
	// Inside the 0.01 band (1 − d = 0.005): the plain blend, unnormalised.
	c := [4]float64{math.Sqrt(1 - 0.995*0.995), 0, 0, 0.995}
	q = VirtoolsSlerp(0.5, a, c)
	vxNear(t, "blend", q[:], []float64{c[0] / 2, 0, 0, (1 + 0.995) / 2}, 1e-15)
	// Just outside it (1 − d = 0.02): the true slerp, unit length.
	c = [4]float64{math.Sqrt(1 - 0.98*0.98), 0, 0, 0.98}
	q = VirtoolsSlerp(0.5, a, c)
	half := math.Acos(0.98) / 2
	vxNear(t, "slerp past the band", q[:], []float64{math.Sin(half), 0, 0, math.Cos(half)}, 1e-15)
}

// controllers §3 example: A = 0.5, B = 0.25 gives k = 0.8 and E(0.4) =
// 0.256, E(0.6) = 0.56, E(0.9) = 0.968; zero ease is the identity, and
// ease sums above 1 are scaled (A = B = 1 behaves like A = B = 0.5:
// E(0.25) = 2·0.0625 = 0.125).
func TestVirtoolsEase_Controllers3(t *testing.T) {
	for _, c := range []struct{ u, a, b, want float64 }{
		{0.4, 0.5, 0.25, 0.256},
		{0.6, 0.5, 0.25, 0.56},
		{0.9, 0.5, 0.25, 0.968},
		{0.3, 0, 0, 0.3},
		{0, 0.5, 0.5, 0},
		{1, 0.5, 0.5, 1},
		{0.25, 1, 1, 0.125},
	} {
		got := VirtoolsEase(c.u, c.a, c.b)
		vxNear(t, "E", []float64{got}, []float64{c.want}, 1e-12)
	}
	// Two-key check of controllers §5: E(0.4, 0.5, 0) = 0.213333.
	vxNear(t, "E(0.4,0.5,0)", []float64{VirtoolsEase(0.4, 0.5, 0)}, []float64{0.64 / 3}, 1e-12)
}

// QuatToMatrix (OA §5.4) puts the Hamilton matrix in the rows and ignores
// the quaternion's length; FromMatrix inverts it.
func TestVirtoolsQuatToRows_OA5_4(t *testing.T) {
	s2 := math.Sqrt(0.5)
	// 90° about Y (Hamilton rows): x' row (0, 0, 1), z' row (−1, 0, 0).
	r := vxQuatToRows([4]float64{0, 2 * s2, 0, 2 * s2})
	vxNear(t, "rows", r[:], []float64{0, 0, 1, 0, 1, 0, -1, 0, 0}, 1e-15)
	q := vxRowsToQuat(r)
	vxNear(t, "from rows", q[:], []float64{0, s2, 0, s2}, 1e-15)
	// Each branch of FromMatrix: 180° about X, Y and Z.
	for i, want := range [][4]float64{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}} {
		got := vxRowsToQuat(vxQuatToRows(want))
		if math.Abs(math.Abs(vxDot4(got, want))-1) > 1e-15 {
			t.Errorf("axis %d: %v, want ±%v", i, got, want)
		}
	}
}
