package sample

import "math"

// jet is a quantity over a frame interval as three ranges: its value, its
// first and its second derivative (per frame), for bounding compositions
// that have no closed form, such as Squad's slerps of moving quaternions:
// interval arithmetic carried through the chain and product rules
// (Taylor-mode differentiation on intervals). At every frame of the
// interval the true value and derivatives lie in the ranges. Each jet
// also carries the exact value and derivatives at the interval's middle
// (p) and the half width (h): the mean value theorem then keeps the value
// within p₀ ± h·|d| and the first derivative within p₁ ± h·|dd|
// (tighten), which stops the ranges from compounding step after step, so
// they shrink towards the true ones as the interval does.
type jet struct {
	v, d, dd span
	p        [3]float64
	h        float64
}

func jconst(x float64) jet {
	return jet{v: point(x), d: point(0), dd: point(0), p: [3]float64{x, 0, 0}}
}

// tighten intersects the value and slope ranges with their mean value
// forms around the middle.
func (a jet) tighten() jet {
	hs := span{-a.h, a.h}
	meet := func(r, c span) span {
		if lo, hi := max(r[0], c[0]), min(r[1], c[1]); lo <= hi {
			return span{lo, hi}
		}
		return r // disjoint only by rounding: keep the range
	}
	a.v = meet(a.v, point(a.p[0]).add(a.d.mul(hs)))
	a.d = meet(a.d, point(a.p[1]).add(a.dd.mul(hs)))
	return a
}

func (a jet) add(b jet) jet {
	return jet{a.v.add(b.v), a.d.add(b.d), a.dd.add(b.dd),
		[3]float64{a.p[0] + b.p[0], a.p[1] + b.p[1], a.p[2] + b.p[2]}, max(a.h, b.h)}.tighten()
}

func (a jet) sub(b jet) jet { return a.add(b.scale(-1)) }

func (a jet) scale(k float64) jet {
	q := point(k)
	return jet{a.v.mul(q), a.d.mul(q), a.dd.mul(q), [3]float64{k * a.p[0], k * a.p[1], k * a.p[2]}, a.h}
}

// mul is the product rule: (ab)' = a'b + ab', (ab)” = a”b + 2a'b' + ab”.
func (a jet) mul(b jet) jet {
	return jet{a.v.mul(b.v), a.d.mul(b.v).add(a.v.mul(b.d)),
		a.dd.mul(b.v).add(a.d.mul(b.d).mul(point(2))).add(a.v.mul(b.dd)),
		[3]float64{a.p[0] * b.p[0], a.p[1]*b.p[0] + a.p[0]*b.p[1], a.p[2]*b.p[0] + 2*a.p[1]*b.p[1] + a.p[0]*b.p[2]},
		max(a.h, b.h)}.tighten()
}

// apply is the chain rule for g(a), given g, g' and g” over a's value
// range (g0, g1, g2) and at its middle value (p):
// (g(a))' = g'(a)·a', (g(a))” = g”(a)·a'² + g'(a)·a”.
func (a jet) apply(g0, g1, g2 span, p [3]float64) jet {
	return jet{g0, g1.mul(a.d), g2.mul(a.d.sq()).add(g1.mul(a.dd)),
		[3]float64{p[0], p[1] * a.p[1], p[2]*a.p[1]*a.p[1] + p[1]*a.p[2]}, a.h}.tighten()
}

// sq is the range of x² over a.
func (a span) sq() span {
	lo, hi := a[0]*a[0], a[1]*a[1]
	if a[0] <= 0 && a[1] >= 0 {
		return span{0, max(lo, hi)}
	}
	return span{min(lo, hi), max(lo, hi)}
}

func (a span) neg() span { return span{-a[1], -a[0]} }

func (a jet) sin() jet {
	s, c := math.Sincos(a.p[0])
	sv := a.v.sin()
	return a.apply(sv, a.v.cos(), sv.neg(), [3]float64{s, c, -s})
}

// recip is 1/a for a value range without 0 (ok false otherwise): 1/x,
// −1/x² and 2/x³ are monotone on either side of 0.
func (a jet) recip() (jet, bool) {
	lo, hi := a.v[0], a.v[1]
	if !(lo > 0 || hi < 0) {
		return jet{}, false
	}
	s := a.v.sq()
	x := a.p[0]
	return a.apply(span{1 / hi, 1 / lo}, span{-1 / s[0], -1 / s[1]}, span{2 / (hi * hi * hi), 2 / (lo * lo * lo)},
		[3]float64{1 / x, -1 / (x * x), 2 / (x * x * x)}), true
}

