package keys

import (
	"math"
	"sort"

	"github.com/animbake/bake/fidelity"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// bound proves most probes of a clip within the tolerance without composing
// the hierarchy: a first-order bound on every node's vertex error, summed
// along its chain from each channel's own error at the probe, with lengths
// and scales taken from the clip's own engine values. Only probes where
// the bound cannot prove it are measured exactly (fidelity.Meter).
//
// The bound, for node n and each channel on the chain root … n (node a):
//
//   - a translation error δT moves every vertex below by at most S_p(a)·|δT|,
//     S_p(a) bounding the parent's world scale (the product of the largest
//     absolute scale component of every ancestor over the clip);
//   - a rotation error of angle θ moves a vertex at parent-frame distance y
//     from a's origin by at most 2·sin(θ/2)·|y|, and S_p(a)·|y| is at most
//     the path from a to the vertex: Σ S_p(k)·|T_k| over the nodes k below a
//     down to n (largest |T_k| over the clip), plus S_w(n)·shell;
//   - a scale error moves it by at most max|δS|/σ_a times that path (σ_a a's
//     largest scale component), since the path counts a's scale once;
//   - a quaternion key that is not unit length (|q|² = s²) gives the
//     matrix (1−s²)·I + s²·R, off R by at most 2·|1−s²| times the path.
//
// These are exact bounds on each term of W'−W = Σ A_i·(L'_i−L_i)·B'_i; the
// played descendants B'_i differ from the engine's by the error below i,
// which the rotation terms multiply again: the total is at most
// first/(1 − Σρ), ρ the per-unit-length terms along the chain. A probe
// passes when that is within the tolerance for every node.
type bound struct {
	parent []int
	// sp is S_p(n), the bound on the parent's world scale; sw is S_w(n).
	sp, sw []float64
	// path is Σ S_p(k)·|T_k| from the root down to n (the root's own
	// translation excluded: distances are measured from its origin).
	path []float64
	// sigma is n's largest absolute scale component over the clip.
	sigma []float64
	shell float64
	// ok is false when a scale is zero somewhere on the hierarchy: the
	// bound is not defined and every probe is measured.
	ok bool
	// per-node work arrays for one probe.
	dt, rho, x, p []float64
}

// newBound prepares the clip-specific lengths and scales from the engine's
// values at every probe (chans) and the rest of the nodes no channel moves.
func newBound(h *fidelity.Hierarchy, chans []*channel, shell float64) *bound {
	n := len(h.Parent)
	b := &bound{parent: h.Parent, sp: make([]float64, n), sw: make([]float64, n), path: make([]float64, n),
		sigma: make([]float64, n), shell: shell, ok: true,
		dt: make([]float64, n), rho: make([]float64, n), x: make([]float64, n), p: make([]float64, n)}
	tau := make([]float64, n)
	for i := range n {
		if m := h.Static[i]; m != nil {
			b.sigma[i] = columnScale(m)
			tau[i] = math.Sqrt(m[12]*m[12] + m[13]*m[13] + m[14]*m[14])
			continue
		}
		r := &h.Rest[i]
		b.sigma[i] = max(math.Abs(r.S[0]), math.Abs(r.S[1]), math.Abs(r.S[2]))
		tau[i] = math.Sqrt(r.T[0]*r.T[0] + r.T[1]*r.T[1] + r.T[2]*r.T[2])
	}
	// An animated translation or scale replaces the rest: its largest value
	// over the clip (with the rest, to stay safe where a clip leaves it).
	for _, c := range chans {
		if c.node < 0 || c.width != 3 {
			continue
		}
		for k := 0; k+3 <= len(c.vals); k += 3 {
			v := c.vals[k : k+3]
			switch c.kind {
			case kindTranslation:
				tau[c.node] = max(tau[c.node], math.Sqrt(v[0]*v[0]+v[1]*v[1]+v[2]*v[2]))
			case kindScale:
				b.sigma[c.node] = max(b.sigma[c.node], math.Abs(v[0]), math.Abs(v[1]), math.Abs(v[2]))
			}
		}
	}
	for i := range n {
		if !(b.sigma[i] > 1e-9) || math.IsInf(b.sigma[i], 0) || math.IsNaN(tau[i]) || math.IsInf(tau[i], 0) {
			b.ok = false
		}
		b.sp[i] = 1
		if p := h.Parent[i]; p >= 0 {
			b.sp[i] = b.sw[p]
			b.path[i] = b.path[p] + b.sp[i]*tau[i]
		}
		b.sw[i] = b.sp[i] * b.sigma[i]
	}
	return b
}

// columnScale is the largest column norm of a matrix's 3×3 part: a bound
// on how much it stretches a vector's component along any axis, and with
// orthogonal columns (every TRS) its largest scale.
func columnScale(m *[16]float64) float64 {
	// The operator norm is at most the Frobenius norm: safe for any matrix.
	var f float64
	for c := range 3 {
		for r := range 3 {
			f += m[c*4+r] * m[c*4+r]
		}
	}
	return math.Sqrt(f)
}

// failure is a probe the bound cannot prove and the nodes it cannot prove
// there.
type failure struct {
	probe int
	nodes []int
}

// unproved returns the probes where the bound cannot prove every node
// within tol, with those nodes, given each channel's error at every probe
// (errs, per channel: a distance for translations, 2·sin(θ/2) plus the
// unit-length term for rotations, the largest component for scales; nil
// for channels that move no node).
func (b *bound) unproved(chans []*channel, errs [][]float64, probes []fidelity.Probe, tol float64) []failure {
	var out []failure
	if !b.ok {
		all := make([]int, len(b.parent))
		for i := range all {
			all[i] = i
		}
		for k := range probes {
			out = append(out, failure{k, all})
		}
		return out
	}
	limit := tol * (1 - 1e-6) // room for the bound's own rounding
	for k := range probes {
		clear(b.dt)
		clear(b.rho)
		for ci, c := range chans {
			e := errs[ci]
			if e == nil {
				continue
			}
			switch c.kind {
			case kindTranslation:
				b.dt[c.node] += e[k]
			case kindRotation:
				b.rho[c.node] += e[k]
			case kindScale:
				b.rho[c.node] += e[k] / b.sigma[c.node]
			}
		}
		var fails []int
		for i, p := range b.parent {
			x, q := b.sp[i]*b.dt[i]-b.rho[i]*b.path[i], b.rho[i]
			if p >= 0 {
				x += b.x[p]
				q += b.p[p]
			}
			b.x[i], b.p[i] = x, q
			first := x + (b.path[i]+b.sw[i]*b.shell)*q
			if q >= 0.5 || first > limit*(1-q) {
				fails = append(fails, i)
			}
		}
		if len(fails) > 0 {
			out = append(out, failure{k, fails})
		}
	}
	return out
}

// exact measures the vertex error of the failing nodes at their probes by
// composing only their chains, the engine's pose (the channels' values)
// against the chosen keys played with nlerp, like fidelity.Meter. It
// returns each node's largest error there.
func exact(h *fidelity.Hierarchy, chans []*channel, byNode [][]*channel, fails []failure, probes []fidelity.Probe,
	t32 []float64, shell float64) []float64 {
	n := len(h.Parent)
	nodeMax := make([]float64, n)
	mark := make([]int, n) // the failure (1-based) that needs the node's world
	refW, playW := make([][16]float64, n), make([][16]float64, n)
	var ref, play fidelity.TRS
	var buf [16]float64
	for fi, f := range fails {
		k := f.probe
		for _, i := range f.nodes {
			for a := i; a >= 0 && mark[a] != fi+1; a = h.Parent[a] {
				mark[a] = fi + 1
			}
		}
		for i := range n {
			if mark[i] != fi+1 {
				continue
			}
			var lr, lp [16]float64
			if m := h.Static[i]; m != nil {
				lr, lp = *m, *m
			} else {
				ref, play = h.Rest[i], h.Rest[i]
				for _, c := range byNode[i] {
					w := c.width
					set(&ref, c.path, c.vals[k*w:k*w+w])
					set(&play, c.path, c.playAt(k, probes, t32, buf[:w]))
				}
				lr = sample.TRS(ref.T, ref.R, ref.S)
				lp = sample.TRS(play.T, play.R, play.S)
			}
			if p := h.Parent[i]; p >= 0 {
				refW[i] = fidelity.AffineMul(&refW[p], &lr)
				playW[i] = fidelity.AffineMul(&playW[p], &lp)
			} else {
				refW[i], playW[i] = lr, lp
			}
		}
		for _, i := range f.nodes {
			nodeMax[i] = max(nodeMax[i], fidelity.VertexError(&refW[i], &playW[i], shell))
		}
	}
	return nodeMax
}

// set writes a channel value into a local transform.
func set(l *fidelity.TRS, path string, v []float64) {
	switch path {
	case model.PathTranslation:
		copy(l.T[:], v)
	case model.PathRotation:
		copy(l.R[:], v)
	case model.PathScale:
		copy(l.S[:], v)
	}
}

// playAt is the client's value of the channel at probe k with the chosen
// keys (rotations blended by nlerp), in out.
func (c *channel) playAt(k int, probes []fidelity.Probe, t32 []float64, out []float64) []float64 {
	w := c.width
	j := sort.SearchInts(c.keys, k+1) - 1 // the last key at or before k
	if j < 0 {
		j = 0
	}
	a := c.keys[j]
	if a == k || j+1 == len(c.keys) {
		return c.v32[a*w : a*w+w]
	}
	z := c.keys[j+1]
	u := min(max((probes[k].Time-t32[a])/(t32[z]-t32[a]), 0), 1)
	fidelity.Interpolate(c.path, c.step, fidelity.Nlerp, c.v32[a*w:a*w+w], c.v32[z*w:z*w+w], u, out)
	return out
}

// playedErrors is each node channel's error at every probe with the keys
// chosen: the client's value (lerp, nlerp for rotations — the blend the
// hierarchy is measured with — or the held key) against the engine's. Data
// channels and channels keyed at every probe get nil.
func playedErrors(chans []*channel, probes []fidelity.Probe, t32 []float64, ar *arena) [][]float64 {
	errs := make([][]float64, len(chans))
	var out [16]float64
	for ci, c := range chans {
		if c.node < 0 || c.width > len(out) {
			continue
		}
		w := c.width
		e := ar.take(len(probes))
		clear(e)
		unit := 0.0 // the unit-length term of rotation keys
		if c.kind == kindRotation && w == 4 {
			for _, a := range c.keys {
				q := c.v32[a*4 : a*4+4]
				unit = max(unit, 2*math.Abs(1-(q[0]*q[0]+q[1]*q[1]+q[2]*q[2]+q[3]*q[3])))
			}
		}
		if c.constant && len(c.keys) > 0 {
			// One value throughout: the error is the rounding of the key.
			a := c.keys[0]
			ek := channelError(c, c.v32[a*w:a*w+w], c.vals[a*w:a*w+w]) + unit
			for k := range e {
				e[k] = ek
			}
			errs[ci] = e
			continue
		}
		for j := 0; j+1 < len(c.keys); j++ {
			a, z := c.keys[j], c.keys[j+1]
			va, vz := c.v32[a*w:a*w+w], c.v32[z*w:z*w+w]
			span := t32[z] - t32[a]
			for k := a; k <= z; k++ {
				var got []float64
				switch {
				case k == a:
					got = va
				case k == z:
					got = vz
				case c.kind == kindRotation && w == 4 && !c.step:
					u := min(max((probes[k].Time-t32[a])/span, 0), 1)
					e[k] = nlerpDisplacement(va, vz, u, c.vals[k*w:k*w+w]) + unit
					continue
				default:
					u := min(max((probes[k].Time-t32[a])/span, 0), 1)
					fidelity.Interpolate(c.path, c.step, fidelity.Nlerp, va, vz, u, out[:w])
					got = out[:w]
				}
				e[k] = channelError(c, got, c.vals[k*w:k*w+w]) + unit
			}
		}
		if len(c.keys) == 1 {
			for k := range probes {
				e[k] = channelError(c, c.v32[c.keys[0]*w:c.keys[0]*w+w], c.vals[k*w:k*w+w]) + unit
			}
		}
		errs[ci] = e
	}
	return errs
}

// channelError is the raw error the bound weighs: the distance between two
// translations, 2·sin(θ/2) between two rotations, the largest component
// difference of two scales.
func channelError(c *channel, got, want []float64) float64 {
	switch {
	case c.kind == kindRotation && c.width == 4:
		return fidelity.RotationDisplacement(got, want)
	case c.kind == kindTranslation || c.path == model.PathTranslation:
		var s float64
		for j := range got {
			d := got[j] - want[j]
			s += d * d
		}
		return math.Sqrt(s)
	}
	var e float64
	for j := range got {
		e = max(e, math.Abs(got[j]-want[j]))
	}
	return e
}
