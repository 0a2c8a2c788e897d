package ccs

import (
	"math"
	"testing"

	"github.com/animbake/bake/import/ccs/ccswrite"
	"github.com/animbake/bake/internal/modeltest"
	"github.com/animbake/bake/model"
)

// These tests run files from the project's writer through the importer
// and package sample's ccAnm evaluators, against values worked out by hand
// from the specs' rules.

// oneTrack builds a file whose one animation (N frames, play once) drives
// OBJ_a with the given position track and decodes it.
func oneTrack(t *testing.T, n uint32, pos, rot ccswrite.Track) *model.Animation {
	t.Helper()
	b := ccswrite.New("t", 0x110)
	o := b.Object("OBJ_a", "a.max")
	anm := b.Object("ANM_a", "a.max")
	b.Anime(anm, n, false, []ccswrite.Record{ccswrite.ObjCtrl(o, pos, rot, ccswrite.Absent, ccswrite.Absent)})
	f := mustDecode(t, b.Bytes())
	return &f.Animations[0]
}

// "Floats and vectors" (ccs-anime-playback.txt): keys 10 at frame 2 and 20
// at frame 4, N = 6. SetCtrl makes a hold segment (512, 0) before the first
// key, then (512, +10), then the final hold of 6·256 − 4·256 = 512. Frames
// 0 and 1 hold the first key, frame 3 is 10 + 10·(256/512) = 15, frame 5
// holds the last key, and time clamps at (N − 1)·256, so frame 9 is 20.
func TestPlaybackHoldsAndSegments(t *testing.T) {
	a := oneTrack(t, 6, ccswrite.Keyed(ccswrite.K(2, 10, 0, 0), ccswrite.K(4, 20, 0, 0)), ccswrite.Absent)
	for _, c := range []struct{ frame, want float64 }{{0, 10}, {1, 10}, {2, 10}, {3, 15}, {4, 20}, {5, 20}, {9, 20}} {
		if got := modeltest.Eval(t, a, "OBJ_a", model.PathTranslation, c.frame)[0]; got != c.want {
			t.Errorf("frame %v: %v, want %v", c.frame, got, c.want)
		}
	}
}

// Two keys on one frame make a segment of 0 that is always passed; a key
// that goes back in time makes a segment of about 2^32 that is never passed
// (ccs-anime-playback.txt "Floats and vectors").
func TestPlaybackZeroAndWrappedDurations(t *testing.T) {
	// Keys 0@0, 4@2, 10@2, 20@4 (N = 6): segments (512, 4), (0, 6),
	// (512, 10). At frame 2 (t = 512) the first segment is not below the
	// remaining time: 0 + 4·1 = 4. At frame 3 (t = 768) it and the zero
	// segment are passed: 10 + 10·(256/512) = 15.
	a := oneTrack(t, 6, ccswrite.Keyed(ccswrite.K(0, 0, 0, 0), ccswrite.K(2, 4, 0, 0), ccswrite.K(2, 10, 0, 0), ccswrite.K(4, 20, 0, 0)), ccswrite.Absent)
	for _, c := range []struct{ frame, want float64 }{{1, 2}, {2, 4}, {3, 15}, {4, 20}} {
		if got := modeltest.Eval(t, a, "OBJ_a", model.PathTranslation, c.frame)[0]; got != c.want {
			t.Errorf("zero segment, frame %v: %v, want %v", c.frame, got, c.want)
		}
	}
	// Keys 0@0, 8@4, 8@2, 16@6 (N = 8): segments (1024, 8),
	// (u32(512 − 1024) = 2^32 − 512, 0), (1024, 8). The wrapped segment is
	// never passed, so from frame 4 on the value stays 8 + 0·q = 8 and the
	// key 16 at frame 6 is never reached.
	a = oneTrack(t, 8, ccswrite.Keyed(ccswrite.K(0, 0, 0, 0), ccswrite.K(4, 8, 0, 0), ccswrite.K(2, 8, 0, 0), ccswrite.K(6, 16, 0, 0)), ccswrite.Absent)
	for _, c := range []struct{ frame, want float64 }{{2, 4}, {4, 8}, {6, 8}, {7, 8}} {
		if got := modeltest.Eval(t, a, "OBJ_a", model.PathTranslation, c.frame)[0]; got != c.want {
			t.Errorf("wrapped segment, frame %v: %v, want %v", c.frame, got, c.want)
		}
	}
}

