package sample

import (
	"math"
	"sort"

	"github.com/animbake/bake/model"
)

// span is a closed interval [lo, hi] of reals, for bounding expressions
// over a frame interval (interval arithmetic).
type span [2]float64

func point(v float64) span { return span{v, v} }

func (a span) add(b span) span { return span{a[0] + b[0], a[1] + b[1]} }
func (a span) sub(b span) span { return span{a[0] - b[1], a[1] - b[0]} }

func (a span) mul(b span) span {
	p := [4]float64{a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1]}
	return span{min(p[0], p[1], p[2], p[3]), max(p[0], p[1], p[2], p[3])}
}

// abs is the largest magnitude in the interval.
func (a span) abs() float64 { return max(math.Abs(a[0]), math.Abs(a[1])) }

// hits reports whether c + k·2π lies in a for some integer k.
func (a span) hits(c float64) bool {
	k := math.Ceil((a[0] - c) / (2 * math.Pi))
	return c+k*2*math.Pi <= a[1]
}

// sin and cos of an interval: the ends, widened to ±1 where a peak lies
// inside.
func (a span) sin() span {
	if a[1]-a[0] >= 2*math.Pi {
		return span{-1, 1}
	}
	s0, s1 := math.Sin(a[0]), math.Sin(a[1])
	r := span{min(s0, s1), max(s0, s1)}
	if a.hits(math.Pi / 2) {
		r[1] = 1
	}
	if a.hits(-math.Pi / 2) {
		r[0] = -1
	}
	return r
}

func (a span) cos() span { return span{a[0] + math.Pi/2, a[1] + math.Pi/2}.sin() }

// curveRanges is implemented by scalar curves that can bound their value,
// first and second derivative (per frame) over a frame interval without a
// key strictly inside: Euler rotations combine them exactly enough to see
// angles whose rates cancel (eulerEval.Bend).
type curveRanges interface {
	ranges(f0, f1 float64) (v, d1, d2 span, ok bool)
}

// cubicRanges bounds c0 + c1·t + c2·t² + c3·t³ and its derivatives over t
// in [t0, t1]: the value at the ends and where p' = 0 inside, p' at the
// ends and its vertex, p” (linear) at the ends.
func cubicRanges(c0, c1, c2, c3, t0, t1 float64) (v, d1, d2 span) {
	p := func(t float64) float64 { return c0 + t*(c1+t*(c2+t*c3)) }
	q := func(t float64) float64 { return c1 + t*(2*c2+t*3*c3) }
	grow := func(s *span, x float64) { s[0], s[1] = min(s[0], x), max(s[1], x) }
	v = span{min(p(t0), p(t1)), max(p(t0), p(t1))}
	d1 = span{min(q(t0), q(t1)), max(q(t0), q(t1))}
	d2 = span{min(2*c2+6*c3*t0, 2*c2+6*c3*t1), max(2*c2+6*c3*t0, 2*c2+6*c3*t1)}
	// Roots of p' = 3c3·t² + 2c2·t + c1.
	a, b, c := 3*c3, 2*c2, c1
	var roots []float64
	switch {
	case a != 0:
		if disc := b*b - 4*a*c; disc >= 0 {
			r := math.Sqrt(disc)
			roots = append(roots, (-b-r)/(2*a), (-b+r)/(2*a))
		}
		if vx := -b / (2 * a); vx > t0 && vx < t1 {
			grow(&d1, q(vx))
		}
	case b != 0:
		roots = append(roots, -c/b)
	}
	for _, r := range roots {
		if r > t0 && r < t1 {
			grow(&v, p(r))
		}
	}
	return v, d1, d2
}

// scaled maps ranges over t (t = (f − s)/d) to frames, through value
// scale and offset.
func scaled(v, d1, d2 span, scale, offset, d float64) (span, span, span) {
	k := point(scale)
	return v.mul(k).add(point(offset)), d1.mul(point(scale / d)), d2.mul(point(scale / (d * d)))
}

