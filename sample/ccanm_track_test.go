package sample

import (
	"math"
	"slices"
	"testing"

	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample/ps2float"
)

func ccTrack(t *testing.T, n uint32, width int, frames []uint32, values ...float32) *ccTrackEval {
	t.Helper()
	ev, err := Compile(&model.CcAnmTrack{
		Timing: model.CcAnmTiming{Frames: n},
		Kind:   model.CcAnmKeyed, Width: width, Frames: frames, Values: values,
	})
	if err != nil {
		t.Fatal(err)
	}
	return ev.(*ccTrackEval)
}

func ccBits(e *ccTrackEval, ticks uint32) uint32 {
	var out [4]uint32
	e.Bits(ticks, out[:])
	return out[0]
}

// ccs-anime-playback.txt "Floats and vectors": a hold up to the first key
// when it is after frame 0, 256·(frame − previous) per later key as a u32
// difference (a key back in time wraps to ≈2^32, a repeated frame gives 0),
// and a final hold of N·256 − last·256 (rotations: (last − N)·256).
func TestCcAnmSegmentCompilation(t *testing.T) {
	durs, lead := ccDurations([]uint32{2, 5, 5, 3}, 10*256-3*256)
	want := []uint32{512, 768, 0, 0xFFFFFE00, 1792}
	if !lead || !slices.Equal(durs, want) {
		t.Errorf("float segments %#x lead %v, want %#x", durs, lead, want)
	}
	last, n := uint32(4), uint32(6)
	durs, lead = ccDurations([]uint32{0, 4}, (last-n)*256)
	want = []uint32{1024, 0xFFFFFE00} // rotation hold: (last − N)·256 = −512
	if lead || !slices.Equal(durs, want) {
		t.Errorf("rotation segments %#x lead %v, want %#x", durs, lead, want)
	}
}

// "Floats and vectors": holding the first key before it, linear after it,
// the last key held to N·256.
func TestCcAnmHoldBeforeFirstKeyAndFinalHold(t *testing.T) {
	e := ccTrack(t, 6, 1, []uint32{2, 4}, 4, 8)
	var v [1]float64
	for _, tc := range []struct{ frame, want float64 }{
		{0, 4}, {1, 4}, {1.5, 4}, {2, 4},
		{3, 6},     // 4 + 4·(256/512): every EE step exact
		{3.5, 7},   // 4 + 4·(384/512)
		{4, 8},     // on the last key
		{5, 8},     // the final hold (N·256 − 4·256 = 512, delta 0)
		{99, 8},    // clamped to (N−1)·256
		{-3, 4},    // clamped to 0
		{4.999, 8}, // whole ticks only: floor(4.999·256) = 1279
	} {
		e.Eval(tc.frame, v[:])
		if v[0] != tc.want {
			t.Errorf("frame %v: %v, want %v", tc.frame, v[0], tc.want)
		}
	}
}

// "Durations are u32 differences: a key that goes back in time makes a
// segment of about 2^32 that is never passed, and two keys on one frame make
// a segment of 0 that always is."
func TestCcAnmWrappedAndZeroDurations(t *testing.T) {
	// Keys at 0 (0), 4 (4), 2 (10); N = 6. Segments: 1024 (+4),
	// 0xFFFFFE00 (+6), hold. At frame 5 (t = 1280) the walk passes the
	// first (rem 256) and stops in the wrapped one:
	// q = 256 / 4294966784 ≈ 5.96e-8, 6·q ≈ 3.58e-7 (exponent 105), and
	// 4 (exponent 129) + that: gap 24, the product keeps only its hidden
	// bit (2^-22), the exact sum 4 + 2^-22 truncates to 4.0.
	e := ccTrack(t, 6, 1, []uint32{0, 4, 2}, 0, 4, 10)
	if got := ccBits(e, 1280); got != 0x40800000 {
		t.Errorf("wrapped segment: %08X, want 40800000 (4.0)", got)
	}
	// Keys at 0 (0), 2 (2), 2 (5), 4 (1); N = 5. Segments 512 (+2),
	// 0 (+3), 512 (−4), 256.
	e = ccTrack(t, 5, 1, []uint32{0, 2, 2, 4}, 0, 2, 5, 1)
	for _, tc := range []struct {
		ticks uint32
		want  float32
	}{
		{512, 2},           // 512 is not below 512: 0 + 2·(512/512)
		{513, 5 - 4.0/512}, // past the zero segment: 5 + (−4)·(1/512) exact
		{768, 3},           // 5 − 4·(256/512)
		{1024, 1},          // the last key
		{0, 0},             // the first key
		{256, 1},           // 0 + 2·(256/512)
	} {
		if got := ccBits(e, tc.ticks); got != math.Float32bits(tc.want) {
			t.Errorf("t=%d: %08X, want %v", tc.ticks, got, tc.want)
		}
	}
	// Two keys on frame 0: the zero segment is passed even at t = 0 (the
	// spec's "always is"), so frame 0 shows the second key, not the
	// 0/0 a literal "duration below the remaining time" would divide by.
	e = ccTrack(t, 3, 1, []uint32{0, 0, 2}, 1, 3, 0)
	if got := ccBits(e, 0); got != math.Float32bits(3) {
		t.Errorf("zero first segment at t=0: %08X, want 3.0", got)
	}
}

