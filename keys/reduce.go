package keys

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/animbake/bake/fidelity"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// reduceClip chooses the keys of one clip and writes them into ba.
func reduceClip(h *fidelity.Hierarchy, srcNodes []model.Node, g *geometry, a *model.Animation, ba *sample.BakedAnimation,
	cv *sample.Converter, opts Options) error {
	eng, err := engine(h, srcNodes, a, ba, cv)
	if err != nil {
		return err
	}
	src := ba.SourceFPS
	// The output grid in source frames, exactly as the bake laid it out
	// (t·src need not give back a whole frame k from t = k/src).
	grid := sample.SampleFrames(sample.Span(a), src, ba.FPS)
	spec := fidelity.ProbeSpec{Anim: a, FPS: src, Evals: eng.Evals(), PerFrame: max(opts.PerFrame, 1), Frames: append(grid, opts.frames...), JumpsOnly: true}
	probes := fidelity.Probes(spec)
	ar := arenas.Get().(*arena)
	defer func() { ar.reset(); arenas.Put(ar) }()
	chans := sampleChannels(h, eng, ba, probes, ar)
	if err := finite(ba, chans, probes); err != nil {
		return err
	}
	share := shares(h, g, chans, probes)
	// The allowed errors set the threshold of the search for jumps; the
	// 16-bit rounding, which takes its share out of them, is worked out
	// once the probes are final.
	setAllowed(chans, g, share, opts.Tolerance, false)
	if edges := findJumps(eng, chans, probes, src); len(edges) > 0 {
		spec.Edges = edges
		old := probes
		probes = fidelity.Probes(spec)
		chans = resample(h, eng, ba, chans, old, probes, ar)
		if err := finite(ba, chans, probes); err != nil {
			return err
		}
		share = shares(h, g, chans, probes) // no longer across the jumps
	}
	// Keys stay among the frames: a jump is played as --tolerance 0 plays
	// it, a ramp over the frame before; with Options.JumpSides a teleport
	// keeps a key just before it.
	drop := extraSides(chans, probes, grid, src, opts.JumpSides)
	if len(drop) > 0 {
		old := probes
		probes = without(probes, drop)
		chans = resample(h, eng, ba, chans, old, probes, ar)
	}
	if opts.ShortRotations || len(spec.Edges) > 0 || len(drop) > 0 {
		setAllowed(chans, g, share, opts.Tolerance, opts.ShortRotations)
		if opts.ShortRotations {
			roundPairs(h, g, chans, opts.Tolerance)
		}
	}
	t32 := times32(probes)
	slack := probeSlack(probes, chans, grid, opts)
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
		probes = without(fidelity.Probes(spec), drop)
		chans = resample(h, eng, ba, chans, old, probes, ar)
		if err := finite(ba, chans, probes); err != nil {
			return err
		}
		setAllowed(chans, g, share, opts.Tolerance, opts.ShortRotations)
		if opts.ShortRotations {
			roundPairs(h, g, chans, opts.Tolerance)
		}
		t32 = times32(probes)
		slack = probeSlack(probes, chans, grid, opts)
		for _, c := range chans {
			c.choose(probes, t32)
		}
	}
	// Channels that keep most probes take them all, on shared key times
	// (share.go); not with --between, whose probes between the frames it
	// halves (between.go) would then all become keys.
	if opts.Between <= 0 {
		shareProbes(chans, len(probes))
	}
	settlePairs(chans)
	// Measure the whole hierarchy. Each channel holds its share with slerp
	// and with nlerp at every probe; the hierarchy is measured with both
	// (glTF's slerp, Blender's nlerp), first by a bound that proves most
	// probes, then exactly where it cannot.
	// Where a node still misses, its channels and its ancestors' (a
	// parent's error moves its children) get a key at that probe, and the
	// check runs again. bake stats measures both blends.
	byNode := make([][]*channel, len(h.Parent))
	for _, c := range chans {
		if c.node >= 0 {
			byNode[c.node] = append(byNode[c.node], c)
		}
	}
	bnd := newBound(h, chans, g.dist)
	bnd.slack = slack
	playedErrors(chans, probes, t32, ar)
	pairErrors(chans, probes, t32)
	// The probes to check: all at first, then where keys were added, and
	// there only the nodes below the channels that got them.
	var todo []int
	var changed []*channel
	dirty := make([]bool, len(probes))
	composed := make([]bool, len(probes)) // probes the bound left to exact
	for round := 0; round < maxRounds; round++ {
		fails := bnd.unproved(chans, probes, todo, changed, opts.Tolerance)
		for _, c := range changed {
			c.mods = c.mods[:0]
		}
		changed = changed[:0]
		if len(fails) == 0 {
			break
		}
		for _, f := range fails {
			composed[f.probe] = true
		}
		missed := false
		exact(h, chans, byNode, fails, probes, t32, g.dist, bnd, opts.Tolerance, func(k, n int, e float64) {
			if e <= opts.Tolerance*slackAt(slack, k) {
				return
			}
			missed = true
			keyed := false
			for a := n; a >= 0; a = h.Parent[a] {
				for _, c := range byNode[a] {
					if round == maxRounds-1 {
						c.unshort()
						c.every(len(probes)) // the last resort: the engine's values throughout
						continue
					}
					if lo, hi, added := c.keyAt(k); added {
						keyed = true
						c.segmentErrors(lo, k, probes, t32)
						c.segmentErrors(k, hi, probes, t32)
						for j := lo; j <= hi; j++ {
							dirty[j] = true
						}
						if len(c.mods) == 0 {
							changed = append(changed, c)
						}
						c.mods = append(c.mods, [2]int{lo, hi})
					}
				}
			}
			if keyed {
				return
			}
			// Every channel along the chain has a key at the probe: what
			// misses is the 16-bit rounding of those keys. The one that
			// misses most there goes (the next round measures again).
			var worst *channel
			for a := n; a >= 0; a = h.Parent[a] {
				for _, c := range byNode[a] {
					if c.short && (worst == nil || c.errs[k] > worst.errs[k]) {
						worst = c
					}
				}
			}
			if worst != nil {
				// The probes to check again: where its error grew (the
				// bound, which grows with every channel's error, proved the
				// others) and where the exact composition proved it (the
				// played pose changes there).
				// A pair rounded together goes back to floats together.
				group := [2]*channel{worst, worst.partner}
				var olds [2][]float64
				for i, c := range group {
					if c != nil {
						olds[i] = slices.Clone(c.errs)
					}
				}
				worst.unpair()
				for i, c := range group {
					if c == nil {
						continue
					}
					c.playedErrors(probes, t32)
					for j, e := range c.errs {
						if e > olds[i][j] || composed[j] {
							dirty[j] = true
						}
					}
					if len(c.mods) == 0 {
						changed = append(changed, c)
					}
					c.mods = append(c.mods, [2]int{0, len(probes) - 1})
				}
			}
		})
		if !missed {
			break
		}
		todo = todo[:0]
		for k, d := range dirty {
			if d {
				todo = append(todo, k)
				dirty[k] = false
			}
		}
		if len(todo) == 0 { // keys everywhere the chains miss: nothing more to add
			break
		}
	}
	return write(ba, chans, probes)
}

