package sample

import (
	"math"
	"sort"
)

// Bounds for the Virtools curves that schematic behaviours drive (spin,
// progression, path following), and for curves whose derivative may jump
// at frames the consumer does not probe.

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

// continuous reports whether every controller a reaches is continuous at
// its keys: only a Bezier segment that holds (STEP) jumps.
func (e *vxAnim) continuous(depth int) bool {
	if depth > vxMaxMergeDepth {
		return false
	}
	if e.merged {
		return e.a.continuous(depth+1) && e.b.continuous(depth+1)
	}
	for _, tr := range []*vxVectorTrack{e.pos, e.scale} {
		if tr == nil {
			continue
		}
		for _, h := range tr.hold {
			if h {
				return false
			}
		}
	}
	return true
}

// bendAcross is Bend over an interval that may hold keys: where every
// controller is continuous at its keys, across them (kinkBend).
func (e *vxTransformEval) bendAcross(f0, f1 float64) (float64, float64, bool) {
	if !e.continuous {
		return e.Bend(f0, f1)
	}
	return kinkBend(e.keys, f0, f1, e.Bend)
}

// Bend implements Bender for a spin (Rotate behaviour): q = rest ⊗ (sin(θ/2)·axis,
// cos(θ/2)) with θ = rate·f turns about a fixed axis, |q'| = |rest|·|rate|/2,
// |q”| = |rest|·rate²/4.
func (e *vxSpinEval) Bend(_, _ float64) (float64, float64, bool) {
	r := math.Sqrt(vxDot4(e.rest, e.rest))
	return r * math.Abs(e.rate) / 2, r * e.rate * e.rate / 4, true
}

// Bend implements Bender for a progression: F(f) = inner(g(f)) with
// g = (A + (B − A)·y(p))·innerFrames and p = clamp(f/frames, 0, 1), so
// F' = inner'·g' and F” = inner”·g'² + inner'·g”. y = p without a shape;
// with one, GetY's segment: linear, or the Hermite cubic in
// s = (p − x_a)/(x_b − x_a) (the update makes x linear in s; a tangent
// whose x was 0, which GetY bisects, is not bounded), its range inside
// [0, 1] (GetY's clamp would kink it). The clamp of p, the shape's points
// and the inner curve's keys (where it is continuous at them) are kinks
// (kinkBend); past a shape's last point below 1 GetY gives 0, a jump that
// is not bounded.
func (e *vxProgressionEval) Bend(f0, f1 float64) (float64, float64, bool) {
	cuts := []float64{0}
	if e.shape != nil {
		n := len(e.shape.x)
		if last := e.shape.x[n-1]; last < 1 && e.shape.y[n-1] != 0 && f0 < last*e.frames && f1 > last*e.frames {
			return 0, 0, false
		}
		for _, x := range e.shape.x {
			if x > 0 && x < 1 {
				cuts = append(cuts, x*e.frames)
			}
		}
	}
	cuts = append(cuts, e.frames)
	return kinkBend(cuts, f0, f1, e.pieceBend)
}

// pieceBend is Bend between two of the progression's cuts.
func (e *vxProgressionEval) pieceBend(f0, f1 float64) (float64, float64, bool) {
	p0, p1 := clamp01(f0/e.frames), clamp01(f1/e.frames)
	if !(p1 > p0) {
		return 0, 0, true // clamped: y holds
	}
	y, y1, y2, ok := e.shapeRanges(p0, p1)
	if !ok {
		return 0, 0, false
	}
	k := (e.b - e.a) * e.innerFrames
	if k == 0 {
		return 0, 0, true
	}
	g := y.mul(point(k)).add(point(e.a * e.innerFrames))
	g1, g2 := y1.abs()*math.Abs(k)/e.frames, y2.abs()*math.Abs(k)/(e.frames*e.frames)
	var i1, i2 float64
	if t, is := e.inner.(*vxTransformEval); is && (y1[0] > 0 || y1[1] < 0) {
		i1, i2, ok = t.bendAcross(g[0], g[1]) // g monotone: each inner kink once
	} else {
		i1, i2, ok = Bend(e.inner, g[0], g[1])
	}
	if !ok {
		return 0, 0, false
	}
	return i1 * g1, i2*g1*g1 + i1*g2, true
}

// shapeRanges bounds y(p), y' and y” over [p0, p1] inside one segment of
// the shape (or y = p without one).
func (e *vxProgressionEval) shapeRanges(p0, p1 float64) (v, d1, d2 span, ok bool) {
	c := e.shape
	if c == nil {
		return span{p0, p1}, point(1), point(0), true
	}
	a, b, in := c.segment((p0 + p1) / 2)
	if !in {
		return point(0), point(0), point(0), true
	}
	dx := c.x[b] - c.x[a]
	switch {
	case dx == 0:
		return point(c.y[a]), point(0), point(0), true
	case c.linear[a]:
		m := (c.y[b] - c.y[a]) / dx
		v = span{c.y[a] + (p0-c.x[a])*m, c.y[a] + (p1-c.x[a])*m}
		v = span{min(v[0], v[1]), max(v[0], v[1])}
		d1, d2 = point(m), point(0)
	default:
		if c.out[a][0] != dx || c.in[b][0] != dx {
			return v, d1, d2, false
		}
		m0, m1 := c.out[a][1], c.in[b][1]
		v, d1, d2 = cubicRanges(c.y[a], m0, 3*(c.y[b]-c.y[a])-2*m0-m1, 2*(c.y[a]-c.y[b])+m0+m1, (p0-c.x[a])/dx, (p1-c.x[a])/dx)
		d1, d2 = d1.mul(point(1/dx)), d2.mul(point(1/(dx*dx)))
	}
	if v[0] < 0 || v[1] > 1 {
		return v, d1, d2, false // GetY's clamp
	}
	return v, d1, d2, true
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
