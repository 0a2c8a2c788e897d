package sample

import (
	"math"

	"github.com/animbake/bake/model"
)

// Bend implements Bender for a part of a Virtools object animation
// (virtools-controllers.md; virtools-curves-and-object-animations.txt
// §5.3–5.4): the position, scale, rotation or scale axis as SetStep
// composes it, from the controller that gives it (vxVectorTrack.bend,
// vxQuatTrack.bend), or the rest value (which does not move) where the
// controller is absent or ignored. Merged animations follow their
// sources through the relative-time scaling: a vector merge is a fixed
// blend of the two, a rotation merge at factor 0 or 1 is one source; a
// rotation blended by Slerp of two moving sources is not bounded (ok
// false), nor is the composed matrix (a scale axis that is not the
// identity).
func (e *vxTransformEval) Bend(f0, f1 float64) (float64, float64, bool) {
	var which int
	switch e.part {
	case model.VirtoolsPartTranslation:
		which = vxCompPosition
	case model.VirtoolsPartScale:
		which = vxCompScale
	case model.VirtoolsPartRotation:
		which = vxCompRotation
	case model.VirtoolsPartScaleAxis:
		which = vxCompScaleAxis
	default:
		return 0, 0, false
	}
	d1, d2, _, ok := e.anim.partBend(f0, f1, which, 0)
	return d1, d2, ok
}

// partBend bounds one component (vxComp*) over [f0, f1], as vector and
// quat give it (EvaluatePosition, EvaluateScale, EvaluateRotation,
// EvaluateScaleAxis); rotations as the unit quaternion the output carries
// (vxHamiltonUnit). present is false where the component is absent (the
// rest value shows). A merge's source X runs at ℓ_X/ℓ frames of its own
// per frame of the merge: its rate scales by that, its bend by the
// square; vectors blend by the factor, rotations take one source.
func (e *vxAnim) partBend(f0, f1 float64, which, depth int) (d1, d2 float64, present, ok bool) {
	if depth > vxMaxMergeDepth {
		return 0, 0, false, false
	}
	ignore, leaf := e.leaf(which)
	if e.flags&ignore != 0 {
		return 0, 0, false, true
	}
	if !e.merged {
		if leaf == nil {
			return 0, 0, false, true
		}
		d1, d2, ok = leaf(f0, f1)
		return d1, d2, true, ok
	}
	var r1, r2 [2]float64
	var has [2]bool
	for i, s := range []*vxAnim{e.a, e.b} {
		k := e.merge(s)
		a1, a2, p, ok := s.partBend(f0*k, f1*k, which, depth+1)
		if !ok {
			return 0, 0, false, false
		}
		r1[i], r2[i], has[i] = a1*math.Abs(k), a2*k*k, p
	}
	vector := which == vxCompPosition || which == vxCompScale
	switch {
	case e.factor == 0 || (has[0] && !has[1]):
		return r1[0], r2[0], has[0], true
	case e.factor == 1 || !has[0]:
		return r1[1], r2[1], has[1], true
	case vector:
		f, g := math.Abs(e.factor), math.Abs(1-e.factor)
		return g*r1[0] + f*r1[1], g*r2[0] + f*r2[1], true, true
	}
	return 0, 0, true, false // Slerp of two moving rotations
}

// leaf is a component's ignore flag and its controller's bound (nil when
// the animation has no such controller).
func (e *vxAnim) leaf(which int) (uint32, func(f0, f1 float64) (float64, float64, bool)) {
	switch which {
	case vxCompPosition:
		if e.pos != nil {
			return model.VirtoolsIgnorePosition, e.pos.bend
		}
		return model.VirtoolsIgnorePosition, nil
	case vxCompScale:
		if e.scale != nil {
			return model.VirtoolsIgnoreScale, e.scale.bend
		}
		return model.VirtoolsIgnoreScale, nil
	case vxCompRotation:
		if e.rot != nil {
			return model.VirtoolsIgnoreRotation, e.rot.bend
		}
		return model.VirtoolsIgnoreRotation, nil
	}
	if e.axis != nil {
		return model.VirtoolsIgnoreScaleAxis, e.axis.bend
	}
	return model.VirtoolsIgnoreScaleAxis, nil
}

