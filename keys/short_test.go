package keys

import (
	"math"
	"testing"

	"github.com/animbake/bake/fidelity"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// v is 73.74° about z: (0, 0, 0.6, 0.8), unit. Times 32767 its z and w are
// 19660.2 and 26213.6; x and y are 0 (or 1 above). Worked by hand, with
// |q|²·32767² for (z, w):
//
//	(19660, 26213): 386515600 + 687121369 = 1073636969, 1 − |q|² = 39320/32767² = 3.6622e-5
//	(19660, 26214): 386515600 + 687173796 = 1073689396, |q|² − 1 = 13107/32767² = 1.22076e-5
//	(19661, 26213): 386554921 + 687121369 = 1073676290, |q|² − 1 = 1/32767²     = 9.3e-10
//	(19661, 26214): 386554921 + 687173796 = 1073728717, |q|² − 1 = 52428/32767² = 4.8830e-5
//
// The direction error of a rotation about z is 2·|sin(β − α)|, α and β the
// half angles, and sin(β − α) = (z·0.8 − w·0.6)/(32767·|q|): 0.2, −0.4, 1.0
// and 0.4 over 32767|q| for the four. The length error shows (three.js) as
// |1 − |q|²| times 2·sin(θ/2) = 2·z/(32767|q|) ≈ 1.2 per unit of reach.
// Totals per unit of reach: 1.221e-5 + 4.395e-5 = 5.615e-5;
// 2.441e-5 + 1.465e-5 = 3.906e-5; 6.104e-5 + 1.1e-9 = 6.104e-5;
// 2.441e-5 + 5.860e-5 = 8.301e-5. (x or y at 1/32767 only adds.) The
// second is the least: the nearly unit third turns the rotation by 2/32767.
var v7374 = []float64{0, 0, 0.6, 0.8}

func TestShortQuatCountsDirectionAndLength(t *testing.T) {
	var q [4]float64
	shortQuat(v7374, q[:], 1.2)
	want := [4]float64{0, 0, 19660.0 / 32767, 26214.0 / 32767}
	if q != want {
		t.Fatalf("rounded to %v·32767, want %v·32767", scaled(q[:]), scaled(want[:]))
	}
	norm := math.Sqrt(1073689396) // 32767·|q|
	d, n := shortKeyError(v7374, q[:])
	if math.Abs(d-0.8/norm) > 1e-12 || math.Abs(n-13107.0/(32767*32767)) > 1e-15 {
		t.Errorf("direction %g (want %g), length %g (want %g)", d, 0.8/norm, n, 13107.0/(32767*32767))
	}
	key, between := shortErrors(v7374, q[:])
	turn := 2 * 19660 / norm
	if wantKey := 0.8/norm + 13107.0/(32767*32767)*turn; math.Abs(key-wantKey) > 1e-12 || math.Abs(key-3.9063e-5) > 1e-9 {
		t.Errorf("key error %g, want %g (3.9063e-5)", key, wantKey)
	}
	if wantBetween := 13107.0 / (32767 * 32767) * turn; math.Abs(between-wantBetween) > 1e-12 {
		t.Errorf("between keys %g, want %g", between, wantBetween)
	}
	// With sweep 0 (a channel that never turns far from the identity, where
	// a length error shows as nothing) the closest direction wins:
	// (19660, 26213), 0.2/32767.
	shortQuat(v7374, q[:], 0)
	if want := [4]float64{0, 0, 19660.0 / 32767, 26213.0 / 32767}; q != want {
		t.Errorf("direction alone: rounded to %v·32767, want %v·32767", scaled(q[:]), scaled(want[:]))
	}
}

func scaled(q []float64) []float64 {
	out := make([]float64, len(q))
	for i, v := range q {
		out[i] = v * 32767
	}
	return out
}

// TestThreeJSLengthErrorIsCounted checks the rule the budget rests on:
// three.js builds the matrix from the stored key (1 − 2(y²+z²) on the
// diagonal, as sample.TRS), which moves a point p by (|q|² − 1)(R − I)p
// beyond the rotation R of q/|q|. For (0, 0, 19660, 26214)/32767 and p one
// metre along x (perpendicular to the axis): 1.22076e-5 × 2·sin(θ/2),
// 2·sin(θ/2) = 2·19660/(32767|q|) = 1.19998.
func TestThreeJSLengthErrorIsCounted(t *testing.T) {
	q := [4]float64{0, 0, 19660.0 / 32767, 26214.0 / 32767}
	n := math.Sqrt(q[2]*q[2] + q[3]*q[3])
	unit := [4]float64{0, 0, q[2] / n, q[3] / n}
	stored, rot := sample.TRS([3]float64{}, q, [3]float64{1, 1, 1}), sample.TRS([3]float64{}, unit, [3]float64{1, 1, 1})
	dx, dy := stored[0]-rot[0], stored[1]-rot[1] // the image of (1, 0, 0)
	want := 13107.0 / (32767 * 32767) * 2 * 19660 / math.Sqrt(1073689396)
	if got := math.Hypot(dx, dy); math.Abs(got-want) > 1e-12 || math.Abs(got-1.46488e-5) > 1e-10 {
		t.Errorf("three.js moves (1, 0, 0) by %g beyond the rotation, want %g", got, want)
	}
}

// TestQuantizeKeepsAHalf: at reach 1 m the key v7374 costs 3.9063e-5 m
// and the length error between keys 1.46488e-5 m, so 16-bit keys need an
// allowed error of at least 2 × 3.9063e-5 = 7.8126e-5 m; the choice then
// gets the allowed error less the length error between keys, counted on the
// float32 values clients hold: float32(19660/32767) = 0.599993884563 and
// float32(26214/32767) = 0.800012230873 (1.2e-8 below and 2.3e-8 above), so
// |q|² − 1 = 1.223106e-5 and 2·sin(θ/2) = 1.1999804: 1.4677033e-5 m. (The
// rule before counted 4/32767 = 1.22e-4 m per metre for every key and
// needed 4.88e-4 m.)
func TestQuantizeKeepsAHalf(t *testing.T) {
	mk := func(allowed float64) *channel {
		c := &channel{path: model.PathRotation, width: 4, node: 0, kind: kindRotation, factor: 1, allowed: allowed,
			vals: append(append([]float64{}, v7374...), v7374...)}
		c.v32 = make([]float64, len(c.vals))
		for j, v := range c.vals {
			c.v32[j] = float64(float32(v))
		}
		return c
	}
	c := mk(8e-5)
	c.quantize(1)
	const between = 1.4677033e-5
	if !c.short || math.Abs(c.allowed-(8e-5-between)) > 1e-12 {
		t.Fatalf("allowed 8e-5: short %v, allowed after %g (want %g)", c.short, c.allowed, 8e-5-between)
	}
	if c.v32[2] != float64(float32(19660.0/32767)) || c.v32[7] != float64(float32(26214.0/32767)) {
		t.Errorf("v32 %v: the choice must see the rounded keys", c.v32)
	}
	c = mk(7.5e-5)
	c.quantize(1)
	if c.short || c.allowed != 7.5e-5 || c.v32[2] != float64(float32(0.6)) {
		t.Errorf("allowed 7.5e-5 (half is below 3.9063e-5): short %v, allowed %g, v32 %v", c.short, c.allowed, c.v32)
	}
	// Within half the tolerance (1 m here), the rounding is kept for shareProbes
	// (16 bits at every probe): both probes' (19660, 26214)/32767 in
	// float32, with the length error of neighbouring keys, |1 − |q|²| times
	// their turn 2·z/|q| (≈ 1.22076e-5 · 1.19998; float32 moves |q|² by
	// about 1e-7, so it is worked out from the float32 values).
	z, w := float64(float32(19660.0/32767)), float64(float32(26214.0/32767))
	n2 := z*z + w*w
	next := math.Abs(1-n2) * 2 * z / math.Sqrt(n2)
	if len(c.q16) != 8 || c.q16[2] != z || c.q16[7] != w || math.Abs(c.q16Unit-next) > 1e-15 || math.Abs(next-1.4649e-5) > 5e-7 {
		t.Errorf("tolerance 1: q16 %v (want z %v, w %v), length term %g (want %g)", c.q16, z, w, c.q16Unit, next)
	}
	// Half the tolerance below the key's 3.9063e-5: no rounding kept.
	c = mk(7.5e-5)
	c.quantize(7.8e-5)
	if c.q16 != nil {
		t.Errorf("tolerance 7.8e-5: q16 %v, want none", c.q16)
	}
}

func TestQuantSweep(t *testing.T) {
	s := math.Sqrt2 / 2
	cases := []struct {
		name string
		qs   []float64
		want float64
	}{
		// 2·sin(θ/2) is twice the vector part of a unit quaternion.
		{"small turns, one sign", []float64{0, 0, 0.6, 0.8, 0.28, 0, 0, 0.96}, 1.2},
		// 73.74° about z and 90° about y: dot 0.8·cos45° = 0.566 (55.6°
		// apart as quaternions), both within 45° of their mean; the larger
		// turn is 90°'s, 2·sin45°.
		{"large turns close together", []float64{0, 0, 0.6, 0.8, 0, s, 0, s}, math.Sqrt2},
		// dot −0.28: more than 90° apart, a client flips one of them.
		{"keys a client flips", []float64{0.8, 0, 0, 0.6, -0.8, 0, 0, 0.6}, 2},
		// dot 0.998 but w changes sign between them: a half turn.
		{"w of both signs", []float64{0, 0, 0.999, 0.0447, 0, 0, 0.999, -0.0447}, 2},
		{"identity", []float64{0, 0, 0, 1}, 0},
	}
	for _, c := range cases {
		if got := quantSweep(c.qs); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: %g, want %g", c.name, got, c.want)
		}
	}
}

