package sample

import (
	"math"
	"testing"

	"github.com/animbake/bake/model"
)

// Oracles below are worked by hand from oni-oban.txt "The matrix at a
// frame" and the MUrQuat_Lerp / MUrPoint3D_Lerp formulas in
// docs/formats/oni.md "Interpolation".

// s45 is float32(√½) = 0.70710677.
var s45 = float64(float32(math.Sqrt2 / 2))

func oniEvalAt(t *testing.T, k *model.OniKeys, frame float64) []float64 {
	t.Helper()
	e, err := Compile(k)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, e.Width())
	e.Eval(frame, out)
	return out
}

func oniNear(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	for i := range want {
		if math.Abs(got[i]-want[i]) > tol {
			t.Errorf("%s: got %v, want %v (±%g)", what, got, want, tol)
			return
		}
	}
}

// "A key at the frame gives its rotation and position": the stored value
// comes back bit for bit, even a quaternion that is not unit length (no
// normalisation happens at a key).
func TestOniKeyAtFrameIsExact(t *testing.T) {
	rot := &model.OniKeys{Width: 4, Frames: []float64{0, 10, 20},
		Values: []float64{0, 0, 0, 1, 0, 0, 0.5, 0.5, 0.25, -0.5, 0.75, 2}}
	for i, f := range []float64{0, 10, 20} {
		got := oniEvalAt(t, rot, f)
		for j := range 4 {
			if got[j] != rot.Values[4*i+j] {
				t.Fatalf("frame %v: got %v, want key %d %v exactly", f, got, i, rot.Values[4*i:4*i+4])
			}
		}
	}
}

// "Before the first key or after the last ... the port holds the nearest end."
func TestOniHoldsNearestEnd(t *testing.T) {
	pos := &model.OniKeys{Width: 3, Frames: []float64{10, 20}, Values: []float64{1, 2, 3, 4, 5, 6}}
	for _, c := range []struct {
		frame float64
		want  []float64
	}{{-100, []float64{1, 2, 3}}, {0, []float64{1, 2, 3}}, {9.999, []float64{1, 2, 3}},
		{20.001, []float64{4, 5, 6}}, {1e6, []float64{4, 5, 6}}} {
		got := oniEvalAt(t, pos, c.frame)
		for j := range 3 {
			if got[j] != c.want[j] {
				t.Errorf("frame %v: got %v, want %v", c.frame, got, c.want)
			}
		}
	}
}

// MUrPoint3D_Lerp: from·(1−t) + to·t with t = (frame−before)/(after−before).
func TestOniPositionLerp(t *testing.T) {
	pos := &model.OniKeys{Width: 3, Frames: []float64{0, 4}, Values: []float64{0, 0, 0, 4, 8, -2}}
	oniNear(t, "frame 1 (t=1/4)", oniEvalAt(t, pos, 1), []float64{1, 2, -0.5}, 0)
	oniNear(t, "frame 3 (t=3/4)", oniEvalAt(t, pos, 3), []float64{3, 6, -1.5}, 0)
	oniNear(t, "frame 2.5 (t=5/8)", oniEvalAt(t, pos, 2.5), []float64{2.5, 5, -1.25}, 0)
}

// The lerp runs in single precision: with keys (0,0,0) at 0 and (1,3,0) at
// 3, frame 1 has t = float32(1/3) = 0x3EAAAAAB = 11184811·2⁻²⁵, so x = t
// (0.3333333432674408, not 1/3) and y = 3t = 33554433·2⁻²⁵ rounds to
// exactly 1 in float32 (double precision would give 1.0000000298).
func TestOniPositionLerpIsSinglePrecision(t *testing.T) {
	pos := &model.OniKeys{Width: 3, Frames: []float64{0, 3}, Values: []float64{0, 0, 0, 1, 3, 0}}
	got := oniEvalAt(t, pos, 1)
	if want := float64(math.Float32frombits(0x3EAAAAAB)); got[0] != want {
		t.Errorf("x = %.17g, want float32(1/3) = %.17g", got[0], want)
	}
	if got[1] != 1 {
		t.Errorf("y = %.17g, want exactly 1 (3·float32(1/3) rounded to float32)", got[1])
	}
}

