package fidelity

import (
	"fmt"
	"math"
	"sort"

	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// AnyTime is a bound on the metric at every time of a clip, not only at
// the probes (docs/fidelity.md, "Any time"). For each virtual vertex, the
// difference D(t) = P_client(t) − P_engine(t) of where the two poses put
// it is smooth between two neighbouring probes t_a and t_b, since every
// source key and every played key is a probe, so
//
//	|D(t)| ≤ max(|D(t_a)|, |D(t_b)|) + (t_b − t_a)²/8 · (max|P_client”| + max|P_engine”|):
//
// the first term is the metric measured at the probes (the hierarchy
// composed, slerp and nlerp), the second bounds the points' accelerations
// through the hierarchy (pointAcceleration) from each channel's rate and
// acceleration: the engine's from its curves' derivative bounds
// (sample.Bender), the client's from its keys.
type AnyTime struct {
	// Bound is the largest vertex error in metres at any time of the clip
	// (both sides of a jump count; a time strictly between the two sides,
	// closer than one float32 step, does not). +Inf when a curve gives no
	// derivative bound: Reason says which.
	Bound float64
	// Node and Time say where: the node and the interval's start.
	Node string
	Time float64
	// Probes is the largest error measured at the probes (the part of
	// Bound that the keys decide).
	Probes float64
	// Reason is empty when Bound was derived, else why not.
	Reason string
	// Intervals is how many probe intervals were bounded.
	Intervals int
	// Over are the frames halfway through the intervals whose bound
	// exceeds the limit asked for (AnyTimeBound's limit), to probe there.
	Over []float64
	// Misses are the frames of probes where the error measured exceeds
	// half the limit beside an interval whose bound exceeds the limit:
	// where keys are needed, not only probes.
	Misses []float64
	// Rounds is how many times AnyTimeRefined halved intervals, and
	// Refined the frames it probed for that (to start from next time).
	Rounds  int
	Refined []float64
}

// AnyTimeRefined is AnyTimeBound over the probes of spec, with the
// intervals whose bound exceeds limit halved (probes added between, which
// only measure: the keys are those given), up to rounds times, so that
// the bound settles where the keys allow it. What a round measured is
// kept for the next: probes and intervals already bounded are not
// measured again, and the lengths and scales of the first round (which
// bound every later interval's, each inside one of the first) stay.
func AnyTimeRefined(h *Hierarchy, eng *Engine, keys []*KeyChannel, spec ProbeSpec, dist Distances, limit float64, rounds int) AnyTime {
	given := len(spec.Frames)
	spec.Frames = append([]float64(nil), spec.Frames...)
	st := &anyState{probes: map[[2]float64]*probeValues{}, intervals: map[[4]float64]intervalBound{}}
	base := len(Probes(spec)) // the probes before refining
	for round := 0; ; round++ {
		at := anyTimeBound(h, eng, keys, Probes(spec), dist, limit, st)
		at.Rounds = round
		if at.Reason != "" || len(at.Over) == 0 || round == rounds {
			at.Refined = spec.Frames[given:]
			return at
		}
		added := len(spec.Frames) - given + len(at.Over)
		if added > maxRefineGrowth*max(base, 1) || added*len(h.Parent) > maxRefinedNodeProbes {
			at.Refined = spec.Frames[given:]
			return at
		}
		spec.Frames = append(spec.Frames, at.Over...)
	}
}

// How says how the bound was obtained, for reports.
func (a AnyTime) How() string {
	if a.Reason != "" {
		return "not derived: " + a.Reason
	}
	return "measured at the probes plus h²/8 times the vertices' acceleration bounds from the curves' derivatives between them"
}

// anyChannel is one TRS channel of a clip: the engine's curve and the
// client's keys (nil: the rest value is shown).
type anyChannel struct {
	ev   sample.Evaluator
	src  int // the engine's channel index
	node int
	path string
	keys *KeyChannel
	conv float64 // the axis conversion's largest stretch of the path's values
	eps  float64 // the keys' largest |1 − |q|²| (rotations)
	name string
}

// motion is a channel's rate and acceleration bounds over an interval, per
// second: for a translation |T'| and |T”|; for a rotation the angular
// speed |ω| and |R”| ≤ |ω'| + |ω|²; for a scale |S'| and |S”|.
type motion struct{ rate, acc float64 }

// AnyTimeBound bounds the vertex error of keys (a clip's channels as a
// client plays them, matched to h's nodes) against eng at any time of the
// clip, from the probes (which must hold every source key, every played
// key and both sides of every jump: Probes with the keys' times) and the
// nodes' error distances. Intervals whose bound exceeds limit (when above
// 0) are listed in Over.
func AnyTimeBound(h *Hierarchy, eng *Engine, keys []*KeyChannel, probes []Probe, dist Distances, limit float64) AnyTime {
	return anyTimeBound(h, eng, keys, probes, dist, limit, nil)
}

// probeValues are what AnyTimeBound measures at a probe: each node's
// error (the worse blend) and each channel's engine value's length.
type probeValues struct{ err, mag []float64 }

// intervalBound is one interval's result: skipped (no time between, or a
// jump), not derived (reason), or its largest node bound.
type intervalBound struct {
	skip   bool
	reason string
	bound  float64
	node   int
}

// anyState is what AnyTimeRefined keeps between rounds.
type anyState struct {
	probes    map[[2]float64]*probeValues
	intervals map[[4]float64]intervalBound
	acc       *pointAcceleration
}

// maxRefineGrowth bounds the probes AnyTimeRefined adds to a clip, as a
// multiple of the clip's probes before refining: a guard on time and
// memory (the bound reported is the one reached, still a bound).
const maxRefineGrowth = 64

// maxRefinedNodeProbes bounds the probes AnyTimeRefined adds times the
// nodes measured at each (what its caches hold): S01 (hundreds of nodes,
// a bound that a 3.4 km reach's rounding allowance keeps above 1 mm) grew
// past 4.8 GB without it.
const maxRefinedNodeProbes = 1 << 22

// anyTimeBound is AnyTimeBound reusing (and filling) st when not nil.
func anyTimeBound(h *Hierarchy, eng *Engine, keys []*KeyChannel, probes []Probe, dist Distances, limit float64, st *anyState) AnyTime {
	if st == nil {
		st = &anyState{}
	}
	res := AnyTime{}
	a := eng.clip.Anim
	n, np := len(h.Parent), len(probes)
	// The source rate, frames per second: the largest Frame/Time of the
	// probes (a discontinuity's side has its time rounded down to
	// float32, which errs high by at most 6e-8; a clip whose every probe
	// but the first is a side, jumps at every frame, has no other).
	src := 0.0
	for _, p := range probes {
		if p.Time > 0 {
			src = max(src, p.Frame/p.Time)
		}
	}
	byTarget := map[target]*KeyChannel{}
	for _, k := range keys {
		if k.target.node >= 0 {
			byTarget[k.target] = k
		}
	}
	var chans []*anyChannel
	for i, t := range eng.targets {
		if t.node < 0 || eng.clip.Evals[i].Width() > 16 {
			continue
		}
		c := &anyChannel{ev: eng.clip.Evals[i], src: i, node: t.node, path: t.path, keys: byTarget[t],
			name: t.path + " of " + h.Names[t.node], conv: eng.cv.Stretch(t.path)}
		if c.keys != nil && c.path == model.PathRotation && c.keys.Width == 4 {
			for j := 0; j+4 <= len(c.keys.Values); j += 4 {
				q := c.keys.Values[j : j+4]
				c.eps = max(c.eps, math.Abs(1-(q[0]*q[0]+q[1]*q[1]+q[2]*q[2]+q[3]*q[3])))
			}
		}
		chans = append(chans, c)
	}
	errAt, mags := measureProbes(h, eng, keys, chans, probes, dist, st.probes)
	// The intervals not bounded yet: their motions over the interval.
	type todo struct {
		k        int
		key      [4]float64
		eng, cli []motion
	}
	var work []todo
	for k := 0; k+1 < np; k++ {
		p0, p1 := probes[k], probes[k+1]
		key := [4]float64{p0.Frame, p0.Time, p1.Frame, p1.Time}
		if _, done := st.intervals[key]; done {
			continue
		}
		dt := p1.Time - p0.Time
		if !(dt > 0) || p1.Jump {
			st.put(key, intervalBound{skip: true}) // no time between, or the two sides of a jump
			continue
		}
		s0, s1 := sample.SourceFrame(a, p0.Frame), sample.SourceFrame(a, p1.Frame)
		if s1 < s0 {
			s0, s1 = s1, s0
		}
		if s1-s0 > (p1.Frame-p0.Frame)*(1+1e-9)+1e-9 {
			st.put(key, intervalBound{reason: fmt.Sprintf("frames %g to %g wrap", p0.Frame, p1.Frame)})
			continue
		}
		w := todo{k: k, key: key, eng: make([]motion, len(chans)), cli: make([]motion, len(chans))}
		mid := (p0.Time + p1.Time) / 2
		reason := ""
		for ci, c := range chans {
			d1, d2, ok := sample.Bend(c.ev, s0, s1)
			if !ok {
				reason = fmt.Sprintf("%s: no derivative bound for its curve (%T) between frames %g and %g", c.name, c.ev, s0, s1)
				if why := sample.NoBendReason(c.ev, s0, s1); why != "" {
					reason += ": " + why
				}
				break
			}
			d1, d2 = d1*src*c.conv, d2*src*src*c.conv
			if c.path == model.PathRotation {
				// A unit quaternion q: ω = 2q'q̄, so |ω| = 2|q'| and
				// |ω'| ≤ 2|q”| + 2|q'|²; |R”| ≤ |ω'| + |ω|².
				w.eng[ci] = motion{2 * d1, 2*d2 + 6*d1*d1}
			} else {
				w.eng[ci] = motion{d1, d2}
			}
			w.cli[ci] = clientMotion(c, mid)
		}
		if reason != "" {
			st.put(key, intervalBound{reason: reason})
			continue
		}
		work = append(work, w)
	}
	if st.acc == nil {
		// Lengths and scales over the whole clip: the probes' largest plus
		// what a value can move within an interval.
		tau, sigma := restLengths(h)
		for ci, c := range chans {
			grow := func(v float64) {
				switch c.path {
				case model.PathTranslation:
					tau[c.node] = max(tau[c.node], v)
				case model.PathScale:
					sigma[c.node] = max(sigma[c.node], v)
				}
			}
			for k := range np {
				grow(mags[k][ci])
			}
			for _, w := range work {
				grow(max(mags[w.k][ci], mags[w.k+1][ci]) + w.eng[ci].rate*(probes[w.k+1].Time-probes[w.k].Time))
			}
		}
		st.acc = newPointAcceleration(h, tau, sigma, dist)
	}
	acc := st.acc
	engAcc, cliAcc := make([]float64, n), make([]float64, n)
	for _, w := range work {
		dt := probes[w.k+1].Time - probes[w.k].Time
		ae := acc.of(chans, w.eng, engAcc)
		ac := acc.of(chans, w.cli, cliAcc)
		ib := intervalBound{node: -1}
		for i := range n {
			e := max(errAt[w.k][i], errAt[w.k+1][i]) + dt*dt/8*(ae[i]+ac[i]) + roundingAllowance(acc.reach[i])
			if e > ib.bound || ib.node < 0 {
				ib.bound, ib.node = e, i
			}
		}
		st.put(w.key, ib)
	}
	// The clip's figures over every interval and probe.
	worstAt := make([]float64, np)
	for k := range np {
		for _, e := range errAt[k] {
			worstAt[k] = max(worstAt[k], e)
		}
		res.Probes = max(res.Probes, worstAt[k])
	}
	over := make([]bool, np) // the interval from probe k is over the limit
	derived, node, at := 0.0, "", 0.0
	for k := 0; k+1 < np; k++ {
		p0, p1 := probes[k], probes[k+1]
		ib := st.get([4]float64{p0.Frame, p0.Time, p1.Frame, p1.Time})
		if ib.skip {
			continue
		}
		res.Intervals++
		if ib.reason != "" {
			if res.Reason == "" {
				res.Reason, res.Time = ib.reason, p0.Time
			}
			continue
		}
		if ib.bound > derived && ib.node >= 0 {
			derived, node, at = ib.bound, h.Names[ib.node], p0.Time
		}
		over[k] = limit > 0 && ib.bound > limit
		// Halving helps where the interval's own part (above its probes'
		// errors) is a good part of the limit, or where the probes are
		// within it (halving can then bring the bound within it too), not
		// where a probe's error alone exceeds it.
		probed := max(worstAt[k], worstAt[k+1])
		if limit > 0 && ib.bound > limit && (ib.bound-probed > limit/8 || probed < limit) {
			res.Over = append(res.Over, (p0.Frame+p1.Frame)/2)
		}
	}
	if res.Reason != "" {
		res.Bound = math.Inf(1)
		return res
	}
	res.Bound, res.Node, res.Time = derived, node, at
	res.Misses = misses(probes, worstAt, over, limit)
	return res
}

// misses returns the frames of the probes whose error exceeds half the
// limit beside an interval over the limit. Elsewhere a probe's error,
// however near the limit, is covered by its intervals' bounds.
func misses(probes []Probe, worstAt []float64, over []bool, limit float64) []float64 {
	var out []float64
	for k, worst := range worstAt {
		if limit > 0 && worst > limit/2 && (over[k] || k > 0 && over[k-1]) {
			out = append(out, probes[k].Frame)
		}
	}
	return out
}

// put and get keep interval results (a map made on first use).
func (st *anyState) put(key [4]float64, ib intervalBound) {
	if st.intervals == nil {
		st.intervals = map[[4]float64]intervalBound{}
	}
	st.intervals[key] = ib
}

func (st *anyState) get(key [4]float64) intervalBound { return st.intervals[key] }

// measureProbes measures the metric at every probe per node (the worse of
// slerp and nlerp) and each channel's engine value's length, reusing and
// filling cache (by probe frame and time) when not nil.
func measureProbes(h *Hierarchy, eng *Engine, keys []*KeyChannel, chans []*anyChannel, probes []Probe, dist Distances,
	cache map[[2]float64]*probeValues) (errAt, mags [][]float64) {
	n, np := len(h.Parent), len(probes)
	a := eng.clip.Anim
	errAt, mags = make([][]float64, np), make([][]float64, np)
	refL, playL := make([]TRS, n), make([]TRS, n)
	refW, playW := make([][16]float64, n), make([][16]float64, n)
	copy(refL, h.Rest)
	var v [16]float64
	for k, p := range probes {
		if pv := cache[[2]float64{p.Frame, p.Time}]; pv != nil {
			errAt[k], mags[k] = pv.err, pv.mag
			continue
		}
		errAt[k], mags[k] = make([]float64, n), make([]float64, len(chans))
		if cache != nil {
			cache[[2]float64{p.Frame, p.Time}] = &probeValues{errAt[k], mags[k]}
		}
		eng.Pose(p, refL)
		h.World(refL, refW)
		for ci, c := range chans {
			w := c.ev.Width()
			eng.clip.EvalInto(c.src, sample.SourceFrame(a, p.Frame), eng.cv, v[:w])
			mags[k][ci] = valueSize(c.path, v[:w])
		}
		for _, mode := range []Interp{Slerp, Nlerp} {
			copy(playL, h.Rest)
			for _, kc := range keys {
				if kc.target.node >= 0 && kc.Width <= len(v) {
					kc.At(p.Time, mode, v[:kc.Width])
					kc.target.set(playL, v[:kc.Width])
				}
			}
			h.World(playL, playW)
			for i := range n {
				errAt[k][i] = max(errAt[k][i], VertexError(&refW[i], &playW[i], dist.Of[i]))
			}
		}
	}
	return errAt, mags
}

// valueSize is what a channel's value contributes to the hierarchy's
// lengths: a translation's length; a scale's largest stretch, its largest
// |component| (the Euclidean norm of (1, 1, 1), √3, would compound down a
// chain: 1.73¹⁰ ≈ 240 ten bones deep); others their norm (not used).
func valueSize(path string, v []float64) float64 {
	if path == model.PathScale {
		var m float64
		for _, x := range v {
			m = max(m, math.Abs(x))
		}
		return m
	}
	var m float64
	for _, x := range v {
		m += x * x
	}
	return math.Sqrt(m)
}

// restLengths are every node's rest translation length and largest scale
// (a static matrix's translation and Frobenius norm).
func restLengths(h *Hierarchy) (tau, sigma []float64) {
	n := len(h.Parent)
	tau, sigma = make([]float64, n), make([]float64, n)
	for i := range n {
		if m := h.Static[i]; m != nil {
			sigma[i] = ColumnScale(m)
			tau[i] = math.Sqrt(m[12]*m[12] + m[13]*m[13] + m[14]*m[14])
			continue
		}
		r := &h.Rest[i]
		sigma[i] = max(math.Abs(r.S[0]), math.Abs(r.S[1]), math.Abs(r.S[2]))
		tau[i] = norm3(r.T)
	}
	return tau, sigma
}

// roundingAllowance covers what the smooth model of the engine leaves out
// for a vertex reach metres from the root: BFRES evaluates in float32, a
// few units in the last place of each value (an angle below 2π: 4.8e-7
// rad a unit), so 2⁻¹⁸ (3.8e-6, 8 units) per metre of reach and per metre
// of translation; a client's float32 key time may sit one float32 step of
// time beside the probe meant for it, a kink that far inside the interval
// (at 1 m/s and 45 s, 4e-6 m: within the same allowance).
func roundingAllowance(reach float64) float64 { return 0x1p-18 * (reach + 1) }

// clientMotion is a channel's rate and acceleration as the client plays it
// around time t (within one key segment): LINEAR translations and scales
// move at |b − a|/Δ without accelerating; slerp turns at ω = 2φ/Δ (φ the
// keys' angle as quaternions) about a fixed axis (|R”| = ω²); nlerp's
// normalised lerp n = l/|l| has |n'| ≤ |l'|/m and |n”| ≤ 4|l'|²/m² (m the
// least |l| on the segment), so |ω| ≤ 2|n'| and |R”| ≤ 2|n”| + 6|n'|²;
// the worse of slerp and nlerp counts, times (1 + 2ε)² for keys of length
// error ε (three.js shows |q|²·R + (1 − |q|²)·I). STEP and a single key
// do not move.
func clientMotion(c *anyChannel, t float64) motion {
	k := c.keys
	if k == nil {
		return motion{}
	}
	n, w := len(k.Times), k.Width
	if k.Step || n < 2 || t <= k.Times[0] || t >= k.Times[n-1] {
		return motion{}
	}
	i := sort.SearchFloat64s(k.Times, t) - 1
	i = min(max(i, 0), n-2)
	a, b := k.Values[i*w:i*w+w], k.Values[(i+1)*w:(i+2)*w]
	span := k.Times[i+1] - k.Times[i]
	if !(span > 0) {
		return motion{math.Inf(1), math.Inf(1)}
	}
	if c.path != model.PathRotation || w != 4 {
		var d float64
		for j := range w {
			d += (b[j] - a[j]) * (b[j] - a[j])
		}
		return motion{math.Sqrt(d) / span, 0}
	}
	d := a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3]
	s := 1.0
	if d < 0 {
		s = -1
	}
	la := math.Sqrt(a[0]*a[0] + a[1]*a[1] + a[2]*a[2] + a[3]*a[3])
	lb := math.Sqrt(b[0]*b[0] + b[1]*b[1] + b[2]*b[2] + b[3]*b[3])
	phi := math.Acos(min(math.Abs(d)/math.Max(la*lb, 1e-300), 1))
	om := 2 * phi / span
	var diff [4]float64
	for j := range 4 {
		diff[j] = s*b[j] - a[j]
	}
	dl := math.Sqrt(diff[0]*diff[0] + diff[1]*diff[1] + diff[2]*diff[2] + diff[3]*diff[3])
	u := 0.0 // where |a + u·(s·b − a)| is least on [0, 1]
	if dl > 0 {
		u = min(max(-(a[0]*diff[0]+a[1]*diff[1]+a[2]*diff[2]+a[3]*diff[3])/(dl*dl), 0), 1)
	}
	var m2 float64
	for j := range 4 {
		x := a[j] + u*diff[j]
		m2 += x * x
	}
	if m2 == 0 {
		return motion{math.Inf(1), math.Inf(1)}
	}
	n1 := dl / span / math.Sqrt(m2)
	n2 := 4 * dl * dl / (span * span * m2)
	f := (1 + 2*c.eps) * (1 + 2*c.eps)
	return motion{f * max(om, 2*n1), f * max(om*om, 2*n2+6*n1*n1)}
}

