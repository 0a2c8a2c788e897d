package keys

import (
	"fmt"
	"math"

	"github.com/animbake/bake/fidelity"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// reduceClip chooses the keys of one clip and writes them into ba.
func reduceClip(h *fidelity.Hierarchy, srcNodes []model.Node, g *geometry, a *model.Animation, ba *sample.BakedAnimation,
	cv *sample.Converter, opts Options) error {
	eng, err := fidelity.NewEngine(h, srcNodes, a, cv)
	if err != nil {
		return err
	}
	src := ba.SourceFPS
	grid := make([]float64, len(ba.Times))
	for i, t := range ba.Times {
		grid[i] = t * src
	}
	spec := fidelity.ProbeSpec{Anim: a, FPS: src, Evals: eng.Evals(), PerFrame: opts.PerFrame, Frames: grid}
	probes := fidelity.Probes(spec)
	ar := arenas.Get().(*arena)
	defer func() { ar.reset(); arenas.Put(ar) }()
	chans := sampleChannels(h, eng, ba, probes, ar)
	share := shares(h, chans)
	setAllowed(chans, g, share, opts.Tolerance, opts.ShortRotations)
	if edges := findJumps(eng, chans, probes, src); len(edges) > 0 {
		spec.Edges = edges
		old := probes
		probes = fidelity.Probes(spec)
		chans = resample(h, eng, ba, chans, old, probes, ar)
		setAllowed(chans, g, share, opts.Tolerance, opts.ShortRotations)
	}
	t32 := times32(probes)
	for _, c := range chans {
		c.choose(probes, t32)
	}
	// Where the motion bends fast, the probes may not see what happens
	// between them: check halfway there and, where the keys miss, probe
	// twice as densely (Options.Refine times).
	for range min(opts.Refine, maxRefine) {
		extra := refine(eng, chans, probes, t32)
		if len(extra) == 0 {
			break
		}
		spec.Frames = append(spec.Frames, extra...)
		old := probes
		probes = fidelity.Probes(spec)
		chans = resample(h, eng, ba, chans, old, probes, ar)
		setAllowed(chans, g, share, opts.Tolerance, opts.ShortRotations)
		t32 = times32(probes)
		for _, c := range chans {
			c.choose(probes, t32)
		}
	}
	// Measure the whole hierarchy; tighten the channels of failing nodes
	// and of their ancestors (a parent's error moves its children). Each
	// channel holds its share with slerp and with nlerp at every probe; the
	// hierarchy is measured with nlerp (Blender's blend, which drifts from
	// the engine's slerp first), first by a bound that proves most probes,
	// then exactly where it cannot. bake stats measures both blends.
	byNode := make([][]*channel, len(h.Parent))
	for _, c := range chans {
		if c.node >= 0 {
			byNode[c.node] = append(byNode[c.node], c)
		}
	}
	bnd := newBound(h, chans, opts.Shell)
	for round := 0; ; round++ {
		fails := bnd.unproved(chans, playedErrors(chans, probes, t32, ar), probes, opts.Tolerance)
		if len(fails) == 0 {
			return write(ba, chans, probes)
		}
		nodeMax := exact(h, chans, byNode, fails, probes, t32, opts.Shell)
		tight := make([]bool, len(h.Parent))
		failed := false
		for n, e := range nodeMax {
			if e <= opts.Tolerance {
				continue
			}
			failed = true
			for p := n; p >= 0; p = h.Parent[p] {
				tight[p] = true
			}
		}
		if !failed {
			return write(ba, chans, probes)
		}
		for n, t := range tight {
			for _, c := range byNode[n] {
				if !t {
					continue
				}
				if round == maxRounds {
					c.every(len(probes))
				} else {
					c.allowed /= 2
					c.choose(probes, t32)
				}
			}
		}
		if round == maxRounds {
			return write(ba, chans, probes)
		}
	}
}

// maxRefine bounds Options.Refine: 4 probes a frame become at most 256.
const maxRefine = 6

func times32(probes []fidelity.Probe) []float64 {
	t := make([]float64, len(probes))
	for k, p := range probes {
		t[k] = float64(float32(p.Time))
	}
	return t
}

// refine returns frames halfway between neighbouring probes where some
// channel's keys miss the engine by more than the channel may. Only where
// the samples bend enough for that to be possible (the deviation of a
// probe from its neighbours' chord, a quarter of which is what a chord of
// half the spacing misses by) is the engine asked.
func refine(eng *fidelity.Engine, chans []*channel, probes []fidelity.Probe, t32 []float64) []float64 {
	var extra []float64
	var want, got, chord [16]float64
	seen := map[int]bool{}
	n := len(probes)
	for ci, c := range chans {
		if c.step || c.width > len(want) || n < 3 {
			continue
		}
		w := c.width
		// The two sides of a discontinuity are one float32 step apart: each
		// bends against the probes beyond its partner.
		pair := func(k int) bool {
			return k >= 0 && k+1 < n && probes[k].Edge && probes[k+1].Edge && t32[k+1]-t32[k] < 1e-6
		}
		bend := make([]float64, n)
		for k := 1; k < n-1; k++ {
			p, q := k-1, k+1
			if pair(p) {
				p--
			}
			if pair(k) {
				q++
			}
			if p < 0 || q >= n {
				continue
			}
			u := (probes[k].Time - probes[p].Time) / (probes[q].Time - probes[p].Time)
			fidelity.Interpolate(c.path, false, fidelity.Nlerp, c.vals[p*w:p*w+w], c.vals[q*w:q*w+w], u, chord[:w])
			bend[k] = c.err(c.vals[k*w:k*w+w], chord[:w]) / 4
		}
		for j := 1; j < len(c.keys); j++ {
			a, b := c.keys[j-1], c.keys[j]
			va, vb := c.v32[a*w:a*w+w], c.v32[b*w:b*w+w]
			for k := a; k < b; k++ {
				if seen[k] || pair(k) || max(bend[k], bend[k+1]) <= c.allowed/4 {
					continue
				}
				mid := fidelity.Probe{Frame: (probes[k].Frame + probes[k+1].Frame) / 2, Time: (probes[k].Time + probes[k+1].Time) / 2}
				if float32(mid.Time) == float32(probes[k].Time) || float32(mid.Time) == float32(probes[k+1].Time) {
					continue
				}
				eng.Data(mid, ci, want[:w])
				u := min(max((mid.Time-t32[a])/(t32[b]-t32[a]), 0), 1)
				miss := false
				for _, mode := range []fidelity.Interp{fidelity.Nlerp, fidelity.Slerp} {
					fidelity.Interpolate(c.path, false, mode, va, vb, u, got[:w])
					miss = miss || c.err(got[:w], want[:w]) > c.allowed
				}
				if miss {
					seen[k] = true
					extra = append(extra, mid.Frame)
				}
			}
		}
	}
	return extra
}

// resample samples the channels at new probes, a superset of old's, and
// reuses the values already taken at old's.
func resample(h *fidelity.Hierarchy, eng *fidelity.Engine, ba *sample.BakedAnimation, chans []*channel,
	old, probes []fidelity.Probe, ar *arena) []*channel {
	from := make([]int, len(probes)) // index in old, or -1
	i := 0
	for k, p := range probes {
		for i < len(old) && old[i].Time < p.Time {
			i++
		}
		from[k] = -1
		if i < len(old) && old[i].Frame == p.Frame && old[i].Time == p.Time {
			from[k] = i
		}
	}
	return sampleChannelsFrom(h, eng, ba, probes, chans, from, ar)
}

// shares gives each node its share of the tolerance: errors of the
// channels along a chain add up at its end, so a node whose subtree's
// longest chain holds k animated channels gets 1/√k (errors rarely peak
// together; the measurement tightens where they do).
func shares(h *fidelity.Hierarchy, chans []*channel) []float64 {
	n := len(h.Parent)
	own := make([]int, n)
	for _, c := range chans {
		if c.node >= 0 {
			own[c.node]++
		}
	}
	count := make([]int, n) // animated channels from the root down to the node
	deep := make([]int, n)  // the most on any chain through the node
	for i := range n {
		count[i] = own[i]
		if p := h.Parent[i]; p >= 0 {
			count[i] += count[p]
		}
	}
	for i := n - 1; i >= 0; i-- { // children come after parents
		deep[i] = max(deep[i], count[i])
		if p := h.Parent[i]; p >= 0 {
			deep[p] = max(deep[p], deep[i])
		}
	}
	share := make([]float64, n)
	for i := range n {
		share[i] = 1 / math.Sqrt(float64(max(deep[i], 1)))
	}
	return share
}

// setAllowed turns shares into each channel's allowed error and its
// factor from value differences to metres.
func setAllowed(chans []*channel, g *geometry, share []float64, tol float64, short bool) {
	for _, c := range chans {
		switch c.kind {
		case kindData:
			c.factor, c.allowed = 1, fidelity.ChannelTolerance(c.path)
			continue
		case kindTranslation:
			c.factor = g.parentScale[c.node]
		case kindRotation:
			c.factor = g.reach[c.node]
		case kindScale:
			c.factor = g.reach[c.node] / g.minScale[c.node]
		}
		c.allowed = tol * share[c.node]
		if short {
			c.quantize()
		}
	}
}

// maxShortError bounds how far a rotation moves a point at unit distance
// when each quaternion component goes to a neighbouring multiple of
// 1/32767 (shortQuat): less than 1/32767 in each of 4 components changes
// the quaternion by less than 2/32767 in length, the rotation by twice that.
const maxShortError = 4.0 / 32767

// quantize writes a rotation channel's keys as normalized 16-bit integers
// when that costs at most a quarter of its allowed error (counted: the keys
// are then chosen with the rounded values): half the bytes.
func (c *channel) quantize() {
	c.short = c.kind == kindRotation && !c.step && c.width == 4 && maxShortError*c.factor <= c.allowed/4
	if !c.short {
		return
	}
	var q [4]float64
	for k := 0; k < len(c.vals); k += 4 {
		shortQuat(c.vals[k:k+4], q[:])
		for j := range 4 {
			c.v32[k+j] = float64(float32(q[j]))
		}
	}
}

// shortQuat quantizes a unit quaternion to multiples of 1/32767, choosing
// for each component the multiple below or above so that the result is as
// close to unit length as 16 choices allow: clients that do not normalise
// (three.js plays keys as they are) then see the rotation, not a scale.
func shortQuat(v, out []float64) {
	best, bestDist := math.Inf(1), math.Inf(1)
	for m := range 16 {
		var c [4]float64
		var n2, dist float64
		for j := range 4 {
			x := math.Floor(v[j] * 32767)
			if m&(1<<j) != 0 {
				x++
			}
			x = max(-32767, min(32767, x))
			c[j] = x / 32767
			n2 += c[j] * c[j]
			dist += (c[j] - v[j]) * (c[j] - v[j])
		}
		if e := math.Abs(n2 - 1); e < best || (e == best && dist < bestDist) {
			best, bestDist = e, dist
			copy(out, c[:])
		}
	}
}

// write stores the chosen keys into the baked channels: their own times
// (the probes' times) and the engine's values there, which must be finite.
func write(ba *sample.BakedAnimation, chans []*channel, probes []fidelity.Probe) error {
	for ci, c := range chans {
		bc := &ba.Channels[ci]
		w := c.width
		for k := 0; k < len(c.vals); k += w {
			for _, v := range c.vals[k : k+w] {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return fmt.Errorf("channel %s of %q: the value at %g s is not finite", bc.Path, bc.Node+bc.Material, probes[k/w].Time)
				}
			}
		}
		bc.Times = make([]float64, len(c.keys))
		bc.Values = make([]float64, len(c.keys)*w)
		bc.Short = c.short
		for j, k := range c.keys {
			bc.Times[j] = probes[k].Time
			if c.short {
				shortQuat(c.vals[k*w:k*w+w], bc.Values[j*w:j*w+w])
				continue
			}
			copy(bc.Values[j*w:j*w+w], c.vals[k*w:k*w+w])
		}
	}
	return nil
}
