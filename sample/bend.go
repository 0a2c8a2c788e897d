package sample

import (
	"math"
	"sort"

	"github.com/animbake/bake/model"
)

// Bender is implemented by evaluators that can bound how fast their value
// moves and bends between two frames: what a consumer needs to bound a
// curve between the frames it sampled (package fidelity's any-time bound).
type Bender interface {
	// Bend returns d1 and d2 such that |f'(x)| ≤ d1 and |f”(x)| ≤ d2 (the
	// Euclidean norm over the components, per frame and per frame²) for
	// every frame x strictly between f0 < f1, where the curve is smooth
	// there: no key frame lies strictly between them (a jump or a kink at
	// a key is the consumer's to probe on both sides). ok is false when the
	// evaluator cannot tell (a key inside, a wrap it does not follow).
	Bend(f0, f1 float64) (d1, d2 float64, ok bool)
}

// Bend asks ev (see Bender); ok is false when it cannot tell.
func Bend(ev Evaluator, f0, f1 float64) (d1, d2 float64, ok bool) {
	if b, is := ev.(Bender); is {
		return b.Bend(f0, f1)
	}
	return 0, 0, false
}

// keyInside reports whether a sorted key frame lies strictly between f0
// and f1, more than keySlack from either: a probe meant at a key may sit
// a float32 step of time away from it (probes are one per float32 time),
// and the part of the interval beyond the key is then that short.
func keyInside(keys []float64, f0, f1 float64) bool {
	lo, hi := f0+keySlack*(1+math.Abs(f0)), f1-keySlack*(1+math.Abs(f1))
	i := sort.SearchFloat64s(keys, lo)
	for i < len(keys) && keys[i] <= lo {
		i++
	}
	return i < len(keys) && keys[i] < hi
}

// keySlack is how close to an interval's end (relative) a key counts as
// at the end: a few float32 steps of time.
const keySlack = 1e-6

// Stretch is the most the conversion stretches a path's values (and
// their derivatives): positions by the unit scale k (C is orthogonal);
// quaternions not at all; scales by the absolute basis |C|, at most
// √(‖|C|‖₁·‖|C|‖∞) (1 for a permutation); other paths are not converted.
func (cv *Converter) Stretch(path string) float64 {
	switch {
	case cv.ident:
		return 1
	case path == model.PathTranslation:
		return math.Abs(cv.k)
	case path == model.PathScale:
		var row, col float64
		for i := range 3 {
			row = max(row, cv.abs[3*i]+cv.abs[3*i+1]+cv.abs[3*i+2])
			col = max(col, cv.abs[i]+cv.abs[3+i]+cv.abs[6+i])
		}
		return math.Sqrt(row * col)
	}
	return 1
}

// Bend implements Bender: a constant neither moves nor bends.
func (e *constantEval) Bend(_, _ float64) (float64, float64, bool) { return 0, 0, true }

