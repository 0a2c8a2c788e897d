package sample

import (
	"math"
	"math/rand"
	"testing"

	"github.com/animbake/bake/model"
)

// A cubic BFRES key over frames 0..4 with c = (1, 2, −3, 1), scale 1:
// on frames [1, 2] (t in [0.25, 0.5], d = 4), f' = (2 − 6t + 3t²)/4 is
// 0.6875/4 at t = 0.25 and −0.25/4 at t = 0.5 (its vertex t = 1 is
// outside), f” = (−6 + 6t)/16 is −4.5/16 and −3/16 (bfres-container.md
// §5.3's polynomial).
func TestBendNW4FCubic(t *testing.T) {
	c := &model.NW4FCurve{CurveType: model.NW4FCubic, FrameType: model.NW4FFrameF32, KeyType: model.NW4FKey32,
		NumKeys: 2, StartFrame: 0, EndFrame: 8, Scale: 1, Frames: []float64{0, 4}, Keys: []float64{1, 2, -3, 1, 0, 0, 0, 0}}
	ev, err := Compile(c)
	if err != nil {
		t.Fatal(err)
	}
	d1, d2, ok := Bend(ev, 1, 2)
	if !ok || !nearRel(d1, 0.6875/4) || !nearRel(d2, 4.5/16) {
		t.Errorf("Bend(1, 2) = %g, %g, %v; want %g, %g", d1, d2, ok, 0.6875/4, 4.5/16)
	}
	if _, _, ok := Bend(ev, 3, 5); ok {
		t.Error("an interval across the key at frame 4 was bounded")
	}
}

// A Hermite segment worked by hand: frames 0 and 2, values 0 and 1,
// tangents 1 and 0 per frame: p(t) = 2t − t² with t = f/2, so the value
// is f − f²/4, f' = 1 − f/2 (1 at f = 0) and f” = −1/2. Its chord over
// [0, 1] (0 to 0.75) misses f(0.5) = 0.4375 by 0.0625 = 1²/8·|f”|: the
// bound is exact there.
func TestBendHermite(t *testing.T) {
	k := &model.Keyed{Interp: model.InterpHermite, Width: 1, Frames: []float64{0, 2}, Values: []float64{0, 1},
		InTangents: []float64{0, 0}, OutTangents: []float64{1, 0}}
	ev, err := Compile(k)
	if err != nil {
		t.Fatal(err)
	}
	d1, d2, ok := Bend(ev, 0, 1)
	if !ok || !nearRel(d1, 1) || !nearRel(d2, 0.5) {
		t.Errorf("Bend(0, 1) = %g, %g, %v; want 1, 0.5", d1, d2, ok)
	}
	var v [1]float64
	ev.Eval(0.5, v[:])
	if chord := 0.75 / 2; !nearRel(v[0]-chord, 1.0/8*d2) {
		t.Errorf("the chord misses by %g, want h²/8·f” = %g", v[0]-chord, 1.0/8*d2)
	}
}

// One Euler angle moving alone at a constant rate s: q = (sin(x/2), 0, 0,
// cos(x/2)) turns at |q'| = s/2 and bends at |q”| = s²/4, which the bound
// gives exactly (Σ|a”|/2 + (Σ|a'|)²/4 with a” = 0).
func TestBendEulerOneAxis(t *testing.T) {
	x := &model.Keyed{Interp: model.InterpLinear, Width: 1, Frames: []float64{0, 10}, Values: []float64{0, 3}}
	zero := &model.Constant{Value: []float64{0}}
	ev, err := Compile(&model.EulerRotation{X: x, Y: zero, Z: zero, Order: "ZYX"})
	if err != nil {
		t.Fatal(err)
	}
	d1, d2, ok := Bend(ev, 2, 3)
	if s := 0.3; !ok || !nearRel(d1, s/2) || !nearRel(d2, s*s/4) {
		t.Errorf("Bend = %g, %g, %v; want %g, %g", d1, d2, ok, s/2, s*s/4)
	}
}

func nearRel(a, b float64) bool { return near(a, b, 1e-12*(1+math.Abs(b))) }