// engine plays a, with the channels the bake compiled when ba has them.
func engine(h *fidelity.Hierarchy, srcNodes []model.Node, a *model.Animation, ba *sample.BakedAnimation, cv *sample.Converter) (*fidelity.Engine, error) {
	if clip := ba.Compiled(a); clip != nil {
		return fidelity.NewEngineOf(h, srcNodes, clip, cv)
	}
	return fidelity.NewEngine(h, srcNodes, a, cv)
}

// extraSides returns the frames of the discontinuity sides to leave out:
// the sides probed only for a jump (a before side JumpMargin before its
// frame, an after side off the frames) of every jump, or with teleports
// of every jump but a teleport. A teleport is a jump that in some channel
// is more than 10 times the channel's allowed error and 8 times the change
// over the intervals on either side (as findJumps has it): it keeps both
// sides, so the keys jump within JumpMargin of its frame instead of over a
// whole frame. The other jumps (BFRES Hermite segments that do not meet at
// a frame, by 1-2 mm on Gerudo's fingertips at every frame; stepped
// channels) are played like --tolerance 0 plays them, one key at the frame
// after (the engine's side there).
func extraSides(chans []*channel, probes []fidelity.Probe, grid []float64, src float64, teleports bool) map[float64]bool {
	drop := map[float64]bool{}
	n := len(probes)
	// An after side stands for a grid frame when it has the frame's
	// float32 time (rounded either way): it replaced that frame's probe.
	onGrid := make(map[float32]bool, 2*len(grid))
	for _, f := range grid {
		onGrid[float32(f/src)] = true
		onGrid[float32(fidelity.Down32(f/src))] = true
	}
	for j := 1; j < n; j++ {
		if !probes[j].Jump {
			continue
		}
		i := j - 1
		extraBefore := probes[i].Edge && !probes[i].Jump
		offFrame := !onGrid[float32(probes[j].Time)]
		if !extraBefore && !offFrame {
			continue
		}
		teleport := false
		for _, c := range chans {
			if !teleports {
				break
			}
			w := c.width
			if c.constant || w > 16 {
				continue
			}
			at := func(k int) []float64 { return c.vals[k*w : k*w+w] }
			d := c.err(at(i), at(j))
			if d <= 10*c.allowed {
				continue
			}
			if (i > 0 && d <= 8*c.err(at(i-1), at(i))) || (j+1 < n && d <= 8*c.err(at(j), at(j+1))) {
				continue
			}
			teleport = true
			break
		}
		if teleport {
			continue
		}
		if extraBefore {
			drop[probes[i].Frame] = true
		}
		if offFrame {
			drop[probes[j].Frame] = true
		}
	}
	return drop
}

