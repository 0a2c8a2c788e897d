package sample

import (
	"testing"

	"github.com/animbake/bake/model"
)

// A kink worked by hand: |x| over [−1, 1], slopes 1 on both sides of the
// cut at 0: d1 = 1 and d2 = 0 + 2·(1 + 1)/2 = 2, so h²/8·d2 = 4/8·2 = 1,
// exactly the chord's miss at 0 (the chord is 1, |0| is 0).
func TestKinkBendAbs(t *testing.T) {
	d1, d2, ok := kinkBend([]float64{-3, 0, 5}, -1, 1, func(a, b float64) (float64, float64, bool) { return 1, 0, true })
	if !ok || d1 != 1 || d2 != 2 {
		t.Errorf("kinkBend = %g, %g, %v; want 1, 2", d1, d2, ok)
	}
	if d1, d2, ok := kinkBend([]float64{0}, 0, 1, func(a, b float64) (float64, float64, bool) { return 1, 0, true }); !ok || d1 != 1 || d2 != 0 {
		t.Errorf("a cut at the end: %g, %g, %v; want 1, 0 (no kink inside)", d1, d2, ok)
	}
}

// A spin at 0.2 rad a frame (Rotate behaviour): q = (sin(θ/2)·axis,
// cos(θ/2)), |q'| = 0.2/2, |q”| = 0.2²/4.
func TestBendVirtoolsSpin(t *testing.T) {
	ev, err := Compile(&model.VirtoolsSpin{Rest: [4]float64{0, 0, 0, 1}, Axis: [3]float64{0, 2, 0}, RadiansPerFrame: 0.2})
	if err != nil {
		t.Fatal(err)
	}
	vxWantBend(t, "spin", ev, 3, 4, 0.1, 0.01)
}

// A report names why a bound is missing: a composed matrix, a merge's
// slerp of two moving rotations (factor ½), a Squad switch.
func TestNoBendReason(t *testing.T) {
	rot := &model.VirtoolsQuatController{Interp: model.VirtoolsLinear, Keys: []model.VirtoolsQuatKey{{Time: 0, Value: [4]float64{0, 0, 0, 1}}, {Time: 4, Value: [4]float64{0, 0, 1, 0}}}}
	src := &model.VirtoolsObjectAnimation{Name: "s", Length: 4, Rotation: rot}
	merge := &model.VirtoolsObjectAnimation{Name: "m", Length: 4, Flags: model.VirtoolsMergedAnimation, Merge: &model.VirtoolsMerge{A: src, B: src, Factor: 0.5}}
	ev, err := Compile(&model.VirtoolsTransform{Part: model.VirtoolsPartRotation, Anim: merge})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok := Bend(ev, 1, 2); ok {
		t.Error("a merge's slerp of two moving rotations was bounded")
	}
	if r := NoBendReason(ev, 1, 2); r != "a Virtools merge slerps two moving rotations (no derived bound)" {
		t.Errorf("reason %q", r)
	}
	if r := NoBendReason(&constantEval{v: []float64{1}}, 0, 1); r != "" {
		t.Errorf("a constant's reason %q, want none", r)
	}
}