// MUrQuat_Lerp is a normalised lerp, not a slerp. From the identity to a
// quarter turn about z, t = 1/2 gives the half-way rotation (22.5° half
// angle: sin π/8 = 0.38268343, cos π/8 = 0.92387953) like slerp, but t = 1/4
// gives (0.25·√½, 0.75 + 0.25·√½)/|…| = (0.18736555, 0.98229026), a
// rotation of 21.598°, where slerp would give 22.5° (sin π/16 = 0.19509032).
func TestOniQuatLerpIsNlerp(t *testing.T) {
	rot := &model.OniKeys{Width: 4, Frames: []float64{0, 4}, Values: []float64{0, 0, 0, 1, 0, 0, s45, s45}}
	oniNear(t, "t=1/2", oniEvalAt(t, rot, 2), []float64{0, 0, 0.38268343, 0.92387953}, 2e-7)
	got := oniEvalAt(t, rot, 1)
	oniNear(t, "t=1/4", got, []float64{0, 0, 0.18736555, 0.98229026}, 2e-7)
	if math.Abs(got[2]-0.19509032) < 1e-3 {
		t.Errorf("t=1/4 gave the slerp value %v", got)
	}
	if n := math.Sqrt(got[0]*got[0] + got[1]*got[1] + got[2]*got[2] + got[3]*got[3]); math.Abs(n-1) > 1e-7 {
		t.Errorf("result is not normalised: |q| = %v", n)
	}
}

// MUrQuat_Lerp takes the short way: when the dot product is negative the
// right key is negated first, so keys q and −q' mix like q and q'.
func TestOniQuatLerpShortWay(t *testing.T) {
	rot := &model.OniKeys{Width: 4, Frames: []float64{0, 4}, Values: []float64{0, 0, 0, 1, 0, 0, -s45, -s45}}
	oniNear(t, "t=1/2 with a negated key", oniEvalAt(t, rot, 2), []float64{0, 0, 0.38268343, 0.92387953}, 2e-7)
}

// The position of a key between two others on a straight line is not
// special; a third key changes the segment used.
func TestOniPicksSurroundingKeys(t *testing.T) {
	pos := &model.OniKeys{Width: 3, Frames: []float64{0, 10, 30}, Values: []float64{0, 0, 0, 10, 0, 0, 10, 20, 0}}
	oniNear(t, "frame 5", oniEvalAt(t, pos, 5), []float64{5, 0, 0}, 0)
	oniNear(t, "frame 20", oniEvalAt(t, pos, 20), []float64{10, 10, 0}, 0)
}

func TestOniKeysRejectsBadCurves(t *testing.T) {
	for name, k := range map[string]*model.OniKeys{
		"width":      {Width: 2, Frames: []float64{0}, Values: []float64{0, 0}},
		"no keys":    {Width: 3},
		"short":      {Width: 3, Frames: []float64{0, 1}, Values: []float64{0, 0, 0}},
		"order":      {Width: 3, Frames: []float64{1, 1}, Values: make([]float64, 6)},
		"nan":        {Width: 3, Frames: []float64{0}, Values: []float64{math.NaN(), 0, 0}},
		"not single": {Width: 3, Frames: []float64{0}, Values: []float64{0.1, 0, 0}},
	} {
		if _, err := Compile(k); err == nil {
			t.Errorf("%s: compiled without error", name)
		}
	}
}

func TestOniEvalDoesNotAllocate(t *testing.T) {
	e, err := Compile(&model.OniKeys{Width: 4, Frames: []float64{0, 4}, Values: []float64{0, 0, 0, 1, 0, 0, s45, s45}})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, 4)
	if n := testing.AllocsPerRun(100, func() { e.Eval(1.5, out) }); n != 0 {
		t.Errorf("Eval allocates %v times", n)
	}
}

// MUrQuat_Normalize turns a zero quaternion into the identity: two zero
// keys (a corrupt but finite file) mix to (0,0,0,1), not to NaN.
func TestOniQuatLerpZeroBecomesIdentity(t *testing.T) {
	rot := &model.OniKeys{Width: 4, Frames: []float64{0, 2}, Values: make([]float64, 8)}
	oniNear(t, "zero keys at t=1/2", oniEvalAt(t, rot, 1), []float64{0, 0, 0, 1}, 0)
}
