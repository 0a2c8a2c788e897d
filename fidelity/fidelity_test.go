package fidelity

import (
	"math"
	"testing"

	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.10g, want %.10g (±%g)", what, got, want, tol)
	}
}

// zq is the unit quaternion of a rotation by angle a about z.
func zq(a float64) [4]float64 { return [4]float64{0, 0, math.Sin(a / 2), math.Cos(a / 2)} }

func TestVertexErrorByHand(t *testing.T) {
	id := sample.TRS([3]float64{}, [4]float64{0, 0, 0, 1}, [3]float64{1, 1, 1})
	moved := sample.TRS([3]float64{0.001, 0, 0}, [4]float64{0, 0, 0, 1}, [3]float64{1, 1, 1})
	// A translation moves all four vertices by itself.
	near(t, "1 mm translation", VertexError(&id, &moved, 0.03), 0.001, 1e-15)
	// 90° about z: the origin stays, (0.03,0,0) goes to (0,0.03,0):
	// 0.03·√2 apart; the z vertex stays.
	turned := sample.TRS([3]float64{}, zq(math.Pi/2), [3]float64{1, 1, 1})
	near(t, "90° turn", VertexError(&id, &turned, 0.03), 0.03*math.Sqrt2, 1e-12)
	// Scale 2 along x: (0.03,0,0) goes to (0.06,0,0).
	scaled := sample.TRS([3]float64{}, [4]float64{0, 0, 0, 1}, [3]float64{2, 1, 1})
	near(t, "scale x2", VertexError(&id, &scaled, 0.03), 0.03, 1e-15)
}

func TestRotationDisplacementByHand(t *testing.T) {
	id := []float64{0, 0, 0, 1}
	q90 := zq(math.Pi / 2)
	// A point at unit distance turned by θ moves by the chord 2·sin(θ/2).
	near(t, "90°", RotationDisplacement(id, q90[:]), math.Sqrt2, 1e-15)
	neg := []float64{-q90[0], -q90[1], -q90[2], -q90[3]}
	near(t, "90° negated", RotationDisplacement(id, neg), math.Sqrt2, 1e-15)
	q180 := zq(math.Pi)
	near(t, "180°", RotationDisplacement(id, q180[:]), 2, 1e-15)
	// A tiny angle keeps its precision: 1e-9 rad moves by 1e-9.
	qs := zq(1e-9)
	near(t, "1e-9 rad", RotationDisplacement(id, qs[:]), 1e-9, 1e-20)
}

func TestRotateSlerpAndNlerpByHand(t *testing.T) {
	id := []float64{0, 0, 0, 1}
	q90 := zq(math.Pi / 2)
	out := make([]float64, 4)
	// Slerp a quarter of the way: 22.5°.
	Rotate(Slerp, id, q90[:], 0.25, out)
	want := zq(math.Pi / 8)
	for j := range 4 {
		near(t, "slerp", out[j], want[j], 1e-15)
	}
	// Nlerp a quarter: (0, 0, 0.25·sin45°, 0.75 + 0.25·cos45°) normalised,
	// a half-angle of atan(0.1767767/0.9267767) = 0.18847951 rad (10.80°,
	// not 11.25°): z = 0.18736555, w = 0.98229026.
	Rotate(Nlerp, id, q90[:], 0.25, out)
	near(t, "nlerp z", out[2], 0.18736555, 1e-8)
	near(t, "nlerp w", out[3], 0.98229026, 1e-8)
	// The short way: the far sign of the same rotation blends the same.
	neg := []float64{-q90[0], -q90[1], -q90[2], -q90[3]}
	Rotate(Slerp, id, neg, 0.5, out)
	want = zq(math.Pi / 4)
	for j := range 4 {
		near(t, "short way", out[j], want[j], 1e-15)
	}
}

