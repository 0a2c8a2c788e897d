package fidelity

import (
	"math"
	"math/rand"
	"testing"

	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// Two bones worked by hand: A at the root turns at |ω| = 2 rad/s with
// |R”| = 4; B, 1 m along A's x, translates at 0.5 m/s and accelerates at
// 3 m/s². B's origin P = R_A·T_B has |P”| ≤ |R_A”|·|T_B| + 2|ω_A|·|T_B'| +
// |T_B”| = 4 + 2 + 3 = 9; A's origin does not move.
func TestPointAccelerationTwoBones(t *testing.T) {
	h := NewHierarchy([]model.Node{
		{Name: "A", Parent: -1, Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}},
		{Name: "B", Parent: 0, Translation: [3]float64{1, 0, 0}, Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}},
	})
	p := newPointAcceleration(h, []float64{0, 1}, []float64{1, 1}, Distances{Of: []float64{0, 0}})
	chans := []*anyChannel{{node: 0, path: model.PathRotation}, {node: 1, path: model.PathTranslation}}
	got := p.of(chans, []motion{{2, 4}, {0.5, 3}}, make([]float64, 2))
	near(t, "A", got[0], 0, 1e-15)
	near(t, "B", got[1], 9, 1e-12)
	// With B's vertices 0.5 m out (distance 0.5): A's lever grows to 1.5.
	p = newPointAcceleration(h, []float64{0, 1}, []float64{1, 1}, Distances{Of: []float64{0, 0.5}})
	near(t, "B at 0.5 m", p.of(chans, []motion{{2, 4}, {0.5, 3}}, make([]float64, 2))[1], 4*1.5+2*2*0.5+3, 1e-12)
}

// hermiteClip is one node translated along x by the Hermite segment of
// sample's TestBendHermite, x(f) = f − f²/4 over frames 0..2 at 1 frame a
// second, played by a client from LINEAR keys at frames 0 and 2 (x = 0
// and 1).
func hermiteClip(t *testing.T) (*Hierarchy, *Engine, []*KeyChannel, *model.Animation) {
	t.Helper()
	nodes := []model.Node{{Name: "a", Parent: -1, Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}}}
	a := &model.Animation{Name: "h", FPS: 1, Frames: 2, End: 2, Channels: []model.Channel{{Node: "a", Path: model.PathTranslation,
		Curve: &model.Keyed{Interp: model.InterpHermite, Width: 3, Frames: []float64{0, 2}, Values: []float64{0, 0, 0, 1, 0, 0},
			InTangents: make([]float64, 6), OutTangents: []float64{1, 0, 0, 0, 0, 0}}}}}
	h := NewHierarchy(nodes)
	eng, err := NewEngine(h, nodes, a, sample.NewConverter(model.GLTFAxes))
	if err != nil {
		t.Fatal(err)
	}
	k := NewKeyChannel(model.PathTranslation, false, 3, []float64{0, 2}, []float64{0, 0, 0, 1, 0, 0})
	k.target = targetOf(h, "a", model.PathTranslation)
	return h, eng, []*KeyChannel{k}, a
}

// The error is x(t) − t/2 = t/2 − t²/4: 0, 0.25, 0 at the probes t = 0, 1,
// 2. On [0, 1]: max(0, 0.25) + 1²/8·|x”| (1/2) + 0 (the client's LINEAR
// keys do not accelerate) = 0.3125, plus the rounding allowance
// 2⁻¹⁸·(reach + 1) (reach 0: the node's own origin, shell 0).
func TestAnyTimeBoundHermiteByHand(t *testing.T) {
	h, eng, keys, _ := hermiteClip(t)
	probes := []Probe{{Frame: 0, Time: 0}, {Frame: 1, Time: 1, Index: 1}, {Frame: 2, Time: 2, Index: 2}}
	at := AnyTimeBound(h, eng, keys, probes, Distances{Of: []float64{0}}, 0.3)
	near(t, "bound", at.Bound, 0.3125+0x1p-18, 1e-12)
	near(t, "measured at the probes", at.Probes, 0.25, 1e-12)
	if at.Reason != "" || at.Intervals != 2 || len(at.Over) != 2 || at.Over[0] != 0.5 || at.Over[1] != 1.5 {
		t.Errorf("reason %q, %d intervals, over %v; want 2 intervals over the limit 0.3 halved at 0.5 and 1.5", at.Reason, at.Intervals, at.Over)
	}
	if len(at.Misses) != 1 || at.Misses[0] != 1 {
		t.Errorf("misses %v, want the probe at frame 1 (0.25 above half the limit)", at.Misses)
	}
}

