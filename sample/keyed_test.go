package sample

import (
	"math"
	"math/rand"
	"testing"

	"github.com/animbake/bake/model"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func evalAt(t *testing.T, c model.Curve, frame float64) []float64 {
	t.Helper()
	ev, err := Compile(c)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, ev.Width())
	ev.Eval(frame, out)
	return out
}

// Linear keys: values worked by hand; ends held (the model's rule for
// frames outside the keys).
func TestKeyedLinearAndHeldEnds(t *testing.T) {
	k := &model.Keyed{Interp: model.InterpLinear, Width: 2, Frames: []float64{10, 20},
		Values: []float64{0, 100, 10, 50}}
	for _, tc := range []struct{ f, x, y float64 }{
		{0, 0, 100}, {10, 0, 100}, {12.5, 2.5, 87.5}, {15, 5, 75}, {20, 10, 50}, {99, 10, 50},
	} {
		v := evalAt(t, k, tc.f)
		if !near(v[0], tc.x, 1e-12) || !near(v[1], tc.y, 1e-12) {
			t.Errorf("frame %v: got %v, want (%v, %v)", tc.f, v, tc.x, tc.y)
		}
	}
}

func TestKeyedStepHoldsLeftKey(t *testing.T) {
	k := &model.Keyed{Interp: model.InterpStep, Width: 1, Frames: []float64{0, 5, 9}, Values: []float64{1, 2, 3}}
	want := map[float64]float64{-1: 1, 0: 1, 4.999: 1, 5: 2, 8.5: 2, 9: 3, 50: 3}
	for f, w := range want {
		if v := evalAt(t, k, f); v[0] != w {
			t.Errorf("frame %v: got %v, want %v", f, v[0], w)
		}
	}
}

// Slerp between identity and a 90° turn about z: halfway is 45° about z,
// (0, 0, sin 22.5°, cos 22.5°).
func TestSlerpHalfway(t *testing.T) {
	s := math.Sqrt(0.5)
	k := &model.Keyed{Interp: model.InterpSlerp, Width: 4, Frames: []float64{0, 10},
		Values: []float64{0, 0, 0, 1, 0, 0, s, s}}
	v := evalAt(t, k, 5)
	want := []float64{0, 0, math.Sin(math.Pi / 8), math.Cos(math.Pi / 8)}
	for i := range 4 {
		if !near(v[i], want[i], 1e-12) {
			t.Fatalf("got %v, want %v", v, want)
		}
	}
	// A quarter of the way: 22.5° about z.
	v = evalAt(t, k, 2.5)
	if !near(v[2], math.Sin(math.Pi/16), 1e-12) || !near(v[3], math.Cos(math.Pi/16), 1e-12) {
		t.Fatalf("quarter: got %v", v)
	}
}

// Slerp and nlerp take the short way: the right key's sign is flipped when
// the dot product is negative, so -q is treated as q.
func TestSlerpShortWay(t *testing.T) {
	s := math.Sqrt(0.5)
	k := &model.Keyed{Interp: model.InterpSlerp, Width: 4, Frames: []float64{0, 10},
		Values: []float64{0, 0, 0, 1, 0, 0, -s, -s}}
	v := evalAt(t, k, 5)
	if !near(v[2], math.Sin(math.Pi/8), 1e-12) || !near(v[3], math.Cos(math.Pi/8), 1e-12) {
		t.Fatalf("got %v", v)
	}
	k.Interp = model.InterpNlerp
	v = evalAt(t, k, 5)
	// nlerp halfway of (0,0,0,1) and (0,0,s,s): (0,0,s/2,(1+s)/2) normalised,
	// which is also 45° about z.
	if !near(v[2], math.Sin(math.Pi/8), 1e-12) || !near(v[3], math.Cos(math.Pi/8), 1e-12) {
		t.Fatalf("nlerp got %v", v)
	}
}

// Hermite: p0 = 0, p1 = 1, both tangents 0 per frame over 2 frames gives
// smoothstep: at t = 0.25, 3t² − 2t³ = 0.15625. With out-tangent 1 per frame
// and in-tangent 0 over a 2-frame segment: h10·2 adds (t³ − 2t² + t)·2 =
// 0.28125 at t = 0.25.
func TestHermite(t *testing.T) {
	k := &model.Keyed{Interp: model.InterpHermite, Width: 1, Frames: []float64{0, 2}, Values: []float64{0, 1},
		InTangents: []float64{0, 0}, OutTangents: []float64{0, 0}}
	if v := evalAt(t, k, 0.5); !near(v[0], 0.15625, 1e-15) {
		t.Fatalf("smoothstep got %v", v[0])
	}
	k.OutTangents[0] = 1
	if v := evalAt(t, k, 0.5); !near(v[0], 0.15625+0.28125, 1e-15) {
		t.Fatalf("with tangent got %v", v[0])
	}
}

// Euler ZYX (R = Rz·Ry·Rx): 90° about x then 90° about z. The product
// quaternion qz·qx = (s,0,0,s)·... worked by hand: qz = (0,0,s,s),
// qx = (s,0,0,s) → qz·qx = (s·s, s·s, s·s, s·s) = (0.5, 0.5, 0.5, 0.5).
func TestEulerZYX(t *testing.T) {
	c := func(v float64) model.Curve { return &model.Constant{Value: []float64{v}} }
	e := &model.EulerRotation{X: c(math.Pi / 2), Y: c(0), Z: c(math.Pi / 2), Order: "ZYX"}
	v := evalAt(t, e, 0)
	for i := range 4 {
		if !near(v[i], 0.5, 1e-12) {
			t.Fatalf("got %v, want all 0.5", v)
		}
	}
}

func TestSampledLerpAndHold(t *testing.T) {
	s := &model.Sampled{Width: 1, Start: 0, Step: 1, Values: []float64{0, 1, 4}}
	if v := evalAt(t, s, 1.25); !near(v[0], 1.75, 1e-15) {
		t.Fatalf("got %v", v)
	}
	s.Hold = true
	if v := evalAt(t, s, 1.25); v[0] != 1 {
		t.Fatalf("hold got %v", v)
	}
	if v := evalAt(t, s, 7); v[0] != 4 {
		t.Fatalf("end got %v", v)
	}
}

// The ZYX fast path is the product R_z·R_y·R_x of the three axis
// quaternions, value for value (zeros may differ in sign only).
func TestEulerZYXFastPathIsTheProduct(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := range 200000 {
		x, y, z := (r.Float64()-0.5)*10, (r.Float64()-0.5)*10, (r.Float64()-0.5)*10
		if i%3 == 0 {
			x = 0
		}
		if i%5 == 0 {
			y = 0
		}
		got := EulerToQuat(x, y, z, "ZYX")
		want := QuatMul(QuatMul(axisQuat('Z', x, y, z), axisQuat('Y', x, y, z)), axisQuat('X', x, y, z))
		if got != want {
			t.Fatalf("%v %v %v: %v, want %v", x, y, z, got, want)
		}
	}
}
