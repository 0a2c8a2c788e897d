package sample

import (
	"fmt"

	"github.com/animbake/bake/model"
)

// vxVectorTrack is a compiled position or scale controller: flat arrays of
// key times and values plus what the interpolation precomputes (TCB
// tangents and ease, Bezier control points).
type vxVectorTrack struct {
	interp model.VirtoolsInterp
	times  []float64
	vals   []float64 // 3 per key
	// TCB: incoming (ts) and outgoing (td) tangents, 3 per key, and each
	// key's ease values.
	ts, td           []float64
	easeTo, easeFrom []float64
	// Bezier: the control point after each key (cOut) and before it (cIn),
	// 3 per key, and whether a segment leaving a key holds its value.
	cOut, cIn []float64
	hold      []bool
}

// compileVxVector precomputes a vector controller; nil or keyless
// controllers give nil (an absent component).
func compileVxVector(c *model.VirtoolsVectorController) (*vxVectorTrack, error) {
	if c == nil || len(c.Keys) == 0 {
		return nil, nil
	}
	n := len(c.Keys)
	tr := &vxVectorTrack{interp: c.Interp, times: make([]float64, n), vals: make([]float64, 3*n)}
	for i, k := range c.Keys {
		if i > 0 && k.Time < c.Keys[i-1].Time {
			return nil, fmt.Errorf("controller %#x: key %d goes back in time", c.Type, i)
		}
		tr.times[i] = k.Time
		copy(tr.vals[3*i:], k.Value[:])
	}
	switch c.Interp {
	case model.VirtoolsLinear:
	case model.VirtoolsTCB:
		tr.setupTCB(c.Keys)
	case model.VirtoolsBezier:
		tr.setupBezier(c.Keys)
	default:
		return nil, fmt.Errorf("controller %#x: unknown interpolation %q", c.Type, c.Interp)
	}
	return tr, nil
}

// setupTCB computes the tangents of virtools-controllers.md §5: chord
// differences (the end keys reuse their only chord), Kochanek–Bartels
// weights and the key-interval factors.
func (tr *vxVectorTrack) setupTCB(keys []model.VirtoolsVectorKey) {
	n := len(keys)
	tr.ts, tr.td = make([]float64, 3*n), make([]float64, 3*n)
	tr.easeTo, tr.easeFrom = make([]float64, n), make([]float64, n)
	for i, k := range keys {
		tr.easeTo[i], tr.easeFrom[i] = k.EaseTo, k.EaseFrom
		if n < 2 {
			continue
		}
		var dp, dn [3]float64
		for j := range 3 {
			if i > 0 {
				dp[j] = tr.vals[3*i+j] - tr.vals[3*(i-1)+j]
			}
			if i < n-1 {
				dn[j] = tr.vals[3*(i+1)+j] - tr.vals[3*i+j]
			}
		}
		if i == 0 {
			dp = dn
		}
		if i == n-1 {
			dn = dp
		}
		fp, fn := vxTCBFactors(tr.times, i, k.Continuity)
		wsp, wsn, wdp, wdn := vxTCBWeights(k.Tension, k.Continuity, k.Bias)
		for j := range 3 {
			tr.ts[3*i+j] = fp * (wsp*dp[j] + wsn*dn[j])
			tr.td[3*i+j] = fn * (wdp*dp[j] + wdn*dn[j])
		}
	}
}

// setupBezier computes each segment's inner control points from the key
// modes (virtools-controllers.md §6, where the Virtools rules are unknown;
// docs/formats/virtools-semantics.md gives the rules chosen here).
func (tr *vxVectorTrack) setupBezier(keys []model.VirtoolsVectorKey) {
	n := len(keys)
	tr.cOut, tr.cIn = make([]float64, 3*n), make([]float64, 3*n)
	tr.hold = make([]bool, n)
	p := func(i int) []float64 { return tr.vals[3*i : 3*i+3] }
	for i, k := range keys {
		prev, next := max(i-1, 0), min(i+1, n-1)
		var smooth, fast [3]float64 // Hermite tangents per segment
		for j := range 3 {
			d := p(next)[j] - p(prev)[j]
			if prev != i && next != i {
				smooth[j] = d / 2
			} else {
				smooth[j] = d
			}
			fast[j] = 2 * d
		}
		if i+1 < n {
			tr.hold[i] = k.OutMode&model.VirtoolsBezierStep != 0 || keys[i+1].InMode&model.VirtoolsBezierStep != 0
		}
		for j := range 3 {
			tr.cOut[3*i+j] = p(i)[j] + vxBezierOffset(k.OutMode, k.Out[j], smooth[j], fast[j], p(next)[j]-p(i)[j], 1)
			tr.cIn[3*i+j] = p(i)[j] + vxBezierOffset(k.InMode, k.In[j], smooth[j], fast[j], p(i)[j]-p(prev)[j], -1)
		}
	}
}

// vxBezierOffset is a control point's offset from its key: the stored
// tangent for TANGENTS, a third of the chord for LINEAR, zero for SLOW,
// and a third of the Hermite tangent (fast or smooth) otherwise. dir is +1
// after the key and −1 before it.
func vxBezierOffset(mode uint16, stored, smooth, fast, chord, dir float64) float64 {
	switch {
	case mode&model.VirtoolsBezierTangents != 0:
		return stored
	case mode&model.VirtoolsBezierLinear != 0:
		return dir * chord / 3
	case mode&model.VirtoolsBezierSlow != 0:
		return 0
	case mode&model.VirtoolsBezierFast != 0:
		return dir * fast / 3
	default:
		return dir * smooth / 3
	}
}

// eval writes the controller's value at frame t into out and reports true
// (a nil track reports false: the component is absent).
func (tr *vxVectorTrack) eval(t float64, out *[3]float64) bool {
	if tr == nil {
		return false
	}
	a, u, inside := vxSegment(tr.times, t)
	pa := tr.vals[3*a : 3*a+3]
	if !inside {
		copy(out[:], pa)
		return true
	}
	b := a + 1
	pb := tr.vals[3*b : 3*b+3]
	switch tr.interp {
	case model.VirtoolsTCB:
		s := VirtoolsEase(u, tr.easeFrom[a], tr.easeTo[b])
		h1, h3, h2, h4 := hermiteBasis(s)
		for j := range 3 {
			out[j] = h1*pa[j] + h2*pb[j] + h3*tr.td[3*a+j] + h4*tr.ts[3*b+j]
		}
	case model.VirtoolsBezier:
		if tr.hold[a] {
			copy(out[:], pa)
			return true
		}
		v := 1 - u
		b0, b1, b2, b3 := v*v*v, 3*u*v*v, 3*u*u*v, u*u*u
		for j := range 3 {
			out[j] = b0*pa[j] + b1*tr.cOut[3*a+j] + b2*tr.cIn[3*b+j] + b3*pb[j]
		}
	default:
		for j := range 3 {
			out[j] = pa[j] + (pb[j]-pa[j])*u
		}
	}
	return true
}