func TestKeyChannelAt(t *testing.T) {
	// Times are read as float32, as a client does: 0.1 s is 0.100000001490116.
	k := NewKeyChannel(model.PathTranslation, false, 1, []float64{0, 0.1, 0.3}, []float64{0, 1, 3})
	out := make([]float64, 1)
	k.At(-1, Slerp, out)
	near(t, "before the first key", out[0], 0, 0)
	k.At(0.05, Slerp, out)
	near(t, "midpoint", out[0], 0.05/float64(float32(0.1)), 1e-15)
	k.At(0.2, Slerp, out)
	t1 := float64(float32(0.1))
	near(t, "second segment", out[0], 1+2*(0.2-t1)/(float64(float32(0.3))-t1), 1e-15)
	k.At(1, Slerp, out)
	near(t, "after the end", out[0], 3, 0)
	k.At(0.05, Slerp, out) // the cursor goes back
	near(t, "back", out[0], 0.05/t1, 1e-15)
	s := NewKeyChannel(model.PathTranslation, true, 1, []float64{0, 0.1}, []float64{0, 1})
	s.At(0.0999, Slerp, out)
	near(t, "STEP holds", out[0], 0, 0)
}

func TestProbesRepeatSeamAndKeys(t *testing.T) {
	// A repeat of period 3 at 30 fps: 4 probes a frame over [0, 3] (13),
	// the key at frame 1.1 (not on the grid), and the seam at 3 as an edge
	// pair (its after side replaces the grid probe of frame 3): 15. The
	// after side is the clip's end, at the nearest float32 of 0.1 s (as
	// with keys at every frame: the clip's duration), the before side 1/16
	// frame earlier (frame 2.9375, in float32 seconds).
	a := &model.Animation{Name: "r", FPS: 30, Frames: 3, End: 2, Period: 3, Loop: model.LoopRepeat,
		Channels: []model.Channel{{Node: "n", Path: model.PathTranslation, Curve: &model.Keyed{Interp: model.InterpLinear, Width: 1,
			Frames: []float64{0, 1.1, 2}, Values: []float64{0, 1, 0}}}}}
	ev, err := sample.Compile(a.Channels[0].Curve)
	if err != nil {
		t.Fatal(err)
	}
	ps := Probes(ProbeSpec{Anim: a, FPS: 30, Evals: []sample.Evaluator{ev}})
	if len(ps) != 15 || ps[5].Frame != 1.1 || ps[5].Edge {
		t.Fatalf("%d probes: %+v", len(ps), ps)
	}
	hi, lo := ps[14], ps[13]
	if !hi.Edge || !lo.Edge || !hi.Jump || lo.Jump || hi.Frame != 3 || hi.Time != float64(float32(0.1)) ||
		lo.Time != float64(float32(2.9375/30)) || lo.Frame != lo.Time*30 {
		t.Fatalf("seam pair %+v %+v", lo, hi)
	}
	// Keys only where they jump, one probe a frame: frames 0, 1, 2, the
	// seam's two sides (the key at 1.1 does not jump).
	ps = Probes(ProbeSpec{Anim: a, FPS: 30, Evals: []sample.Evaluator{ev}, PerFrame: 1, JumpsOnly: true})
	if len(ps) != 5 || ps[3].Frame != lo.Frame || ps[4] != (Probe{Frame: 3, Time: hi.Time, Edge: true, Jump: true, Index: 4}) {
		t.Fatalf("%d probes: %+v", len(ps), ps)
	}
	// A probe in the last 1/16 frame before a jump is its before side.
	ps = Probes(ProbeSpec{Anim: a, FPS: 30, PerFrame: 1, JumpsOnly: true, Frames: []float64{2.95}})
	if len(ps) != 5 || ps[3].Frame != 2.95 || ps[3].Edge || !ps[4].Jump {
		t.Fatalf("%d probes: %+v", len(ps), ps)
	}
	// The frames: k/30 s in float64, and the end of a clip played once; a
	// loop's end is its start, probed at 0.
	ps = FrameProbes(&model.Animation{FPS: 30, End: 2.5, Loop: model.LoopOnce}, 30)
	if len(ps) != 4 || ps[1].Time != 1.0/30 || ps[3] != (Probe{Frame: 2.5, Time: 2.5 / 30, Index: 3}) {
		t.Fatalf("%d probes: %+v", len(ps), ps)
	}
	if ps = FrameProbes(a, 30); len(ps) != 3 || ps[2].Frame != 2 {
		t.Fatalf("%d probes: %+v", len(ps), ps)
	}
	// A jump inside the clip (frame 2): its after side at its time rounded
	// down to float32 (float32(2/30) = 0.06666667 is after 2/30 s), its
	// before side at frame 1.9375.
	ps = Probes(ProbeSpec{Anim: a, FPS: 30, PerFrame: 1, JumpsOnly: true, Edges: []float64{2}})
	if len(ps) != 6 || ps[3].Frame != 2 || !ps[3].Jump || ps[3].Time != float64(math.Nextafter32(float32(2.0/30), 0)) ||
		ps[3].Time > 2.0/30 {
		t.Fatalf("%d probes: %+v", len(ps), ps)
	}
	for i, p := range ps {
		if p.Index != i {
			t.Fatalf("probe %d has index %d", i, p.Index)
		}
	}
}

