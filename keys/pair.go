package keys

import (
	"math"
	"slices"

	"github.com/animbake/bake/fidelity"
	"github.com/animbake/bake/sample"
)

// Co-located rotations rounded together (docs/fidelity.md, "Pairs rounded
// together").
//
// A joint at its parent's origin (no translation) under a parent whose
// scale is uniform turns its whole subtree by the product R(p)·R(c) of the
// two rotations: the local matrices compose as T_p·s·R_p·R_c·S_c. Below the
// child the two 16-bit roundings matter only through that product, so the
// child can absorb the parent's rounding: for each of the parent's five
// roundings p′ (shortCandidates) the child's five roundings of
// conj(p̂′)·p·c are tried, and the pair whose product errs least as both
// kinds of client show it is kept (productError). The parent's own
// rounding still moves the rest of its subtree: held, with the product,
// to half the tolerance, as quantize holds a channel rounded alone.
//
// Where such a pair's channels do not each round within half the
// tolerance alone (a long reach: the Bass's Skl_Root and Spine_1, 0.63 m
// from the tail tip), rounding them together lets both go to 16 bits at
// every probe (shareProbes) where neither could alone. The hierarchy's
// bound counts the child's error as what the product adds to the
// parent's (pairErrors); the exact composition measures the stored values
// as they are.

// pairable reports whether c (a rotation channel) can be rounded at
// every probe: moving, a quaternion, not already written in 16 bits.
func pairable(c *channel) bool {
	return c != nil && c.kind == kindRotation && c.width == 4 && !c.step && !c.constant && !c.short &&
		c.allowed > 0 && len(c.vals) > 0
}

