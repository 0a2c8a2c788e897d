package sample

import (
	"math"
	"sort"
)

// Bounds for the Virtools curves that schematic behaviours drive (spin,
// path following), and for curves whose derivative may jump at frames the
// consumer does not probe. A progression gives none: bounded (by the
// chain rule, its inner curve's keys as kinks), MenuLevel's two made bake
// stats refine without settling (220 s and 6.4 GB for the file against
// 15 s without them; docs/fidelity.md).

// kinkBend bounds a curve that is continuous but whose derivative may jump
// (a kink) at the sorted frames cuts, with piece bounding each stretch
// between cuts. Over [f0, f1] = h frames, a kink of slope jump J at c
// leaves the chord by J·(c − f0)(f1 − c)/h ≤ J·h/4, what a second
// derivative of 2J/h adds to the chord's h²/8·|f”|: so d2 grows by
// 2·J/h per kink inside, J at most the two sides' slope bounds (for
// |x| over [−1, 1]: slopes 1 and 1, d2 = 2·2/2 = 2, h²/8·d2 = 1, the
// chord's miss at 0 exactly). This d2 serves the chord bound that
// package fidelity takes from Bend, not a pointwise second derivative.
func kinkBend(cuts []float64, f0, f1 float64, piece func(a, b float64) (float64, float64, bool)) (d1, d2 float64, ok bool) {
	lo, hi := f0+keySlack*(1+math.Abs(f0)), f1-keySlack*(1+math.Abs(f1))
	a, kink, prev := f0, 0.0, -1.0
	add := func(b float64) bool {
		p1, p2, ok := piece(a, b)
		if !ok {
			return false
		}
		d1, d2 = max(d1, p1), max(d2, p2)
		if prev >= 0 {
			kink += prev + p1
		}
		prev, a = p1, b
		return true
	}
	for i := sort.SearchFloat64s(cuts, lo); i < len(cuts) && cuts[i] < hi; i++ {
		if cuts[i] > lo && !add(cuts[i]) {
			return 0, 0, false
		}
	}
	if !add(f1) {
		return 0, 0, false
	}
	return d1, d2 + 2*kink/(f1-f0), true
}

// Bend implements Bender for a spin (Rotate behaviour): q = rest ⊗ (sin(θ/2)·axis,
// cos(θ/2)) with θ = rate·f turns about a fixed axis, |q'| = |rest|·|rate|/2,
// |q”| = |rest|·rate²/4.
func (e *vxSpinEval) Bend(_, _ float64) (float64, float64, bool) {
	r := math.Sqrt(vxDot4(e.rest, e.rest))
	return r * math.Abs(e.rate) / 2, r * e.rate * e.rate / 4, true
}

// Bend implements Bender for a path follower (CKCurve::GetPos, §3.4):
// frame f is arc length l = (f/frames)·Total; within a segment the Hermite
// parameter is s = (l − l₀)/(l₁ − l₀), linear in f, so the position is
// the segment's cubic (linear for a linear point) at s with
// ds/df = Total/(frames·(l₁ − l₀)), times the world matrix (its stretch
// at most its Frobenius norm) unless local. The segments' ends are kinks
// (kinkBend); an open curve holds outside [0, frames]; a closed one's
// wrap is not followed.
func (e *vxFollowEval) Bend(f0, f1 float64) (float64, float64, bool) {
	g := e.g
	n := len(g.Pos)
	if n < 2 || g.Total == 0 {
		return 0, 0, true
	}
	if g.Closed && (f0 < 0 || f1 > e.frames) {
		return 0, 0, false
	}
	cuts := []float64{0}
	for k := 1; k < n; k++ {
		cuts = append(cuts, g.Lengths[k]/g.Total*e.frames)
	}
	cuts = append(cuts, e.frames)
	stretch := 1.0
	if !e.local {
		var f float64
		for c := range 3 {
			for r := range 3 {
				f += g.World[4*c+r] * g.World[4*c+r]
			}
		}
		stretch = math.Sqrt(f)
	}
	return kinkBend(cuts, f0, f1, func(a, b float64) (float64, float64, bool) {
		if b <= 0 || a >= e.frames {
			return 0, 0, true
		}
		a, b = max(a, 0), min(b, e.frames)
		rate := g.Total / e.frames // arc length per frame
		prev, next, l0, l1 := g.segmentAt((a + b) / 2 * rate)
		if !(l1 > l0) {
			return 0, 0, true
		}
		ds := rate / (l1 - l0)
		s0, s1 := (a*rate-l0)/(l1-l0), (b*rate-l0)/(l1-l0)
		p, q := g.Pos[prev], g.Pos[next]
		var s1sq, s2sq float64
		for j := range 3 {
			var x1, x2 float64
			if g.Linear[prev] {
				x1 = math.Abs(q[j] - p[j])
			} else {
				m0, m1 := g.Out[prev][j], g.In[next][j]
				x1, x2 = cubicBend(m0, 3*(q[j]-p[j])-2*m0-m1, 2*(p[j]-q[j])+m0+m1, s0, s1)
			}
			s1sq += x1 * x1
			s2sq += x2 * x2
		}
		return stretch * math.Sqrt(s1sq) * ds, stretch * math.Sqrt(s2sq) * ds * ds, true
	})
}
