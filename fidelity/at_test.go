package fidelity

import (
	"math"
	"testing"

	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// quarterTurn is the chain whose root turns from 0° to 90° about z over
// one frame (slerp keys), and its bake: keys exactly the engine's.
func quarterTurn(t *testing.T) (*model.File, *sample.Baked) {
	t.Helper()
	q0, q1 := zq(0), zq(math.Pi/2)
	f := chain(&model.Keyed{Interp: model.InterpSlerp, Width: 4, Frames: []float64{0, 1},
		Values: append(q0[:], q1[:]...)})
	b, err := sample.Bake(f, sample.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return f, b
}

func TestMeasureBakedAtOneFrame(t *testing.T) {
	// The root turns from 0° to 90° about z over one frame, keys exactly
	// the engine's. Slerp plays them exactly; nlerp a quarter of the way
	// (frame 0.25) is 2·0.00787003 rad short (TestNlerpIsMeasuredToo): the
	// child's x vertex, 1.03 m from the root, is 0.01621209 m off. Halfway
	// nlerp and slerp agree (the blend is symmetric), and at a key both
	// show it, up to the keys' float32 rounding: components off by up to
	// 2⁻²⁵ move a point 1.03 m away by at most 2·1.03·2·2⁻²⁵ = 1.2e-7 m
	// (and the float32 key time shifts the blend by as little again).
	f, b := quarterTurn(t)
	for _, c := range []struct {
		frame, want float64
		node        string
	}{{0.25, 0.01621209, "child"}, {0.5, 0, ""}, {1, 0, ""}} {
		res, err := MeasureBakedAt(f, b, c.frame, MeasureOptions{Mesh: true})
		if err != nil {
			t.Fatal(err)
		}
		r := res[0]
		near(t, "error", r.Max, c.want, 2.5e-7)
		if c.node != "" && (r.WorstNode != c.node || r.WorstInterp != Nlerp) {
			t.Errorf("frame %g: worst %q (%v), want %q (nlerp)", c.frame, r.WorstNode, r.WorstInterp, c.node)
		}
		if r.Probes != 1 {
			t.Errorf("frame %g: %d probes, want 1", c.frame, r.Probes)
		}
	}
}

func TestComparisonEngineWorld(t *testing.T) {
	// At frame 0.25 the engine's slerp has turned the root by 22.5°: the
	// child's origin, 1 m along the root's x from (1,0,0), is at
	// (1 + cos 22.5°, sin 22.5°, 0) = (1.92387953, 0.38268343, 0).
	f, b := quarterTurn(t)
	h := NewHierarchy(b.Nodes)
	ba := &b.Animations[0]
	c, err := NewComparison(NewMeter(h, 0), f.Nodes, &f.Animations[0], Converter(f, b),
		[]Player{NewKeyPlayer(h, ba, Slerp), NewKeyPlayer(h, ba, Nlerp)})
	if err != nil {
		t.Fatal(err)
	}
	c.At(0.25, 30)
	w := c.EngineWorld()
	near(t, "child x", w[1][12], 1.92387953, 1e-8)
	near(t, "child y", w[1][13], 0.38268343, 1e-8)
	near(t, "child z", w[1][14], 0, 1e-15)
	if len(c.Keys(0)) != 1 || c.Keys(0)[0].Path != model.PathRotation || len(c.Keys(1)) != 0 {
		t.Errorf("keys of the root %v, of the child %v", c.Keys(0), c.Keys(1))
	}
	if got := c.Engine().Targets(); len(got) != 1 || got[0] != 0 {
		t.Errorf("targets %v, want [0]", got)
	}
	if _, err := NewComparison(NewMeter(h, 0), f.Nodes, &f.Animations[0], Converter(f, b), nil); err == nil {
		t.Error("a comparison without players was accepted")
	}
}