// pointAcceleration bounds how fast the virtual vertices of every node
// accelerate, given each channel's motion over an interval. A vertex is
// P = L_1·L_2·…·L_k·p down its chain (each node's T·R·S); P” is the sum of
// each factor's second derivative with the others held, plus twice every
// pair of first derivatives. With lever r_a = R_n − path(a) (R_n the
// node's path plus its world scale times its distance, the farthest the
// vertex is from a's origin, as keys/bound.go has it):
//
//   - a's own terms: S_p(a)·|T”| + (|R”| + |S”|/σ_a + 2|ω||S'|/σ_a)·r_a;
//   - a pair (b above a): b's turn and stretch rate ρ_b = |ω_b| + |S_b'|/σ_b
//     times a's velocity term v_a = S_p(a)·|T_a'| + ρ_a·r_a.
//
// Summed along the chain these are X_n + R_n·Y_n with prefix sums X, Y.
type pointAcceleration struct {
	h                *Hierarchy
	sp, path, reach  []float64
	sigma            []float64
	tr, ta, rho, rac []float64
	x, y, prho       []float64
}

func newPointAcceleration(h *Hierarchy, tau, sigma []float64, dist Distances) *pointAcceleration {
	n := len(h.Parent)
	p := &pointAcceleration{h: h, sp: make([]float64, n), path: make([]float64, n), reach: make([]float64, n), sigma: sigma,
		tr: make([]float64, n), ta: make([]float64, n), rho: make([]float64, n), rac: make([]float64, n),
		x: make([]float64, n), y: make([]float64, n), prho: make([]float64, n)}
	sw := make([]float64, n)
	for i := range n {
		p.sp[i] = 1
		if q := h.Parent[i]; q >= 0 {
			p.sp[i] = sw[q]
			p.path[i] = p.path[q] + p.sp[i]*tau[i]
		}
		sw[i] = p.sp[i] * sigma[i]
		p.reach[i] = p.path[i] + sw[i]*dist.Of[i]
	}
	return p
}

