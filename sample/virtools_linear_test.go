package sample

import (
	"testing"

	"github.com/animbake/bake/model"
)

// OA §5.3 / controllers §2 worked example: Record Anim keys 1000 and 1001
// at frame 1000.25 give pos = (−134.45464, −4.20756, −44.28076). The keys
// are printed in the spec with 7 significant digits, which hides up to
// 5e-5 of the stored float32 near 134, hence the tolerance.
func TestVirtoolsLinearPositionRecordAnim_OA5_3(t *testing.T) {
	tr := vxMustVector(t, []model.VirtoolsVectorKey{
		{Time: 1000, Value: [3]float64{-134.4543, -4.205404, -44.38002}},
		{Time: 1001, Value: [3]float64{-134.4555, -4.214041, -43.98301}},
	}, model.VirtoolsLinear)
	var p [3]float64
	tr.eval(1000.25, &p)
	vxNear(t, "pos", p[:], []float64{-134.45464, -4.20756, -44.28076}, 5e-5)
}

// controllers §2 rules 1–3: no keys is absent; at or before the first key
// and at or after the last the key values are exact; one key is a
// constant; between keys the engine's binary search picks the segment.
func TestVirtoolsLinearClampAndSearch_Controllers2(t *testing.T) {
	if tr, _ := compileVxVector(&model.VirtoolsVectorController{Interp: model.VirtoolsLinear}); tr.eval(0, new([3]float64)) {
		t.Error("keyless controller reported a value")
	}
	keys := []model.VirtoolsVectorKey{
		{Time: 2, Value: [3]float64{1, 2, 3}},
		{Time: 4, Value: [3]float64{3, 2, 1}},
		{Time: 5, Value: [3]float64{0, 0, 0}},
		{Time: 9, Value: [3]float64{8, 4, 0}},
	}
	tr := vxMustVector(t, keys, model.VirtoolsLinear)
	for _, c := range []struct {
		t    float64
		want []float64
	}{
		{-100, []float64{1, 2, 3}},
		{2, []float64{1, 2, 3}},
		{3, []float64{2, 2, 2}},
		{4, []float64{3, 2, 1}}, // interior key: segment (2,4) with u = 1
		{4.5, []float64{1.5, 1, 0.5}},
		{6, []float64{2, 1, 0}},
		{9, []float64{8, 4, 0}},
		{1e9, []float64{8, 4, 0}},
	} {
		var p [3]float64
		tr.eval(c.t, &p)
		vxNear(t, "p", p[:], c.want, 1e-15)
	}
	one := vxMustVector(t, keys[:1], model.VirtoolsLinear)
	for _, tm := range []float64{-1, 2, 7} {
		var p [3]float64
		one.eval(tm, &p)
		vxNear(t, "single key", p[:], []float64{1, 2, 3}, 0)
	}
	// Segment search, §2 rule 3: t equal to an interior key time lands in
	// the segment that ends there (t <= key[mid].t moves hi).
	a, u, inside := vxSegment([]float64{0, 1, 2, 3, 4}, 2)
	if a != 1 || u != 1 || !inside {
		t.Errorf("segment of t = 2: (%d, %v, %v), want (1, 1, true)", a, u, inside)
	}
	// Equal key times never give a zero-length segment.
	a, u, _ = vxSegment([]float64{0, 1, 1, 2}, 1.5)
	if a != 2 || u != 0.5 {
		t.Errorf("segment after a repeated time: (%d, %v), want (2, 0.5)", a, u)
	}
}

// controllers §6 (rules of docs/formats/virtools-semantics.md): Bezier
// keys with stored tangents form the cubic with control points p_a,
// p_a + Out_a, p_b + In_b, p_b on the linear time fraction; LINEAR is the
// straight line; STEP holds the left key.
func TestVirtoolsBezier_Controllers6(t *testing.T) {
	tangents := model.VirtoolsBezierTangents
	keys := []model.VirtoolsVectorKey{
		{Time: 0, OutMode: tangents, Out: [3]float64{1, 0, 0}},
		{Time: 10, Value: [3]float64{3, 0, 0}, InMode: tangents, In: [3]float64{-1, 3, 0}},
	}
	tr := vxMustVector(t, keys, model.VirtoolsBezier)
	var p [3]float64
	// u = 0.5: 0.125·0 + 0.375·1 + 0.375·2 + 0.125·3 = 1.5 in x;
	// y: 0.375·3 = 1.125.
	tr.eval(5, &p)
	vxNear(t, "tangents", p[:], []float64{1.5, 1.125, 0}, 1e-15)
	keys[0].OutMode, keys[1].InMode = model.VirtoolsBezierLinear, model.VirtoolsBezierLinear
	tr = vxMustVector(t, keys, model.VirtoolsBezier)
	tr.eval(2.5, &p)
	vxNear(t, "linear", p[:], []float64{0.75, 0, 0}, 1e-15)
	keys[0].OutMode = model.VirtoolsBezierStep
	tr = vxMustVector(t, keys, model.VirtoolsBezier)
	tr.eval(9.9, &p)
	vxNear(t, "step", p[:], []float64{0, 0, 0}, 0)
	tr.eval(10, &p)
	vxNear(t, "step reaches the key", p[:], []float64{3, 0, 0}, 0)
}

// Linear rotation controllers use VxMath's Slerp between the segment's
// keys (OA §5.3).
func TestVirtoolsLinearRotation_OA5_3(t *testing.T) {
	keys := []model.VirtoolsQuatKey{
		{Time: 1000, Value: [4]float64{0.2208105, 0.9395105, 0.1994405, -0.170379}},
		{Time: 1001, Value: [4]float64{0.2350487, 0.9174988, 0.284031, -0.1501031}},
	}
	tr := vxMustQuat(t, keys, model.VirtoolsLinear)
	var q [4]float64
	tr.eval(1000.25, &q)
	vxNear(t, "q", q[:], []float64{0.2243701, 0.9340075, 0.2205881, -0.1653100}, 5e-7)
	tr.eval(999, &q)
	vxNear(t, "clamp", q[:], keys[0].Value[:], 0)
}