// Bend implements Bender for the runtime's curves (bfres-container.md §5):
// on the segment of key i, over the parameter t = (f − frame_i)/d, a cubic
// key's value is scale·(c0 + c1·t + c2·t² + c3·t³) + offset, so
// f' = scale·(c1 + 2c2·t + 3c3·t²)/d and f” = scale·(2c2 + 6c3·t)/d²
// (f” is linear in t: its largest magnitude is at an end of [t0, t1]; f'
// is largest at an end or at the vertex t = −c2/(3c3)); a linear key's
// slope is scale·c1/d; a baked float curve is linear between whole frames
// (its keys); integer and bool curves hold between keys. Outside
// [start, end] only a clamped side is followed (constant there).
func (e *nw4fEval) Bend(f0, f1 float64) (float64, float64, bool) {
	start, end := float64(e.start), float64(e.end)
	switch {
	case f0 >= end && e.post == model.NW4FClamp, f1 <= start && e.pre == model.NW4FClamp:
		return 0, 0, true
	case f0 < start || f1 > end:
		return 0, 0, false
	case e.curveType >= model.NW4FStepInt:
		return 0, 0, !keyInside(e.keyed, f0, f1)
	case e.curveType == model.NW4FBakedFloat:
		if lo := f0 + keySlack*(1+math.Abs(f0)); math.Floor(lo)+1 < f1-keySlack*(1+math.Abs(f1)) {
			return 0, 0, false // a whole frame (a sample) inside
		}
		k, _ := e.bakedIndex(float32((f0 + f1) / 2))
		if k+1 >= e.n {
			return 0, 0, true
		}
		return math.Abs(float64(e.fkeys[k+1]-e.fkeys[k]) * float64(e.scale)), 0, true
	}
	if e.frames == nil || keyInside(e.keyed, f0, f1) {
		return 0, 0, false
	}
	// The segment holding the interval: the last key at or before its
	// middle (a later key at the same frame wins), as findKey picks it.
	mid := (f0 + f1) / 2
	i := sort.Search(e.n, func(j int) bool { return float64(e.frames[j]) > mid }) - 1
	i = max(i, 0)
	s := float64(e.frames[i])
	d := 1.0 // after the last key the runtime runs on with t = f − frame
	if i+1 < e.n {
		d = float64(e.frames[i+1]) - s
	}
	if !(d > 0) {
		return 0, 0, false
	}
	t0, t1 := (f0-s)/d, (f1-s)/d
	sc := math.Abs(float64(e.scale))
	if e.curveType == model.NW4FLinear {
		return sc * math.Abs(float64(e.fkeys[2*i+1])) / d, 0, true
	}
	k := e.fkeys[4*i : 4*i+4]
	d1, d2 := cubicBend(float64(k[1]), float64(k[2]), float64(k[3]), t0, t1)
	return sc * d1 / d, sc * d2 / (d * d), true
}

// cubicBend bounds the first and second derivatives of
// c0 + c1·t + c2·t² + c3·t³ over t in [t0, t1]: p' = c1 + 2c2·t + 3c3·t²
// is largest at an end or at its vertex t = −c2/(3c3); p” = 2c2 + 6c3·t is
// linear, largest at an end.
func cubicBend(c1, c2, c3, t0, t1 float64) (d1, d2 float64) {
	slope := func(t float64) float64 { return math.Abs(c1 + 2*c2*t + 3*c3*t*t) }
	d1 = max(slope(t0), slope(t1))
	if c3 != 0 {
		if v := -c2 / (3 * c3); v > t0 && v < t1 {
			d1 = max(d1, slope(v))
		}
	}
	return d1, max(math.Abs(2*c2+6*c3*t0), math.Abs(2*c2+6*c3*t1))
}

// Bend implements Bender for keyed curves: held outside the keys and for
// STEP; LINEAR moves at |b − a|/d; HERMITE is per component the cubic
// a + d·m0·t + (3(b − a) − 2d·m0 − d·m1)·t² + (2(a − b) + d·m0 + d·m1)·t³
// over t = (f − f_i)/d (cubicBend); SLERP and NLERP as below.
func (e *keyedEval) Bend(f0, f1 float64) (float64, float64, bool) {
	k := e.k
	n, w := len(k.Frames), k.Width
	if keyInside(k.Frames, f0, f1) {
		return 0, 0, false
	}
	i := segment(k.Frames, (f0+f1)/2)
	if i < 0 || i >= n-1 || k.Interp == model.InterpStep {
		return 0, 0, true
	}
	d := k.Frames[i+1] - k.Frames[i]
	t0, t1 := max((f0-k.Frames[i])/d, 0), min((f1-k.Frames[i])/d, 1)
	a, b := k.Values[i*w:i*w+w], k.Values[(i+1)*w:(i+2)*w]
	var s1, s2 float64
	switch k.Interp {
	case model.InterpLinear:
		for j := range w {
			s1 += (b[j] - a[j]) * (b[j] - a[j])
		}
		return math.Sqrt(s1) / d, 0, true
	case model.InterpHermite:
		m0, m1 := k.OutTangents[i*w:i*w+w], k.InTangents[(i+1)*w:(i+2)*w]
		for j := range w {
			c1 := d * m0[j]
			c2 := 3*(b[j]-a[j]) - 2*d*m0[j] - d*m1[j]
			c3 := 2*(a[j]-b[j]) + d*m0[j] + d*m1[j]
			p1, p2 := cubicBend(c1, c2, c3, t0, t1)
			s1 += p1 * p1
			s2 += p2 * p2
		}
		return math.Sqrt(s1) / d, math.Sqrt(s2) / (d * d), true
	case model.InterpSlerp, model.InterpNlerp:
		if w != 4 {
			return 0, 0, false
		}
		// Unit keys φ apart: the short-way lerp has |l'| = 2sin(φ/2)/d and
		// |l| ≥ cos(φ/2), so nlerp's |n'| ≤ 2tan(φ/2)/d (at least slerp's
		// φ/d) and |n”| ≤ 4tan²(φ/2)/d² (at least slerp's (φ/d)²); Slerp
		// falls back to nlerp for close keys, so both count that way.
		dot := math.Abs(a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3])
		tan := math.Tan(math.Acos(min(dot, 1)) / 2)
		return 2 * tan / d, 4 * tan * tan / (d * d), true
	}
	return 0, 0, false
}