func (e *constantEval) ranges(_, _ float64) (v, d1, d2 span, ok bool) {
	if len(e.v) != 1 {
		return v, d1, d2, false
	}
	return point(e.v[0]), point(0), point(0), true
}

// ranges implements curveRanges for BFRES float curves inside
// [start, end] (see Bend).
func (e *nw4fEval) ranges(f0, f1 float64) (v, d1, d2 span, ok bool) {
	start, end := float64(e.start), float64(e.end)
	if e.curveType >= model.NW4FStepInt || f0 < start || f1 > end || e.frames == nil || keyInside(e.keyed, f0, f1) {
		if _, _, ok := e.Bend(f0, f1); !ok {
			return v, d1, d2, false
		}
		// Held (step, clamped) or not followed: the value at the middle
		// counts only when the curve does not move.
		if b1, _, _ := e.Bend(f0, f1); b1 != 0 {
			return v, d1, d2, false
		}
		x := e.value(float32((f0 + f1) / 2))
		return point(x), point(0), point(0), true
	}
	if e.curveType == model.NW4FBakedFloat {
		return v, d1, d2, false
	}
	mid := (f0 + f1) / 2
	i := max(sort.Search(e.n, func(j int) bool { return float64(e.frames[j]) > mid })-1, 0)
	s := float64(e.frames[i])
	d := 1.0
	if i+1 < e.n {
		d = float64(e.frames[i+1]) - s
	}
	if !(d > 0) {
		return v, d1, d2, false
	}
	t0, t1 := (f0-s)/d, (f1-s)/d
	var c [4]float64
	if e.curveType == model.NW4FLinear {
		c[0], c[1] = float64(e.fkeys[2*i]), float64(e.fkeys[2*i+1])
	} else {
		for j := range 4 {
			c[j] = float64(e.fkeys[4*i+j])
		}
	}
	v, d1, d2 = cubicRanges(c[0], c[1], c[2], c[3], t0, t1)
	v, d1, d2 = scaled(v, d1, d2, float64(e.scale), float64(e.offset), d)
	return v, d1, d2, true
}

// eulerRanges bounds |q'| and |q”| of q = q_z(z)·q_y(y)·q_x(x) (order
// ZYX, BFRES's) from its angles' ranges: with R = R_z·R_y·R_x the
// angular velocity is ω = R_z·ω_b, ω_b = (x'·cos y, y', z' − x'·sin y),
// and ω' = R_z·(x”·cos y − x'y'·sin y − z'y', y” + z'x'·cos y,
// z” − x”·sin y − x'y'·cos y); q' = ½ω·q and q” = ½ω'·q + ¼ω·ω·q, so
// |q'| = |ω|/2 and |q”| ≤ |ω'|/2 + |ω|²/4. Rates that cancel (x' ≈ −z'
// near y = −90°) cancel in the bound too.
func eulerRanges(x, y, z curveRanges, f0, f1 float64) (b1, b2 float64, ok bool) {
	_, x1, x2, okx := x.ranges(f0, f1)
	yv, y1, y2, oky := y.ranges(f0, f1)
	_, z1, z2, okz := z.ranges(f0, f1)
	if !okx || !oky || !okz {
		return 0, 0, false
	}
	sy, cy := yv.sin(), yv.cos()
	w := [3]span{x1.mul(cy), y1, z1.sub(x1.mul(sy))}
	dw := [3]span{
		x2.mul(cy).sub(x1.mul(y1).mul(sy)).sub(z1.mul(y1)),
		y2.add(z1.mul(x1).mul(cy)),
		z2.sub(x2.mul(sy)).sub(x1.mul(y1).mul(cy)),
	}
	var w2, dw2 float64
	for j := range 3 {
		w2 += w[j].abs() * w[j].abs()
		dw2 += dw[j].abs() * dw[j].abs()
	}
	return math.Sqrt(w2) / 2, math.Sqrt(dw2)/2 + w2/4, true
}
