package sample

import (
	"fmt"
	"math"
	"sort"

	"github.com/animbake/bake/model"
)

func init() {
	RegisterCompiler("virtools-transform", compileVirtoolsTransform)
}

// vxTransformEval evaluates one part of an object animation's SetStep
// result at a source frame.
type vxTransformEval struct {
	anim   *vxAnim
	rest   vxRest
	offset [3]float64
	part   string
	width  int
	keys   []float64
}

func compileVirtoolsTransform(c model.Curve) (Evaluator, error) {
	t := c.(*model.VirtoolsTransform)
	if err := t.Validate(); err != nil {
		return nil, err
	}
	anim, err := compileVxAnim(t.Anim, map[*model.VirtoolsObjectAnimation]*vxAnim{}, 0)
	if err != nil {
		return nil, err
	}
	e := &vxTransformEval{anim: anim, rest: newVxRest(t.Anim.Rest), offset: t.Anim.Offset, part: t.Part}
	switch t.Part {
	case model.VirtoolsPartTranslation, model.VirtoolsPartScale:
		e.width = 3
	case model.VirtoolsPartRotation, model.VirtoolsPartScaleAxis:
		e.width = 4
	case model.VirtoolsPartMatrix:
		e.width = 16
	default:
		return nil, fmt.Errorf("virtools transform: unknown part %q", t.Part)
	}
	e.keys = anim.keyFrames()
	return e, nil
}

// keyFrames lists the distinct key times of every controller that can
// reach the output, sorted (merged animations map their sources' keys
// through the relative-time scaling).
func (e *vxAnim) keyFrames() []float64 {
	set := map[float64]bool{}
	var walk func(a *vxAnim, scale float64, depth int)
	walk = func(a *vxAnim, scale float64, depth int) {
		if depth > vxMaxMergeDepth {
			return
		}
		if a.merged {
			for _, s := range []*vxAnim{a.a, a.b} {
				if s.length != 0 {
					walk(s, scale*a.length/s.length, depth+1)
				}
			}
			return
		}
		for _, tr := range []*vxVectorTrack{a.pos, a.scale} {
			if tr != nil {
				for _, t := range tr.times {
					set[t*scale] = true
				}
			}
		}
		for _, tr := range []*vxQuatTrack{a.rot, a.axis} {
			if tr != nil {
				for _, t := range tr.times {
					set[t*scale] = true
				}
			}
		}
	}
	walk(e, 1, 0)
	keys := make([]float64, 0, len(set))
	for t := range set {
		keys = append(keys, t)
	}
	sort.Float64s(keys)
	return keys
}

func (e *vxTransformEval) Width() int           { return e.width }
func (e *vxTransformEval) KeyFrames() []float64 { return e.keys }

// Eval writes the chosen part of SetStep's result: rotations as unit
// Hamilton quaternions (the conjugate of the engine's), the matrix as a
// column-vector 4×4 in column-major order.
func (e *vxTransformEval) Eval(frame float64, out []float64) {
	var p VirtoolsPose
	vxSetStep(e.anim, &e.rest, e.offset, frame, &p)
	switch e.part {
	case model.VirtoolsPartTranslation:
		copy(out[:3], p.Position[:])
	case model.VirtoolsPartScale:
		copy(out[:3], p.Scale[:])
	case model.VirtoolsPartRotation:
		vxHamiltonUnit(out[:4], p.Rotation)
	case model.VirtoolsPartScaleAxis:
		vxHamiltonUnit(out[:4], p.ScaleAxis)
	case model.VirtoolsPartMatrix:
		copy(out[:16], p.Rows[:])
	}
}

// vxHamiltonUnit writes conj(q)/|q|: the Hamilton quaternion of the
// rotation a stored Virtools quaternion applies (axes.md §2.1), made unit
// length as glTF requires (the engine's ToMatrix ignores the length).
func vxHamiltonUnit(out []float64, q [4]float64) {
	n := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
	if n == 0 || math.IsNaN(n) || math.IsInf(n, 0) {
		out[0], out[1], out[2], out[3] = 0, 0, 0, 1
		return
	}
	out[0], out[1], out[2], out[3] = -q[0]/n, -q[1]/n, -q[2]/n, q[3]/n
}
