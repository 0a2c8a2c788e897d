package sample

import (
	"math"
	"testing"

	"github.com/animbake/bake/model"
)

// The three keys of virtools-controllers.md §4.4 (TCB rotation).
func vxTCBRotationKeys() []model.VirtoolsQuatKey {
	s2 := math.Sqrt(0.5)
	return []model.VirtoolsQuatKey{
		{Time: 0, Value: [4]float64{0, 0, 0, 1}, EaseFrom: 0.5},
		{Time: 10, Value: [4]float64{0, 0, s2, s2}, Tension: 0.2, Continuity: -0.3, Bias: 0.4, EaseTo: 0.25},
		{Time: 30, Value: [4]float64{0.5, 0.5, 0.5, 0.5}},
	}
}

func vxMustQuat(t *testing.T, keys []model.VirtoolsQuatKey, interp model.VirtoolsInterp) *vxQuatTrack {
	t.Helper()
	tr, err := compileVxQuat(&model.VirtoolsQuatController{Type: model.VirtoolsTCBRotation, Interp: interp, Keys: keys})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// controllers §4.4: the inner controls of key 1 and the values of the
// table (t = −5, 4, 10, 15, 25, 30, 40), not normalised.
func TestVirtoolsTCBRotationWorkedExample_Controllers4_4(t *testing.T) {
	tr := vxMustQuat(t, vxTCBRotationKeys(), model.VirtoolsTCB)
	vxNear(t, "in_1", tr.in[1][:], []float64{-0.035571, -0.035571, 0.817619, 0.573558}, 1e-6)
	vxNear(t, "out_1", tr.out[1][:], []float64{-0.168153, -0.168153, 0.806136, 0.541843}, 1e-6)
	vxNear(t, "out_0", tr.out[0][:], []float64{0, 0, 0, 1}, 1e-15)
	vxNear(t, "in_2", tr.in[2][:], []float64{0.5, 0.5, 0.5, 0.5}, 1e-15)
	s2 := math.Sqrt(0.5)
	for _, c := range []struct {
		t    float64
		want []float64
		abs  float64
	}{
		{-5, []float64{0, 0, 0, 1}, 1},
		{0, []float64{0, 0, 0, 1}, 1},
		{4, []float64{-0.004024, -0.004024, 0.216133, 0.976084}, 0.999743},
		{10, []float64{0, 0, s2, s2}, 1},
		{15, []float64{0.091217, 0.091217, 0.740751, 0.659278}, 1},
		{25, []float64{0.379645, 0.379645, 0.610506, 0.580957}, 0.999244},
		{30, []float64{0.5, 0.5, 0.5, 0.5}, 1},
		{40, []float64{0.5, 0.5, 0.5, 0.5}, 1},
	} {
		var q [4]float64
		if !tr.eval(c.t, &q) {
			t.Fatal("track reported absent")
		}
		vxNear(t, "q", q[:], c.want, 1e-6)
		vxNear(t, "|q|", []float64{math.Sqrt(vxDot4(q, q))}, []float64{c.abs}, 1e-6)
	}
}

// controllers §4.4 hemisphere check: key 2 stored as −q gives the same
// values between keys, and −q itself at and after t = 30.
func TestVirtoolsTCBRotationHemisphere_Controllers4_4(t *testing.T) {
	keys := vxTCBRotationKeys()
	ref := vxMustQuat(t, keys, model.VirtoolsTCB)
	keys[2].Value = vxNeg4(keys[2].Value)
	neg := vxMustQuat(t, keys, model.VirtoolsTCB)
	for _, tm := range []float64{4, 15, 25} {
		var a, b [4]float64
		ref.eval(tm, &a)
		neg.eval(tm, &b)
		vxNear(t, "flipped key", b[:], a[:], 1e-12)
	}
	var q [4]float64
	neg.eval(30, &q)
	vxNear(t, "stored key", q[:], []float64{-0.5, -0.5, -0.5, -0.5}, 0)
}

// controllers §4.3/§4.4 two-key check: zero T/C/B/ease makes the controls
// equal the keys, so the spline is Slerp: (0, 0, 0.309017, 0.951057) at 4.
func TestVirtoolsTCBRotationTwoKeys_Controllers4_3(t *testing.T) {
	keys := vxTCBRotationKeys()[:2]
	for i := range keys {
		keys[i].Tension, keys[i].Continuity, keys[i].Bias, keys[i].EaseTo, keys[i].EaseFrom = 0, 0, 0, 0, 0
	}
	tr := vxMustQuat(t, keys, model.VirtoolsTCB)
	var q [4]float64
	tr.eval(4, &q)
	vxNear(t, "q(4)", q[:], []float64{0, 0, 0.309017, 0.951057}, 1e-6)
	s := VirtoolsSlerp(0.4, keys[0].Value, keys[1].Value)
	vxNear(t, "equals slerp", q[:], s[:], 1e-12)
}

// controllers §4.5: PE_UFO_Arm_A_03's six keys (T/C/B/ease 0). The spec
// elides the near-zero z/w of keys 2..5 ("…"); they are set to 0 here,
// which moves the results by far less than the 1e-6 tolerance on x and y.
func TestVirtoolsTCBRotationUFOArm_Controllers4_5(t *testing.T) {
	times := []float64{0, 35, 59, 70, 75, 100}
	vals := [][4]float64{
		{-0.997564077, 0.0697565004, -5.6e-17, -4.37e-8},
		{-0.484809637, -0.874619722, 3.96e-8, -1.85e-8},
		{0.277522087, -0.960719287, 0, 0},
		{0.4617486, -0.887010872, 0, 0},
		{0.417346865, -0.908747256, 0, 0},
		{-0.00872659869, -0.999961913, 0, 0},
	}
	keys := make([]model.VirtoolsQuatKey, len(times))
	for i := range keys {
		keys[i] = model.VirtoolsQuatKey{Time: times[i], Value: vals[i]}
	}
	tr := vxMustQuat(t, keys, model.VirtoolsTCB)
	vxNear(t, "out_35", tr.out[1][:2], []float64{-0.487256981, -0.873258654}, 1e-6)
	vxNear(t, "in_59", tr.in[2][:2], []float64{0.330467082, -0.943817549}, 1e-6)
	for _, c := range []struct {
		t    float64
		want []float64
		abs  float64
	}{
		{47, []float64{-0.099098165, -0.994990180}, 0.999913},
		{72.5, []float64{0.453687997, -0.890379661}, 0.999304},
		{72, []float64{0.458886540, -0.887718443}, -1},
	} {
		var q [4]float64
		tr.eval(c.t, &q)
		vxNear(t, "arm", q[:2], c.want, 1e-6)
		if c.abs > 0 {
			vxNear(t, "|arm|", []float64{math.Sqrt(vxDot4(q, q))}, []float64{c.abs}, 1e-6)
		}
	}
}

// The three keys of virtools-controllers.md §5 (TCB position).
func vxTCBPositionKeys() []model.VirtoolsVectorKey {
	return []model.VirtoolsVectorKey{
		{Time: 0, Value: [3]float64{0, 0, 0}, EaseFrom: 0.5},
		{Time: 10, Value: [3]float64{10, 5, 0}, Tension: 0.2, Continuity: -0.3, Bias: 0.4, EaseTo: 0.25},
		{Time: 30, Value: [3]float64{20, 0, 10}},
	}
}

func vxMustVector(t *testing.T, keys []model.VirtoolsVectorKey, interp model.VirtoolsInterp) *vxVectorTrack {
	t.Helper()
	tr, err := compileVxVector(&model.VirtoolsVectorController{Type: model.VirtoolsTCBPosition, Interp: interp, Keys: keys})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// controllers §5 worked example: tangents and the table of values.
func TestVirtoolsTCBPositionWorkedExample_Controllers5(t *testing.T) {
	tr := vxMustVector(t, vxTCBPositionKeys(), model.VirtoolsTCB)
	vxNear(t, "TD_0", tr.td[0:3], []float64{10, 5, 0}, 1e-12)
	vxNear(t, "TS_0", tr.ts[0:3], []float64{10, 5, 0}, 1e-12)
	vxNear(t, "TS_1", tr.ts[3:6], []float64{6.869333, 2.146667, 1.288}, 1e-6)
	vxNear(t, "TD_1", tr.td[3:6], []float64{8.682667, 0.493333, 3.848}, 1e-6)
	vxNear(t, "TS_2", tr.ts[6:9], []float64{10, -5, 10}, 1e-12)
	for _, c := range []struct {
		t    float64
		want []float64
	}{
		{-1, []float64{0, 0, 0}},
		{4, []float64{2.712647, 1.419125, -0.062801}},
		{10, []float64{10, 5, 0}},
		{15, []float64{12.314750, 4.522500, 1.634875}},
		{25, []float64{17.438250, 1.507500, 7.211625}},
		{30, []float64{20, 0, 10}},
		{31, []float64{20, 0, 10}},
	} {
		var p [3]float64
		tr.eval(c.t, &p)
		vxNear(t, "p", p[:], c.want, 1e-6)
	}
}

// controllers §5 two-key check: keys 0 and (10, (10,5,0)) with zero extras
// except key 0's ease from 0.5: s = E(0.4, 0.5, 0) = 0.213333 and the
// curve is the straight line, p(4) = (2.133333, 1.066667, 0).
func TestVirtoolsTCBPositionTwoKeys_Controllers5(t *testing.T) {
	keys := []model.VirtoolsVectorKey{
		{Time: 0, EaseFrom: 0.5},
		{Time: 10, Value: [3]float64{10, 5, 0}},
	}
	tr := vxMustVector(t, keys, model.VirtoolsTCB)
	var p [3]float64
	tr.eval(4, &p)
	vxNear(t, "p(4)", p[:], []float64{6.4 / 3, 3.2 / 3, 0}, 1e-12)
}

// controllers §1/§4/§5: TCB scale uses the TCB position evaluator and TCB
// scale axis the TCB rotation evaluator (CKTCBScaleKey and
// CKTCBScaleAxisKey are typedefs of the position and rotation keys), so
// the worked examples come out of those slots too.
func TestVirtoolsTCBScaleAndScaleAxisSlots_Controllers4_5(t *testing.T) {
	a := &model.VirtoolsObjectAnimation{Length: 30,
		Scale:     &model.VirtoolsVectorController{Type: model.VirtoolsTCBScale, Interp: model.VirtoolsTCB, Keys: vxTCBPositionKeys()},
		ScaleAxis: &model.VirtoolsQuatController{Type: model.VirtoolsTCBScaleAxis, Interp: model.VirtoolsTCB, Keys: vxTCBRotationKeys()}}
	p, err := VirtoolsSetStep(a, 15)
	if err != nil {
		t.Fatal(err)
	}
	vxNear(t, "scale", p.Scale[:], []float64{12.314750, 4.522500, 1.634875}, 1e-6)
	vxNear(t, "scale axis", p.ScaleAxis[:], []float64{0.091217, 0.091217, 0.740751, 0.659278}, 1e-6)
}