// of writes every node's acceleration bound for the channels' motions
// into out and returns it.
func (p *pointAcceleration) of(chans []*anyChannel, ms []motion, out []float64) []float64 {
	clear(p.tr)
	clear(p.ta)
	clear(p.rho)
	clear(p.rac)
	srate := make(map[int]float64)
	for ci, c := range chans {
		m, i := ms[ci], c.node
		sig := math.Max(p.sigma[i], 1e-300)
		switch c.path {
		case model.PathTranslation:
			p.tr[i] += p.sp[i] * m.rate
			p.ta[i] += p.sp[i] * m.acc
		case model.PathRotation:
			p.rho[i] += m.rate
			p.rac[i] += m.acc
		default:
			p.rho[i] += m.rate / sig
			p.rac[i] += m.acc / sig
			srate[i] += m.rate / sig
		}
	}
	// The own rotation-scale pair: 2|ω||S'|/σ (ρ holds both, so
	// 2·ρ_rot·ρ_scale = 2·(ρ − s)·s).
	for i, s := range srate {
		p.rac[i] += 2 * (p.rho[i] - s) * s
	}
	for i, q := range p.h.Parent {
		var x, y, pr float64
		if q >= 0 {
			x, y, pr = p.x[q], p.y[q], p.prho[q]+p.rho[q]
		}
		// own: ta + rac·(R − path) ; pair: 2·pr·(tr + rho·(R − path)).
		x += p.ta[i] - p.rac[i]*p.path[i] + 2*pr*(p.tr[i]-p.rho[i]*p.path[i])
		y += p.rac[i] + 2*pr*p.rho[i]
		p.x[i], p.y[i], p.prho[i] = x, y, pr
		out[i] = x + p.reach[i]*y
	}
	return out
}

// ColumnScale is the Frobenius norm of a matrix's 3×3 part: at least its
// operator norm, so a bound on how much it stretches any vector, whatever
// the matrix (a static node's matrix need not be a TRS).
func ColumnScale(m *[16]float64) float64 {
	var f float64
	for c := range 3 {
		for r := range 3 {
			f += m[c*4+r] * m[c*4+r]
		}
	}
	return math.Sqrt(f)
}