// EE single precision (ps2-ee-float.md §9.5, worked example 3): keys 10.0
// at frame 0 and 6.3 at frame 3, N = 4. delta = 6.3f − 10 = −3.6999998
// exactly (0xC06CCCCC); at t = 223 (frame 223/256) q = 223/768 =
// 0x3E94AAAA; delta·q truncates to 0xBF898443 (the exact product is 0.185
// ulp above it); 10 + that, exponent gap 3, the product's low 2 bits masked:
// 0x410ECF78, where IEEE gives 0x410ECF77.
func TestPlaybackEEAccumulationBits(t *testing.T) {
	a := oneTrack(t, 4, ccswrite.Keyed(ccswrite.K(0, 10, 0, 0), ccswrite.K(3, 6.3, 0, 0)), ccswrite.Absent)
	got := modeltest.Eval(t, a, "OBJ_a", model.PathTranslation, 223.0/256)[0]
	if bits := math.Float32bits(float32(got)); bits != 0x410ECF78 || float64(float32(got)) != got {
		t.Errorf("value at t = 223: %08X (%v), want 410ECF78", bits, got)
	}
}

// quatClose compares unit quaternions up to sign.
func quatClose(q []float64, want [4]float64, tol float64) bool {
	d1, d2 := 0.0, 0.0
	for i := range 4 {
		d1 = max(d1, math.Abs(q[i]-want[i]))
		d2 = max(d2, math.Abs(q[i]+want[i]))
	}
	return min(d1, d2) <= tol
}

// Rotation keys are quantised to 1/65536 turn: s16(int(90 · 182.044)) =
// int(16383.96) = 16383, so a 90° key turns by θ = 16383·2π/65536 =
// 1.5706005 rad, not π/2 (ccs-anime-playback.txt "Rotations"). Keys
// (0,0,0)@0, (0,0,90)@2, (0,90,90)@4 (N = 5): the steps are Rz(θ) and
// R2·R1ᵀ = Ry(θ); at frame 3 the running matrix Rz(θ) has half the second
// step on its left: Ry(θ/2)·Rz(θ), quaternion qy(θ/2)·qz(θ) =
// (sin(θ/4)·sin(θ/2), sin(θ/4)·cos(θ/2), cos(θ/4)·sin(θ/2), cos(θ/4)·cos(θ/2)).
// The port matches the game to 1e-5 per matrix element; π/2 instead of θ
// would be off by 3.4e-5 in the quaternion.
func TestPlaybackQuantisedTwoStepRotation(t *testing.T) {
	a := oneTrack(t, 5, ccswrite.Absent, ccswrite.Keyed(ccswrite.K(0, 0, 0, 0), ccswrite.K(2, 0, 0, 90), ccswrite.K(4, 0, 90, 90)))
	th := 16383 * 2 * math.Pi / 65536
	at2 := [4]float64{0, 0, math.Sin(th / 2), math.Cos(th / 2)}
	if q := modeltest.Eval(t, a, "OBJ_a", model.PathRotation, 2); !quatClose(q, at2, 2e-6) {
		t.Errorf("frame 2: %v, want Rz(θ) %v", q, at2)
	}
	s4, c4, s2, c2 := math.Sin(th/4), math.Cos(th/4), math.Sin(th/2), math.Cos(th/2)
	at3 := [4]float64{s4 * s2, s4 * c2, c4 * s2, c4 * c2}
	if q := modeltest.Eval(t, a, "OBJ_a", model.PathRotation, 3); !quatClose(q, at3, 5e-6) {
		t.Errorf("frame 3: %v, want Ry(θ/2)·Rz(θ) %v", q, at3)
	}
	exact := [4]float64{math.Sin(math.Pi/8) * math.Sin(math.Pi/4), math.Sin(math.Pi/8) * math.Cos(math.Pi/4), math.Cos(math.Pi/8) * math.Sin(math.Pi/4), math.Cos(math.Pi/8) * math.Cos(math.Pi/4)}
	if q := modeltest.Eval(t, a, "OBJ_a", model.PathRotation, 3); quatClose(q, exact, 2e-5) {
		t.Errorf("frame 3: %v matches the unquantised %v", q, exact)
	}
}