// roundPairs finds the clip's co-located rotation pairs and, where the two
// do not both round within half the tolerance alone (q16), rounds them
// together at every probe; where that fits, both get the joint rounding
// as their q16 and know each other (partner). Run after quantize.
func roundPairs(h *fidelity.Hierarchy, g *geometry, chans []*channel, tol float64) {
	n := len(h.Parent)
	rot := make([]*channel, n)
	moved := make([]bool, n) // nodes whose translation is not zero throughout
	uniform := make([]bool, n)
	for i := range n {
		r := &h.Rest[i]
		moved[i] = r.T != [3]float64{}
		uniform[i] = r.S[0] == r.S[1] && r.S[1] == r.S[2]
	}
	for _, c := range chans {
		if c.node < 0 {
			continue
		}
		c.partner, c.pairErr, c.alone, c.own = nil, nil, false, nil
		switch c.kind {
		case kindRotation:
			rot[c.node] = c
		case kindTranslation:
			moved[c.node] = slices.ContainsFunc(c.vals, func(v float64) bool { return v != 0 })
		case kindScale:
			uniform[c.node] = c.width == 3 && uniformScale(c.vals)
		}
	}
	// Children by their reach, the longest first: a parent pairs with one.
	var kids []int
	for i := range n {
		p := h.Parent[i]
		if p < 0 || h.Static[i] != nil || h.Static[p] != nil || moved[i] || !uniform[p] {
			continue
		}
		if pairable(rot[i]) && rot[i].q16 == nil && underConstant(rot[p]) ||
			pairable(rot[i]) && pairable(rot[p]) && (rot[i].q16 == nil || rot[p].q16 == nil) {
			kids = append(kids, i)
		}
	}
	slices.SortStableFunc(kids, func(a, b int) int { return -cmpFloat(g.reach[a], g.reach[b]) })
	used := make([]bool, n)
	for _, i := range kids {
		p := h.Parent[i]
		if used[i] || used[p] {
			continue
		}
		if roundPair(rot[p], rot[i], g.reachBeside(p, i), g.reach[i], tol/2) {
			used[i], used[p] = true, true
		}
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// uniformScale reports whether every scale of vals (x, y, z a probe) has
// three equal components.
func uniformScale(vals []float64) bool {
	for k := 0; k+3 <= len(vals); k += 3 {
		if vals[k] != vals[k+1] || vals[k+1] != vals[k+2] {
			return false
		}
	}
	return true
}

// roundPair rounds parent p and child c together at every probe. It keeps
// the rounding when, at every probe, the parent's own error at restReach
// (its subtree beside the child) and the product's at childReach are both
// within limit (metres): then both channels' q16 hold it and the child's
// pairErr the product's error per unit of reach at each probe.
func roundPair(p, c *channel, restReach, childReach, limit float64) bool {
	if p.constant {
		return roundUnderConstant(p, c, restReach, childReach, limit)
	}
	probes := len(p.vals) / 4
	qp := make([]float64, len(p.vals))
	qc := make([]float64, len(c.vals))
	errs := make([]float64, probes)
	for k := range probes {
		pv, cv := p.vals[k*4:k*4+4], c.vals[k*4:k*4+4]
		if heldAt(p.vals, k*4) && heldAt(c.vals, k*4) {
			copy(qp[k*4:k*4+4], qp[k*4-4:k*4])
			copy(qc[k*4:k*4+4], qc[k*4-4:k*4])
			errs[k] = errs[k-1]
			continue
		}
		e, ep := bestPair(pv, cv, qp[k*4:k*4+4], qc[k*4:k*4+4], restReach, childReach)
		if e*childReach > 2*limit || ep*restReach > limit {
			return false
		}
		errs[k] = e
	}
	p.q16, p.q16Unit = qp, neighbourLengthError(qp)
	c.q16, c.q16Unit = qc, neighbourLengthError(qc)
	p.partner, c.partner = c, p
	c.pairErr = errs
	return true
}

// bestPair rounds the unit rotations p (parent) and c (child) to 16 bits
// together, into outP and outC (float32 values of multiples of 1/32767),
// and returns the product's error per unit of reach (productError) and
// the parent's own (keyError). Of the 25 pairs tried it keeps the one
// whose larger error in metres (the product's at childReach, the
// parent's at restReach) is least, the smaller product error on a tie.
func bestPair(p, c, outP, outC []float64, restReach, childReach float64) (prod, own float64) {
	r := sample.QuatMul([4]float64(p), [4]float64(c))
	normalize(r[:])
	var pc, cc [5][4]float64
	shortCandidates(p, &pc)
	best, bestProd, bestOwn := math.Inf(1), math.Inf(1), 0.0
	pick := 0
	for i := range pc {
		ep, _ := keyError(p, pc[i][:])
		if ep*restReach > best {
			continue // the parent alone is already worse
		}
		ph := pc[i]
		normalize(ph[:])
		cs := sample.QuatMul(conj(ph), r)
		normalize(cs[:])
		shortCandidates(cs[:], &cc)
		for j := range cc {
			e := productError(pc[i][:], cc[j][:], r[:])
			obj := max(e*childReach, ep*restReach)
			if obj < best || (obj == best && e < bestProd) {
				best, bestProd, bestOwn, pick = obj, e, ep, i
				copy(outC, cc[j][:])
			}
		}
	}
	copy(outP, pc[pick][:])
	return bestProd, bestOwn
}

// underConstant reports whether p is a constant rotation a child may
// round against (roundUnderConstant).
func underConstant(p *channel) bool {
	return p != nil && p.kind == kindRotation && p.width == 4 && !p.step && p.constant && p.allowed > 0 && len(p.vals) > 0
}

// roundUnderConstant is roundPair for a parent that holds one rotation
// through the clip: it keeps one rounding, its own 16 bits when quantize
// gave it them and the child's product fits under them (it then stands
// alone, 16-bit without the child), otherwise the one of its five
// roundings under which the child's worst product error is least; the
// child absorbs it at every probe, with the best of its own five roundings
// of conj(p̂′)·p·c.
func roundUnderConstant(p, c *channel, restReach, childReach, limit float64) bool {
	// Its own rounding first when it has one (it then stands alone),
	// then the others of its five.
	var pc [6][4]float64
	var five [5][4]float64
	shortCandidates(p.vals[:4], &five)
	cands := pc[:0]
	if p.short {
		cands = append(cands, [4]float64(p.v32[:4]))
	}
	for _, q := range five {
		if !slices.Contains(cands, q) {
			cands = append(cands, q)
		}
	}
	probes := len(c.vals) / 4
	var qc, errs, bestQc, bestErrs []float64
	best, pick := math.Inf(1), -1
	var cc [5][4]float64
	for i, cand := range cands {
		if ep, _ := keyError(p.vals[:4], cand[:]); ep*restReach > limit {
			continue
		}
		qc, errs = slices.Grow(qc[:0], len(c.vals))[:len(c.vals)], slices.Grow(errs[:0], probes)[:probes]
		ph := cand
		normalize(ph[:])
		worst := 0.0
		for k := range probes {
			if heldAt(c.vals, k*4) {
				copy(qc[k*4:k*4+4], qc[k*4-4:k*4])
				errs[k] = errs[k-1]
				continue
			}
			r := sample.QuatMul([4]float64(p.vals[k*4:k*4+4]), [4]float64(c.vals[k*4:k*4+4]))
			normalize(r[:])
			cs := sample.QuatMul(conj(ph), r)
			normalize(cs[:])
			shortCandidates(cs[:], &cc)
			e, j := math.Inf(1), 0
			for jj := range cc {
				if x := productError(cand[:], cc[jj][:], r[:]); x < e {
					e, j = x, jj
				}
			}
			copy(qc[k*4:k*4+4], cc[j][:])
			errs[k] = e
			if worst = max(worst, e); worst*childReach > 2*limit || worst >= best {
				break
			}
		}
		if worst*childReach <= 2*limit && worst < best {
			best, pick = worst, i
			bestQc, bestErrs = slices.Clone(qc), slices.Clone(errs)
			if i == 0 && p.short {
				break // its own rounding fits: it stands alone
			}
		}
	}
	if pick < 0 {
		return false
	}
	if p.short && pick == 0 {
		p.alone = true // its own rounding: it stands without the child
	} else {
		if p.short {
			p.own = slices.Clone(p.v32) // back if the pair goes (unpair)
		}
		for k := 0; k < len(p.v32); k += 4 {
			copy(p.v32[k:k+4], cands[pick][:])
		}
		p.short, p.unit = true, lengthTerm(p.v32)
	}
	c.q16, c.q16Unit = bestQc, neighbourLengthError(bestQc)
	p.partner, c.partner = c, p
	c.pairErr = bestErrs
	return true
}

// shortCandidates writes the five 16-bit roundings of the unit quaternion
// v that rounding tries (shortQuat): the nearest multiple of 1/32767 per
// component, and the four that move one component to its other
// neighbour; each component in float32, as clients hold it.
func shortCandidates(v []float64, out *[5][4]float64) {
	var near, other [4]float64
	for j := range 4 {
		x := v[j] * 32767
		lo := math.Floor(x)
		n, o := lo, lo+1
		if x-lo > 0.5 {
			n, o = lo+1, lo
		}
		near[j] = float64(float32(max(-32767, min(32767, n)) / 32767))
		other[j] = float64(float32(max(-32767, min(32767, o)) / 32767))
	}
	for i := range out {
		out[i] = near
		if i > 0 {
			out[i][i-1] = other[i-1]
		}
	}
}

// productError is how far the stored pair (p, c) turns the child's
// subtree from the engine's product r (unit), per unit of reach, as the
// worse of two kinds of client: one that builds each matrix from the
// stored quaternion as it is (three.js: M(q) = |q|²·R(q̂) + (1 − |q|²)·I),
// measured as the spectral norm of M(p)·M(c) − R(r) (sample.TRS builds
// that matrix from the quaternion as stored), and one that
// normalises (Blender, Godot): 2·sin(δ/2) for the angle δ between p̂·ĉ and
// r.
func productError(p, c, r []float64) float64 {
	one := [3]float64{1, 1, 1}
	mp, mc, mr := sample.TRS([3]float64{}, [4]float64(p), one), sample.TRS([3]float64{}, [4]float64(c), one),
		sample.TRS([3]float64{}, [4]float64(r), one)
	m := sample.MatMul(&mp, &mc)
	var a [9]float64
	for row := range 3 {
		for col := range 3 {
			a[row*3+col] = m[col*4+row] - mr[col*4+row]
		}
	}
	pc := sample.QuatMul([4]float64(p), [4]float64(c))
	return max(spectralNorm(&a), fidelity.RotationDisplacement(r, pc[:]))
}

// spectralNorm is the largest singular value of the 3×3 matrix a (rows):
// the square root of the largest eigenvalue of aᵀa, from the closed form
// of a symmetric 3×3 matrix's eigenvalues (trigonometric, no iteration).
func spectralNorm(a *[9]float64) float64 {
	var b [9]float64
	for i := range 3 {
		for j := range 3 {
			b[i*3+j] = a[i]*a[j] + a[3+i]*a[3+j] + a[6+i]*a[6+j]
		}
	}
	p1 := b[1]*b[1] + b[2]*b[2] + b[5]*b[5]
	q := (b[0] + b[4] + b[8]) / 3
	d0, d1, d2 := b[0]-q, b[4]-q, b[8]-q
	p2 := d0*d0 + d1*d1 + d2*d2 + 2*p1
	if p2 <= 0 {
		return math.Sqrt(max(q, 0))
	}
	pp := math.Sqrt(p2 / 6)
	// det((b − qI)/pp)/2, clamped to [−1, 1] against rounding.
	m0, m4, m8 := d0/pp, d1/pp, d2/pp
	m1, m2, m5 := b[1]/pp, b[2]/pp, b[5]/pp
	det := m0*(m4*m8-m5*m5) - m1*(m1*m8-m5*m2) + m2*(m1*m5-m4*m2)
	phi := math.Acos(max(-1, min(1, det/2))) / 3
	return math.Sqrt(max(q+2*pp*math.Cos(phi), 0))
}

// conj is q's conjugate.
func conj(q [4]float64) [4]float64 { return [4]float64{-q[0], -q[1], -q[2], q[3]} }

// normalize scales q to unit length (a zero q stays zero).
func normalize(q []float64) {
	n := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
	if n == 0 {
		return
	}
	for j := range q {
		q[j] /= n
	}
}

// settlePairs undoes what shareProbes did with one channel of a pair when
// it did not also move the other to 16 bits at every probe: the joint
// rounding holds only for both (the child's values absorb the parent's
// rounding). Pairs left in floats forget each other.
func settlePairs(chans []*channel) {
	for _, c := range chans {
		p := c.partner
		if p == nil || c.pairErr == nil { // children only
			continue
		}
		switch {
		case !c.short && p.alone:
			c.partner, c.pairErr, p.partner = nil, nil, nil
		case !c.short || !p.short:
			c.short = true // so that unpair undoes both
			c.unpair()
		}
	}
}

// unpair writes c in floats again (unshort) and with it the other channel
// of its pair unless that one stands alone, but a parent whose own 16-bit
// rounding the pair replaced gets that back: it held on its own before.
func (c *channel) unpair() {
	group := [2]*channel{c, c.partner}
	c.unshort()
	for _, x := range group {
		if x != nil && x.own != nil {
			copy(x.v32, x.own)
			x.short, x.alone, x.own = true, false, nil
			x.unit = lengthTerm(x.v32)
		}
	}
}

// pairErrors sets the errors the hierarchy's bound weighs for the child of
// every pair written in 16 bits (after playedErrors): below the child only
// the product of the two rotations matters, so the child's error at a
// probe is what the product's error adds to the parent's (an exact bound
// of the pair's term: ρ_p + ρ_c is then at least the product's error),
// plus how far a client's blend at the probe is from each stored key
// where the probe is not at the key's float32 time.
func pairErrors(chans []*channel, probes []fidelity.Probe, t32 []float64) {
	for _, c := range chans {
		p := c.partner
		if c.pairErr == nil || p == nil || !c.short || !p.short {
			continue
		}
		for k := range c.errs {
			c.errs[k] = max(c.pairErr[k]+p.offKey(k, probes, t32)-p.errs[k], 0) + c.offKey(k, probes, t32)
		}
	}
}

// offKey bounds, per unit of reach, how far a client's value of a 16-bit
// rotation channel keyed at every probe is at probe k from the key stored
// there: nothing where the probe is played at its key, otherwise the
// blend's turn from it, the slerp gap and the blend's length term.
func (c *channel) offKey(k int, probes []fidelity.Probe, t32 []float64) float64 {
	a, z, _ := c.segment(k, probes, t32)
	if z < 0 && a == k {
		return 0
	}
	var buf [4]float64
	v := c.playAt(k, fidelity.Nlerp, probes, t32, buf[:])
	return fidelity.RotationDisplacement(c.v32[k*4:k*4+4], v) + c.gapAt(k, probes, t32) + c.unitAt(k, probes, t32)
}
