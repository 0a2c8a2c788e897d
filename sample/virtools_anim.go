package sample

import (
	"fmt"
	"math"

	"github.com/animbake/bake/model"
)

// vxMaxMergeDepth bounds how deeply merged animations may nest. Each level
// evaluates two sources, so the cost of one sample doubles per level; real
// files merge at most once or twice.
const vxMaxMergeDepth = 8

// vxAnim is a compiled CKObjectAnimation: its controllers, or the two
// sources of a merge (virtools-controllers.md §8).
type vxAnim struct {
	flags  uint32
	length float64
	pos    *vxVectorTrack
	scale  *vxVectorTrack
	rot    *vxQuatTrack
	axis   *vxQuatTrack
	merged bool
	factor float64
	a, b   *vxAnim
	height int // merge levels below this node (0 for a plain animation)
}

// compileVxAnim compiles an object animation graph, sharing the compiled
// form of a source used twice; depth counts merge levels on the current
// path (it bounds the recursion), height the longest path below a node
// (it bounds the cost of a sample: at most 2^height evaluations).
func compileVxAnim(m *model.VirtoolsObjectAnimation, memo map[*model.VirtoolsObjectAnimation]*vxAnim, depth int) (*vxAnim, error) {
	if e, ok := memo[m]; ok {
		if e == nil {
			return nil, fmt.Errorf("object animation %q: merge cycle", m.Name)
		}
		return e, nil
	}
	if depth > vxMaxMergeDepth {
		return nil, fmt.Errorf("object animation %q: merges nest deeper than %d levels", m.Name, vxMaxMergeDepth)
	}
	memo[m] = nil // in progress
	e := &vxAnim{flags: m.Flags, length: m.Length}
	var err error
	if m.Flags&model.VirtoolsMergedAnimation != 0 {
		if m.Merge == nil || m.Merge.A == nil || m.Merge.B == nil {
			return nil, fmt.Errorf("object animation %q: merged without two source animations", m.Name)
		}
		e.merged, e.factor = true, m.Merge.Factor
		if e.a, err = compileVxAnim(m.Merge.A, memo, depth+1); err != nil {
			return nil, err
		}
		if e.b, err = compileVxAnim(m.Merge.B, memo, depth+1); err != nil {
			return nil, err
		}
		// A source shared through the memo may sit deeper here than where
		// it was first compiled, so bound the longest path, not the depth.
		e.height = 1 + max(e.a.height, e.b.height)
		if e.height > vxMaxMergeDepth {
			return nil, fmt.Errorf("object animation %q: merges nest deeper than %d levels", m.Name, vxMaxMergeDepth)
		}
	} else {
		if e.pos, err = compileVxVector(m.Position); err != nil {
			return nil, fmt.Errorf("object animation %q position: %w", m.Name, err)
		}
		if e.scale, err = compileVxVector(m.Scale); err != nil {
			return nil, fmt.Errorf("object animation %q scale: %w", m.Name, err)
		}
		if e.rot, err = compileVxQuat(m.Rotation); err != nil {
			return nil, fmt.Errorf("object animation %q rotation: %w", m.Name, err)
		}
		if e.axis, err = compileVxQuat(m.ScaleAxis); err != nil {
			return nil, fmt.Errorf("object animation %q scale axis: %w", m.Name, err)
		}
	}
	memo[m] = e
	return e, nil
}

// sourceTimes maps frame t of a merged animation to the same relative time
// in its two sources.
func (e *vxAnim) sourceTimes(t float64) (ta, tb float64) {
	frac := 0.0
	if e.length != 0 {
		frac = t / e.length
	}
	return frac * e.a.length, frac * e.b.length
}

// Component selectors for vxAnim.vector and vxAnim.quat.
const (
	vxCompPosition = iota
	vxCompScale
	vxCompRotation
	vxCompScaleAxis
)

// vector is EvaluatePosition (which = vxCompPosition) or EvaluateScale
// (§5.4, controllers §8): absent when ignored (flag 4, resp. 0x10) or
// without keys; a merge uses A at factor 0, B at factor 1, and otherwise
// lerps the present sources by the factor.
func (e *vxAnim) vector(t float64, out *[3]float64, which int) bool {
	ignore, own := model.VirtoolsIgnorePosition, e.pos
	if which == vxCompScale {
		ignore, own = model.VirtoolsIgnoreScale, e.scale
	}
	if e.flags&ignore != 0 {
		*out = [3]float64{}
		return false
	}
	if !e.merged {
		return own.eval(t, out)
	}
	ta, tb := e.sourceTimes(t)
	switch e.factor {
	case 0:
		return e.a.vector(ta, out, which)
	case 1:
		return e.b.vector(tb, out, which)
	}
	var va, vb [3]float64
	okA, okB := e.a.vector(ta, &va, which), e.b.vector(tb, &vb, which)
	switch {
	case okA && okB:
		f := e.factor
		for j := range 3 {
			out[j] = (1-f)*va[j] + f*vb[j]
		}
	case okA:
		*out = va
	case okB:
		*out = vb
	}
	return okA || okB
}