// "All of this is in EE single precision": ps2-ee-float.md §9.5 worked
// example 3 through the evaluator. Keys 10.0 at frame 0 and 6.3 at frame 3
// (N = 4): delta = 6.3f − 10 = −3.6999998 exactly (0xC06CCCCC); at t = 223
// q = 223/768 = 0x3E94AAAA (§8 #28), delta·q = 0xBF898443 (the exact
// product's bits below the last place are 0.185 ulp, so the Booth array
// cannot change it), and 10 + that: gap 3, the product's low 2 bits masked
// (…443 → …440), exact sum truncated: 0x410ECF78. IEEE gives 0x410ECF77.
func TestCcAnmEEAccumulationWorkedExample(t *testing.T) {
	e := ccTrack(t, 4, 1, []uint32{0, 3}, 10, 6.3)
	if d := e.deltas[0]; d != 0xC06CCCCC {
		t.Fatalf("delta %08X, want C06CCCCC", d)
	}
	if got := ccBits(e, 223); got != 0x410ECF78 {
		t.Errorf("value at t=223: %08X, want 410ECF78", got)
	}
	var v [1]float64
	e.Eval(223.0/256, v[:])
	if v[0] != float64(math.Float32frombits(0x410ECF78)) {
		t.Errorf("Eval at frame 223/256 = %v", v[0])
	}
}

// ps2-ee-float.md §2.2 inside SetCtrl's running sum: key 1.0 then
// 0x4E800001 (2^30 + 128). delta = key − 1.0 has an exponent gap of 30, so
// the EE returns the key unchanged, and so does run + delta; at frame 1 the
// value is 1.0 + delta·(256/256) = 0x4E800001. Round-toward-zero would give
// 0x4E800000 (2^30) for both the delta and the sum.
func TestCcAnmRunningSumGuardBit(t *testing.T) {
	e := ccTrack(t, 2, 1, []uint32{0, 1}, 1, math.Float32frombits(0x4E800001))
	if d := e.deltas[0]; d != 0x4E800001 {
		t.Errorf("delta %08X, want 4E800001", d)
	}
	if got := ccBits(e, 256); got != 0x4E800001 {
		t.Errorf("value at frame 1: %08X, want 4E800001", got)
	}
}

// Vectors run the same chain per component.
func TestCcAnmVectorTrack(t *testing.T) {
	e := ccTrack(t, 3, 3, []uint32{0, 2}, 0, 10, -4, 2, 6, 4)
	var v [3]float64
	e.Eval(1, v[:])
	if v != [3]float64{1, 8, 0} { // (0,10,−4) + (2,−4,8)·½
		t.Errorf("vector at frame 1: %v", v)
	}
	if keys := e.KeyFrames(); !slices.Equal(keys, []float64{0, 2}) {
		t.Errorf("key frames %v", keys)
	}
}

// Absent and single-value controllers hold their value; stepped per-frame
// records (F_Obj) hold from their frame on, the first held before it.
func TestCcAnmConstantAndSteppedTracks(t *testing.T) {
	timing := model.CcAnmTiming{Frames: 6}
	c, err := Compile(&model.CcAnmTrack{Timing: timing, Kind: model.CcAnmAbsent, Width: 3, Values: []float32{1, 1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	var v [3]float64
	c.Eval(3, v[:])
	if v != [3]float64{1, 1, 1} || !IsStepped(c) {
		t.Errorf("absent scale: %v", v)
	}
	s, err := Compile(&model.CcAnmTrack{Timing: timing, Kind: model.CcAnmStepped, Width: 1,
		Frames: []uint32{1, 3}, Values: []float32{3.875, 7.75}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ frame, want float64 }{{0, 3.875}, {1, 3.875}, {2.9, 3.875}, {3, 7.75}, {5, 7.75}} {
		s.Eval(tc.frame, v[:1])
		if v[0] != tc.want {
			t.Errorf("stepped at %v: %v, want %v", tc.frame, v[0], tc.want)
		}
	}
}

// Eval must not allocate.
func TestCcAnmTrackEvalDoesNotAllocate(t *testing.T) {
	e := ccTrack(t, 40, 3, []uint32{0, 10, 39}, 0, 1, 2, 3, 4, 5, 6, 7, 8)
	var v [3]float64
	if n := testing.AllocsPerRun(100, func() { e.Eval(17.3, v[:]) }); n != 0 {
		t.Errorf("Eval allocates %v times", n)
	}
}

// Division of a duration by itself is exactly 1 and fs × 1.0 is exact, so
// at rem = dur "below" and "below or equal" give the same bits.
func TestCcAnmSegmentEndIsExact(t *testing.T) {
	for _, d := range []uint32{256, 768, 9984, 65280, 0xFFFFFE00} {
		if q := ps2float.Div(ps2float.U32tof(d), ps2float.U32tof(d)); q != ps2float.One {
			t.Errorf("%d/%d = %08X", d, d, q)
		}
	}
}