// A single-value rotation is sceVu0RotMatrix(deg·π/180), not quantised:
// (0, 0, 90) gives Rz(π/2) up to the VU0 polynomial's error.
func TestPlaybackSingleValueRotation(t *testing.T) {
	a := oneTrack(t, 2, ccswrite.Absent, ccswrite.Const(0, 0, 90))
	want := [4]float64{0, 0, math.Sqrt(0.5), math.Sqrt(0.5)}
	if q := modeltest.Eval(t, a, "OBJ_a", model.PathRotation, 1); !quatClose(q, want, 2e-6) {
		t.Errorf("single value: %v, want %v", q, want)
	}
}

// F_Obj poses evaluate as held steps (ccs-anime-playback.txt "F_Obj"):
// ANM_eex1dmg0's body is at rest before frame 1, 3.875 up from frame 1,
// 7.75 from frame 2; its transparency is clamped (1.5 → 1).
func TestPlaybackFObj(t *testing.T) {
	f := mustDecode(t, mustKite())
	a := modeltest.Animation(t, f, "ANM_eex1dmg0")
	for _, c := range []struct{ frame, z, alpha float64 }{{0, 0, 1}, {0.5, 0, 1}, {1, 3.875, 1}, {1.75, 3.875, 1}, {2, 7.75, 0.5}, {3, 11.625, 0}} {
		if z := modeltest.Eval(t, a, "OBJ_eex1body", model.PathTranslation, c.frame)[2]; z != c.z {
			t.Errorf("frame %v: z = %v, want %v", c.frame, z, c.z)
		}
		if al := modeltest.Eval(t, a, "OBJ_eex1body", model.PathAlpha, c.frame)[0]; al != c.alpha {
			t.Errorf("frame %v: alpha = %v, want %v", c.frame, al, c.alpha)
		}
	}
	// Frame 1's pose tips the body 7.5° about y and −7.5° about z, through
	// sceVu0RotMatrix (Rx·Ry·Rz): quaternion qy(7.5°)·qz(−7.5°).
	s, c := math.Sin(7.5*math.Pi/360), math.Cos(7.5*math.Pi/360)
	want := [4]float64{-s * s, s * c, -c * s, c * c}
	if q := modeltest.Eval(t, a, "OBJ_eex1body", model.PathRotation, 1); !quatClose(q, want, 5e-4) {
		t.Errorf("frame 1 rotation %v, want %v", q, want)
	}
}

// Morph weights evaluate as held steps from their frame on.
func TestPlaybackMorphWeights(t *testing.T) {
	f := mustDecode(t, mustKite())
	a := modeltest.Animation(t, f, "ANM_ctu1atc0")
	for _, c := range []struct {
		frame float64
		want  [2]float64
	}{{0, [2]float64{0, 0}}, {1.5, [2]float64{0, 0}}, {2, [2]float64{0.5, 1}}, {6.9, [2]float64{0.5, 1}}, {7, [2]float64{0, 0.25}}} {
		w := modeltest.Eval(t, a, "MPH_face", model.PathWeights, c.frame)
		if w[0] != c.want[0] || w[1] != c.want[1] {
			t.Errorf("frame %v: weights %v, want %v", c.frame, w, c.want)
		}
	}
}
