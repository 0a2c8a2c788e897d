package sample

import (
	"math"
	"testing"

	"github.com/animbake/bake/model"
)

// vxVirtoolsAxes is the Virtools convention the importer declares.
var vxVirtoolsAxes = model.Axes{Name: "virtools", Basis: [9]float64{1, 0, 0, 0, 1, 0, 0, 0, -1}, Scale: 1}

func vxCompile(t *testing.T, c model.Curve) Evaluator {
	t.Helper()
	e, err := Compile(c)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// axes.md §2.3 example 1: Kamera02 key 0, stored quaternion (−0.13996840,
// 0.69311529, −0.13996840, 0.69311529) at (95, 40, 0). The rotation
// channel is Hamilton in source axes (the conjugate), and the generic
// mirror of Z then gives axes.md's glTF rotation (−0.1399684, 0.69311529,
// 0.1399684, 0.69311529) and translation (95, 40, 0).
func TestVirtoolsTransformHamiltonRotation_Axes2_3(t *testing.T) {
	q := [5]float64{0, -0.13996840, 0.69311529, -0.13996840, 0.69311529}
	anim := &model.VirtoolsObjectAnimation{Name: "Kamera02", Length: 66,
		Position: vxLinearPos([4]float64{0, 95, 40, 0}), Rotation: vxLinearRot(q)}
	rot := vxCompile(t, &model.VirtoolsTransform{Anim: anim, Part: model.VirtoolsPartRotation})
	pos := vxCompile(t, &model.VirtoolsTransform{Anim: anim, Part: model.VirtoolsPartTranslation})
	if rot.Width() != 4 || pos.Width() != 3 {
		t.Fatalf("widths %d, %d", rot.Width(), pos.Width())
	}
	var r [4]float64
	var p [3]float64
	rot.Eval(0, r[:])
	pos.Eval(0, p[:])
	vxNear(t, "Hamilton source", r[:], []float64{0.13996840, -0.69311529, 0.13996840, 0.69311529}, 1e-7)
	cv := NewConverter(vxVirtoolsAxes)
	cv.Quaternion(r[:])
	cv.Position(p[:])
	vxNear(t, "glTF rotation", r[:], []float64{-0.13996840, 0.69311529, 0.13996840, 0.69311529}, 1e-7)
	vxNear(t, "glTF translation", p[:], []float64{95, 40, 0}, 0)
	// The camera looks along −(column 2 of R) in glTF: towards the origin,
	// (−0.9216, −0.3881, 0) from (95, 40, 0).
	x, y, z, w := r[0], r[1], r[2], r[3]
	look := []float64{-2 * (x*z + w*y), -2 * (y*z - w*x), -(1 - 2*(x*x+y*y))}
	d := math.Hypot(95, 40)
	vxNear(t, "look", look, []float64{-95 / d, -40 / d, 0}, 1e-4)
}

// axes.md §2.3 example 2: a PE_UFO_Arm world matrix (rows (0, 0, −0.4),
// (0, 0.4, 0), (0.4, 0, 0), (0.4773, 40.0003, −94.9555)) left alone by an
// animation without components. The matrix part is the column-vector
// matrix in column-major order, and the generic converter gives axes.md's
// glTF matrix.
func TestVirtoolsTransformMatrixPart_Axes2_3(t *testing.T) {
	rest := [16]float64{0, 0, -0.4, 0, 0, 0.4, 0, 0, 0.4, 0, 0, 0, 0.4773, 40.0003, -94.9555, 1}
	anim := &model.VirtoolsObjectAnimation{Length: 100, Rest: &rest}
	e := vxCompile(t, &model.VirtoolsTransform{Anim: anim, Part: model.VirtoolsPartMatrix})
	var m [16]float64
	e.Eval(50, m[:])
	vxNear(t, "source", m[:], rest[:], 0)
	NewConverter(vxVirtoolsAxes).Matrix(&m)
	vxNear(t, "glTF", m[:], []float64{0, 0, 0.4, 0, 0, 0.4, 0, 0, -0.4, 0, 0, 0, 0.4773, 40.0003, 94.9555, 1}, 1e-12)
	// TRS parts of the same rest: scale 0.4, rotation 90° about Y.
	s := vxCompile(t, &model.VirtoolsTransform{Anim: anim, Part: model.VirtoolsPartScale})
	r := vxCompile(t, &model.VirtoolsTransform{Anim: anim, Part: model.VirtoolsPartRotation})
	var sv [3]float64
	var rv [4]float64
	s.Eval(0, sv[:])
	r.Eval(0, rv[:])
	vxNear(t, "scale", sv[:], []float64{0.4, 0.4, 0.4}, 1e-15)
	// Rows (0,0,−1), (0,1,0), (1,0,0) are the Hamilton matrix of Ry(−90°)
	// as rows, i.e. the column-vector rotation Ry(+90°).
	vxNear(t, "rotation", rv[:], []float64{0, math.Sqrt(0.5), 0, math.Sqrt(0.5)}, 1e-15)
}

// The scale-axis part is the Hamilton conjugate too, identity when the
// animation has none.
func TestVirtoolsTransformScaleAxisPart(t *testing.T) {
	s2 := math.Sqrt(0.5)
	anim := &model.VirtoolsObjectAnimation{Length: 1}
	e := vxCompile(t, &model.VirtoolsTransform{Anim: anim, Part: model.VirtoolsPartScaleAxis})
	var q [4]float64
	e.Eval(0, q[:])
	vxNear(t, "none", q[:], []float64{0, 0, 0, 1}, 0)
	anim.ScaleAxis = &model.VirtoolsQuatController{Interp: model.VirtoolsLinear,
		Keys: []model.VirtoolsQuatKey{{Value: [4]float64{0, 0, s2, s2}}}}
	e = vxCompile(t, &model.VirtoolsTransform{Anim: anim, Part: model.VirtoolsPartScaleAxis})
	e.Eval(0, q[:])
	vxNear(t, "axis", q[:], []float64{0, 0, -s2, s2}, 1e-15)
}

// The evaluator lists every key time (for bakes that must not miss a key)
// and Eval does not allocate.
func TestVirtoolsTransformKeysAndNoAllocation(t *testing.T) {
	keys := vxTCBRotationKeys()
	anim := &model.VirtoolsObjectAnimation{Length: 30,
		Position: vxLinearPos([4]float64{0, 0, 0, 0}, [4]float64{5, 1, 1, 1}),
		Rotation: &model.VirtoolsQuatController{Interp: model.VirtoolsTCB, Keys: keys}}
	e := vxCompile(t, &model.VirtoolsTransform{Anim: anim, Part: model.VirtoolsPartRotation})
	k, ok := e.(Keyer)
	if !ok {
		t.Fatal("not a Keyer")
	}
	vxNear(t, "keys", k.KeyFrames(), []float64{0, 5, 10, 30}, 0)
	out := make([]float64, 4)
	if n := testing.AllocsPerRun(100, func() { e.Eval(12.5, out) }); n != 0 {
		t.Errorf("Eval allocates %v times", n)
	}
}

// Compile refuses bad parts and unusable animations instead of failing
// at evaluation time.
func TestVirtoolsTransformCompileErrors(t *testing.T) {
	for _, c := range []*model.VirtoolsTransform{
		{Anim: &model.VirtoolsObjectAnimation{}, Part: "weights"},
		{Part: model.VirtoolsPartRotation},
		{Anim: &model.VirtoolsObjectAnimation{Flags: model.VirtoolsMergedAnimation}, Part: model.VirtoolsPartRotation},
		{Anim: &model.VirtoolsObjectAnimation{Length: math.NaN()}, Part: model.VirtoolsPartRotation},
		{Anim: &model.VirtoolsObjectAnimation{Position: vxLinearPos([4]float64{2, 0, 0, 0}, [4]float64{1, 0, 0, 0})}, Part: model.VirtoolsPartTranslation},
		{Anim: &model.VirtoolsObjectAnimation{Rotation: &model.VirtoolsQuatController{Interp: model.VirtoolsBezier}}, Part: model.VirtoolsPartRotation},
	} {
		if _, err := Compile(c); err == nil {
			t.Errorf("%+v compiled", c)
		}
	}
}
