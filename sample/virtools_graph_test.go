package sample

import (
	"math"
	"testing"

	"github.com/animbake/bake/model"
)

// balloonCurve1658 is PE_Balloon #1658 as virtools-behaviours.md §6.4
// prints it: a TCB first point (its stored tangents are recomputed), then
// two points with user tangents.
func balloonCurve1658() *model.Virtools2dCurve {
	return &model.Virtools2dCurve{Points: []model.Virtools2dPoint{
		{X: 0, Y: 0.584541},
		{X: 0.145985, Y: 1.0, UserTangents: true, In: [2]float64{0.145985, -0.438003}, Out: [2]float64{0.854015, -2.562319}},
		{X: 1.0, Y: 0.0, UserTangents: true, In: [2]float64{0.854015, -0.15415}, Out: [2]float64{0.001, -0.000181}},
	}}
}

// TestGetYBalloonCurve reproduces the GetY figures of
// virtools-behaviours.md §6.4 (PE_Balloon #1658), including the clamp of
// the raw Hermite 1.030226 at 0.125 to 1.0 (§6.3).
func TestGetYBalloonCurve(t *testing.T) {
	c := NewVirtools2dCurve(balloonCurve1658())
	for _, tc := range []struct{ x, y float64 }{
		{0, 0.584541}, {0.05, 0.792662}, {0.1, 0.995277}, {0.125, 1.0}, {0.145985, 1.0},
		{0.2, 0.846873}, {0.3, 0.607818}, {0.5, 0.278383}, {0.75, 0.074185}, {0.9, 0.020974}, {1, 0},
	} {
		if got := c.GetY(tc.x); math.Abs(got-tc.y) > 5e-6 {
			t.Errorf("GetY(%v) = %.6f, spec §6.4 says %.6f", tc.x, got, tc.y)
		}
	}
	// §6.4: the recomputed tangents equal the stored ones; the user slope
	// of the middle point is -2.562319/0.854015 = -3.0003.
	if got := c.out[1][1] / c.out[1][0]; math.Abs(got+3.0003) > 1e-4 {
		t.Errorf("slope at point 1 = %v, want -3.0003", got)
	}
	// §6.2 step 3: the first point's out tangent x becomes its chord 0.145985.
	if c.out[0][0] != 0.145985 {
		t.Errorf("first out tangent x = %v, want the chord 0.145985", c.out[0][0])
	}
}

// TestGetYClampsX checks §6.3's clamp of x to [0, 1] and the "past the
// last point" rule (y = 0), on the identity curve of MenuLevel #1052
// (LINEAR (0,0)-(1,1)).
func TestGetYClampsX(t *testing.T) {
	lin := NewVirtools2dCurve(&model.Virtools2dCurve{Points: []model.Virtools2dPoint{
		{X: 0, Y: 0, Linear: true}, {X: 1, Y: 1, Linear: true}}})
	for _, tc := range []struct{ x, y float64 }{{-0.5, 0}, {0, 0}, {0.378352, 0.378352}, {1, 1}, {7, 1}} {
		if got := lin.GetY(tc.x); got != tc.y {
			t.Errorf("linear GetY(%v) = %v, want %v", tc.x, got, tc.y)
		}
	}
	short := NewVirtools2dCurve(&model.Virtools2dCurve{Points: []model.Virtools2dPoint{
		{X: 0, Y: 0.5, Linear: true}, {X: 0.5, Y: 0.5, Linear: true}}})
	if got := short.GetY(0.75); got != 0 {
		t.Errorf("GetY past the last point = %v, want 0 (§6.3: no j)", got)
	}
}

