package bfres

import (
	"slices"

	"github.com/animbake/bake/model"
)

// markInexactSSC finds where Maya segment-scale compensation changes the
// pose in a way glTF cannot express (bfres-container.md §8 step 6): a bone
// whose compensate flag is set (bit 23 of its bone-anim flags, or of its
// FSKL flags when the animation does not animate it) under a parent whose
// scale is not constantly one. There the runtime keeps the parent's scale
// out of the child's rotation and scale, which with a non-uniform parent
// scale is no TRS at all; the channels stay as the file gives them and the
// bones are listed in the animation's extras. It returns how many it found.
func markInexactSSC(a *model.Animation, ns *nodeSet, compensated []string) int {
	scaled := map[string]bool{}
	for _, ch := range a.Channels {
		if ch.Node != "" && ch.Path == model.PathScale && !unitScale(ch.Curve) {
			scaled[ch.Node] = true
		}
	}
	if len(scaled) == 0 {
		return 0
	}
	animated := map[string]bool{}
	for _, ch := range a.Channels {
		animated[ch.Node] = true
	}
	var inexact []string
	for _, n := range ns.nodes {
		if n.Parent < 0 || !scaled[ns.nodes[n.Parent].Name] {
			continue
		}
		ssc := slices.Contains(compensated, n.Name)
		if !animated[n.Name] {
			ssc = n.Extras["segmentScaleCompensate"] == true
		}
		if ssc {
			inexact = append(inexact, n.Name)
		}
	}
	if len(inexact) > 0 {
		a.Extras["segmentScaleCompensateInexact"] = inexact
	}
	return len(inexact)
}

// unitScale reports whether a scale channel is the constant (1, 1, 1).
func unitScale(c model.Curve) bool {
	v, ok := c.(*model.Vector)
	if !ok {
		return false
	}
	for _, p := range v.Components {
		k, ok := p.(*model.Constant)
		if !ok || len(k.Value) != 1 || k.Value[0] != 1 {
			return false
		}
	}
	return true
}
