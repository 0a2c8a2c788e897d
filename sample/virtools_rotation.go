package sample

import (
	"fmt"

	"github.com/animbake/bake/model"
)

// vxQuatTrack is a compiled rotation or scale-axis controller. Values stay
// in the stored Virtools convention; the caller conjugates the result.
type vxQuatTrack struct {
	tcb   bool
	times []float64
	vals  [][4]float64
	// TCB: the Squad inner controls arriving at (in) and leaving (out)
	// each key, and each key's ease values.
	in, out          [][4]float64
	easeTo, easeFrom []float64
}

// compileVxQuat precomputes a quaternion controller; nil or keyless
// controllers give nil (an absent component).
func compileVxQuat(c *model.VirtoolsQuatController) (*vxQuatTrack, error) {
	if c == nil || len(c.Keys) == 0 {
		return nil, nil
	}
	n := len(c.Keys)
	tr := &vxQuatTrack{times: make([]float64, n), vals: make([][4]float64, n)}
	for i, k := range c.Keys {
		if i > 0 && k.Time < c.Keys[i-1].Time {
			return nil, fmt.Errorf("controller %#x: key %d goes back in time", c.Type, i)
		}
		tr.times[i] = k.Time
		tr.vals[i] = k.Value
	}
	switch c.Interp {
	case model.VirtoolsLinear:
	case model.VirtoolsTCB:
		tr.tcb = true
		tr.setupTCB(c.Keys)
	default:
		return nil, fmt.Errorf("controller %#x: interpolation %q is not supported for quaternions", c.Type, c.Interp)
	}
	return tr, nil
}

// setupTCB computes the Squad controls of virtools-controllers.md §4.1:
// log-space differences in the key's own (body) frame, neighbours flipped
// into the key's hemisphere, TCB weights with the key-interval factors,
// and in = q·exp((Lp − TS)/2), out = q·exp((TD − Ln)/2).
func (tr *vxQuatTrack) setupTCB(keys []model.VirtoolsQuatKey) {
	n := len(keys)
	tr.in, tr.out = make([][4]float64, n), make([][4]float64, n)
	tr.easeTo, tr.easeFrom = make([]float64, n), make([]float64, n)
	for i, k := range keys {
		tr.easeTo[i], tr.easeFrom[i] = k.EaseTo, k.EaseFrom
		q := tr.vals[i]
		tr.in[i], tr.out[i] = q, q
		if n < 2 {
			continue
		}
		var lp, ln [3]float64
		if i > 0 {
			qp := tr.vals[i-1]
			if vxDot4(qp, q) < 0 {
				qp = vxNeg4(qp)
			}
			lp = vxLn(QuatMul(vxConj(qp), q))
		}
		if i < n-1 {
			qn := tr.vals[i+1]
			if vxDot4(qn, q) < 0 {
				qn = vxNeg4(qn)
			}
			ln = vxLn(QuatMul(vxConj(q), qn))
		}
		if i == 0 {
			lp = ln
		}
		if i == n-1 {
			ln = lp
		}
		fp, fn := vxTCBFactors(tr.times, i, k.Continuity)
		wsp, wsn, wdp, wdn := vxTCBWeights(k.Tension, k.Continuity, k.Bias)
		var a, b [3]float64
		for j := range 3 {
			ts := fp * (wsp*lp[j] + wsn*ln[j])
			td := fn * (wdp*lp[j] + wdn*ln[j])
			a[j] = (lp[j] - ts) / 2
			b[j] = (td - ln[j]) / 2
		}
		tr.in[i] = QuatMul(q, vxExp(a))
		tr.out[i] = QuatMul(q, vxExp(b))
	}
}

// eval writes the controller's quaternion (Virtools convention, not
// normalised) at frame t into out and reports true; a nil track reports
// false.
func (tr *vxQuatTrack) eval(t float64, out *[4]float64) bool {
	if tr == nil {
		return false
	}
	a, u, inside := vxSegment(tr.times, t)
	if !inside {
		*out = tr.vals[a]
		return true
	}
	b := a + 1
	if tr.tcb {
		s := VirtoolsEase(u, tr.easeFrom[a], tr.easeTo[b])
		*out = vxSquad(s, tr.vals[a], tr.out[a], tr.in[b], tr.vals[b])
		return true
	}
	*out = VirtoolsSlerp(u, tr.vals[a], tr.vals[b])
	return true
}
