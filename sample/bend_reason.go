package sample

import "github.com/animbake/bake/model"

// BendReasoner is implemented by evaluators that can say why Bend gave no
// bound over an interval, for reports ("not derived: …").
type BendReasoner interface {
	NoBend(f0, f1 float64) string
}

// NoBendReason asks ev why it gives no bound over [f0, f1] (see
// BendReasoner); empty when it cannot say.
func NoBendReason(ev Evaluator, f0, f1 float64) string {
	if r, ok := ev.(BendReasoner); ok {
		return r.NoBend(f0, f1)
	}
	return ""
}

// NoBend implements BendReasoner for Virtools object animations.
func (e *vxTransformEval) NoBend(f0, f1 float64) string {
	switch e.part {
	case model.VirtoolsPartMatrix:
		return "a Virtools matrix composed with a scale axis has no derived bound"
	case model.VirtoolsPartRotation, model.VirtoolsPartScaleAxis:
		if e.anim.blendsRotations(0) {
			return "a Virtools merge slerps two moving rotations (no derived bound)"
		}
		return "a Virtools TCB rotation's Squad crosses a VxMath Slerp switch here (its sine weights against its linear blend at 1 − |a·b| = 0.01, or the sign of a·b), where the engine's rotation jumps"
	}
	return "a Virtools controller holds (Bezier STEP) and jumps inside"
}

// NoBend implements BendReasoner for progressions.
func (e *vxProgressionEval) NoBend(_, _ float64) string {
	return "a Virtools progression's bound is not derived (refining it on MenuLevel's Record Anim took minutes and gigabytes)"
}

// NoBend implements BendReasoner for path followers.
func (e *vxFollowEval) NoBend(_, _ float64) string {
	return "a follower wraps round a closed path here"
}

// blendsRotations reports whether a merge below e slerps two sources by a
// factor strictly between 0 and 1.
func (e *vxAnim) blendsRotations(depth int) bool {
	if !e.merged || depth > vxMaxMergeDepth {
		return false
	}
	return (e.factor != 0 && e.factor != 1) || e.a.blendsRotations(depth+1) || e.b.blendsRotations(depth+1)
}