// Bend implements Bender: the components' bounds combined (the norm of the
// vector of each component's bound).
func (e *vectorEval) Bend(f0, f1 float64) (float64, float64, bool) {
	return partsBend(e.parts, f0, f1)
}

// partsBend is the norm of the vector of the parts' bounds.
func partsBend(parts []Evaluator, f0, f1 float64) (d1, d2 float64, ok bool) {
	var s1, s2 float64
	for _, p := range parts {
		d1, d2, ok := Bend(p, f0, f1)
		if !ok {
			return 0, 0, false
		}
		s1 += d1 * d1
		s2 += d2 * d2
	}
	return math.Sqrt(s1), math.Sqrt(s2), true
}

// Bend implements Bender for a quaternion made of three angle curves: in
// BFRES's order ZYX with curves that give their ranges, from the angular
// velocity (eulerRanges); otherwise as follows. Each
// factor q_a = (sin(a/2)·axis, cos(a/2)) is unit, with |q_a'| = |a'|/2 and
// |q_a”| ≤ |a”|/2 + a'²/4; the product q = q_1·q_2·q_3 (the Hamilton
// product keeps norms) has q” = Σ q_i” (others) + 2·Σ_{i<j} q_i'·q_j'
// (others), so |q'| ≤ Σ|a_i'|/2 and |q”| ≤ Σ|a_i”|/2 + (Σ|a_i'|)²/4.
func (e *eulerEval) Bend(f0, f1 float64) (float64, float64, bool) {
	if e.order == "ZYX" {
		x, okx := e.x.(curveRanges)
		y, oky := e.y.(curveRanges)
		z, okz := e.z.(curveRanges)
		if okx && oky && okz {
			if b1, b2, ok := eulerRanges(x, y, z, f0, f1); ok {
				return b1, b2, true
			}
		}
	}
	var s1, s2 float64
	for _, p := range []Evaluator{e.x, e.y, e.z} {
		d1, d2, ok := Bend(p, f0, f1)
		if !ok {
			return 0, 0, false
		}
		s1 += d1
		s2 += d2
	}
	return s1 / 2, s2/2 + s1*s1/4, true
}

// Bend implements Bender for a normalised quaternion of four curves p:
// n = p/|p| has |n'| ≤ |p'|/m and |n”| ≤ 2|p”|/m + 6|p'|²/m², m the least
// |p| over the interval (at least |p(f0)| − |p'|·(f1 − f0)); from
// n” = p”/r − 2p'r'/r² − n(|p'|² + p·p” − r'²)/r² + 2n·r'²/r² with r = |p|
// and |r'| ≤ |p'|.
func (e *nw4fQuatEval) Bend(f0, f1 float64) (float64, float64, bool) {
	d1, d2, ok := partsBend(e.parts[:], f0, f1)
	if !ok {
		return 0, 0, false
	}
	var r2 float64
	var v [1]float64
	for _, p := range e.parts {
		p.Eval(f0, v[:])
		r2 += v[0] * v[0]
	}
	m := math.Sqrt(r2) - d1*(f1-f0)
	if !(m > 0) {
		return 0, 0, false
	}
	return d1 / m, 2*d2/m + 6*d1*d1/(m*m), true
}