// quat is EvaluateRotation (which = vxCompRotation, flag 8) or
// EvaluateScaleAxis (flag 0x40): merges slerp the sources by the factor.
func (e *vxAnim) quat(t float64, out *[4]float64, which int) bool {
	ignore, own := model.VirtoolsIgnoreRotation, e.rot
	if which == vxCompScaleAxis {
		ignore, own = model.VirtoolsIgnoreScaleAxis, e.axis
	}
	if e.flags&ignore != 0 {
		*out = [4]float64{0, 0, 0, 1}
		return false
	}
	if !e.merged {
		return own.eval(t, out)
	}
	ta, tb := e.sourceTimes(t)
	switch e.factor {
	case 0:
		return e.a.quat(ta, out, which)
	case 1:
		return e.b.quat(tb, out, which)
	}
	var qa, qb [4]float64
	okA, okB := e.a.quat(ta, &qa, which), e.b.quat(tb, &qb, which)
	switch {
	case okA && okB:
		*out = VirtoolsSlerp(e.factor, qa, qb)
	case okA:
		*out = qa
	case okB:
		*out = qb
	}
	return okA || okB
}

// VirtoolsPose is what SetStep writes at one frame: the local matrix and
// the components it was composed from (rotations in the stored Virtools
// convention).
type VirtoolsPose struct {
	// Rows is the local matrix in Virtools storage order (row-major, rows =
	// axes, row 3 = translation). Read as column-major, the same 16 numbers
	// are the column-vector matrix.
	Rows      [16]float64
	Position  [3]float64
	Rotation  [4]float64 // Virtools convention, as evaluated
	Scale     [3]float64
	ScaleAxis [4]float64 // Virtools convention; (0,0,0,1) when unused
}

// vxRest is the decomposition of the entity's rest local matrix that
// SetStep uses for absent components.
type vxRest struct {
	rows  [16]float64
	pos   [3]float64
	rot   [4]float64
	scale [3]float64
}

func newVxRest(m *[16]float64) vxRest {
	r := vxRest{rows: [16]float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}}
	if m != nil {
		r.rows = *m
	}
	var unit [9]float64
	for i := range 3 {
		row := r.rows[4*i : 4*i+3]
		l := math.Sqrt(row[0]*row[0] + row[1]*row[1] + row[2]*row[2])
		r.scale[i] = l
		for j := range 3 {
			if l > 0 {
				unit[3*i+j] = row[j] / l
			}
		}
		r.pos[i] = r.rows[12+i]
	}
	r.rot = vxRowsToQuat(unit)
	return r
}

// vxSetStep is SetStep steps 3–5 (virtools-curves-and-object-animations.txt
// §5.4) at frame t: evaluate the four components, add the root offset to
// the position, take absent components from the rest matrix, and compose.
func vxSetStep(e *vxAnim, rest *vxRest, offset [3]float64, t float64, p *VirtoolsPose) {
	havePos := e.vector(t, &p.Position, vxCompPosition)
	haveRot := e.quat(t, &p.Rotation, vxCompRotation)
	haveScale := e.vector(t, &p.Scale, vxCompScale)
	haveAxis := e.quat(t, &p.ScaleAxis, vxCompScaleAxis)
	if havePos {
		for j := range 3 {
			p.Position[j] += offset[j]
		}
	}
	if !haveAxis {
		p.ScaleAxis = [4]float64{0, 0, 0, 1}
	}
	if !havePos {
		p.Position = rest.pos
	}
	if !haveRot {
		p.Rotation = rest.rot
	}
	if !haveScale {
		p.Scale = rest.scale
	}
	p.Rows = rest.rows
	switch {
	case !havePos && !haveRot && !haveScale && !haveAxis:
		return // nothing evaluated: the matrix is left alone
	case havePos && !haveRot && !haveScale && !haveAxis:
		p.Rows[12], p.Rows[13], p.Rows[14] = p.Position[0], p.Position[1], p.Position[2]
		return
	}
	r := vxQuatToRows(p.Rotation)
	var lin [9]float64
	if !haveAxis || math.Abs(p.ScaleAxis[3]-1) < vxFltEpsilon {
		// compose: row i of R scaled by scale[i]
		for i := range 3 {
			for j := range 3 {
				lin[3*i+j] = p.Scale[i] * r[3*i+j]
			}
		}
	} else {
		// Uᵀ · diag(scale) · U · R, with U = ToMatrix(scale axis) (rows)
		u := vxQuatToRows(p.ScaleAxis)
		var sym [9]float64
		for i := range 3 {
			for j := range 3 {
				var s float64
				for k := range 3 {
					s += u[3*k+i] * p.Scale[k] * u[3*k+j]
				}
				sym[3*i+j] = s
			}
		}
		for i := range 3 {
			for j := range 3 {
				lin[3*i+j] = sym[3*i]*r[j] + sym[3*i+1]*r[3+j] + sym[3*i+2]*r[6+j]
			}
		}
	}
	for i := range 3 {
		copy(p.Rows[4*i:4*i+3], lin[3*i:3*i+3])
		p.Rows[4*i+3] = 0
	}
	p.Rows[12], p.Rows[13], p.Rows[14], p.Rows[15] = p.Position[0], p.Position[1], p.Position[2], 1
}

// VirtoolsSetStep evaluates an object animation at source frame t the way
// CKObjectAnimation::SetStep does (t = step × length), without a parent:
// the result is the entity's local matrix and its components.
func VirtoolsSetStep(a *model.VirtoolsObjectAnimation, t float64) (VirtoolsPose, error) {
	var p VirtoolsPose
	e, err := compileVxAnim(a, map[*model.VirtoolsObjectAnimation]*vxAnim{}, 0)
	if err != nil {
		return p, err
	}
	rest := newVxRest(a.Rest)
	vxSetStep(e, &rest, a.Offset, t, &p)
	return p, nil
}
