package sample

import (
	"math"
	"testing"

	"github.com/animbake/bake/model"
)

func ccRot(t *testing.T, r *model.CcAnmRotation) *ccRotEval {
	t.Helper()
	ev, err := Compile(r)
	if err != nil {
		t.Fatal(err)
	}
	return ev.(*ccRotEval)
}

// Hand-written rotation matrices (row-major, column vectors).
func rotX(a float64) [9]float64 {
	s, c := math.Sincos(a)
	return [9]float64{1, 0, 0, 0, c, -s, 0, s, c}
}

func rotZ(a float64) [9]float64 {
	s, c := math.Sincos(a)
	return [9]float64{c, -s, 0, s, c, 0, 0, 0, 1}
}

func near9(a, b [9]float64, tol float64) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol {
			return false
		}
	}
	return true
}

// ccs-anime-playback.txt "Rotations", a two-step rotation worked by hand.
// Keys (degrees): frame 0 (0, 0, 0), frame 2 (0, 0, 90), frame 4
// (90, 0, 90); N = 7. 90° quantises to 16383/65536 turn, θ = π/2 −
// 2π/65536. Key matrices: R0 = I, R1 = Rz(θ), R2 = Rx(θ)·Rz(θ). Steps:
// R1·R0ᵀ = Rz(θ) (axis z, angle θ) and R2·R1ᵀ = Rx(θ) (axis x, angle θ).
//
//	frame 1 (t 256):  Rz(θ/2)
//	frame 2 (t 512):  512 is not below 512: Rz(θ·512/512) = Rz(θ)
//	frame 3 (t 768):  first step passed, rem 256 of 512: Rx(θ/2)·Rz(θ)
//	frame 4 (t 1024): Rx(θ)·Rz(θ)
//
// The key matrices come from the VU0 polynomial, so entries match the exact
// trigonometry only to about 1e-6 near these angles (the port's 1e-5).
func TestCcAnmTwoStepRotation(t *testing.T) {
	e := ccRot(t, &model.CcAnmRotation{
		Timing: model.CcAnmTiming{Frames: 7}, Kind: model.CcAnmKeyed,
		Frames:  []uint32{0, 2, 4},
		Degrees: []float32{0, 0, 0, 0, 0, 90, 90, 0, 90},
	})
	theta := math.Pi/2 - 2*math.Pi/65536
	rzt := rotZ(theta)
	for _, tc := range []struct {
		ticks uint32
		want  [9]float64
	}{
		{0, mat3Identity},
		{256, rotZ(theta / 2)},
		{512, rzt},
		{768, mat3Mul(ptr(rotX(theta/2)), &rzt)},
		{1024, mat3Mul(ptr(rotX(theta)), &rzt)},
	} {
		got := e.matrixAt(tc.ticks)
		if !near9(got, tc.want, 2e-6) {
			t.Errorf("t=%d: %v\nwant %v", tc.ticks, got, tc.want)
		}
	}
	// The quaternion output is the same rotation (x, y, z, w), w ≥ 0.
	var q [4]float64
	e.Eval(3, q[:])
	want := QuatMul([4]float64{math.Sin(theta / 4), 0, 0, math.Cos(theta / 4)},
		[4]float64{0, 0, math.Sin(theta / 2), math.Cos(theta / 2)})
	for i := range q {
		if math.Abs(q[i]-want[i]) > 2e-6 {
			t.Fatalf("frame 3 quaternion %v, want %v", q, want)
		}
	}
}

func ptr(m [9]float64) *[9]float64 { return &m }

