package sample

import "math"

// This file holds the derivative bounds that the quaternion evaluators of
// several formats share (Bender): a normalised curve n = p/|p| from its
// unnormalised p, and a normalised lerp of two fixed keys.

// normBend bounds n = p/r, r = |p|, from |p'| ≤ p1, the part of p” across
// p at most p2, |r'| ≤ r1 and r ≥ m > 0: n' = p'_⊥/r (p' less its part
// along n) and n” = p”_⊥/r − |n'|²·n − 2(r'/r)·n', so |n'| ≤ p1/m and
// |n”| ≤ p2/m + |n'|² + 2·r1·|n'|/m. For a slerp p” = −θ²p lies along p
// (p2 = 0) and a unit one has r' = 0: |n”| = |n'|², the turning rate
// squared, with nothing lost.
func normBend(p1, p2, r1, m float64) (d1, d2 float64, ok bool) {
	if !(m > 0) {
		return 0, 0, false
	}
	d1 = p1 / m
	return d1, p2/m + d1*d1 + 2*r1*d1/m, true
}

// lerpQuatBend bounds the normalised lerp n = p/|p| of two fixed
// quaternions, p(u) = (1 − u)·a + u·s·b (s = ±1, the short way), over u in
// [u0, u1], per unit of u: p' = v = s·b − a and p” = 0; |p| is least at
// the clamped vertex of the quadratic |a + u·v|², and r' = p·v/|p| with
// p·v = a·v + u·|v|² linear in u, largest at an end. Any key lengths.
func lerpQuatBend(a, b []float64, s, u0, u1 float64) (d1, d2 float64, ok bool) {
	var v [4]float64
	var vv, av float64
	for j := range 4 {
		v[j] = s*b[j] - a[j]
		vv += v[j] * v[j]
		av += a[j] * v[j]
	}
	if vv == 0 {
		return 0, 0, true
	}
	u := min(max(-av/vv, u0), u1)
	var m2 float64
	for j := range 4 {
		x := a[j] + u*v[j]
		m2 += x * x
	}
	m := math.Sqrt(m2)
	pv := max(math.Abs(av+u0*vv), math.Abs(av+u1*vv))
	return normBend(math.Sqrt(vv), 0, pv/math.Max(m, 1e-300), m)
}
