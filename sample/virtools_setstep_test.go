package sample

import (
	"math"
	"testing"

	"github.com/animbake/bake/model"
)

func vxLinearPos(keys ...[4]float64) *model.VirtoolsVectorController {
	c := &model.VirtoolsVectorController{Type: model.VirtoolsLinearPosition, Interp: model.VirtoolsLinear}
	for _, k := range keys {
		c.Keys = append(c.Keys, model.VirtoolsVectorKey{Time: k[0], Value: [3]float64{k[1], k[2], k[3]}})
	}
	return c
}

func vxLinearRot(keys ...[5]float64) *model.VirtoolsQuatController {
	c := &model.VirtoolsQuatController{Type: model.VirtoolsLinearRotation, Interp: model.VirtoolsLinear}
	for _, k := range keys {
		c.Keys = append(c.Keys, model.VirtoolsQuatKey{Time: k[0], Value: [4]float64{k[1], k[2], k[3], k[4]}})
	}
	return c
}

func vxSetStepT(t *testing.T, a *model.VirtoolsObjectAnimation, frame float64) VirtoolsPose {
	t.Helper()
	p, err := VirtoolsSetStep(a, frame)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// vxRestScaled is a rest local matrix: scale (2, 3, 4) on the axes (rows),
// a shear term in row 0 (so "keep the matrix" and "recompose it" differ),
// translation (5, 6, 7).
var vxRestScaled = [16]float64{
	2, 0.5, 0, 0,
	0, 3, 0, 0,
	0, 0, 4, 0,
	5, 6, 7, 1,
}

// OA §5.4 step 5: when only the position is evaluated, SetStep writes row
// 3 and leaves the rest of the local matrix (shear included) alone.
func TestVirtoolsSetStepOnlyPosition_OA5_4(t *testing.T) {
	rest := vxRestScaled
	a := &model.VirtoolsObjectAnimation{Length: 10, Position: vxLinearPos([4]float64{0, 1, 2, 3}), Rest: &rest}
	p := vxSetStepT(t, a, 5)
	want := rest
	want[12], want[13], want[14] = 1, 2, 3
	vxNear(t, "rows", p.Rows[:], want[:], 0)
}

// OA §5.4 step 5: nothing evaluated leaves the matrix untouched; the
// ignore-position flag (4) makes a position controller count as absent.
func TestVirtoolsSetStepNothingAndIgnoreFlags_OA5_4(t *testing.T) {
	rest := vxRestScaled
	a := &model.VirtoolsObjectAnimation{Length: 10, Flags: model.VirtoolsIgnorePosition,
		Position: vxLinearPos([4]float64{0, 1, 2, 3}), Rest: &rest}
	p := vxSetStepT(t, a, 5)
	vxNear(t, "rows", p.Rows[:], rest[:], 0)
	a.Flags = model.VirtoolsIgnoreRotation
	a.Rotation = vxLinearRot([5]float64{0, 1, 0, 0, 0})
	p = vxSetStepT(t, a, 5)
	if p.Rows[12] != 1 || p.Rows[0] != 2 || p.Rows[1] != 0.5 {
		t.Errorf("ignored rotation must leave a position-only update, got %v", p.Rows)
	}
}

// OA §5.4 step 5: a rotation without position and scale takes them from
// the rest matrix (row 3, row lengths) and composes rows R(q)_i · s_i.
// q = (0, sin 45°, 0, cos 45°) (Virtools convention) has rows (0, 0, 1),
// (0, 1, 0), (−1, 0, 0); the row lengths of the rest are (√4.25, 3, 4).
func TestVirtoolsSetStepMissingComponentsFromRest_OA5_4(t *testing.T) {
	rest := vxRestScaled
	s2 := math.Sqrt(0.5)
	a := &model.VirtoolsObjectAnimation{Length: 10, Rotation: vxLinearRot([5]float64{0, 0, s2, 0, s2}), Rest: &rest}
	p := vxSetStepT(t, a, 5)
	sx := math.Sqrt(4.25)
	vxNear(t, "rows", p.Rows[:], []float64{0, 0, sx, 0, 0, 3, 0, 0, -4, 0, 0, 0, 5, 6, 7, 1}, 1e-15)
	vxNear(t, "scale", p.Scale[:], []float64{sx, 3, 4}, 1e-15)
}

// OA §5.4 step 5 (FUN_1000c2e0): a scale axis U turns the scale into
// Uᵀ·diag(s)·U before the rotation. Scale (2, 1, 1) about an axis frame
// turned 90° about Z (Virtools q (0, 0, sin 45°, cos 45°), rows (0,−1,0),
// (1,0,0), (0,0,1)) stretches along Y: rows (1,0,0), (0,2,0), (0,0,1).
// A scale axis whose w is within FLT_EPSILON of 1 is ignored.
func TestVirtoolsSetStepScaleAxis_OA5_4(t *testing.T) {
	s2 := math.Sqrt(0.5)
	a := &model.VirtoolsObjectAnimation{Length: 10,
		Position: vxLinearPos([4]float64{0, 1, 2, 3}),
		Scale:    &model.VirtoolsVectorController{Interp: model.VirtoolsLinear, Keys: []model.VirtoolsVectorKey{{Value: [3]float64{2, 1, 1}}}},
		ScaleAxis: &model.VirtoolsQuatController{Interp: model.VirtoolsLinear,
			Keys: []model.VirtoolsQuatKey{{Value: [4]float64{0, 0, s2, s2}}}},
	}
	p := vxSetStepT(t, a, 0)
	vxNear(t, "rows", p.Rows[:], []float64{1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1}, 1e-15)
	// With a rotation too: rows = sym · R(q); q = 90° about Y as above.
	a.Rotation = vxLinearRot([5]float64{0, 0, s2, 0, s2})
	p = vxSetStepT(t, a, 0)
	vxNear(t, "rows with rotation", p.Rows[:], []float64{0, 0, 1, 0, 0, 2, 0, 0, -1, 0, 0, 0, 1, 2, 3, 1}, 1e-15)
	// Nearly identity scale axis: plain compose (rows scaled by 2, 1, 1).
	a.Rotation = nil
	a.ScaleAxis.Keys[0].Value = [4]float64{0, 0, 1e-8, 1}
	p = vxSetStepT(t, a, 0)
	vxNear(t, "identity axis", p.Rows[:], []float64{2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1}, 1e-15)
}

// OA §5.4 step 4: the root animation of a keyed animation adds the keyed
// animation's vector to the evaluated position.
func TestVirtoolsSetStepRootOffset_OA5_4(t *testing.T) {
	a := &model.VirtoolsObjectAnimation{Length: 10, Position: vxLinearPos([4]float64{0, 1, 2, 3}),
		Offset: [3]float64{10, 20, 30}}
	p := vxSetStepT(t, a, 0)
	vxNear(t, "pos", p.Position[:], []float64{11, 22, 33}, 0)
}

// controllers §8 example: factor 0.25, A at 10 gives (4, 0, 0), B gives
// (8, 4, 0) → (5, 1, 0). The sources run at the same relative time: the
// merged length is 20, A's 20 and B's 40, so frame 10 is A's 10 and B's 20.
// Factor 0 uses A alone, factor 1 B alone; rotations slerp.
func TestVirtoolsMerged_Controllers8(t *testing.T) {
	s2 := math.Sqrt(0.5)
	animA := &model.VirtoolsObjectAnimation{Name: "A", Length: 20,
		Position: vxLinearPos([4]float64{0, 0, 0, 0}, [4]float64{20, 8, 0, 0}),
		Rotation: vxLinearRot([5]float64{0, 0, 0, 0, 1})}
	animB := &model.VirtoolsObjectAnimation{Name: "B", Length: 40,
		Position: vxLinearPos([4]float64{0, 0, 0, 0}, [4]float64{40, 16, 8, 0}),
		Rotation: vxLinearRot([5]float64{0, 0, 0, s2, s2})}
	m := &model.VirtoolsObjectAnimation{Name: "M", Length: 20, Flags: model.VirtoolsMergedAnimation,
		Merge: &model.VirtoolsMerge{Factor: 0.25, A: animA, B: animB}}
	p := vxSetStepT(t, m, 10)
	vxNear(t, "blend", p.Position[:], []float64{5, 1, 0}, 1e-15)
	// Slerp(0.25) from identity to 90° about Z: 22.5° about Z.
	vxNear(t, "slerp", p.Rotation[:], []float64{0, 0, math.Sin(math.Pi / 16), math.Cos(math.Pi / 16)}, 1e-15)
	m.Merge.Factor = 0
	p = vxSetStepT(t, m, 10)
	vxNear(t, "factor 0", p.Position[:], []float64{4, 0, 0}, 1e-15)
	m.Merge.Factor = 1
	p = vxSetStepT(t, m, 10)
	vxNear(t, "factor 1", p.Position[:], []float64{8, 4, 0}, 1e-15)
	// One source without a position controller: the other alone.
	m.Merge.Factor = 0.25
	animB.Position = nil
	p = vxSetStepT(t, m, 10)
	vxNear(t, "one source", p.Position[:], []float64{4, 0, 0}, 1e-15)
	// A merge cycle is refused.
	animA.Flags = model.VirtoolsMergedAnimation
	animA.Merge = &model.VirtoolsMerge{Factor: 0.5, A: m, B: animB}
	if _, err := VirtoolsSetStep(m, 1); err == nil {
		t.Error("merge cycle accepted")
	}
}

// A merge graph sharing one source many times compiles once per node and
// nests no deeper than vxMaxMergeDepth.
func TestVirtoolsMergedDepthLimit_Controllers8(t *testing.T) {
	leaf := &model.VirtoolsObjectAnimation{Name: "leaf", Length: 1, Position: vxLinearPos([4]float64{0, 1, 1, 1})}
	cur := leaf
	for range vxMaxMergeDepth {
		cur = &model.VirtoolsObjectAnimation{Name: "m", Length: 1, Flags: model.VirtoolsMergedAnimation,
			Merge: &model.VirtoolsMerge{Factor: 0.5, A: cur, B: cur}}
	}
	if _, err := VirtoolsSetStep(cur, 0.5); err != nil {
		t.Fatalf("depth %d refused: %v", vxMaxMergeDepth, err)
	}
	cur = &model.VirtoolsObjectAnimation{Name: "m", Length: 1, Flags: model.VirtoolsMergedAnimation,
		Merge: &model.VirtoolsMerge{Factor: 0.5, A: cur, B: cur}}
	if _, err := VirtoolsSetStep(cur, 0.5); err == nil {
		t.Fatal("too deep a merge accepted")
	}
	// A shared source first met near the root and met again deep in another
	// branch still counts with its full height: chain c0 → … → c6 (6
	// levels), root R = merge(c3, X) with X = merge(merge(c0, leaf), leaf):
	// R → X → · → c0 … c6 is 9 levels although no single depth-first path
	// through the memo went past 8 before reaching c3.
	chain := []*model.VirtoolsObjectAnimation{leaf}
	for range 6 {
		top := chain[len(chain)-1]
		chain = append(chain, &model.VirtoolsObjectAnimation{Name: "c", Length: 1, Flags: model.VirtoolsMergedAnimation,
			Merge: &model.VirtoolsMerge{Factor: 0.5, A: top, B: leaf}})
	}
	// chain[6] is c0 (6 levels); chain[3] is c3 (3 levels).
	mergeOf := func(a, b *model.VirtoolsObjectAnimation) *model.VirtoolsObjectAnimation {
		return &model.VirtoolsObjectAnimation{Name: "m", Length: 1, Flags: model.VirtoolsMergedAnimation,
			Merge: &model.VirtoolsMerge{Factor: 0.5, A: a, B: b}}
	}
	root := mergeOf(chain[3], mergeOf(mergeOf(chain[6], leaf), leaf))
	if _, err := VirtoolsSetStep(root, 0.5); err == nil {
		t.Fatal("a 9-level merge through a shared source accepted")
	}
	// Validation of a shared 60-level graph finishes (no exponential walk).
	for range 60 {
		cur = &model.VirtoolsObjectAnimation{Name: "m", Length: 1, Flags: model.VirtoolsMergedAnimation,
			Merge: &model.VirtoolsMerge{Factor: 0.5, A: cur, B: cur}}
	}
	if err := cur.Validate(); err != nil {
		t.Fatal(err)
	}
}