// TestShortRotationsStayWithinTolerance bakes a 90° turn over 30 frames on
// a node whose child is 1 m away, with 16-bit rotations at a tolerance
// loose enough for them, and measures the written keys (at every key
// as three.js shows them, stored, and as Blender does, normalised).
func TestShortRotationsStayWithinTolerance(t *testing.T) {
	s := math.Sqrt2 / 2
	f := &model.File{Axes: model.GLTFAxes,
		Nodes: []model.Node{
			{Name: "n", Parent: -1, Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}},
			{Name: "child", Parent: 0, Translation: [3]float64{1, 0, 0}, Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}}},
		Animations: []model.Animation{{Name: "a", FPS: 30, Frames: 31, End: 30, Loop: model.LoopOnce,
			Channels: []model.Channel{{Node: "n", Path: model.PathRotation, Curve: &model.Keyed{Interp: model.InterpSlerp, Width: 4,
				Frames: []float64{0, 30}, Values: []float64{0, 0, 0, 1, 0, 0, s, s}}}}}}}
	b, err := sample.Bake(f, sample.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const tol = 1e-3
	if err := Reduce(f, b, Options{Tolerance: tol, ShortRotations: true}); err != nil {
		t.Fatal(err)
	}
	var c *sample.BakedChannel
	for i := range b.Animations[0].Channels {
		if ch := &b.Animations[0].Channels[i]; ch.Path == model.PathRotation {
			c = ch
		}
	}
	if c == nil || !c.Short {
		t.Fatalf("the rotation is not 16-bit: %+v", c)
	}
	for _, v := range c.Values {
		if k := v * 32767; k != math.Round(k) {
			t.Fatalf("value %v is not a multiple of 1/32767", v)
		}
	}
	res, err := fidelity.MeasureBaked(f, b, fidelity.MeasureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Max > tol {
		t.Errorf("measured %g m, above the tolerance", res[0].Max)
	}
}
