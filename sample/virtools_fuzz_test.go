package sample

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/animbake/bake/model"
)

// vxFuzzReader hands out bounded numbers from fuzz bytes (zeros when they
// run out).
type vxFuzzReader struct{ b []byte }

func (r *vxFuzzReader) u8() byte {
	if len(r.b) == 0 {
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

// f returns a finite float in [−scale, scale].
func (r *vxFuzzReader) f(scale float64) float64 {
	var v uint16
	if len(r.b) >= 2 {
		v = binary.LittleEndian.Uint16(r.b)
		r.b = r.b[2:]
	}
	return (float64(v)/65535*2 - 1) * scale
}

func (r *vxFuzzReader) interp(quat bool) model.VirtoolsInterp {
	switch r.u8() % 3 {
	case 0:
		return model.VirtoolsLinear
	case 1:
		return model.VirtoolsTCB
	}
	if quat {
		return model.VirtoolsTCB
	}
	return model.VirtoolsBezier
}

func (r *vxFuzzReader) vector() *model.VirtoolsVectorController {
	n := int(r.u8() % 6)
	if n == 0 {
		return nil
	}
	c := &model.VirtoolsVectorController{Interp: r.interp(false)}
	t := 0.0
	for range n {
		t += r.f(10) + 10 // non-decreasing, repeats possible
		c.Keys = append(c.Keys, model.VirtoolsVectorKey{Time: math.Max(t, 0),
			Value:   [3]float64{r.f(100), r.f(100), r.f(100)},
			Tension: r.f(1), Continuity: r.f(1), Bias: r.f(1), EaseTo: r.f(1) + 1, EaseFrom: r.f(1) + 1,
			InMode: uint16(r.u8()), OutMode: uint16(r.u8()),
			In: [3]float64{r.f(10), r.f(10), r.f(10)}, Out: [3]float64{r.f(10), r.f(10), r.f(10)}})
		t = c.Keys[len(c.Keys)-1].Time
	}
	return c
}

func (r *vxFuzzReader) quat() *model.VirtoolsQuatController {
	n := int(r.u8() % 6)
	if n == 0 {
		return nil
	}
	c := &model.VirtoolsQuatController{Interp: r.interp(true)}
	t := 0.0
	for range n {
		t += math.Abs(r.f(10))
		c.Keys = append(c.Keys, model.VirtoolsQuatKey{Time: t,
			Value:   [4]float64{r.f(1), r.f(1), r.f(1), r.f(1)},
			Tension: r.f(1), Continuity: r.f(1), Bias: r.f(1), EaseTo: r.f(1) + 1, EaseFrom: r.f(1) + 1})
	}
	return c
}

// FuzzVirtoolsEval builds object animations (merges included) and curves
// from fuzz bytes and evaluates them anywhere: compilation either fails
// cleanly or gives evaluators that never panic.
func FuzzVirtoolsEval(f *testing.F) {
	f.Add([]byte{3, 1, 0, 0, 255, 255, 0, 128, 4, 2, 9, 9, 9, 9, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add([]byte{5, 0, 5, 1, 5, 2, 200, 100, 50, 25, 12, 6, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &vxFuzzReader{b: data}
		leaf := func() *model.VirtoolsObjectAnimation {
			return &model.VirtoolsObjectAnimation{Length: math.Abs(r.f(100)), Flags: uint32(r.u8()) &^ model.VirtoolsMergedAnimation,
				Position: r.vector(), Scale: r.vector(), Rotation: r.quat(), ScaleAxis: r.quat()}
		}
		anim := leaf()
		if r.u8()%2 == 1 {
			anim = &model.VirtoolsObjectAnimation{Length: math.Abs(r.f(100)), Flags: model.VirtoolsMergedAnimation,
				Merge: &model.VirtoolsMerge{Factor: r.f(1) + 0.5, A: anim, B: leaf()}}
		}
		rest := [16]float64{r.f(2), r.f(2), r.f(2), 0, r.f(2), r.f(2), r.f(2), 0, r.f(2), r.f(2), r.f(2), 0, r.f(9), r.f(9), r.f(9), 1}
		anim.Rest = &rest
		frames := []float64{-1, 0, r.f(200), r.f(200), 1e300, -1e300}
		out := make([]float64, 16)
		for _, part := range []string{model.VirtoolsPartTranslation, model.VirtoolsPartRotation, model.VirtoolsPartScale, model.VirtoolsPartScaleAxis, model.VirtoolsPartMatrix} {
			e, err := Compile(&model.VirtoolsTransform{Anim: anim, Part: part})
			if err != nil {
				continue
			}
			for _, fr := range frames {
				e.Eval(fr, out)
			}
		}
		c := &model.VirtoolsCurve{Closed: r.u8()%2 == 0, Fitting: r.f(1),
			World: [16]float64{r.f(2), r.f(2), r.f(2), 0, r.f(2), r.f(2), r.f(2), 0, r.f(2), r.f(2), r.f(2), 0, r.f(9), r.f(9), r.f(9), 1}}
		for range int(r.u8() % 6) {
			c.Points = append(c.Points, model.VirtoolsCurvePoint{World: [3]float64{r.f(100), r.f(100), r.f(100)},
				UserTangents: r.u8()%2 == 0, Linear: r.u8()%2 == 0, Tension: r.f(1), Continuity: r.f(1), Bias: r.f(1),
				In: [3]float64{r.f(10), r.f(10), r.f(10)}, Out: [3]float64{r.f(10), r.f(10), r.f(10)}})
		}
		for _, curve := range []model.Curve{c, &model.VirtoolsPathFollow{Path: c, Frames: math.Abs(r.f(100)) + 1, Local: r.u8()%2 == 0}} {
			e, err := Compile(curve)
			if err != nil {
				continue
			}
			for _, fr := range append(frames, math.NaN(), math.Inf(1), math.Inf(-1)) {
				e.Eval(fr, out)
			}
			for _, v := range out[:3] {
				if math.IsInf(v, 0) {
					t.Fatalf("infinite curve output")
				}
			}
		}
	})
}