// sqrt is √a for a positive value range: √x, 1/(2√x) and −1/(4x^{3/2})
// are monotone.
func (a jet) sqrt() (jet, bool) {
	lo, hi := a.v[0], a.v[1]
	if !(lo > 0) {
		return jet{}, false
	}
	rl, rh, r := math.Sqrt(lo), math.Sqrt(hi), math.Sqrt(a.p[0])
	return a.apply(span{rl, rh}, span{1 / (2 * rh), 1 / (2 * rl)}, span{-1 / (4 * lo * rl), -1 / (4 * hi * rh)},
		[3]float64{r, 1 / (2 * r), -1 / (4 * a.p[0] * r)}), true
}

// acos is acos(a) for a value range inside (−1, 1): acos is decreasing,
// its derivative −1/√(1 − x²) largest in magnitude at the end farthest
// from 0 and smallest at the point nearest 0, and its second derivative
// −x/(1 − x²)^{3/2} decreasing.
func (a jet) acos() (jet, bool) {
	lo, hi := a.v[0], a.v[1]
	if !(lo > -1 && hi < 1) {
		return jet{}, false
	}
	far := max(math.Abs(lo), math.Abs(hi))
	near := 0.0
	if lo > 0 || hi < 0 {
		near = min(math.Abs(lo), math.Abs(hi))
	}
	g1 := span{-1 / math.Sqrt(1-far*far), -1 / math.Sqrt(1-near*near)}
	g2 := func(x float64) float64 { return -x / math.Pow(1-x*x, 1.5) }
	x := a.p[0]
	return a.apply(span{math.Acos(hi), math.Acos(lo)}, g1, span{g2(hi), g2(lo)},
		[3]float64{math.Acos(x), -1 / math.Sqrt(1-x*x), g2(x)}), true
}

// quatJet is a quaternion of jets.
type quatJet [4]jet

func quatConst(q [4]float64) quatJet {
	return quatJet{jconst(q[0]), jconst(q[1]), jconst(q[2]), jconst(q[3])}
}

// vxSlerpJet is VirtoolsSlerp(t, a, b) on jets: ok is false where the
// interval could cross one of its switches (the sign of a·b, or
// 1 − |a·b| = 0.01 between the sine weights and the linear blend); branch
// says which side it is on (0–3: sign and weights).
func vxSlerpJet(t jet, a, b quatJet) (r quatJet, branch int, ok bool) {
	d := a[0].mul(b[0]).add(a[1].mul(b[1])).add(a[2].mul(b[2])).add(a[3].mul(b[3]))
	sign := 1.0
	switch {
	case d.v[0] >= 0:
	case d.v[1] < 0:
		sign, d, branch = -1, d.scale(-1), 2
	default:
		return r, 0, false
	}
	var k0, k1 jet
	switch {
	case 1-d.v[1] > 0.01:
		th, ok := d.acos()
		if !ok {
			return r, 0, false
		}
		inv, ok := th.sin().recip()
		if !ok {
			return r, 0, false
		}
		k0 = jconst(1).sub(t).mul(th).sin().mul(inv)
		k1 = t.mul(th).sin().mul(inv).scale(sign)
	case 1-d.v[0] <= 0.01:
		k0, k1 = jconst(1).sub(t), t.scale(sign)
		branch++
	default:
		return r, 0, false
	}
	for j := range 4 {
		r[j] = k0.mul(a[j]).add(k1.mul(b[j]))
	}
	return r, branch, true
}

// unitBend bounds the normalised n = q/|q| of a quaternion of jets, the
// smaller of two valid bounds: the jets of q/|q| themselves, and
// normBend from q's derivative ranges and its least length.
func (q quatJet) unitBend() (d1, d2 float64, ok bool) {
	r2 := q[0].mul(q[0]).add(q[1].mul(q[1])).add(q[2].mul(q[2])).add(q[3].mul(q[3]))
	r, ok := r2.sqrt()
	if !ok {
		return 0, 0, false
	}
	inv, ok := r.recip()
	if !ok {
		return 0, 0, false
	}
	var n1, n2, p1, p2 float64
	for j := range 4 {
		n := q[j].mul(inv)
		n1 += n.d.abs() * n.d.abs()
		n2 += n.dd.abs() * n.dd.abs()
		p1 += q[j].d.abs() * q[j].d.abs()
		p2 += q[j].dd.abs() * q[j].dd.abs()
	}
	p1, p2 = math.Sqrt(p1), math.Sqrt(p2)
	b1, b2, ok := normBend(p1, p2, p1, r.v[0])
	if !ok {
		return math.Sqrt(n1), math.Sqrt(n2), true
	}
	return min(math.Sqrt(n1), b1), min(math.Sqrt(n2), b2), true
}