// without returns the probes but the discontinuity sides at the frames of
// drop, renumbered.
func without(probes []fidelity.Probe, drop map[float64]bool) []fidelity.Probe {
	if len(drop) == 0 {
		return probes
	}
	out := probes[:0:0]
	for _, p := range probes {
		if p.Edge && drop[p.Frame] {
			continue
		}
		p.Index = len(out)
		out = append(out, p)
	}
	fidelity.RoundBeforeJumps(out)
	return out
}

// keyAt adds a key at probe k, between keys lo and hi, and reports
// whether it was not there (keys stay sorted; a constant channel needs
// none).
func (c *channel) keyAt(k int) (lo, hi int, added bool) {
	if c.constant {
		return 0, 0, false
	}
	i := sort.SearchInts(c.keys, k)
	if i < len(c.keys) && c.keys[i] == k || i == 0 || i == len(c.keys) {
		return 0, 0, false // keys always hold the first and last probe
	}
	c.keys = slices.Insert(c.keys, i, k)
	return c.keys[i-1], c.keys[i+1], true
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
		// A discontinuity lies between its two sides: each bends against
		// the probes beyond its partner.
		pair := func(k int) bool {
			return k >= 0 && k+1 < n && probes[k+1].Jump
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

// shares gives each channel its share of the tolerance. Errors of the
// channels along a chain add up at its end; for a chain of k equally busy
// channels each gets 1/√k (errors rarely peak together; the hierarchy's
// check adds keys where they do). Busy channels get more than quiet ones:
// keys for an error ε over motion of second derivative f” are spaced
// √(8ε/|f”|), so a channel needs about A/√ε keys for its activity
// A = ∫√|f”| dt. With errors that add up, the fewest keys for a given sum
// would come from ε ∝ A^(2/3); errors along a chain partly cancel, and
// weights A^(1/3) gave the smallest files on the BFRES samples (Gerudo
// −8 %, the Bear −2 %, the Bass −5 % at the default tolerance and −9 % at
// 19 mm, against equal shares; A^(2/3): −3 %, +2.5 %, −3 %, −8 %). The
// shares are the weights divided by the root of the sum of their squares
// along the chain through the channel that has the largest (1/√k for
// equal weights), and at least a quarter of the equal share.
func shares(h *fidelity.Hierarchy, g *geometry, chans []*channel, probes []fidelity.Probe) []float64 {
	n := len(h.Parent)
	weight := make([]float64, len(chans))
	own := make([]float64, n) // the squared weights of a node's channels
	count := make([]int, n)   // node channels from the root down to the node
	for ci, c := range chans {
		if c.node < 0 {
			continue
		}
		weight[ci] = math.Cbrt(activity(c, g.factor(c), probes))
		own[c.node] += weight[ci] * weight[ci]
		count[c.node]++
	}
	sum := make([]float64, n) // squared weights from the root down to the node
	for i := range n {
		sum[i] = own[i]
		if p := h.Parent[i]; p >= 0 {
			sum[i] += sum[p]
			count[i] += count[p]
		}
	}
	deep := make([]float64, n)    // the largest sum on any chain through the node
	most := make([]int, n)        // and the most channels
	for i := n - 1; i >= 0; i-- { // children come after parents
		deep[i] = max(deep[i], sum[i])
		most[i] = max(most[i], count[i])
		if p := h.Parent[i]; p >= 0 {
			deep[p] = max(deep[p], deep[i])
			most[p] = max(most[p], most[i])
		}
	}
	share := make([]float64, len(chans))
	for ci, c := range chans {
		if c.node < 0 {
			continue
		}
		equal := 1 / math.Sqrt(float64(max(most[c.node], 1)))
		share[ci] = equal / 4
		if deep[c.node] > 0 {
			share[ci] = max(share[ci], weight[ci]/math.Sqrt(deep[c.node]))
		}
	}
	return share
}

// activity is A = ∫√|f”| dt of a channel over the clip, f” from the
// second differences of its samples (a vector's length, in metres through
// factor; a rotation's quaternion counted as the displacement it makes,
// twice its chord). No second difference spans a discontinuity.
func activity(c *channel, factor float64, probes []fidelity.Probe) float64 {
	if c.constant || c.step || c.kind == kindData {
		return 0
	}
	if c.kind == kindRotation {
		factor *= 2
	}
	w := c.width
	var a float64
	for k := 1; k+1 < len(probes); k++ {
		h0, h1 := probes[k].Time-probes[k-1].Time, probes[k+1].Time-probes[k].Time
		if h0 < 1e-6 || h1 < 1e-6 || probes[k].Jump || probes[k+1].Jump {
			continue
		}
		var s2 float64
		for j := range w {
			x0, x1, x2 := c.vals[(k-1)*w+j], c.vals[k*w+j], c.vals[(k+1)*w+j]
			d := 2 * ((x2-x1)/h1 - (x1-x0)/h0) / (h0 + h1)
			s2 += d * d
		}
		a += math.Sqrt(math.Sqrt(s2)*factor) * (h0 + h1) / 2
	}
	return a
}

// factor turns a channel's value difference into metres at the virtual
// vertices it moves (see setAllowed).
func (g *geometry) factor(c *channel) float64 {
	switch c.kind {
	case kindTranslation:
		return g.parentScale[c.node]
	case kindRotation:
		return g.reach[c.node]
	case kindScale:
		return g.reach[c.node] / g.minScale[c.node]
	}
	return 1
}

// setAllowed turns shares into each channel's allowed error and its
// factor from value differences to metres.
func setAllowed(chans []*channel, g *geometry, share []float64, tol float64, short bool) {
	for ci, c := range chans {
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
		c.allowed = tol * share[ci]
		if short {
			c.quantize(tol)
		}
	}
}

// unshort writes the channel's keys as floats again: the engine's values
// in float32, with their own length term, and the keys chosen in floats
// when shareProbes took them for 16 bits at every frame.
func (c *channel) unshort() {
	if !c.short {
		return
	}
	c.short = false
	// A pair rounded together holds only with both roundings.
	if o := c.partner; o != nil {
		c.partner, c.pairErr, o.partner, o.pairErr = nil, nil, nil, nil
		if !o.alone {
			o.unshort()
		}
	}
	if c.floatKeys != nil {
		c.keys, c.floatKeys = c.floatKeys, nil
	}
	for j, v := range c.vals {
		c.v32[j] = float64(float32(v))
	}
	c.unit = lengthTerm(c.v32)
}

// 16-bit rotations. A rotation key rounded to multiples of 1/32767
// (normalized SHORT, glTF 2.0 §3.11) moves what a client shows in two ways
// (docs/fidelity.md, "16-bit rotations"):
//
//   - its direction: the rounded key turns by δ from the engine's rotation,
//     which moves a vertex at distance r by 2·sin(δ/2)·r;
//   - its length: |q|² ≠ 1 in general (no 16-bit quaternion near w = 1 is
//     unit: the steps of w change |q|² by 6.1e-5). Blender and Godot
//     normalise, but three.js builds the matrix from q as stored
//     (Matrix4.compose: 1 − 2(y²+z²) on the diagonal), which is
//     |q|²·R + (1 − |q|²)·I: a vertex p of the subtree moves by an extra
//     (|q|² − 1)(R − I)p, at most |1 − |q|²|·2·sin(θ/2)·r with θ the key's
//     rotation angle.
//
// Between two keys a and b three.js slerps the stored keys and does not
// normalise: with cos θ' = a·b the result wa·a + wb·b has
// |r|² − 1 = wa²(|a|² − 1) + wb²(|b|² − 1) exactly, and wa² + wb² ≤ 1 (the
// slerp weights of a unit pair at angle θ' ≤ 90°), so its length error is
// at most the larger key's; and sin(θ/2) along the arc is at most the
// larger of the two keys' (quantSweep). The length error between keys is
// therefore bounded by the channel's largest key length error times its
// sweep, and that bound is taken off the error the choice of keys may use.

// quantize writes a rotation channel's keys as normalized 16-bit integers
// (half the bytes) when every key's own error (direction and length,
// exactly) and the bound on the length error between keys are each at most
// half the channel's allowed error. The keys are then chosen with the
// rounded values (v32), with the allowed error less that bound. (A quarter
// kept most rotations of the Bass and Gerudo at gltfpack's error in floats:
// half writes Gerudo at 3.63e-4 m in 5.43 MB instead of 5.71 MB, the Bear
// at 3.37e-4 m in 4.35 MB instead of 4.59 MB.)
func (c *channel) quantize(tol float64) {
	c.short, c.q16 = false, nil
	if c.kind != kindRotation || c.step || c.width != 4 || !(c.allowed > 0) || len(c.vals) == 0 {
		return
	}
	// Rounded in place, in float32 as clients hold them (three.js's
	// Float32Array), and put back when the rounding costs too much.
	// The errors are those of shortErrors, worked out as the rounding goes:
	// once a key's error is past both half the allowed error and half the
	// tolerance, neither use of the rounding below remains and the rest of
	// the channel is not rounded.
	target := quantSweep(c.vals)
	half := c.allowed / 2
	var key, stretch float64
	for k := 0; k < len(c.vals); k += 4 {
		q := c.v32[k : k+4]
		if heldAt(c.vals, k) {
			copy(q, c.v32[k-4:k]) // the same value as the probe before (a held pose)
			continue
		}
		shortQuat(c.vals[k:k+4], q, target)
		for j, v := range q {
			q[j] = float64(float32(v))
		}
		e, n := keyError(c.vals[k:k+4], q)
		key, stretch = max(key, e), max(stretch, n)
		if key*c.factor > half && key*c.factor > tol/2 {
			break
		}
	}
	var between float64 // of use only when the keys are within half
	if !(key*c.factor > half) {
		between = stretch * quantSweep(c.v32)
	}
	if key*c.factor > half || between*c.factor > half {
		// Within half the tolerance, the rounding may still do at every
		// probe, where no key is interpolated (shareProbes); the
		// hierarchy's check measures what the roundings along a chain add
		// up to, and writes floats where it is too much. (Within the whole
		// tolerance, the bound, which adds up the chain's errors, left
		// ten times as many probes to the exact composition on Gerudo:
		// 25 % more CPU for the six samples' default, for 2-3 % fewer
		// bytes on the BFRES samples.)
		if key*c.factor <= tol/2 {
			if next := neighbourLengthError(c.v32); next*c.factor <= tol {
				c.q16, c.q16Unit = slices.Clone(c.v32), next
			}
		}
		for j, v := range c.vals {
			c.v32[j] = float64(float32(v))
		}
		return
	}
	c.short = true
	c.allowed -= between * c.factor
	c.unit = between // lengthTerm of the rounded values, worked out with them
}

// shortErrors returns, per unit of reach, the largest error of a key of q
// (the rounding of the engine's rotations vals, probe by probe, in float32
// as clients hold it) as a client shows it at that key, direction and
// length together, and the bound on the length error anywhere between two
// keys.
func shortErrors(vals, q []float64) (key, between float64) {
	sweep := quantSweep(q)
	var stretch float64
	for k := 0; k < len(q); k += 4 {
		if heldAt(vals, k) && heldAt(q, k) {
			continue // the same pair as the probe before
		}
		e, n := keyError(vals[k:k+4], q[k:k+4])
		key, stretch = max(key, e), max(stretch, n)
	}
	return key, stretch * sweep
}

// keyError returns the error at unit reach of the key q (the rounding of
// v) as a client shows it at that key, direction and length together, and
// q's length error |1 − |q|²|.
func keyError(v, q []float64) (e, stretch float64) {
	d, n := shortKeyError(v, q)
	return d + n*turn(q), n
}

// neighbourLengthError is shortErrors' bound on the length error between
// keys when every probe is a key: only neighbouring probes are ever
// blended, so the bound is taken per pair (pairLengthError) instead of the
// largest length error times the sweep of the whole channel.
func neighbourLengthError(q []float64) float64 {
	var most float64
	for k := 4; k < len(q); k += 4 {
		most = max(most, pairLengthError(q[k-4:k], q[k:k+4]))
	}
	return most
}

// pairLengthError bounds the length error of a blend of the stored keys a
// and b as a client that does not normalise shows it, per unit of reach:
// the larger of the two keys' |1 − |q|²| times the larger of their turns,
// which bounds the turn along their arc when the two are less than 90°
// apart (a positive dot product) and their w has one sign (quantSweep's
// argument for two quaternions); otherwise times 2.
func pairLengthError(a, b []float64) float64 {
	na := math.Abs(1 - (a[0]*a[0] + a[1]*a[1] + a[2]*a[2] + a[3]*a[3]))
	nb := math.Abs(1 - (b[0]*b[0] + b[1]*b[1] + b[2]*b[2] + b[3]*b[3]))
	sweep := 2.0
	if a[0]*b[0]+a[1]*b[1]+a[2]*b[2]+a[3]*b[3] > 0 && a[3]*b[3] > 0 {
		sweep = max(turn(a), turn(b))
	}
	return max(na, nb) * sweep
}

// shortKeyError returns the displacement at unit distance between the
// rotations of v and q (2·sin(δ/2)) and q's length error |1 − |q|²|.
func shortKeyError(v, q []float64) (turned, stretch float64) {
	n2 := q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3]
	return fidelity.RotationDisplacement(v, q), math.Abs(1 - n2)
}

// turn is 2·sin(θ/2) for q's rotation angle θ: how far the rotation moves
// a point at unit distance from where it started, |(R − I)p| at most.
func turn(q []float64) float64 {
	v2 := q[0]*q[0] + q[1]*q[1] + q[2]*q[2]
	n2 := v2 + q[3]*q[3]
	if n2 == 0 {
		return 2
	}
	return 2 * math.Sqrt(v2/n2)
}

// quantSweep bounds turn along every arc between two of the quaternions
// of qs (any two may become neighbouring keys). When every quaternion lies
// within 45° (as a quaternion) of their mean direction, any two are less
// than 90° apart: their dot product is positive, so no client flips one to
// the short way. If moreover w has one sign throughout, w stays of that
// sign along every arc (it is C·cos(φ − φ0) there, and the arc is shorter
// than the half period between its zeros), so |w| is concave along the
// arc and smallest at an end: the bound is the largest turn of the
// quaternions. Otherwise it is 2 (a half turn somewhere between).
func quantSweep(qs []float64) float64 {
	var m [4]float64
	for k := 0; k < len(qs); k += 4 {
		q := qs[k : k+4]
		n := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
		if n == 0 {
			return 2
		}
		for j := range 4 {
			m[j] += q[j] / n
		}
	}
	mn := math.Sqrt(m[0]*m[0] + m[1]*m[1] + m[2]*m[2] + m[3]*m[3])
	if mn == 0 {
		return 2
	}
	var most float64
	pos, neg := false, false
	for k := 0; k < len(qs); k += 4 {
		q := qs[k : k+4]
		n := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
		if !((q[0]*m[0]+q[1]*m[1]+q[2]*m[2]+q[3]*m[3])/mn > math.Sqrt2/2*n) || q[3] == 0 {
			return 2
		}
		pos, neg = pos || q[3] > 0, neg || q[3] < 0
		most = max(most, turn(q))
	}
	if pos && neg {
		return 2
	}
	return most
}

// heldAt reports whether the quaternion at offset k of qs equals the one
// before it (a held pose).
func heldAt(qs []float64, k int) bool {
	return k >= 4 && qs[k] == qs[k-4] && qs[k+1] == qs[k-3] && qs[k+2] == qs[k-2] && qs[k+3] == qs[k-1]
}

// shortQuat rounds a unit quaternion v to multiples of 1/32767: of the
// nearest multiple per component and the four roundings that move one
// component to its other neighbour, the one whose error as a client shows
// it is least, the direction's plus the length's times sweep (the
// channel's quantSweep, which the length error between keys is counted
// with), the closer to v on a tie. (Trying all 16 choices of the multiple
// below or above each component instead wrote the demo inputs and samples
// 15 kB smaller in 28.5 MB, at three times the cost of the rounding.)
func shortQuat(v, out []float64, sweep float64) {
	// With c = v + δ and v unit: |c|² = 1 + 2·v·δ + |δ|², and the vector
	// part of conj(v)·c (whose length over |c| is sin of half the angle
	// between them, as fidelity.RotationDisplacement has it) has squared
	// length |c|² − (v·c)² = |δ|² − (v·δ)². Both sums are worked out per
	// component and choice once, then added per candidate.
	var c [2][4]float64      // each component's multiple below and above
	var vd, dd [2][4]float64 // v_j·δ_j and δ_j² for each
	for j := range 4 {
		x := math.Floor(v[j] * 32767)
		for b := range 2 {
			c[b][j] = max(-32767, min(32767, x+float64(b))) / 32767
			d := c[b][j] - v[j]
			vd[b][j], dd[b][j] = v[j]*d, d*d
		}
	}
	// The nearest multiple of each component, and the four roundings one
	// step from it.
	near := 0
	for j := range 4 {
		if dd[1][j] < dd[0][j] {
			near |= 1 << j
		}
	}
	best, bestDist, pick := math.Inf(1), math.Inf(1), 0
	for i := range 5 {
		m := near
		if i > 0 {
			m ^= 1 << (i - 1)
		}
		var sv, sd float64
		for j := range 4 {
			b := m >> j & 1
			sv += vd[b][j]
			sd += dd[b][j]
		}
		n2 := 1 + 2*sv + sd
		length := math.Abs(1-n2) * sweep
		t := max(sd-sv*sv, 0)
		// Most candidates lose by far: only those whose turn could bring
		// them within a hair of the best are worked out exactly.
		if lim := best - length; !math.IsInf(best, 1) && (lim < 0 || 4*t > lim*lim*n2*(1+1e-9)) {
			continue
		}
		if e := 2*math.Sqrt(t/n2) + length; e < best || (e == best && sd < bestDist) {
			best, bestDist, pick = e, sd, m
		}
	}
	for j := range 4 {
		out[j] = c[pick>>j&1][j]
	}
}

// finite reports the first channel whose engine values are not finite.
func finite(ba *sample.BakedAnimation, chans []*channel, probes []fidelity.Probe) error {
	for ci, c := range chans {
		if c.bad >= 0 {
			bc := &ba.Channels[ci]
			return fmt.Errorf("channel %s of %q: the value at %g s is not finite", bc.Path, bc.Node+bc.Material, probes[c.bad].Time)
		}
	}
	return nil
}

// write stores the chosen keys into the baked channels: their own times
// (the probes' times) and the engine's values there.
func write(ba *sample.BakedAnimation, chans []*channel, probes []fidelity.Probe) error {
	for ci, c := range chans {
		bc := &ba.Channels[ci]
		w := c.width
		bc.Times = make([]float64, len(c.keys))
		bc.Values = make([]float64, len(c.keys)*w)
		bc.Short = c.short
		for j, k := range c.keys {
			bc.Times[j] = probes[k].Time
			if c.short {
				// v32 holds the float32 of each multiple of 1/32767, close
				// enough to name it.
				for i, v := range c.v32[k*w : k*w+w] {
					bc.Values[j*w+i] = math.Round(v*32767) / 32767
				}
				continue
			}
			copy(bc.Values[j*w:j*w+w], c.vals[k*w:k*w+w])
		}
	}
	return nil
}