// "Final hold. The hold after the last key reuses the last step with the
// wrapped duration (last − N)·256, so the pose creeps by angle·t/2^32."
// Same keys, N = 7: the hold lasts (4 − 7)·256 = 2^32 − 768 ticks; at
// frame 6 (t 1536) it has run 512, so the pose is the last key's turned a
// further θ·512/(2^32 − 768) about x (≈1.87e-7 rad).
func TestCcAnmRotationFinalHoldCreeps(t *testing.T) {
	e := ccRot(t, &model.CcAnmRotation{
		Timing: model.CcAnmTiming{Frames: 7}, Kind: model.CcAnmKeyed,
		Frames:  []uint32{0, 2, 4},
		Degrees: []float32{0, 0, 0, 0, 0, 90, 90, 0, 90},
	})
	m4 := e.matrixAt(1024)
	m6 := e.matrixAt(1536)
	if m4 == m6 {
		t.Fatal("the final hold should creep")
	}
	d := mat3MulT(&m6, &m4)
	axis, angle := matrixAxisAngle(&d)
	step := e.angles[len(e.angles)-1] // the last step's angle ≈ θ
	if math.Abs(step-(math.Pi/2-2*math.Pi/65536)) > 2e-6 {
		t.Fatalf("last step angle %v", step)
	}
	want := step * 512 / (1<<32 - 768)
	if math.Abs(angle-want) > 1e-12 || math.Abs(axis[0]-1) > 1e-6 {
		t.Errorf("creep %v about %v, want %v about x", angle, axis, want)
	}
	// Frame 6 is (N−1)·256, the clamp: frame 10 gives the same pose.
	if e.matrixAt(ccTicks(10, e.timing)) != m6 {
		t.Error("time not clamped to (N−1)·256")
	}
}

// "Single values. A single-value rotation is sceVu0RotMatrix(deg·π/180),
// not quantised." 90° about z: π·90 truncates to 282.74332 (0x438D5F25),
// /180 gives 1.5707962 (2 or 1 ulps under π/2), so v = π/2 − r ≈ 2e-7 and
// the matrix is Rz(90°) to 3e-7; a keyed 90° is one quantum short
// (cos ≈ 9.59e-5).
func TestCcAnmSingleValueRotationIsNotQuantised(t *testing.T) {
	e := ccRot(t, &model.CcAnmRotation{
		Timing: model.CcAnmTiming{Frames: 3}, Kind: model.CcAnmConstant,
		Degrees: []float32{0, 0, 90},
	})
	var q [4]float64
	e.Eval(1, q[:])
	h := math.Sqrt(0.5)
	if math.Abs(q[0]) > 1e-9 || math.Abs(q[1]) > 1e-9 || math.Abs(q[2]-h) > 3e-7 || math.Abs(q[3]-h) > 3e-7 {
		t.Errorf("single value 90° about z: %v", q)
	}
	if !IsStepped(e) {
		t.Error("a single value should export as a step")
	}
	k := ccKeyMatrix([]float32{0, 0, 90})
	if math.Abs(k[0]-math.Cos(math.Pi/2-2*math.Pi/65536)) > 1e-6 || k[0] < 9e-5 {
		t.Errorf("keyed 90° cos = %v, want ≈ 9.587e-5", k[0])
	}
}

// Absent rotation is the identity; F_Obj records (stepped) hold from their
// frame with the unquantised single-value matrix.
func TestCcAnmAbsentAndSteppedRotation(t *testing.T) {
	e := ccRot(t, &model.CcAnmRotation{Timing: model.CcAnmTiming{Frames: 3}, Kind: model.CcAnmAbsent})
	var q [4]float64
	e.Eval(1, q[:])
	if q != [4]float64{0, 0, 0, 1} {
		t.Errorf("absent: %v", q)
	}
	e = ccRot(t, &model.CcAnmRotation{
		Timing: model.CcAnmTiming{Frames: 5}, Kind: model.CcAnmStepped,
		Frames: []uint32{1, 3}, Degrees: []float32{0, 0, 0, 0, 0, 90},
	})
	for _, tc := range []struct {
		frame float64
		z     float64
	}{{0, 0}, {2.5, 0}, {3, math.Sqrt(0.5)}, {4, math.Sqrt(0.5)}} {
		e.Eval(tc.frame, q[:])
		if math.Abs(q[2]-tc.z) > 3e-7 {
			t.Errorf("stepped at %v: %v", tc.frame, q)
		}
	}
}

// Later generations' quaternion keys (ccs-container.md §4.2 kind 4) on the
// float segments: identity at frame 2, 90° about z at frame 6, N = 8:
// frames 0–2 hold the first, frame 4 is halfway (45° about z), frames 6–7
// hold the last.
func TestCcAnmQuaternionKeys(t *testing.T) {
	h := float32(math.Sqrt(0.5))
	e := ccRot(t, &model.CcAnmRotation{
		Timing: model.CcAnmTiming{Frames: 8}, Kind: model.CcAnmQuatKeyed,
		Frames: []uint32{2, 6}, Quats: []float32{0, 0, 0, 1, 0, 0, h, h},
	})
	var q [4]float64
	for _, tc := range []struct{ frame, half float64 }{{0, 0}, {2, 0}, {4, math.Pi / 8}, {6, math.Pi / 4}, {7, math.Pi / 4}} {
		e.Eval(tc.frame, q[:])
		if math.Abs(q[2]-math.Sin(tc.half)) > 1e-7 || math.Abs(q[3]-math.Cos(tc.half)) > 1e-7 {
			t.Errorf("frame %v: %v", tc.frame, q)
		}
	}
}