// Gimbal lock worked by hand: y = −90° held, x turning at 0.3 rad a frame
// and z at −0.3 (BFRES linear keys over 10 frames, c1 = ±3). R_z(z)·R_y(−90°)·
// R_x(x) depends on x + z only, so the rotation does not move:
// ω_b = (x'·cos y, y', z' − x'·sin y) = (0, 0, −0.3 + 0.3) and the bound
// is 0 (Σ|a'|/2 would give 0.3). With y = 0 instead, ω_b = (0.3, 0,
// −0.3): |q'| = |ω|/2 = √0.18/2, and ω' = (0, z'x', 0) = (0, −0.09, 0):
// |q”| ≤ 0.09/2 + 0.18/4 = 0.09.
func TestBendEulerGimbalLock(t *testing.T) {
	lin := func(c1 float64) *model.NW4FCurve {
		return &model.NW4FCurve{CurveType: model.NW4FLinear, FrameType: model.NW4FFrameF32, KeyType: model.NW4FKey32,
			NumKeys: 2, StartFrame: 0, EndFrame: 10, Scale: 1, Frames: []float64{0, 10}, Keys: []float64{0, c1, 0, 0}}
	}
	for _, tc := range []struct {
		y      float64
		d1, d2 float64
	}{{-math.Pi / 2, 0, 0}, {0, math.Sqrt(0.18) / 2, 0.09}} {
		ev, err := Compile(&model.EulerRotation{X: lin(3), Y: &model.Constant{Value: []float64{tc.y}}, Z: lin(-3), Order: "ZYX"})
		if err != nil {
			t.Fatal(err)
		}
		d1, d2, ok := Bend(ev, 2, 3)
		if !ok || !near(d1, tc.d1, 1e-9) || !near(d2, tc.d2, 1e-9) {
			t.Errorf("y = %g: Bend = %g, %g, %v; want %g, %g", tc.y, d1, d2, ok, tc.d1, tc.d2)
		}
	}
}

// Random cubic angle curves: |q'| and |q”| by central differences never
// exceed the bounds, for the ZYX ranges and for the general form.
func TestBendEulerRandomCubics(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	cubic := func() *model.NW4FCurve {
		k := make([]float64, 8)
		for j := range 4 {
			k[j] = rng.NormFloat64() * 2
		}
		return &model.NW4FCurve{CurveType: model.NW4FCubic, FrameType: model.NW4FFrameF32, KeyType: model.NW4FKey32,
			NumKeys: 2, StartFrame: 0, EndFrame: 4, Scale: 1, Frames: []float64{0, 4}, Keys: k}
	}
	for _, order := range []string{"ZYX", "XYZ"} {
		for range 200 {
			ev, err := Compile(&model.EulerRotation{X: cubic(), Y: cubic(), Z: cubic(), Order: order})
			if err != nil {
				t.Fatal(err)
			}
			f0 := rng.Float64() * 3
			f1 := f0 + rng.Float64()*(4-f0)
			b1, b2, ok := Bend(ev, f0, f1)
			if !ok {
				t.Fatal("no bound")
			}
			const h = 1e-2
			if f1-f0 < 4*h {
				continue
			}
			var q0, q1, q2 [4]float64
			for j := range 21 {
				f := f0 + h + (f1-f0-2*h)*float64(j)/20
				ev.Eval(f-h, q0[:])
				ev.Eval(f, q1[:])
				ev.Eval(f+h, q2[:])
				var s1, s2 float64
				for c := range 4 {
					s1 += (q2[c] - q0[c]) * (q2[c] - q0[c]) / (4 * h * h)
					d := (q2[c] - 2*q1[c] + q0[c]) / (h * h)
					s2 += d * d
				}
				// float32 evaluation: differences carry ~1e-7/h² of noise, and
				// O(h²) of truncation.
				if math.Sqrt(s1) > b1*(1+1e-3)+1e-3 || math.Sqrt(s2) > b2*(1+1e-2)+5e-2 {
					t.Fatalf("%s frames %g..%g at %g: |q'| %g (bound %g), |q''| %g (bound %g)", order, f0, f1, f, math.Sqrt(s1), b1, math.Sqrt(s2), b2)
				}
			}
		}
	}
}
