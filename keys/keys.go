// Package keys replaces a bake's keys by the fewest that a glTF client
// plays within an error bound of the engine, by the fidelity metric
// (package fidelity) at its probes: per channel a greedy choice among the
// probe times (several per source frame, every source key, both sides of
// every discontinuity) with each channel's share of the tolerance
// (weighted by how busy it is), then the whole hierarchy checked, with
// slerp and nlerp: a bound proves most probes (bound.go), the chains it
// cannot prove are composed exactly, and where a node still misses its
// chain gets a key at that probe.
//
// Sampling is done once per clip into plain arrays (pooled chunks); the
// choice and the checks run over those arrays without allocating per
// sample. A file's clips are reduced side by side.
package keys

import (
	"fmt"
	"math"
	"runtime"
	"sort"

	"golang.org/x/sync/errgroup"

	"github.com/animbake/bake/fidelity"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// Options control the reduction.
type Options struct {
	// Tolerance is the largest vertex error in metres (fidelity's metric).
	Tolerance float64
	// Shell is the virtual vertices' distance (fidelity.DefaultShell when 0).
	Shell float64
	// PerFrame is the number of probes per source frame (1 when 0: keys
	// are chosen among the source frames, the --tolerance 0 grid, and the
	// sides of jumps).
	PerFrame int
	// Refine is how many times probes are halved where the motion bends
	// between them enough for the keys to miss it halfway (at most 6).
	Refine int
	// ShortRotations writes a rotation channel's keys as normalized 16-bit
	// integers (half the bytes) where the rounding costs at most half
	// of the channel's allowed error, counting both what it turns the
	// rotation by and what the rounded quaternion's length error shows in
	// a client that does not normalise (three.js); see quantize. The keys
	// are then chosen with the rounded values. bake turns it on by default
	// (--short-rotations).
	ShortRotations bool
	// JumpSides keeps a key JumpMargin before every teleport (a jump far
	// larger than the motion around it: a loop seam that sends a root
	// back), so that clients jump within 1/16 frame instead of ramping over
	// the frame before. Off by default: keys then stay among the frames,
	// and between frames the keys play within the tolerance of what
	// --tolerance 0 plays; a key before a jump can be further from the
	// engine than the ramp where the engine swings inside that frame (Bass
	// Jump, Spine_3: 22.7 mm against 20.5 mm at frame 4.59).
	JumpSides bool
	// Between, when above 0, also bounds the error at any time, not only
	// at the probes, in metres: where fidelity.AnyTimeBound does not prove
	// an interval between probes within it, the interval is halved
	// (reduceBetween). The clip's extras record what was reached.
	Between float64
	// frames are more frames to probe (reduceBetween's).
	frames []float64
}

// maxRounds bounds how often keys are added where the hierarchy misses
// and the clip measured again.
const maxRounds = 8

// Reduce replaces the keys of every clip of b (a bake of f) by error-bounded
// ones: each channel gets its own key times (BakedChannel.Times).
func Reduce(f *model.File, b *sample.Baked, opts Options) error {
	if len(f.Animations) != len(b.Animations) {
		return fmt.Errorf("bake has %d animations, the file %d", len(b.Animations), len(f.Animations))
	}
	if opts.Shell <= 0 {
		opts.Shell = fidelity.DefaultShell
	}
	h := fidelity.NewHierarchy(b.Nodes)
	dist := fidelity.NodeDistances(b.Nodes, &b.Assets, opts.Shell)
	g := newGeometry(h, dist.Of)
	g.meshNodes = dist.Mesh
	cv := fidelity.Converter(f, b)
	// Clips are independent: they are reduced side by side, each writing
	// only its own BakedAnimation, and the first error in clip order is
	// the one reported, so the outcome does not depend on scheduling.
	errs := make([]error, len(b.Animations))
	var wg errgroup.Group
	wg.SetLimit(runtime.GOMAXPROCS(0))
	// The longest clips first (by source frames times channels), so that
	// no worker is left with a long one at the end while the others idle.
	order := make([]int, len(b.Animations))
	for i := range order {
		order[i] = i
	}
	work := func(i int) float64 { return b.Animations[i].SourceFrames * float64(len(b.Animations[i].Channels)) }
	sort.SliceStable(order, func(x, y int) bool { return work(order[x]) > work(order[y]) })
	for _, i := range order {
		wg.Go(func() error {
			reduce := reduceClip
			if opts.Between > 0 {
				reduce = reduceBetween
			}
			errs[i] = reduce(h, f.Nodes, g, &f.Animations[i], &b.Animations[i], cv, opts)
			return nil
		})
	}
	_ = wg.Wait()
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("animation %q: %w", f.Animations[i].Name, err)
		}
	}
	dropRestTracks(h, b)
	return nil
}