// merge is the time scale from a merge to its source s (sourceTimes).
func (e *vxAnim) merge(s *vxAnim) float64 {
	if e.length == 0 {
		return 0
	}
	return s.length / e.length
}

// vxSpan finds the controller segment that holds [f0, f1] as vxSegment
// picks it: a (and whether the interval lies between keys a and a+1,
// else it is held at key a) and the interval's time fractions u0, u1; ok
// is false when a key lies strictly inside.
func vxSpan(times []float64, f0, f1 float64) (a int, u0, u1 float64, inside, ok bool) {
	if keyInside(times, f0, f1) {
		return 0, 0, 0, false, false
	}
	a, _, inside = vxSegment(times, (f0+f1)/2)
	if !inside {
		return a, 0, 0, false, true
	}
	d := times[a+1] - times[a]
	return a, max((f0-times[a])/d, 0), min((f1-times[a])/d, 1), true, true
}

// bend bounds a position or scale controller (vxVectorTrack.eval) over
// [f0, f1], per frame: LINEAR moves at |b − a|/d; a Bezier segment is the
// cubic with control points pa, cOut_a, cIn_b, pb, in power form
// pa + 3(c₁ − pa)·u + 3(pa − 2c₁ + c₂)·u² + (pb − pa + 3(c₁ − c₂))·u³
// (cubicBend), and holds where its keys say STEP; a TCB segment is the
// Hermite cubic P(s) of the keys and their tangents (TD of a, TS of b)
// at the eased fraction s = ease(u): dP/du = P'(s)·s' and
// d²P/du² = P”(s)·s'² + P'(s)·s” (easeBend).
func (tr *vxVectorTrack) bend(f0, f1 float64) (float64, float64, bool) {
	a, u0, u1, inside, ok := vxSpan(tr.times, f0, f1)
	if !ok || !inside {
		return 0, 0, ok
	}
	b := a + 1
	d := tr.times[b] - tr.times[a]
	pa, pb := tr.vals[3*a:3*a+3], tr.vals[3*b:3*b+3]
	var s1, s2 float64
	switch tr.interp {
	case model.VirtoolsTCB:
		e0, e1 := VirtoolsEase(u0, tr.easeFrom[a], tr.easeTo[b]), VirtoolsEase(u1, tr.easeFrom[a], tr.easeTo[b])
		sd1, sd2 := easeBend(u0, u1, tr.easeFrom[a], tr.easeTo[b])
		for j := range 3 {
			m0, m1 := tr.td[3*a+j], tr.ts[3*b+j]
			p1, p2 := cubicBend(m0, 3*(pb[j]-pa[j])-2*m0-m1, 2*(pa[j]-pb[j])+m0+m1, e0, e1)
			x1, x2 := p1*sd1, p2*sd1*sd1+p1*sd2
			s1 += x1 * x1
			s2 += x2 * x2
		}
	case model.VirtoolsBezier:
		if tr.hold[a] {
			return 0, 0, true
		}
		for j := range 3 {
			c1, c2 := tr.cOut[3*a+j], tr.cIn[3*b+j]
			p1, p2 := cubicBend(3*(c1-pa[j]), 3*(pa[j]-2*c1+c2), pb[j]-pa[j]+3*(c1-c2), u0, u1)
			s1 += p1 * p1
			s2 += p2 * p2
		}
	default:
		for j := range 3 {
			s1 += (pb[j] - pa[j]) * (pb[j] - pa[j])
		}
	}
	return math.Sqrt(s1) / d, math.Sqrt(s2) / (d * d), true
}