// TestGetYMenuLevelHermite is MenuLevel #336 (§6.1, §6.4): two points
// without the LINEAR flag whose stored tangents, (1e-4,1e-4) (1,1) and
// (1,1) (1e-3,1e-3), make the Hermite segment straight: GetY(x) = x.
func TestGetYMenuLevelHermite(t *testing.T) {
	c := NewVirtools2dCurve(&model.Virtools2dCurve{Points: []model.Virtools2dPoint{
		{X: 0, Y: 0, In: [2]float64{1e-4, 1e-4}, Out: [2]float64{1, 1}},
		{X: 1, Y: 1, In: [2]float64{1, 1}, Out: [2]float64{1e-3, 1e-3}}}})
	// §6.2 reproduces the stored tangents exactly.
	if c.in[0] != [2]float64{1e-4, 1e-4} || c.out[0] != [2]float64{1, 1} || c.in[1] != [2]float64{1, 1} || c.out[1] != [2]float64{1e-3, 1e-3} {
		t.Errorf("tangents %v %v %v %v differ from the stored ones", c.in[0], c.out[0], c.in[1], c.out[1])
	}
	for _, x := range []float64{0, 0.25, 0.378352, 0.5, 0.75, 1} {
		if got := c.GetY(x); math.Abs(got-x) > 1e-15 {
			t.Errorf("GetY(%v) = %v, want %v", x, got, x)
		}
	}
}

// TestProgressionTimeline checks the Bezier Progression timeline of
// virtools-behaviours.md §5.3 as the converter models it: p(t) = t/44000
// (44 000 ms lap), Value = A + (B − A)·GetY(p), handed to the inner curve
// as a frame. At 30 clip frames per second, 11 s is frame 330, p = 0.25.
func TestProgressionTimeline(t *testing.T) {
	inner := &model.Keyed{Interp: model.InterpLinear, Width: 1, Frames: []float64{0, 1}, Values: []float64{0, 1}}
	prog := &model.VirtoolsProgression{Inner: inner, Frames: 44 * 30, A: 0, B: 1, InnerFrames: 1}
	ev, err := Compile(prog)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, 1)
	for _, tc := range []struct{ sec, p float64 }{{0, 0}, {11, 0.25}, {22, 0.5}, {33, 0.75}, {44, 1}, {50, 1}} {
		ev.Eval(tc.sec*30, out)
		if math.Abs(out[0]-tc.p) > 1e-12 {
			t.Errorf("t=%vs: value %v, want %v", tc.sec, out[0], tc.p)
		}
	}
	// A and B rescale the value: A=2, B=4 gives 2 + 2·p.
	prog.A, prog.B = 2, 4
	ev, _ = Compile(prog)
	ev.Eval(330, out)
	if math.Abs(out[0]-1) > 1e-12 { // inner holds its last key past frame 1
		t.Errorf("A=2,B=4 at p=0.25: inner(2.5) = %v, want the held end 1", out[0])
	}
	// A shaped progression: PE_Balloon #1665, 800 ms over #1658, at 400 ms
	// (p = 0.5) gives GetY(0.5) = 0.278383 (§6.4).
	shaped := &model.VirtoolsProgression{Inner: inner, Frames: 800, Shape: balloonCurve1658(), A: 0, B: 1, InnerFrames: 1}
	ev, _ = Compile(shaped)
	ev.Eval(400, out)
	if math.Abs(out[0]-0.278383) > 5e-6 {
		t.Errorf("shaped progression at p=0.5: %v, want 0.278383", out[0])
	}
}

// TestSpinQuarterTurn: Rotate fed by Per Second at 150°/s (§5.5, §5.6)
// turns 90° in 0.6 s about the normalised axis (0.05, 1, 0.05).
func TestSpinQuarterTurn(t *testing.T) {
	rate := 2.6179938 / 30 // radians per frame at 30 frames per second
	rest := [4]float64{0, 0, math.Sin(0.2), math.Cos(0.2)}
	ev, err := Compile(&model.VirtoolsSpin{Rest: rest, Axis: [3]float64{0.05, 1, 0.05}, RadiansPerFrame: rate})
	if err != nil {
		t.Fatal(err)
	}
	q0, q := make([]float64, 4), make([]float64, 4)
	ev.Eval(0, q0)
	ev.Eval(18, q) // 0.6 s
	rel := QuatMul(vxConj([4]float64(q0)), [4]float64(q))
	angle := 2 * math.Acos(math.Min(1, math.Abs(rel[3])))
	if math.Abs(angle-math.Pi/2) > 1e-6 {
		t.Errorf("angle after 0.6 s = %v°, want 90°", angle*180/math.Pi)
	}
	n := math.Sqrt(1.005)
	s := math.Sin(angle / 2)
	want := [3]float64{0.05 / n, 1 / n, 0.05 / n}
	for i := range 3 {
		if math.Abs(rel[i]/s-want[i]) > 1e-6 {
			t.Errorf("axis %v, want %v", rel[:3], want)
		}
	}
}