// The local matrix is T(position)·R·S(scale) (SetAnmCtrlWork). With
// position (1, 2, 3), R = Rz(90°), scale (2, 3, 4):
//
//	[0 −3 0 1]
//	[2  0 0 2]
//	[0  0 4 3]
//
// and its TRS decomposition is the three factors.
func TestCcAnmLocalMatrix(t *testing.T) {
	r := rotZ(math.Pi / 2)
	r[0], r[4] = 0, 0
	m := CcAnmLocalMatrix([3]float64{1, 2, 3}, &r, [3]float64{2, 3, 4})
	want := [16]float64{0, 2, 0, 0, -3, 0, 0, 0, 0, 0, 4, 0, 1, 2, 3, 1}
	if m != want {
		t.Errorf("T·R·S = %v, want %v", m, want)
	}
	q := MatrixToQuat(&r)
	h := math.Sqrt(0.5)
	if math.Abs(q[2]-h) > 1e-15 || math.Abs(q[3]-h) > 1e-15 {
		t.Errorf("rotation %v", q)
	}
}

// m2a takes the short way: a step of 270° about z is 90° about −z.
func TestCcAnmStepIsShortWay(t *testing.T) {
	m := rotZ(3 * math.Pi / 2)
	axis, angle := matrixAxisAngle(&m)
	if math.Abs(angle-math.Pi/2) > 1e-12 || math.Abs(axis[2]+1) > 1e-12 {
		t.Errorf("270° about z: %v about %v", angle, axis)
	}
	m = rotX(math.Pi)
	axis, angle = matrixAxisAngle(&m)
	if math.Abs(angle-math.Pi) > 1e-12 || math.Abs(math.Abs(axis[0])-1) > 1e-12 {
		t.Errorf("half turn about x: %v about %v", angle, axis)
	}
}

func TestCcAnmRotationEvalDoesNotAllocate(t *testing.T) {
	e := ccRot(t, &model.CcAnmRotation{
		Timing: model.CcAnmTiming{Frames: 7}, Kind: model.CcAnmKeyed,
		Frames: []uint32{0, 2, 4}, Degrees: []float32{0, 0, 0, 10, 20, 30, 90, 0, 90},
	})
	var q [4]float64
	if n := testing.AllocsPerRun(100, func() { e.Eval(2.7, q[:]) }); n != 0 {
		t.Errorf("Eval allocates %v times", n)
	}
}

// Hostile input never panics and always gives a finite unit quaternion:
// angles in the EE's exponent-255 binade (NaN or Inf to Go), wrapped key
// frames, huge N.
func TestCcAnmRotationHostileValues(t *testing.T) {
	nan := math.Float32frombits(0x7FC00000)
	inf := float32(math.Inf(1))
	for _, r := range []*model.CcAnmRotation{
		{Timing: model.CcAnmTiming{Frames: 3}, Kind: model.CcAnmConstant, Degrees: []float32{nan, inf, -inf}},
		{Timing: model.CcAnmTiming{Frames: 1 << 31}, Kind: model.CcAnmKeyed, Frames: []uint32{0xFFFFFFFF, 0, 7},
			Degrees: []float32{nan, 1e30, -1e30, inf, 0, 0, 180, 180, 180}},
		{Timing: model.CcAnmTiming{Frames: 0}, Kind: model.CcAnmStepped, Frames: []uint32{0}, Degrees: []float32{3e38, -3e38, 1e-45}},
	} {
		e := ccRot(t, r)
		var q [4]float64
		for _, f := range []float64{-1, 0, 0.5, 3, 1e9, math.NaN(), math.Inf(1)} {
			e.Eval(f, q[:])
			n := q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3]
			if math.IsNaN(n) || math.Abs(n-1) > 1e-9 {
				t.Fatalf("%+v at %v: %v", r, f, q)
			}
		}
	}
}