// easeBend bounds s' and |s”| of VirtoolsEase over u in [u0, u1]: with
// k = 1/(2 − from − to) (sums above 1 scaled down first), s' = 2k·u/from
// rising over [0, from), 2k on the plateau, 2k·(1 − u)/to falling over
// [1 − to, 1]; s” = 2k/from, 0 and −2k/to there. No ease: s = u.
func easeBend(u0, u1, from, to float64) (s1, s2 float64) {
	sum := from + to
	if sum == 0 {
		return 1, 0
	}
	if sum > 1 {
		from, to = from/sum, to/sum
	}
	k := 1 / (2 - from - to)
	slope := func(u float64) float64 {
		switch {
		case u < from:
			return 2 * k * u / from
		case u >= 1-to:
			return 2 * k * (1 - u) / to
		}
		return 2 * k
	}
	if u0 <= 1-to && u1 >= from {
		s1 = 2 * k
	} else {
		s1 = max(slope(u0), slope(u1))
	}
	if u0 < from {
		s2 = 2 * k / from
	}
	if u1 > 1-to && to > 0 {
		s2 = max(s2, 2*k/to)
	}
	return s1, s2
}

// bend bounds a rotation or scale-axis controller (vxQuatTrack.eval) as
// the unit quaternion the output carries: LINEAR is VirtoolsSlerp of the
// stored keys (vxSlerpBend); TCB is Squad of moving slerps at the eased
// fraction, bounded through jets (squadBend), and not where an interval
// could cross one of VirtoolsSlerp's switches.
func (tr *vxQuatTrack) bend(f0, f1 float64) (float64, float64, bool) {
	a, u0, u1, inside, ok := vxSpan(tr.times, f0, f1)
	if !ok || !inside {
		return 0, 0, ok
	}
	d := tr.times[a+1] - tr.times[a]
	if tr.tcb {
		return tr.squadBend(a, u0, u1, d)
	}
	d1, d2, ok := vxSlerpBend(tr.vals[a], tr.vals[a+1], u0, u1)
	return d1 / d, d2 / (d * d), ok
}

// vxSlerpBend bounds the normalised VirtoolsSlerp(u, a, b) over u in
// [u0, u1], per unit of u, for keys of any length (the stored keys are
// float32, |q| = 0.99935 on MenuLevel's Record Anim). With |a·b| = cos θ
// (the short way: b negated), A = |a|, B = |b|, the sine weights
// k₀ = sin((1−u)θ)/sin θ, k₁ = sin(uθ)/sin θ lie in [0, 1] (θ ≤ π/2),
// |k'| ≤ θ/sin θ, and k” = −θ²k, so p = k₀a + k₁b has p” = −θ²p (along p:
// nothing across it) and, from k₀² + k₁² + 2k₀k₁cos θ = 1,
// |p|² = 1 + k₀²(A² − 1) + k₁²(B² − 1), at least 1 − E with
// E = |A² − 1| + |B² − 1|; |p'|² = θ²/sin²θ·(sin²θ + c₀²(A² − 1) +
// c₁²(B² − 1)) with c = cos of the weights' angles, at most
// θ²·(1 + E/sin²θ); |p·p'| = |k₀k₀'(A² − 1) + k₁k₁'(B² − 1)| ≤ θ·E/sin θ.
// For 1 − |a·b| ≤ 0.01 VxMath lerps: lerpQuatBend.
func vxSlerpBend(a, b [4]float64, u0, u1 float64) (float64, float64, bool) {
	d := vxDot4(a, b)
	s := 1.0
	if d < 0 {
		d, s = -d, -1
	}
	if !(1-d > 0.01) {
		return lerpQuatBend(a[:], b[:], s, u0, u1)
	}
	th := math.Acos(d)
	sn := math.Sin(th)
	e := math.Abs(vxDot4(a, a)-1) + math.Abs(vxDot4(b, b)-1)
	if !(e < 1) {
		return 0, 0, false
	}
	m := math.Sqrt(1 - e)
	return normBend(th*math.Sqrt(1+e/(sn*sn)), 0, th*e/sn/m, m)
}