// TestUVScrollWraps: Texture Scroller removes the integer part
// (virtools-gameplay-building-blocks.txt), so the offset wraps into [0, 1).
func TestUVScrollWraps(t *testing.T) {
	ev, err := Compile(&model.VirtoolsUVScroll{PerFrame: [2]float64{0.25, -0.125}})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, 2)
	ev.Eval(5, out) // 1.25 → 0.25, −0.625 → 0.375
	if out[0] != 0.25 || out[1] != 0.375 {
		t.Errorf("offset at frame 5 = %v, want [0.25 0.375]", out)
	}
}

// TestGraphEvaluatorsDoNotAllocate: Eval is a tight loop (sample.Evaluator).
func TestGraphEvaluatorsDoNotAllocate(t *testing.T) {
	inner := &model.Keyed{Interp: model.InterpLinear, Width: 1, Frames: []float64{0, 1}, Values: []float64{0, 1}}
	for _, c := range []model.Curve{
		&model.VirtoolsProgression{Inner: inner, Frames: 800, Shape: balloonCurve1658(), A: 0, B: 1, InnerFrames: 1},
		&model.VirtoolsSpin{Rest: [4]float64{0, 0, 0, 1}, Axis: [3]float64{0.05, 1, 0.05}, RadiansPerFrame: 0.1},
		&model.VirtoolsUVScroll{PerFrame: [2]float64{0.5, 0.25}},
		balloonCurve1658(),
	} {
		ev, err := Compile(c)
		if err != nil {
			t.Fatal(err)
		}
		out := make([]float64, ev.Width())
		if n := testing.AllocsPerRun(100, func() { ev.Eval(123.4, out) }); n != 0 {
			t.Errorf("%s: %v allocations per Eval", c.CurveKind(), n)
		}
	}
}

// TestBezierProgressionLapDecision runs Bezier Progression's execute
// (virtools-behaviours.md §5.3, time-based version) frame by frame at a
// fixed 16 ms step with MenuLevel #342's wiring (Out → In and Loop Out →
// Loop In, both delay 1), and checks the spec's figures: a lap is 2751
// frames = 44 016 ms, with Value = 1 on two consecutive frames. It then
// checks the converter's rule p(t) = (t mod 44 000)/44 000 (the
// VirtoolsProgression timeline) stays within one frame of the engine over
// the first lap, as §5.3 says.
func TestBezierProgressionLapDecision(t *testing.T) {
	const dt, duration = 16.0, 44000.0
	ev, err := Compile(&model.VirtoolsProgression{Inner: &model.Keyed{Interp: model.InterpLinear, Width: 1,
		Frames: []float64{0, 1}, Values: []float64{0, 1}}, Frames: duration, A: 0, B: 1, InnerFrames: 1})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, 1)
	inActive := true // Set As Active Camera.Out fires In at frame 0
	elapsed := 0.0
	var restarts []int
	ones, worst := 0, 0.0
	for frame := 0; frame < 3*2751+10; frame++ {
		if inActive {
			elapsed = 0
			restarts = append(restarts, frame)
		}
		elapsed += dt
		p := math.Min(1, elapsed/duration)
		if len(restarts) == 1 {
			if p == 1 {
				ones++
			}
			ev.Eval(float64(frame)*dt, out) // the model at the frame's start time
			worst = math.Max(worst, math.Abs(out[0]-p))
		}
		inActive = elapsed > duration // Out (→ In next frame), else Loop Out (→ Loop In)
	}
	if len(restarts) < 3 || restarts[1]-restarts[0] != 2751 || restarts[2]-restarts[1] != 2751 {
		t.Errorf("restarts at frames %v, want a lap of 2751 frames (44 016 ms)", restarts)
	}
	if ones != 2 {
		t.Errorf("Value = 1 on %d frames of the first lap, want 2", ones)
	}
	if worst > dt/duration+1e-12 {
		t.Errorf("model and engine differ by %v in the first lap, more than one frame (%v)", worst, dt/duration)
	}
}