// easeJet is VirtoolsEase(u, from, to) on the jet u (u” = 0): the value
// is monotone, and s' and s” are taken over every piece that [u0, u1]
// meets (rising: s' = 2k·u/from, s” = 2k/from; plateau: 2k, 0; falling:
// 2k·(1 − u)/to, −2k/to; each times u' or u'²).
func easeJet(u jet, from, to float64) jet {
	if from+to == 0 {
		return u
	}
	u0, u1 := u.v[0], u.v[1]
	v := span{VirtoolsEase(u0, from, to), VirtoolsEase(u1, from, to)}
	if s := from + to; s > 1 {
		from, to = from/s, to/s
	}
	k := 1 / (2 - from - to)
	var d, dd span
	first := true
	grow := func(s1, s2 span) {
		if first {
			d, dd, first = s1, s2, false
			return
		}
		d = span{min(d[0], s1[0]), max(d[1], s1[1])}
		dd = span{min(dd[0], s2[0]), max(dd[1], s2[1])}
	}
	if u0 < from {
		grow(span{2 * k * u0 / from, 2 * k * min(u1, from) / from}, point(2*k/from))
	}
	if u1 >= from && u0 < 1-to {
		grow(point(2*k), point(0))
	}
	if u1 >= 1-to && to > 0 {
		grow(span{2 * k * (1 - u1) / to, 2 * k * (1 - max(u0, 1-to)) / to}, point(-2*k/to))
	}
	if first {
		grow(point(2*k), point(0))
	}
	um := u.p[0]
	var p [3]float64
	switch {
	case um < from:
		p = [3]float64{k / from * um * um, 2 * k * um / from, 2 * k / from}
	case um >= 1-to:
		p = [3]float64{1 - k/to*(1-um)*(1-um), 2 * k * (1 - um) / to, -2 * k / to}
	default:
		p = [3]float64{k * (2*um - from), 2 * k, 0}
	}
	return jet{v, d.mul(u.d), dd.mul(u.d.sq()), [3]float64{p[0], p[1] * u.p[1], p[2] * u.p[1] * u.p[1]}, u.h}.tighten()
}

// squadBend bounds the normalised Squad of a TCB rotation segment
// (vxQuatTrack.eval: Slerp(2s(1−s), Slerp(s, q_a, q_b), Slerp(s, out_a,
// in_b)) at the eased fraction s) over the fractions [u0, u1] of a
// segment d frames long, per frame, through jets. Where the jets cannot
// tell on which side of a VirtoolsSlerp switch the interval lies, its
// halves are bounded (down to 2⁻⁸ of it): if every part is on the same
// sides the curve is smooth across them (the worst part's bounds hold);
// if not, the engine's rotation jumps inside (the linear blend and the
// sine weights, or the two signs, disagree there): not bounded.
func (tr *vxQuatTrack) squadBend(a int, u0, u1, d float64) (float64, float64, bool) {
	d1, d2, _, ok := tr.squadParts(a, u0, u1, d, 8)
	return d1, d2, ok
}

// squadParts is squadBend with the branches taken (-1 where the parts
// disagree) and depth halvings left.
func (tr *vxQuatTrack) squadParts(a int, u0, u1, d float64, depth int) (d1, d2 float64, branches int, ok bool) {
	if d1, d2, br, ok := tr.squadJet(a, u0, u1, d); ok {
		return d1, d2, br, true
	}
	if depth == 0 {
		return 0, 0, 0, false
	}
	m := (u0 + u1) / 2
	l1, l2, lb, ok := tr.squadParts(a, u0, m, d, depth-1)
	if !ok {
		return 0, 0, 0, false
	}
	r1, r2, rb, ok := tr.squadParts(a, m, u1, d, depth-1)
	if !ok || lb != rb {
		return 0, 0, 0, false
	}
	return max(l1, r1), max(l2, r2), lb, true
}

// squadJet is one jet evaluation of the Squad over [u0, u1]; branches
// encodes the three slerps' sides.
func (tr *vxQuatTrack) squadJet(a int, u0, u1, d float64) (d1, d2 float64, branches int, ok bool) {
	b := a + 1
	u := jet{span{u0, u1}, point(1 / d), point(0), [3]float64{(u0 + u1) / 2, 1 / d, 0}, (u1 - u0) / 2 * d}
	s := easeJet(u, tr.easeFrom[a], tr.easeTo[b])
	x, bx, ok := vxSlerpJet(s, quatConst(tr.vals[a]), quatConst(tr.vals[b]))
	if !ok {
		return 0, 0, 0, false
	}
	y, by, ok := vxSlerpJet(s, quatConst(tr.out[a]), quatConst(tr.in[b]))
	if !ok {
		return 0, 0, 0, false
	}
	z, bz, ok := vxSlerpJet(s.scale(2).mul(jconst(1).sub(s)), x, y)
	if !ok {
		return 0, 0, 0, false
	}
	d1, d2, ok = z.unitBend()
	return d1, d2, bx*16 + by*4 + bz, ok
}
