package keys

import (
	"math"
	"sort"
	"sync"

	"github.com/animbake/bake/fidelity"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// bound proves most probes of a clip within the tolerance without composing
// the hierarchy: a first-order bound on every node's vertex error, summed
// along its chain from each channel's own error at the probe, with lengths
// and scales taken from the clip's own engine values. Only the nodes and
// probes the bound cannot prove are measured exactly (exact).
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
//   - a quaternion played as stored that is not unit length (|q|² = s²: a
//     16-bit key, or slerp's blend of them) gives the matrix (1−s²)·I + s²·R,
//     off R by |1−s²|·|I−R| times the path (channel.unit).
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
	// dist is each node's error distance (the shell, or its mesh's).
	dist []float64
	// slack is each probe's tolerance as a multiple of the one asked
	// (nil: 1; see probeSlack).
	slack []float64
	// ok is false when a scale is zero somewhere on the hierarchy: the
	// bound is not defined and every probe is measured.
	ok bool
	// per-node work arrays for one probe.
	dt, rho, x, p []float64
	moved         []bool
}

// newBound prepares the clip-specific lengths and scales from the engine's
// values at every probe (chans) and the rest of the nodes no channel moves.
func newBound(h *fidelity.Hierarchy, chans []*channel, dist []float64) *bound {
	n := len(h.Parent)
	b := &bound{parent: h.Parent, sp: make([]float64, n), sw: make([]float64, n), path: make([]float64, n),
		sigma: make([]float64, n), dist: dist, ok: true,
		dt: make([]float64, n), rho: make([]float64, n), x: make([]float64, n), p: make([]float64, n)}
	tau := make([]float64, n)
	for i := range n {
		if m := h.Static[i]; m != nil {
			b.sigma[i] = fidelity.ColumnScale(m)
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

// weigh adds a channel's error e at a probe to its node's terms: dt, the
// translation errors, and rho, the per-unit-length terms (rotations as
// they are, scales over the node's largest scale component).
func (b *bound) weigh(dt, rho []float64, c *channel, e float64) {
	switch c.kind {
	case kindTranslation:
		dt[c.node] += e
	case kindRotation:
		rho[c.node] += e
	case kindScale:
		rho[c.node] += e / b.sigma[c.node]
	}
}

// failure is a probe the bound cannot prove and the nodes it cannot prove
// there.
type failure struct {
	probe int
	nodes []int
}

// unproved returns the probes among todo (every probe when nil) where the
// bound cannot prove every node within tol, with those nodes (only nodes
// below a channel in changed whose mods hold the probe, when changed is not
// nil: the others were proved or measured already), given each
// channel's error at every probe (channel.errs: a distance for
// translations, 2·sin(θ/2) plus the unit-length term for rotations, the
// largest component for scales; nil for channels that move no node).
func (b *bound) unproved(chans []*channel, probes []fidelity.Probe, todo []int, changed []*channel, tol float64) []failure {
	var out []failure
	if b.moved == nil {
		b.moved = make([]bool, len(b.parent))
	}
	if todo == nil {
		todo = make([]int, len(probes))
		for k := range todo {
			todo[k] = k
		}
	}
	if !b.ok {
		all := make([]int, len(b.parent))
		for i := range all {
			all[i] = i
		}
		for _, k := range todo {
			out = append(out, failure{k, all})
		}
		return out
	}
	limit := tol * (1 - 1e-6) // room for the bound's own rounding
	// Constant channels have one error throughout: added once.
	n := len(b.parent)
	dt0, rho0 := make([]float64, n), make([]float64, n)
	var moving []*channel
	for _, c := range chans {
		if c.errs == nil {
			continue
		}
		if !c.constant {
			moving = append(moving, c)
			continue
		}
		b.weigh(dt0, rho0, c, c.errs[0])
	}
	for _, k := range todo {
		limit := limit * slackAt(b.slack, k)
		copy(b.dt, dt0)
		copy(b.rho, rho0)
		for _, c := range moving {
			b.weigh(b.dt, b.rho, c, c.errs[k])
		}
		if changed != nil {
			clear(b.moved)
			for _, c := range changed {
				for _, m := range c.mods {
					if k >= m[0] && k <= m[1] {
						b.moved[c.node] = true
						break
					}
				}
			}
		}
		var fails []int
		for i, p := range b.parent {
			x, q := b.sp[i]*b.dt[i]-b.rho[i]*b.path[i], b.rho[i]
			if p >= 0 {
				x += b.x[p]
				q += b.p[p]
				if changed != nil && b.moved[p] {
					b.moved[i] = true
				}
			}
			b.x[i], b.p[i] = x, q
			if changed != nil && !b.moved[i] {
				continue
			}
			first := x + (b.path[i]+b.sw[i]*b.dist[i])*q
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
// against the chosen keys played with nlerp and with slerp, like
// fidelity.Meter, and calls visit with each (probe, node, error): the
// worse of the two blends. With a bound b, slerp's pose is composed only
// where the nlerp error plus b's bound on how far slerp's pose can be from
// nlerp's (the slerp gaps of the chain's rotations, weighed like the
// bound's rotation terms) exceeds tol; the error reported is then that sum
// where it is within tol.
func exact(h *fidelity.Hierarchy, chans []*channel, byNode [][]*channel, fails []failure, probes []fidelity.Probe,
	t32 []float64, dist []float64, b *bound, tol float64, visit func(probe, node int, e float64)) {
	n := len(h.Parent)
	sc := exactScratch.Get().(*exactWork)
	defer exactScratch.Put(sc)
	sc.grow(n)
	mark := sc.mark // the failure (1-based) that needs the node's world
	refW, nlW, slW := sc.refW, sc.nlW, sc.slW
	// The gap terms along the chain (see bound): Σ g·(−path(a)), Σ g, and
	// the chain's Σρ for the second-order factor.
	gx, gp, rp := sc.gx, sc.gp, sc.rp
	unused := sc.unused // weigh's translation terms, which the gap does not need
	var ref, play fidelity.TRS
	var buf [16]float64
	for fi, f := range fails {
		k := f.probe
		for _, i := range f.nodes {
			for a := i; a >= 0 && mark[a] != fi+1; a = h.Parent[a] {
				mark[a] = fi + 1
			}
		}
		// The engine's pose and nlerp's, with the gap terms.
		for i := range n {
			if mark[i] != fi+1 {
				continue
			}
			var lr, lp [16]float64
			var g float64
			rp[i] = 0 // weigh adds this node's own terms
			if m := h.Static[i]; m != nil {
				lr, lp = *m, *m
			} else {
				ref, play = h.Rest[i], h.Rest[i]
				for _, c := range byNode[i] {
					w, at := c.width, k // at: the probe of the engine's value and the error
					var v []float64
					if c.constant && len(c.keys) == 2 {
						// One value throughout: read where it is cached,
						// its blend worked out once (no slerp gap).
						at, v = 0, c.constantAt(k, probes, t32)
					} else {
						v = c.playAt(k, fidelity.Nlerp, probes, t32, buf[:w])
						if b != nil && c.kind == kindRotation {
							g += c.gapAt(k, probes, t32)
						}
					}
					set(&ref, c.kind, c.vals[at*w:at*w+w])
					set(&play, c.kind, v)
					if b != nil {
						if c.kind == kindRotation {
							// slerp's blend as clients compute it is not
							// normalised: its length error counts too.
							g += c.unitAt(k, probes, t32)
						}
						b.weigh(unused, rp, c, c.errs[at])
					}
				}
				lr = sample.TRS(ref.T, ref.R, ref.S)
				lp = sample.TRS(play.T, play.R, play.S)
			}
			gx[i], gp[i] = 0, g
			if b != nil {
				gx[i] = -g * b.path[i]
			}
			if p := h.Parent[i]; p >= 0 {
				refW[i] = fidelity.AffineMul(&refW[p], &lr)
				nlW[i] = fidelity.AffineMul(&nlW[p], &lp)
				gx[i] += gx[p]
				gp[i] += gp[p]
				rp[i] += rp[p]
			} else {
				refW[i], nlW[i] = lr, lp
			}
		}
		// Slerp's pose where the gap bound does not settle it.
		slerped := false
		tol := tol
		if b != nil {
			tol *= slackAt(b.slack, k)
		}
		for _, i := range f.nodes {
			e := fidelity.VertexError(&refW[i], &nlW[i], dist[i])
			if b != nil && rp[i] < 0.5 {
				if g := (gx[i] + (b.path[i]+b.sw[i]*b.dist[i])*gp[i]) / (1 - rp[i]); e+g <= tol {
					visit(k, i, e+g)
					continue
				}
			}
			if !slerped {
				for j := range n {
					if mark[j] != fi+1 {
						continue
					}
					var lp [16]float64
					if m := h.Static[j]; m != nil {
						lp = *m
					} else {
						play = h.Rest[j]
						for _, c := range byNode[j] {
							set(&play, c.kind, c.playAt(k, fidelity.Slerp, probes, t32, buf[:c.width]))
						}
						lp = sample.TRS(play.T, play.R, play.S)
					}
					if p := h.Parent[j]; p >= 0 {
						slW[j] = fidelity.AffineMul(&slW[p], &lp)
					} else {
						slW[j] = lp
					}
				}
				slerped = true
			}
			visit(k, i, max(e, fidelity.VertexError(&refW[i], &slW[i], dist[i])))
		}
	}
}

// exactWork is exact's working memory, kept between calls (exactScratch):
// exact runs once per round of every clip, and a hierarchy's worth of
// matrices each time added up to tens of megabytes per conversion.
type exactWork struct {
	mark               []int
	refW, nlW, slW     [][16]float64
	gx, gp, rp, unused []float64
}

var exactScratch = sync.Pool{New: func() any { return new(exactWork) }}

// grow gives every array n elements; mark is cleared (exact marks nodes
// with a failure's 1-based number), the others are written before read.
func (w *exactWork) grow(n int) {
	if cap(w.mark) < n {
		*w = exactWork{mark: make([]int, n), refW: make([][16]float64, n), nlW: make([][16]float64, n),
			slW: make([][16]float64, n), gx: make([]float64, n), gp: make([]float64, n), rp: make([]float64, n),
			unused: make([]float64, n)}
		return
	}
	w.mark = w.mark[:n]
	clear(w.mark)
	w.refW, w.nlW, w.slW = w.refW[:n], w.nlW[:n], w.slW[:n]
	w.gx, w.gp, w.rp, w.unused = w.gx[:n], w.gp[:n], w.rp[:n], w.unused[:n]
}

// set writes a channel value into a local transform.
func set(l *fidelity.TRS, kind int, v []float64) {
	switch kind { // element by element: copy would call memmove for 3 or 4 values
	case kindTranslation:
		l.T[0], l.T[1], l.T[2] = v[0], v[1], v[2]
	case kindRotation:
		if len(v) == 4 {
			l.R[0], l.R[1], l.R[2], l.R[3] = v[0], v[1], v[2], v[3]
		}
	case kindScale:
		l.S[0], l.S[1], l.S[2] = v[0], v[1], v[2]
	}
}

// segment finds where a client plays probe k with the chosen keys: between
// keys a and z at fraction u, or at key a alone (z = -1). The segment is
// found by the float32 key times, as a client does.
// unitAt is the unit-length term at probe k: a 16-bit channel's is its
// segment's own (pairLengthError), within the channel's.
func (c *channel) unitAt(k int, probes []fidelity.Probe, t32 []float64) float64 {
	if !c.short || c.width != 4 || c.step {
		return c.unit
	}
	a, z, _ := c.segment(k, probes, t32)
	if z < 0 {
		z = a
	}
	return min(c.unit, pairLengthError(c.v32[a*4:a*4+4], c.v32[z*4:z*4+4]))
}

func (c *channel) segment(k int, probes []fidelity.Probe, t32 []float64) (a, z int, u float64) {
	j := c.cursor
	if j >= len(c.keys) || c.keys[j] > k {
		j = sort.SearchInts(c.keys, k+1) - 1 // the last key at or before k
	}
	for j+1 < len(c.keys) && c.keys[j+1] <= k {
		j++
	}
	j = max(j, 0)
	c.cursor = j
	if j > 0 && probes[k].Time < t32[c.keys[j]] {
		j-- // the key's float32 time is after the probe
	}
	a = c.keys[j]
	if j+1 == len(c.keys) || (probes[k].Time <= t32[a] && j == 0) {
		return a, -1, 0
	}
	z = c.keys[j+1]
	return a, z, min(max((probes[k].Time-t32[a])/(t32[z]-t32[a]), 0), 1)
}

// playAt is the client's value of the channel at probe k with the chosen
// keys, rotations blended by mode, in out (or the key itself).
func (c *channel) playAt(k int, mode fidelity.Interp, probes []fidelity.Probe, t32 []float64, out []float64) []float64 {
	w := c.width
	a, z, u := c.segment(k, probes, t32)
	if z < 0 {
		return c.v32[a*w : a*w+w]
	}
	fidelity.Interpolate(c.path, c.step, mode, c.v32[a*w:a*w+w], c.v32[z*w:z*w+w], u, out)
	return out
}

// constantAt is what a client shows at probe k of a constant channel keyed
// at the first and last probe, with nlerp: the stored key at either end
// (outside the keys' times), their blend (the key normalised, for
// rotations) between.
func (c *channel) constantAt(k int, probes []fidelity.Probe, t32 []float64) []float64 {
	w, last := c.width, c.keys[1]
	if (k == 0 && probes[k].Time <= t32[0]) || (k == last && probes[k].Time >= t32[last]) {
		return c.v32[:w]
	}
	if c.blend == nil {
		c.blend = make([]float64, w)
		fidelity.Interpolate(c.path, c.step, fidelity.Nlerp, c.v32[:w], c.v32[last*w:last*w+w], 0.5, c.blend)
	}
	return c.blend
}

// gapAt is the slerp gap (slerpGap) of a rotation channel at probe k.
func (c *channel) gapAt(k int, probes []fidelity.Probe, t32 []float64) float64 {
	a, z, u := c.segment(k, probes, t32)
	if z < 0 || c.step || c.width != 4 {
		return 0
	}
	if a != c.gapSeg[0] || z != c.gapSeg[1] { // probes come in order: one segment's gap serves many
		c.gapSeg, c.gap = [2]int{a, z}, slerpGap(c.v32[a*4:a*4+4], c.v32[z*4:z*4+4])
	}
	return gapAt(c.gap, u)
}

// playedErrors sets each node channel's error at every probe with the keys
// chosen (channel.errs): the client's value (lerp, nlerp for rotations —
// the blend the hierarchy is measured with — or the held key) against the
// engine's. Data channels get nil.
func playedErrors(chans []*channel, probes []fidelity.Probe, t32 []float64, ar *arena) {
	for _, c := range chans {
		c.errs = nil
		if c.node < 0 || c.width > 16 {
			continue
		}
		c.errs = ar.take(len(probes))
		// The unit-length term of rotation keys (see lengthTerm); a 16-bit
		// channel's was worked out with its rounding (quantize).
		if c.kind != kindRotation || c.width != 4 {
			c.unit = 0
		} else if !c.short {
			c.unit = lengthTerm(c.v32)
		}
		c.playedErrors(probes, t32)
	}
}

// playedErrors sets the channel's error at every probe (errs, allocated)
// with its keys and unit-length term.
func (c *channel) playedErrors(probes []fidelity.Probe, t32 []float64) {
	w := c.width
	if c.constant && len(c.keys) > 0 {
		// One value throughout: the error is the rounding of the key.
		a := c.keys[0]
		ek := channelError(c, c.v32[a*w:a*w+w], c.vals[a*w:a*w+w]) + c.unit
		for k := range c.errs {
			c.errs[k] = ek
		}
		return
	}
	if len(c.keys) == 1 {
		for k := range probes {
			c.errs[k] = channelError(c, c.v32[c.keys[0]*w:c.keys[0]*w+w], c.vals[k*w:k*w+w]) + c.unit
		}
		return
	}
	for j := 0; j+1 < len(c.keys); j++ {
		c.segmentErrors(c.keys[j], c.keys[j+1], probes, t32)
	}
}

// lengthTerm bounds, per unit of reach, how far a rotation channel's
// quaternions played as stored (a key, or slerp's blend of two, which
// clients do not normalise) are from their rotations: a quaternion of length
// s gives the matrix (1−s²)·I + s²·R, off R by |1−s²|·|I−R|, and |I−R| is
// at most the channel's sweep (quantSweep: the largest turn along any arc
// between two of its quaternions). The largest any probe's value could
// give, so that keys added later are covered.
func lengthTerm(qs []float64) float64 {
	var stretch float64
	for k := 0; k+4 <= len(qs); k += 4 {
		q := qs[k : k+4]
		stretch = max(stretch, math.Abs(1-(q[0]*q[0]+q[1]*q[1]+q[2]*q[2]+q[3]*q[3])))
	}
	if stretch == 0 {
		return 0
	}
	return stretch * quantSweep(qs)
}

// segmentErrors sets errs at the probes a client plays between
// consecutive keys a and z: those after a and before z, and a and z
// themselves unless their time puts them in the neighbouring segment (a
// client finds the segment by the float32 key times; the first and last
// keys hold outside). Rotations count the worse of nlerp and slerp: the
// nlerp error plus how far slerp can be from nlerp (slerpGap).
func (c *channel) segmentErrors(a, z int, probes []fidelity.Probe, t32 []float64) {
	w := c.width
	var out [16]float64
	va, vz := c.v32[a*w:a*w+w], c.v32[z*w:z*w+w]
	span := t32[z] - t32[a]
	lo, hi := a, z
	if probes[a].Time < t32[a] && a > 0 {
		lo = a + 1
	}
	if probes[z].Time > t32[z] && z < len(probes)-1 {
		hi = z - 1
	}
	rot := c.kind == kindRotation && w == 4 && !c.step
	gap, unit := 0.0, c.unit
	if rot {
		gap = slerpGap(va, vz)
		if c.short {
			// The segment's own length term, within the channel's.
			unit = min(unit, pairLengthError(va, vz))
		}
	}
	for k := lo; k <= hi; k++ {
		u := min(max((probes[k].Time-t32[a])/span, 0), 1)
		if rot {
			c.errs[k] = nlerpDisplacement(va, vz, u, c.vals[k*w:k*w+w]) + gapAt(gap, u) + unit
			continue
		}
		fidelity.Interpolate(c.path, c.step, fidelity.Nlerp, va, vz, u, out[:w])
		c.errs[k] = channelError(c, out[:w], c.vals[k*w:k*w+w]) + unit
	}
}

// slerpGap bounds how far slerp and nlerp between two unit quaternions
// show the same fraction u apart, as a displacement at unit distance:
// slerpGap(a, b)·u·(1−u)·|1−2u|. With φ the quaternions' angle (the short
// way, at most π/2) the blends' angles uφ and atan2(u·sin φ, 1−u+u·cos φ)
// differ by φ³·u(1−u)(1−2u)/6 for small φ, and by at most 1.07 times that
// up to φ = 0.8 (keys at least minKeyDot alike) and 1.33 times up to π/2
// (the largest ratios on a 1/1000 grid of u and 1/100 of φ); the rotation
// turns by twice the angle, a displacement of at most twice it.
func slerpGap(a, b []float64) float64 {
	d := math.Abs(a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3])
	n := math.Sqrt((a[0]*a[0] + a[1]*a[1] + a[2]*a[2] + a[3]*a[3]) * (b[0]*b[0] + b[1]*b[1] + b[2]*b[2] + b[3]*b[3]))
	if n == 0 {
		return 16 // any gap: at most 2 at u(1−u)|1−2u| ≤ √3/18
	}
	phi := math.Acos(min(d/n, 1))
	k := 1.07
	if phi > 0.8 {
		k = 1.33
	}
	return 2 * k * phi * phi * phi / 6
}

// gapAt is the slerp gap at fraction u for coefficient g (slerpGap).
func gapAt(g, u float64) float64 { return g * u * (1 - u) * math.Abs(1-2*u) }

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
