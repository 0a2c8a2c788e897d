package sample

import (
	"math"
	"testing"

	"github.com/animbake/bake/model"
)

// vxBenchAnim is a Record Anim-sized animation: 4445 linear position,
// rotation and scale keys.
func vxBenchAnim() *model.VirtoolsObjectAnimation {
	const n = 4445
	a := &model.VirtoolsObjectAnimation{Length: n,
		Position: &model.VirtoolsVectorController{Interp: model.VirtoolsLinear},
		Scale:    &model.VirtoolsVectorController{Interp: model.VirtoolsLinear},
		Rotation: &model.VirtoolsQuatController{Interp: model.VirtoolsLinear}}
	for i := range n {
		t := float64(i)
		a.Position.Keys = append(a.Position.Keys, model.VirtoolsVectorKey{Time: t, Value: [3]float64{math.Sin(t / 100), t / 50, 1}})
		a.Scale.Keys = append(a.Scale.Keys, model.VirtoolsVectorKey{Time: t, Value: [3]float64{1, 1, 1}})
		a.Rotation.Keys = append(a.Rotation.Keys, model.VirtoolsQuatKey{Time: t, Value: [4]float64{0, math.Sin(t / 200), 0, math.Cos(t / 200)}})
	}
	return a
}

// BenchmarkVirtoolsSetStepMatrix measures one full SetStep (3 controllers
// and the compose) per sample.
func BenchmarkVirtoolsSetStepMatrix(b *testing.B) {
	e, err := Compile(&model.VirtoolsTransform{Anim: vxBenchAnim(), Part: model.VirtoolsPartMatrix})
	if err != nil {
		b.Fatal(err)
	}
	out := make([]float64, 16)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		e.Eval(float64(i%44450)/10, out)
	}
}

// BenchmarkVirtoolsTCBRotation measures the 6-key UFO-arm-style TCB
// rotation per sample.
func BenchmarkVirtoolsTCBRotation(b *testing.B) {
	keys := vxTCBRotationKeys()
	anim := &model.VirtoolsObjectAnimation{Length: 30, Rotation: &model.VirtoolsQuatController{Interp: model.VirtoolsTCB, Keys: keys}}
	e, err := Compile(&model.VirtoolsTransform{Anim: anim, Part: model.VirtoolsPartRotation})
	if err != nil {
		b.Fatal(err)
	}
	out := make([]float64, 4)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		e.Eval(float64(i%300)/10, out)
	}
}

// BenchmarkVirtoolsCurveGetPos measures GetPos on a 4-point closed TCB
// curve.
func BenchmarkVirtoolsCurveGetPos(b *testing.B) {
	c := vxCurve(true, false, [3]float64{95, 0, 0}, [3]float64{0, 0, 95}, [3]float64{-95, 0, 0}, [3]float64{0, 0, -95})
	e, err := Compile(c)
	if err != nil {
		b.Fatal(err)
	}
	out := make([]float64, 6)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		e.Eval(float64(i%1000)/1000, out)
	}
}