// dropRestTracks removes the TRS channels of a (node, path) that no clip
// moves from the node's rest value: every clip that has one holds it
// constant (two keys) at exactly the rest value in float32. A client shows
// the rest there whatever clip played before, so the track only costs
// bytes (a glTF channel, sampler and accessors in every clip). A property
// that any clip moves keeps its track in every clip, so that no clip
// leaves it where another put it.
func dropRestTracks(h *fidelity.Hierarchy, b *sample.Baked) {
	type prop struct {
		node int
		path string
	}
	moved := map[prop]bool{}
	for ai := range b.Animations {
		for _, c := range b.Animations[ai].Channels {
			n := h.Target(c.Node, c.Path)
			if n < 0 {
				continue
			}
			if !atRest(&h.Rest[n], c.Path, c.Values, len(c.Times)) {
				moved[prop{n, c.Path}] = true
			}
		}
	}
	for ai := range b.Animations {
		a := &b.Animations[ai]
		kept := a.Channels[:0]
		for _, c := range a.Channels {
			if n := h.Target(c.Node, c.Path); n < 0 || moved[prop{n, c.Path}] {
				kept = append(kept, c)
			}
		}
		a.Channels = kept
	}
}

// atRest reports whether keys hold exactly the rest value (in float32) at
// most two keys long.
func atRest(rest *fidelity.TRS, path string, values []float64, keys int) bool {
	if keys > 2 {
		return false
	}
	var r []float64
	switch path {
	case model.PathTranslation:
		r = rest.T[:]
	case model.PathRotation:
		r = rest.R[:]
	default:
		r = rest.S[:]
	}
	for i, v := range values {
		if float32(v) != float32(r[i%len(r)]) {
			return false
		}
	}
	return true
}

// geometry is what turns a node's share of the tolerance into value
// tolerances, from the rest pose in the output axes.
type geometry struct {
	// reach is the largest distance from the node's origin to a virtual
	// vertex of its subtree: what a rotation of the node swings.
	reach []float64
	// parentScale is the parent's largest world axis scale: what a
	// translation of the node is multiplied by.
	parentScale []float64
	// minScale is the node's smallest rest scale component.
	minScale []float64
	// dist is each node's error distance (fidelity.NodeDistances: the
	// shell, or the farthest mesh vertex the node moves); meshNodes counts
	// the nodes whose distance comes from a mesh.
	dist      []float64
	meshNodes int
	// origin is each node's rest origin in world space and own the reach
	// of its own vertices (its distance times its world scale): what
	// reachBeside needs.
	origin [][3]float64
	own    []float64
	parent []int
}

func newGeometry(h *fidelity.Hierarchy, dist []float64) *geometry {
	n := len(h.Parent)
	world := make([][16]float64, n)
	h.World(h.Rest, world)
	g := &geometry{reach: make([]float64, n), parentScale: make([]float64, n), minScale: make([]float64, n), dist: dist,
		origin: make([][3]float64, n), own: make([]float64, n), parent: h.Parent}
	for i := range n {
		g.parentScale[i] = 1
		if p := h.Parent[i]; p >= 0 {
			g.parentScale[i] = axisScale(&world[p])
		}
		s := h.Rest[i].S
		g.minScale[i] = max(min(math.Abs(s[0]), math.Abs(s[1]), math.Abs(s[2])), 1e-6)
	}
	// Every node's vertices lie within reach of each of its ancestors.
	for d := range n {
		own := dist[d] * axisScale(&world[d])
		g.origin[d] = [3]float64{world[d][12], world[d][13], world[d][14]}
		g.own[d] = own
		for a := d; a >= 0; a = h.Parent[a] {
			dx := world[d][12] - world[a][12]
			dy := world[d][13] - world[a][13]
			dz := world[d][14] - world[a][14]
			g.reach[a] = max(g.reach[a], math.Sqrt(dx*dx+dy*dy+dz*dz)+own)
		}
	}
	return g
}

// reachBeside is reach[a] without the subtree of its child c: the largest
// distance from a's origin to a virtual vertex of a's subtree that c does
// not move.
func (g *geometry) reachBeside(a, c int) float64 {
	var r float64
	for d := range g.parent {
		in, beside := false, true
		for x := d; x >= 0; x = g.parent[x] {
			if x == c {
				beside = false
				break
			}
			if x == a {
				in = true
				break
			}
		}
		if !in || !beside {
			continue
		}
		dx, dy, dz := g.origin[d][0]-g.origin[a][0], g.origin[d][1]-g.origin[a][1], g.origin[d][2]-g.origin[a][2]
		r = max(r, math.Sqrt(dx*dx+dy*dy+dz*dz)+g.own[d])
	}
	return r
}

// axisScale is the longest of a matrix's three axis columns.
func axisScale(m *[16]float64) float64 {
	var s float64
	for c := range 3 {
		s = max(s, math.Sqrt(m[c*4]*m[c*4]+m[c*4+1]*m[c*4+1]+m[c*4+2]*m[c*4+2]))
	}
	return s
}
