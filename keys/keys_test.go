package keys

import (
	"math"
	"strings"
	"testing"

	"github.com/animbake/bake/fidelity"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// oneNode is a file with one root node at the origin and one clip moving
// its translation by curve c.
func oneNode(c model.Curve, frames, end, period float64, loop string) *model.File {
	return &model.File{Axes: model.GLTFAxes,
		Nodes: []model.Node{{Name: "n", Parent: -1, Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}}},
		Animations: []model.Animation{{Name: "a", FPS: 30, Frames: frames, End: end, Period: period, Loop: loop,
			Channels: []model.Channel{{Node: "n", Path: model.PathTranslation, Curve: c}}}}}
}

func reduce(t *testing.T, f *model.File) *sample.BakedChannel {
	t.Helper()
	return reduceWith(t, f, Options{Tolerance: 1e-4})
}

func reduceWith(t *testing.T, f *model.File, opts Options) *sample.BakedChannel {
	t.Helper()
	b, err := sample.Bake(f, sample.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := Reduce(f, b, opts); err != nil {
		t.Fatal(err)
	}
	res, err := fidelity.MeasureBaked(f, b, fidelity.MeasureOptions{AtFrames: true})
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Max > 1e-4 {
		t.Errorf("measured %g m at the frames, above the tolerance", res[0].Max)
	}
	return &b.Animations[0].Channels[0]
}

func TestStraightLineKeepsTwoKeys(t *testing.T) {
	// 0 → (3, 0, 0) m over 30 frames: linear playback of the two ends is
	// exact everywhere.
	c := reduce(t, oneNode(&model.Keyed{Interp: model.InterpLinear, Width: 3, Frames: []float64{0, 30},
		Values: []float64{0, 0, 0, 3, 0, 0}}, 31, 30, 0, model.LoopOnce))
	if len(c.Times) != 2 || c.Times[0] != 0 || c.Times[1] != 1 || c.Values[3] != 3 {
		t.Fatalf("times %v values %v", c.Times, c.Values)
	}
}

func TestStepKeepsItsJump(t *testing.T) {
	// STEP from 0 to 1 m at frame 10 of a 20-frame clip: keys at the start,
	// at the step and at the end, still STEP. The step's key is at 1/3 s
	// rounded down to float32 (0.33333331 s; the nearest float32 is
	// 0.33333334 s, after 1/3 s), so that a client asking for 1/3 s in
	// float64 shows the value after the step, as the engine does at frame 10.
	c := reduce(t, oneNode(&model.Keyed{Interp: model.InterpStep, Width: 3, Frames: []float64{0, 10},
		Values: []float64{0, 0, 0, 1, 0, 0}}, 21, 20, 0, model.LoopOnce))
	if !c.Step || len(c.Times) != 3 || c.Times[1] != float64(math.Nextafter32(float32(1.0/3), 0)) || c.Times[1] > 1.0/3 ||
		c.Values[0] != 0 || c.Values[3] != 1 || c.Values[6] != 1 {
		t.Fatalf("step %v times %v values %v", c.Step, c.Times, c.Values)
	}
}

func TestTeleportingLoopSeam(t *testing.T) {
	// A repeat of period 10 frames moving 0 → 1 m along x and jumping back
	// to 0 at the seam. By default keys stay among the frames, as
	// --tolerance 0 has them: the start, frame 9 (x = 0.9) at 0.3 s rounded
	// up to float32 (0.30000001 s, so that a client asking for 0.3 s in
	// float64 plays the segment that ends there) and the seam, the clip's
	// end, at 1/3 s (x = 0, frame 0 again): the clip ramps back to 0 over
	// the last frame.
	f := oneNode(&model.Keyed{Interp: model.InterpLinear, Width: 3, Frames: []float64{0, 10},
		Values: []float64{0, 0, 0, 1, 0, 0}}, 10, 9, 10, model.LoopRepeat)
	seam := float32(10.0 / 30)
	c := reduce(t, f)
	if len(c.Times) != 3 || c.Times[1] != float64(float32(0.3)) || float32(0.3) < 0.3 || c.Times[2] != float64(seam) {
		t.Fatalf("times %v", c.Times)
	}
	if math.Abs(c.Values[3]-0.9) > 1e-15 || c.Values[6] != 0 {
		t.Fatalf("values %v", c.Values)
	}
	// With JumpSides the seam stays sharp: a key 1/16 frame before it
	// (frame 9.9375 in float32 seconds, x = that time · 3 m/s, just under
	// 1) instead of frame 9.
	c = reduceWith(t, f, Options{Tolerance: 1e-4, JumpSides: true})
	before := float32(9.9375 / 30)
	if len(c.Times) != 3 || c.Times[1] != float64(before) || c.Times[2] != float64(seam) {
		t.Fatalf("times %v", c.Times)
	}
	if math.Abs(c.Values[3]-float64(before)*3) > 1e-12 || c.Values[6] != 0 {
		t.Fatalf("values %v", c.Values)
	}
}

func TestCubicGetsKeysWhereTheBoundSays(t *testing.T) {
	// x(f) = V·(f/N)², V = 1 m, N = 30 frames: a Hermite segment from 0 to V
	// with tangents 0 and 2V/N per frame. Linear keys h frames apart miss a
	// parabola by x''·h²/8 = V·h²/(4N²) at their midpoint: 2.8e-4 m for
	// h = 1 frame, so keys two frames apart miss the frame between by
	// 1.1e-3 m, more than the bound 1e-4 m (the root's whole share): every
	// frame keeps its key, 31 at k/30 s. Keys are chosen among the frames;
	// half a frame from them the parabola is 2.8e-4 m off, as with
	// --tolerance 0.
	c := reduce(t, oneNode(&model.Keyed{Interp: model.InterpHermite, Width: 3, Frames: []float64{0, 30},
		Values: []float64{0, 0, 0, 1, 0, 0}, InTangents: []float64{0, 0, 0, 2.0 / 30, 0, 0},
		OutTangents: []float64{0, 0, 0, 2.0 / 30, 0, 0}}, 31, 30, 0, model.LoopOnce))
	if len(c.Times) != 31 {
		t.Fatalf("%d keys at %v", len(c.Times), c.Times)
	}
	for k, tm := range c.Times {
		if tm != float64(k)/30 {
			t.Fatalf("key %d at %g s, want %g", k, tm, float64(k)/30)
		}
	}
}

func TestGentleCurveSkipsFrames(t *testing.T) {
	// x(f) = V·(f/N)² with V = 9 mm over N = 30 frames: the chord of keys
	// at frames a and a+h misses frame a+j by V·j(h−j)/N², at most 9e-5 m
	// for h = 6 (j = 3) and 1.2e-4 m for h = 7 (j = 3, 4), so with the
	// bound 1e-4 m keys are every sixth frame: 0, 6, ..., 30 (at k/5 s).
	c := reduce(t, oneNode(&model.Keyed{Interp: model.InterpHermite, Width: 3, Frames: []float64{0, 30},
		Values: []float64{0, 0, 0, 0.009, 0, 0}, InTangents: []float64{0, 0, 0, 0.018 / 30, 0, 0},
		OutTangents: []float64{0, 0, 0, 0.018 / 30, 0, 0}}, 31, 30, 0, model.LoopOnce))
	if len(c.Times) != 6 {
		t.Fatalf("%d keys at %v", len(c.Times), c.Times)
	}
	for k, tm := range c.Times {
		if tm != float64(6*k)/30 {
			t.Fatalf("key %d at %g s, want %g", k, tm, float64(6*k)/30)
		}
	}
}

func TestRestTracksDropped(t *testing.T) {
	// Two clips: one moves the node's translation, both hold its scale at
	// the rest value. The scale track goes from both; the translation stays
	// in both, held where the second clip holds it.
	f := oneNode(&model.Keyed{Interp: model.InterpLinear, Width: 3, Frames: []float64{0, 30},
		Values: []float64{0, 0, 0, 3, 0, 0}}, 31, 30, 0, model.LoopOnce)
	one := &model.Constant{Value: []float64{1, 1, 1}}
	zero := &model.Constant{Value: []float64{0, 0, 0}}
	f.Animations[0].Channels = append(f.Animations[0].Channels, model.Channel{Node: "n", Path: model.PathScale, Curve: one})
	f.Animations = append(f.Animations, model.Animation{Name: "b", FPS: 30, Frames: 2, End: 1, Loop: model.LoopOnce,
		Channels: []model.Channel{{Node: "n", Path: model.PathTranslation, Curve: zero}, {Node: "n", Path: model.PathScale, Curve: one}}})
	b, err := sample.Bake(f, sample.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := Reduce(f, b, Options{Tolerance: 1e-4}); err != nil {
		t.Fatal(err)
	}
	for _, a := range b.Animations {
		if len(a.Channels) != 1 || a.Channels[0].Path != model.PathTranslation || len(a.Channels[0].Times) != 2 {
			t.Fatalf("clip %s: %+v", a.Name, a.Channels)
		}
	}
}

// A curve the engine evaluates to an infinity between finite keys (the
// difference of ±1e308 overflows) is refused with the time, not written.
func TestNonFiniteValueIsAnError(t *testing.T) {
	f := oneNode(&model.Keyed{Interp: model.InterpLinear, Width: 3, Frames: []float64{0, 10, 20},
		Values: []float64{0, 0, 0, 1e308, 0, 0, -1e308, 0, 0}}, 21, 20, 0, model.LoopOnce)
	b, err := sample.Bake(f, sample.Options{NoSamples: true})
	if err != nil {
		t.Fatal(err)
	}
	err = Reduce(f, b, Options{Tolerance: 1e-4})
	if err == nil || !strings.Contains(err.Error(), "not finite") {
		t.Fatalf("err %v, want a non-finite value reported", err)
	}
}
