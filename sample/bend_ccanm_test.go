package sample

import (
	"math"
	"math/rand"
	"testing"

	"github.com/animbake/bake/model"
)

// ccs-anime-playback.txt "Floats and vectors": keys 0 at frame 0 and 2 at
// frame 4 make one segment of 4·256 ticks with delta 2: 0.5 a frame,
// without bending; the final hold (delta 0) does not move, from the
// key's tick on; an interval across the key at frame 4 is not bounded.
func TestBendCcAnmTrack(t *testing.T) {
	ev, err := Compile(&model.CcAnmTrack{Timing: model.CcAnmTiming{Frames: 10}, Kind: model.CcAnmKeyed, Width: 1,
		Frames: []uint32{0, 4}, Values: []float32{0, 2}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		f0, f1, d1 float64
		ok         bool
	}{{1, 2, 0.5, true}, {0, 4, 0.5, true}, {5, 6, 0, true}, {3, 5, 0, false}, {9, 12, 0, true},
		{4, 4 + 1.0/256, 0, true}, {4 - 1.0/256, 4, 0.5, true}} { // a tick each side of the key
		d1, d2, ok := Bend(ev, c.f0, c.f1)
		if ok != c.ok || (ok && (!nearRel(d1, c.d1) || d2 != 0)) {
			t.Errorf("Bend(%g, %g) = %g, %g, %v; want %g, 0, %v", c.f0, c.f1, d1, d2, ok, c.d1, c.ok)
		}
	}
	// From half a tick past frame 1 the game still shows frame 1's tick,
	// 0.5·(0.5/256) = 1/1024 below the line: d2 = 8·(1/1024)/h², h = 1 −
	// 0.5/256, adds exactly that to the chord term h²/8·d2.
	h := 1 - 0.5/256
	if d1, d2, ok := Bend(ev, 1+0.5/256, 2); !ok || !nearRel(d1, 0.5) || !nearRel(d2, 8.0/1024/(h*h)) {
		t.Errorf("Bend(1 + ½ tick, 2) = %g, %g, %v; want 0.5, %g", d1, d2, ok, 8.0/1024/(h*h))
	}
}

// ccs-anime-playback.txt "Rotations": Euler keys (0, 0, 0) at frame 0 and
// (0, 0, 90°) at frame 8 make one step about z over 8 frames, of the
// quantised angle: 90 · 182.044 = 16383.96 truncates to 16383, so
// α = 16383·2π/65536 (1.5707004 rad); ω = α/8 a frame, |q'| = ω/2 and
// |q”| = ω²/4. Quaternion keys a quarter turn apart (θ = π/4 as
// quaternions) over 8 frames slerp at |q'| = θ/8 = π/32 and
// |q”| = π²/1024.
func TestBendCcAnmRotation(t *testing.T) {
	s := float32(math.Sqrt2 / 2)
	w := 16383 * 2 * math.Pi / 65536 / 8
	for i, rc := range []*model.CcAnmRotation{
		{Timing: model.CcAnmTiming{Frames: 12}, Kind: model.CcAnmKeyed, Frames: []uint32{0, 8}, Degrees: []float32{0, 0, 0, 0, 0, 90}},
		{Timing: model.CcAnmTiming{Frames: 12}, Kind: model.CcAnmQuatKeyed, Frames: []uint32{0, 8}, Quats: []float32{0, 0, 0, 1, 0, 0, s, s}},
	} {
		ev, err := Compile(rc)
		if err != nil {
			t.Fatal(err)
		}
		if i == 1 {
			w = math.Pi / 16
		}
		d1, d2, ok := Bend(ev, 2, 3)
		if !ok || math.Abs(d1-w/2) > 1e-6*w || math.Abs(d2-w*w/4) > 1e-6*w*w {
			t.Errorf("kind %v: Bend(2, 3) = %g, %g, %v; want %g, %g", rc.Kind, d1, d2, ok, w/2, w*w/4)
		}
		if _, _, ok := Bend(ev, 7, 9); ok {
			t.Errorf("kind %v: an interval across the key at frame 8 was bounded", rc.Kind)
		}
	}
}

// The bound is never below the finite differences of the evaluator, at
// whole ticks (the times the game shows), on random ccAnm-like curves:
// keys a few frames apart, vectors in metres, Euler keys up to 150° apart
// per axis, quaternion keys up to 120° apart.
func TestBendCcAnmProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(20))
	tick := func(x float64) float64 { return math.Floor(x*ccTicksPerFrame) / ccTicksPerFrame }
	for c := range 150 {
		n := 2 + rng.Intn(5)
		var frames []uint32
		f := uint32(rng.Intn(3))
		for range n {
			frames = append(frames, f)
			f += uint32(1 + rng.Intn(10))
		}
		timing := model.CcAnmTiming{Frames: frames[n-1] + 3}
		var curve model.Curve
		switch c % 3 {
		case 0:
			tr := &model.CcAnmTrack{Timing: timing, Kind: model.CcAnmKeyed, Width: 3, Frames: frames}
			for range 3 * n {
				tr.Values = append(tr.Values, float32(rng.Float64()*10-5))
			}
			curve = tr
		case 1:
			rc := &model.CcAnmRotation{Timing: timing, Kind: model.CcAnmKeyed, Frames: frames}
			for range 3 * n {
				rc.Degrees = append(rc.Degrees, float32(rng.Float64()*300-150))
			}
			curve = rc
		default:
			rc := &model.CcAnmRotation{Timing: timing, Kind: model.CcAnmQuatKeyed, Frames: frames}
			q := randUnitQuat(rng)
			for i := range n {
				if i > 0 {
					q = turnQuat(q, randUnitQuat(rng), rng.Float64()*math.Pi/3)
				}
				for j := range 4 {
					rc.Quats = append(rc.Quats, float32(q[j]))
				}
			}
			curve = rc
		}
		ev, err := Compile(curve)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i+1 < n; i++ {
			a, b := float64(frames[i]), float64(frames[i+1])
			FDCheck(t, "ccanm", ev, a, b, 4.0/ccTicksPerFrame, 1e-5, 40, rng, tick)
			FDCheck(t, "ccanm part", ev, a+(b-a)/3, b-(b-a)/4, 4.0/ccTicksPerFrame, 1e-5, 40, rng, tick)
		}
	}
}