// testFile is a two-node chain: a root at (1,0,0) and a child 1 m along
// the root's x axis.
func chain(rot model.Curve) *model.File {
	return &model.File{Axes: model.GLTFAxes,
		Nodes: []model.Node{
			{Name: "root", Parent: -1, Translation: [3]float64{1, 0, 0}, Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}},
			{Name: "child", Parent: 0, Translation: [3]float64{1, 0, 0}, Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}},
		},
		Animations: []model.Animation{{Name: "turn", FPS: 30, Frames: 2, End: 1, Loop: model.LoopOnce,
			Channels: []model.Channel{{Node: "root", Path: model.PathRotation, Curve: rot}}}}}
}

func TestParentErrorMovesChildren(t *testing.T) {
	// The engine holds the root turned by 30° about z; the played keys are
	// 0.001 rad further. The root's own vertices move by 2·sin(0.0005)·0.03;
	// the child's origin is 1 m from the root's, so it moves by
	// 2·sin(0.0005)·1, and its x vertex, 1.03 m away, by 2·sin(0.0005)·1.03.
	q := zq(math.Pi / 6)
	f := chain(&model.Keyed{Interp: model.InterpSlerp, Width: 4, Frames: []float64{0, 1},
		Values: append(q[:], q[:]...)})
	b, err := sample.Bake(f, sample.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p0 := zq(math.Pi/6 + 0.001)
	p1 := p0
	b.Animations[0].Channels[0].Values = append(p0[:], p1[:]...)
	res, err := MeasureBaked(f, b, MeasureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := res[0]
	chord := 2 * math.Sin(0.0005)
	near(t, "root", r.NodeMax[0], chord*0.03, 1e-9)
	near(t, "child", r.NodeMax[1], chord*1.03, 1e-7)
	if r.WorstNode != "child" || r.Max != r.NodeMax[1] {
		t.Errorf("worst %q %g", r.WorstNode, r.Max)
	}
}

func TestNlerpIsMeasuredToo(t *testing.T) {
	// Keys at 0° and 90° exactly as the engine's slerp: glTF's slerp plays
	// them exactly, Blender's nlerp a quarter of the way shows a half-angle
	// of 0.18847951 rad instead of π/16 = 0.19634954, a turn 2·0.00787003
	// rad short; the child's x vertex (1.03 m from the root) moves by
	// 2·sin(0.00787003)·1.03 = 0.01621209.
	f, b := quarterTurn(t)
	res, err := MeasureBaked(f, b, MeasureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := res[0]
	near(t, "max", r.Max, 0.01621209, 1e-7)
	if r.WorstInterp != Nlerp || r.WorstNode != "child" {
		t.Errorf("worst %v on %q", r.WorstInterp, r.WorstNode)
	}
	// Probes: frames 0, 0.25, …, 1: the worst is at 0.25 or 0.75.
	if r.Probes != 5 || (math.Abs(r.WorstTime-0.25/30) > 1e-9 && math.Abs(r.WorstTime-0.75/30) > 1e-9) {
		t.Errorf("%d probes, worst at %g s", r.Probes, r.WorstTime)
	}
}

func TestChannelTolerance(t *testing.T) {
	for path, want := range map[string]float64{model.PathVisibility: 0.5, model.PathTexturePattern: 0.5,
		model.PathAlpha: 1.0 / 1024, model.PathWeights: 1e-4, model.PathUVOffset: 1e-4, "fov": 1e-4} {
		if got := ChannelTolerance(path); got != want {
			t.Errorf("%s: %g, want %g", path, got, want)
		}
	}
}