// At random times the error never exceeds the bound, which refining
// brings down towards the true largest error (0.25 at t = 1): intervals
// are halved while their own part exceeds an eighth of the limit.
func TestAnyTimeBoundHoldsAtRandomTimes(t *testing.T) {
	h, eng, keys, a := hermiteClip(t)
	dist := Distances{Of: []float64{0.03}}
	spec := ProbeSpec{Anim: a, FPS: 1, Evals: eng.Evals(), PerFrame: 1}
	at := AnyTimeRefined(h, eng, keys, spec, dist, 0.01, 8)
	if at.Bound < 0.25 || at.Bound > 0.25+0.01/8+1e-5 {
		t.Errorf("refined bound %g, want within [0.25, 0.25125]", at.Bound)
	}
	m := NewMeter(h, 0.03)
	rng := rand.New(rand.NewSource(1))
	for range 500 {
		tm := rng.Float64() * 2
		r := m.Measure(eng, []Player{&KeyPlayer{channels: keys}}, []Interp{Slerp}, []Probe{{Frame: tm, Time: tm}})
		if r.Max > at.Bound {
			t.Fatalf("error %g at t=%g exceeds the bound %g", r.Max, tm, at.Bound)
		}
	}
	if math.IsInf(at.Bound, 0) {
		t.Fatal("no bound")
	}
}

// A chain of ten nodes 0.1 m apart, each with a scale channel holding
// (1, 1, 1): nothing moves and the client shows the rest pose, so the
// bound is only the rounding allowance 2⁻¹⁸·(reach + 1) of the leaf, whose
// reach is 9 × 0.1 = 0.9 m with every scale's stretch 1 (its largest
// component; the norm √3 of (1, 1, 1) would have made the leaf's reach
// 0.1·(√3 + 3 + … + √3⁹) = 21.8 m).
func TestAnyTimeBoundScaleStretchIsLargestComponent(t *testing.T) {
	var nodes []model.Node
	var chans []model.Channel
	for i := range 10 {
		n := model.Node{Name: string(rune('a' + i)), Parent: i - 1, Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}}
		if i > 0 {
			n.Translation = [3]float64{0.1, 0, 0}
		}
		nodes = append(nodes, n)
		chans = append(chans, model.Channel{Node: n.Name, Path: model.PathScale,
			Curve: &model.Keyed{Interp: model.InterpLinear, Width: 3, Frames: []float64{0, 2}, Values: []float64{1, 1, 1, 1, 1, 1}}})
	}
	a := &model.Animation{Name: "s", FPS: 1, Frames: 2, End: 2, Channels: chans}
	h := NewHierarchy(nodes)
	eng, err := NewEngine(h, nodes, a, sample.NewConverter(model.GLTFAxes))
	if err != nil {
		t.Fatal(err)
	}
	probes := []Probe{{Frame: 0, Time: 0}, {Frame: 1, Time: 1, Index: 1}, {Frame: 2, Time: 2, Index: 2}}
	at := AnyTimeBound(h, eng, nil, probes, Distances{Of: make([]float64, 10)}, 0)
	near(t, "bound", at.Bound, 0x1p-18*1.9, 1e-15)
	if at.Node != "j" {
		t.Errorf("worst node %q, want the leaf j", at.Node)
	}
}

// The same clip probed only at discontinuity sides after the start (a
// clip that jumps at every frame has no other probes): the source rate
// comes from them too, and the bound is the same 0.3125 (it was 0.25
// when the rate came from a probe that is not a side alone: no motion).
func TestAnyTimeBoundRateFromSides(t *testing.T) {
	h, eng, keys, _ := hermiteClip(t)
	probes := []Probe{{Frame: 0, Time: 0}, {Frame: 1, Time: 1, Index: 1, Edge: true}, {Frame: 2, Time: 2, Index: 2, Edge: true}}
	at := AnyTimeBound(h, eng, keys, probes, Distances{Of: []float64{0}}, 0)
	near(t, "bound", at.Bound, 0.3125+0x1p-18, 1e-12)
}

// Refining stops once the probes it adds would exceed maxRefinedNodeProbes
// node-probes, with the bound reached (still a bound, only less refined):
// the Hermite clip's 3 probes (1 node) refined towards a limit of 1e-9
// (never reached: the error at t = 1 is 0.25) would double its probes 30
// times; capped, it adds at most 64 × 3 = 192 (maxRefineGrowth) and its
// bound stays at least the 0.25 measured at t = 1.
func TestAnyTimeRefinedStopsAtItsBudget(t *testing.T) {
	h, eng, keys, a := hermiteClip(t)
	spec := ProbeSpec{Anim: a, FPS: 1, Evals: eng.Evals(), PerFrame: 1}
	at := AnyTimeRefined(h, eng, keys, spec, Distances{Of: []float64{0}}, 1e-9, 30)
	if n := len(at.Refined); n == 0 || n > maxRefineGrowth*3 {
		t.Errorf("%d probes added, want 1 to %d", n, maxRefineGrowth*3)
	}
	if at.Rounds >= 30 || at.Bound < 0.25 {
		t.Errorf("%d rounds, bound %g; want the budget to stop it before 30 rounds with a bound ≥ 0.25", at.Rounds, at.Bound)
	}
}
