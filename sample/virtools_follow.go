package sample

import "github.com/animbake/bake/model"

func init() {
	RegisterCompiler("virtools-path-follow", compileVirtoolsPathFollow)
}

// vxFollowEval moves a follower along a curve: frame f is progression
// f/frames, handed to GetPos, which wraps (closed) or clamps (open) it.
type vxFollowEval struct {
	g      *VirtoolsCurveGeometry
	frames float64
	local  bool
}

func compileVirtoolsPathFollow(c model.Curve) (Evaluator, error) {
	f := c.(*model.VirtoolsPathFollow)
	if err := f.Validate(); err != nil {
		return nil, err
	}
	g, err := VirtoolsCurveUpdate(f.Path)
	if err != nil {
		return nil, err
	}
	return &vxFollowEval{g: g, frames: f.Frames, local: f.Local}, nil
}

func (e *vxFollowEval) Width() int { return 3 }

// Eval writes the follower's position (world, or curve-local when the
// follower is a child of the curve's node) at frame.
func (e *vxFollowEval) Eval(frame float64, out []float64) {
	step := frame / e.frames
	if e.local {
		p, _ := e.g.LocalPos(step)
		copy(out[:3], p[:])
		return
	}
	p, _ := e.g.GetPos(step)
	copy(out[:3], p[:])
}
