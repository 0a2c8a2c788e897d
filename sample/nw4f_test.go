package sample

import (
	"math"
	"testing"

	"github.com/animbake/bake/model"
)

// Tests of the NW4F curve evaluator. Expected values are worked by hand in
// the comments or taken from the figures of bfres-container.md (§ numbers
// refer to it) and nw4f-curve.txt.

func evalNW4F(t *testing.T, c *model.NW4FCurve, frame float64) float64 {
	t.Helper()
	e, err := Compile(c)
	if err != nil {
		t.Fatal(err)
	}
	var out [1]float64
	e.Eval(frame, out[:])
	return out[0]
}

func nearNW4F(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// §5.3 synthetic worked example: keys at frames 10 and 20, s16 keys,
// scale 0.001, offset 1.0; key 10 holds (100, 300, −150, 50), key 20 c0=300.
func TestNW4FCubicSpecExample(t *testing.T) {
	c := &model.NW4FCurve{
		CurveType: model.NW4FCubic, FrameType: model.NW4FFrameF32, KeyType: model.NW4FKey16,
		NumKeys: 2, StartFrame: 10, EndFrame: 20, Scale: 0.001, Offset: 1,
		Frames: []float64{10, 20},
		Keys:   []float64{100, 300, -150, 50, 300, 0, 0, 0},
	}
	for _, tc := range []struct{ f, raw, want float64 }{
		{10, 100, 1.1},
		{12.5, 166.40625, 1.16640625}, // 100 + 75 − 9.375 + 0.78125
		{15, 218.75, 1.21875},         // 100 + 150 − 37.5 + 6.25
		{20, 300, 1.3},
	} {
		if got := evalNW4F(t, c, tc.f); !nearNW4F(got, tc.want, 2e-7) {
			t.Errorf("f=%v: got %v, want %v", tc.f, got, tc.want)
		}
		// The raw polynomial is exact in float32 at these t.
		tt := float32((tc.f - 10) / 10)
		if tc.f < 20 {
			if raw := CalcNW4FCubic(tt, 100, 300, -150, 50); float64(raw) != tc.raw {
				t.Errorf("f=%v: raw %v, want %v", tc.f, raw, tc.raw)
			}
		}
	}
}

// §5.3 real worked example (Animal_Dog_Animation.bfres, "Damage", bone
// Root, translate Z): u8 frames 0, 1; s16 keys; key 0 (32767, −3212, 2575,
// −2575), key 1 c0 = 29555. At f=0.5 raw = 31482.875 → −0.0074124; at t=1
// raw = 29555 → −0.0185408.
func TestNW4FCubicDogFigure(t *testing.T) {
	c := &model.NW4FCurve{
		CurveType: model.NW4FCubic, FrameType: model.NW4FFrameU8, KeyType: model.NW4FKey16,
		NumKeys: 2, StartFrame: 0, EndFrame: 1, Scale: 5.772341e-06, Offset: -0.18914230,
		Frames: []float64{0, 1},
		Keys:   []float64{32767, -3212, 2575, -2575, 29555, 0, 0, 0},
	}
	if raw := CalcNW4FCubic(0.5, 32767, -3212, 2575, -2575); raw != 31482.875 {
		t.Errorf("raw at t=0.5 = %v, want 31482.875", raw)
	}
	if got := evalNW4F(t, c, 0.5); !nearNW4F(got, -0.0074124, 5e-8) {
		t.Errorf("f=0.5: got %v, want −0.0074124", got)
	}
	if got := evalNW4F(t, c, 1); !nearNW4F(got, -0.0185408, 5e-8) {
		t.Errorf("f=1: got %v, want −0.0185408", got)
	}
}

// §5.3: the runtime's order ((c3·t + c2)·t)·t + (c1·t + c0), rounded to
// float32 at each step, differs in the last bit from Horner's rule for
// these coefficients. Expected bits worked out step by step in float32
// with an independent script (each product and sum rounded to nearest):
// c3·t = −443.51117, +c2 = 81.04901, ·t = 36.09819, ·t = 16.077671;
// c1·t = −59.889374, +c0 = 611.64087; sum = 627.71857 = 0x441CEDFD.
// Horner's c0 + t(c1 + t(c2 + t·c3)) gives 0x441CEDFC.
func TestNW4FCubicOperationOrder(t *testing.T) {
	f := math.Float32frombits
	c0, c1, c2, c3 := f(0x4427e1ef), f(0xc3067743), f(0x440323da), f(0xc478f26d)
	tt := f(0x3ee409ca)
	if got := math.Float32bits(CalcNW4FCubic(tt, c0, c1, c2, c3)); got != 0x441cedfd {
		t.Errorf("cubic bits 0x%08x, want 0x441cedfd", got)
	}
}

// nw4f-curve.txt's linear example, §5.4: s8 keys at frames 0, 20, 30 with
// (−100, 127), (100, −50), (50, 0); scale 2, offset 200. The key at frame
// 20 with value 254 is discarded in favour of the later key (400).
func TestNW4FLinearDiscardedKey(t *testing.T) {
	c := &model.NW4FCurve{
		CurveType: model.NW4FLinear, FrameType: model.NW4FFrameU8, KeyType: model.NW4FKey8,
		NumKeys: 3, StartFrame: 0, EndFrame: 30, Scale: 2, Offset: 200, Delta: 300,
		Frames: []float64{0, 20, 30},
		Keys:   []float64{-100, 127, 100, -50, 50, 0},
	}
	for _, tc := range []struct{ f, want float64 }{
		{0, 0},         // −100·2 + 200
		{10, 127},      // (−100 + 63.5)·2 + 200
		{20, 400},      // the overriding key: 100·2 + 200
		{25, 350},      // (100 − 25)·2 + 200
		{30, 300},      // last key: 50·2 + 200
		{40, 300},      // clamped
		{-5, 0},        // clamped
		{19.5, 247.65}, // (−100 + 127·0.975)·2 + 200 = 23.825·2 + 200: runs toward the discarded 254
	} {
		if got := evalNW4F(t, c, tc.f); !nearNW4F(got, tc.want, 1e-4) {
			t.Errorf("f=%v: got %v, want %v", tc.f, got, tc.want)
		}
	}
}

// frameCurve is a linear curve whose value is its (wrapped) frame: keys at
// S=0 and E=40, value 0 rising by 40.
func frameCurve(pre, post int) *model.NW4FCurve {
	return &model.NW4FCurve{
		CurveType: model.NW4FLinear, KeyType: model.NW4FKey32, NumKeys: 2,
		StartFrame: 0, EndFrame: 40, Scale: 1, PreWrap: pre, PostWrap: post,
		Frames: []float64{0, 40}, Keys: []float64{0, 40, 40, 0},
	}
}

// §5.1 examples with S=0, E=40.
func TestNW4FWrapModes(t *testing.T) {
	const C, R, M = model.NW4FClamp, model.NW4FRepeat, model.NW4FMirror
	for _, tc := range []struct {
		f         float64
		pre, post int
		want      float64
	}{
		{50, C, C, 40}, {50, C, R, 10}, {50, C, M, 30},
		{90, C, M, 10}, // d=50, n=1, m=10, odd n → S+m
		{-5, R, C, 35}, {-5, M, C, 5},
		{-45, M, C, 35}, // d=45, n=1 odd → E−m = 40−5
		{130, C, R, 10}, // d=90, n=2, m=10
		{20, R, R, 20},  // inside
		{-5, C, R, 0},   // pre clamp
	} {
		if got := evalNW4F(t, frameCurve(tc.pre, tc.post), tc.f); !nearNW4F(got, tc.want, 1e-5) {
			t.Errorf("f=%v pre=%d post=%d: got %v, want %v", tc.f, tc.pre, tc.post, got, tc.want)
		}
		if got := WrapNW4FFrame(float32(tc.f), 0, 40, tc.pre, tc.post); !nearNW4F(float64(got), tc.want, 1e-5) {
			t.Errorf("WrapNW4FFrame(%v): got %v, want %v", tc.f, got, tc.want)
		}
	}
	// §5.1 guard: a single-key curve (D = 0) returns S.
	if got := WrapNW4FFrame(7, 3, 3, R, R); got != 3 {
		t.Errorf("zero-length wrap: got %v, want 3", got)
	}
}

// §4.3 / §5.2: 10.5 fixed frames. Raw 0x0150 = 336 → 10.5, 0xFFE0 = −32 →
// −1.0. At f=10.7 the runtime compares floor(342.4) = 342 with the raw
// frames, selecting the key at 336.
func TestNW4FFixedFrames(t *testing.T) {
	c := &model.NW4FCurve{
		CurveType: model.NW4FStepInt, FrameType: model.NW4FFrameFixed, KeyType: model.NW4FKey16,
		NumKeys: 3, StartFrame: -1, EndFrame: 10.71875, IntOffset: 10,
		Frames: []float64{-32, 336, 343}, Keys: []float64{1, 2, 3},
	}
	for _, tc := range []struct{ f, want float64 }{
		{-1, 11}, {10.4, 11}, {10.5, 12}, {10.7, 12}, {10.71875, 13}, {20, 13},
	} {
		if got := evalNW4F(t, c, tc.f); got != tc.want {
			t.Errorf("f=%v: got %v, want %v", tc.f, got, tc.want)
		}
	}
	e, _ := Compile(c)
	kf := e.(Keyer).KeyFrames()
	if len(kf) != 3 || kf[0] != -1 || kf[1] != 10.5 || kf[2] != 10.71875 {
		t.Errorf("key frames %v, want [-1 10.5 10.71875]", kf)
	}
	if !IsStepped(e) {
		t.Error("step int curve is not stepped")
	}
}

// §5.2 with u8 frames: f = 2.9 quantizes to 2 and falls in the segment
// [1, 3); t = (2.9 − 1)/2 = 0.95. Linear f32 keys (0, 10), (10, 10), (20, 0):
// raw = 10 + 10·0.95 = 19.5.
func TestNW4FU8FramesLinearF32(t *testing.T) {
	c := &model.NW4FCurve{
		CurveType: model.NW4FLinear, FrameType: model.NW4FFrameU8, KeyType: model.NW4FKey32,
		NumKeys: 3, StartFrame: 0, EndFrame: 3, Scale: 1,
		Frames: []float64{0, 1, 3}, Keys: []float64{0, 10, 10, 10, 20, 0},
	}
	if got := evalNW4F(t, c, 2.9); !nearNW4F(got, 19.5, 1e-5) {
		t.Errorf("f=2.9: got %v, want 19.5", got)
	}
	if got := evalNW4F(t, c, 0.5); !nearNW4F(got, 5, 1e-6) {
		t.Errorf("f=0.5: got %v, want 5", got)
	}
}

// §5.5: step int with every key type; the int offset is added, scale ignored.
func TestNW4FStepIntKeyTypes(t *testing.T) {
	for _, kt := range []int{model.NW4FKey32, model.NW4FKey16, model.NW4FKey8} {
		keys := map[int][]float64{
			model.NW4FKey32: {-2000000000, 2000000000},
			model.NW4FKey16: {-32768, 32767},
			model.NW4FKey8:  {-128, 127},
		}[kt]
		c := &model.NW4FCurve{
			CurveType: model.NW4FStepInt, FrameType: model.NW4FFrameF32, KeyType: kt,
			NumKeys: 2, StartFrame: 0, EndFrame: 5, Scale: 123, IntOffset: 7,
			Frames: []float64{0, 5}, Keys: keys,
		}
		if got := evalNW4F(t, c, 4.99); got != keys[0]+7 {
			t.Errorf("key type %d, f=4.99: got %v, want %v", kt, got, keys[0]+7)
		}
		if got := evalNW4F(t, c, 5); got != keys[1]+7 {
			t.Errorf("key type %d, f=5: got %v, want %v", kt, got, keys[1]+7)
		}
	}
}

// §5.5 real FVIS example (material visibility, "Common_Sleep_Getup_L"):
// 10.5 frames 0, 59, 290 (raw 0, 1888, 9280), key word 0x00000006.
func TestNW4FStepBoolFVISFigure(t *testing.T) {
	c := &model.NW4FCurve{
		CurveType: model.NW4FStepBool, FrameType: model.NW4FFrameFixed, KeyType: model.NW4FKey32,
		NumKeys: 3, StartFrame: 0, EndFrame: 290, Scale: math.Float32frombits(1),
		Frames: []float64{0, 1888, 9280}, Keys: []float64{6},
	}
	for _, tc := range []struct{ f, want float64 }{
		{0, 0}, {58.99, 0}, {59, 1}, {200, 1}, {290, 1}, {400, 1},
	} {
		if got := evalNW4F(t, c, tc.f); got != tc.want {
			t.Errorf("f=%v: got %v, want %v", tc.f, got, tc.want)
		}
	}
}

// §5.6: baked curves sample whole frames from int(startFrame).
func TestNW4FBaked(t *testing.T) {
	// Samples [0, 1, 4] from frame 0, f=1.25 → 1·0.75 + 4·0.25 = 1.75;
	// scale 2, offset 1 → 4.5.
	bf := &model.NW4FCurve{CurveType: model.NW4FBakedFloat, KeyType: model.NW4FKey32,
		NumKeys: 3, StartFrame: 0, EndFrame: 2, Scale: 2, Offset: 1, Keys: []float64{0, 1, 4}}
	for _, tc := range []struct{ f, want float64 }{{1.25, 4.5}, {0, 1}, {2, 9}, {5, 9}} {
		if got := evalNW4F(t, bf, tc.f); got != tc.want {
			t.Errorf("baked float f=%v: got %v, want %v", tc.f, got, tc.want)
		}
	}
	// Baked int from frame 10: samples 5, 6, 7; offset −1. f=11.9 → k=1 → 5.
	bi := &model.NW4FCurve{CurveType: model.NW4FBakedInt, KeyType: model.NW4FKey8,
		NumKeys: 3, StartFrame: 10, EndFrame: 12, IntOffset: -1, Keys: []float64{5, 6, 7}}
	if got := evalNW4F(t, bi, 11.9); got != 5 {
		t.Errorf("baked int f=11.9: got %v, want 5", got)
	}
	// Baked bool, 34 samples in two words: bit 33 (word 1, bit 1) is set.
	bb := &model.NW4FCurve{CurveType: model.NW4FBakedBool, NumKeys: 34,
		StartFrame: 0, EndFrame: 33, Keys: []float64{0x00000001, 0x00000002}}
	for _, tc := range []struct{ f, want float64 }{{0, 1}, {1, 0}, {32, 0}, {33, 1}} {
		if got := evalNW4F(t, bb, tc.f); got != tc.want {
			t.Errorf("baked bool f=%v: got %v, want %v", tc.f, got, tc.want)
		}
	}
}

// §9 test vector: Euler (0.3, −0.5, 1.2) with R = Rz·Ry·Rx is the
// quaternion (0.257629, −0.120142, 0.571460, 0.769823).
func TestNW4FEulerOrder(t *testing.T) {
	k := func(v float64) model.Curve { return &model.Constant{Value: []float64{v}} }
	e, err := Compile(&model.EulerRotation{X: k(0.3), Y: k(-0.5), Z: k(1.2), Order: "ZYX"})
	if err != nil {
		t.Fatal(err)
	}
	var q [4]float64
	e.Eval(0, q[:])
	want := [4]float64{0.257629, -0.120142, 0.571460, 0.769823}
	for i := range q {
		if !nearNW4F(q[i], want[i], 1e-6) {
			t.Errorf("q = %v, want %v", q, want)
			break
		}
	}
}

// §8 step 4: quaternion-mode rotations are normalised.
func TestNW4FQuaternionNormalised(t *testing.T) {
	k := func(v float64) model.Curve { return &model.Constant{Value: []float64{v}} }
	e, err := Compile(&model.NW4FQuaternion{X: k(0), Y: k(3), Z: k(0), W: k(4)})
	if err != nil {
		t.Fatal(err)
	}
	var q [4]float64
	e.Eval(0, q[:])
	if q != [4]float64{0, 0.6, 0, 0.8} {
		t.Errorf("q = %v, want (0, 0.6, 0, 0.8)", q)
	}
}

// Eval must not allocate (sample.Evaluator contract).
func TestNW4FEvalDoesNotAllocate(t *testing.T) {
	e, err := Compile(frameCurve(model.NW4FMirror, model.NW4FRepeat))
	if err != nil {
		t.Fatal(err)
	}
	var out [1]float64
	if n := testing.AllocsPerRun(100, func() { e.Eval(57.3, out[:]) }); n != 0 {
		t.Errorf("Eval allocates %v times", n)
	}
}

// Invalid curves are refused at compile time, never evaluated.
func TestNW4FCompileRejects(t *testing.T) {
	bad := []*model.NW4FCurve{
		{CurveType: 3, NumKeys: 1, Frames: []float64{0}, Keys: []float64{0}},
		{CurveType: model.NW4FCubic, NumKeys: 2, Frames: []float64{0, 1}, Keys: []float64{0}},
		{CurveType: model.NW4FLinear, NumKeys: 0},
		{CurveType: model.NW4FStepBool, NumKeys: 33, Frames: make([]float64, 33), Keys: []float64{0}},
	}
	for i, c := range bad {
		if _, err := Compile(c); err == nil {
			t.Errorf("curve %d compiled", i)
		}
	}
}

// A cubic's jumps are read from its keys: segment 0 (frames 0–10) runs
// 0 → 1 + 2 − 1 + 0 = 2 (c0 + c1 + c2 + c3 at t = 1); segment 1 starts at
// 2 (continuous) and ends at 2 + 1 = 3; segment 2 starts at 5 (a jump of 2
// at frame 20, 2/(1+5) above any threshold below 1/3). Two keys at frame
// 30 encode a jump the runtime takes the later of: 5 + 0 at t = 1 against
// 9. Scale 1, offset 0.
func TestNW4FJumpFramesFromKeys(t *testing.T) {
	c := &model.NW4FCurve{
		CurveType: model.NW4FCubic, FrameType: model.NW4FFrameF32, KeyType: model.NW4FKey32,
		NumKeys: 5, StartFrame: 0, EndFrame: 40, Scale: 1,
		Frames: []float64{0, 10, 20, 30, 30},
		Keys: []float64{
			0, 1, 2, -1,
			2, 1, 0, 0,
			5, 0, 0, 0,
			7, 0, 0, 0, // never picked: the later key at frame 30 wins
			9, 0, 0, 0,
		},
	}
	ev, err := Compile(c)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := JumpFrames(ev, 1e-5)
	if !ok || len(got) != 2 || got[0] != 20 || got[1] != 30 {
		t.Fatalf("jumps %v (ok %v), want [20 30]", got, ok)
	}
	// Evaluating confirms both: just before 20 the value is 3, at 20 it is
	// 5; just before 30, 5, at 30, 9.
	for _, tc := range []struct{ f, want float64 }{{19.999, 3}, {20, 5}, {29.999, 5}, {30, 9}} {
		var v [1]float64
		ev.Eval(tc.f, v[:])
		if math.Abs(v[0]-tc.want) > 1e-2 {
			t.Errorf("frame %v: %v, want %v", tc.f, v[0], tc.want)
		}
	}
	// A threshold above the jumps' relative size (2/6, 4/10) finds none.
	if got, _ := JumpFrames(ev, 0.5); len(got) != 0 {
		t.Errorf("threshold 0.5: jumps %v, want none", got)
	}
}
