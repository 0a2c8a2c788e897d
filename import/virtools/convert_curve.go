package virtools

import (
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// DefaultCurveSeconds is how long a follower takes to travel a curve when
// the options do not say.
const DefaultCurveSeconds = 10

// addCurve adds a CKCurve as a model path, plus a follower node (a child
// of the curve's node) and an animation named after the curve in which the
// follower travels the curve once in opts.CurveSeconds.
func (cv *converter) addCurve(c *Curve) error {
	o := &cv.s.Objects[c.Index]
	ent := cv.s.Entities[c.Index]
	path := &model.VirtoolsCurve{Closed: !c.Open, Fitting: float64(c.Fitting), World: identityAffine.storage16()}
	if ent.HasWorld {
		path.World = toAffine(ent.World).storage16()
	}
	for _, pi := range c.Points {
		p := cv.s.CurvePoints[pi]
		pe := cv.s.Entities[pi]
		if p == nil || pe == nil {
			return cv.objectError(c.Index, "control point object #%d is not a curve point", pi)
		}
		mp := model.VirtoolsCurvePoint{Name: cv.s.Objects[pi].Name, UserTangents: p.UserTangents, Linear: p.Linear,
			Tension: float64(p.Tension), Continuity: float64(p.Continuity), Bias: float64(p.Bias),
			In: vec3(p.In), Out: vec3(p.Out)}
		if pe.HasWorld {
			mp.World = vec3(pe.World[3])
		} else if p.HasOldPosition {
			mp.World = vec3(p.OldPosition)
		}
		path.Points = append(path.Points, mp)
	}
	node := cv.file.Nodes[cv.nodeOf[c.Index]].Name
	pc := model.PathCurve{Name: o.Name, Node: node, Closed: !c.Open, Curve: path,
		Extras: map[string]any{"virtoolsFitting": float64(c.Fitting), "virtoolsSteps": c.Steps, "virtoolsPoints": len(c.Points)}}
	if !cv.curveGeometry(&pc, path) {
		return nil
	}
	cv.file.Curves = append(cv.file.Curves, pc)
	cv.notePath(c.Index, path)
	if len(path.Points) < 2 {
		cv.opts.Warnf("curve %q has %d control points; no follower", o.Name, len(path.Points))
		return nil
	}
	cv.addFollower(pc.Name, node, path)
	return nil
}

// curveGeometry runs the curve's Update (§3.3) to get its total length
// and each point's arc length, and records the points in the path's
// extras: name, arc length, world position and the tangents Update uses
// (curve-local), all in source axes. A curve whose Update fails (a
// singular world matrix) is dropped with a warning, as GetPos would fail
// on it in the engine.
func (cv *converter) curveGeometry(pc *model.PathCurve, path *model.VirtoolsCurve) bool {
	g, err := sample.VirtoolsCurveUpdate(path)
	if err != nil {
		cv.opts.Warnf("curve %q: %v; the curve is left out", pc.Name, err)
		return false
	}
	pc.Length = g.Total
	points := make([]map[string]any, len(path.Points))
	for i, p := range path.Points {
		points[i] = map[string]any{"name": p.Name, "length": g.Lengths[i],
			"position": p.World[:], "in": g.In[i][:], "out": g.Out[i][:]}
	}
	pc.Extras["points"] = points
	pc.Extras["pointAxes"] = "source"
	return true
}

// addFollower adds the follower node and its animation.
func (cv *converter) addFollower(name, curveNode string, path *model.VirtoolsCurve) {
	secs := float64(DefaultCurveSeconds)
	if cv.opts != nil && cv.opts.CurveSeconds > 0 {
		secs = cv.opts.CurveSeconds
	}
	follower := curveNode + " follower"
	parent := len(cv.file.Nodes)
	for i, n := range cv.file.Nodes {
		if n.Name == curveNode {
			parent = i
		}
	}
	cv.file.Nodes = append(cv.file.Nodes, model.Node{Name: uniqueName(cv.file.Nodes, follower), Parent: parent,
		Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}, Kind: "follower"})
	follower = cv.file.Nodes[len(cv.file.Nodes)-1].Name
	frames := secs * DefaultFrameRate
	anim := newAnimation(name, DefaultFrameRate, frames)
	if path.Closed {
		anim.Loop = model.LoopRepeat
	}
	anim.Extras = map[string]any{"virtoolsClass": "CKCurve", "curveSeconds": secs, "drivenBy": DrivenByCurveSeconds}
	anim.Channels = []model.Channel{{Node: follower, Path: model.PathTranslation,
		Curve: &model.VirtoolsPathFollow{Path: path, Frames: frames, Local: true}}}
	cv.file.Animations = append(cv.file.Animations, anim)
}

// uniqueName returns name, or name with a number appended, unused by nodes.
func uniqueName(nodes []model.Node, name string) string {
	taken := func(s string) bool {
		for _, n := range nodes {
			if n.Name == s {
				return true
			}
		}
		return false
	}
	out := name
	for i := 2; taken(out); i++ {
		out = name + " " + itoa(i)
	}
	return out
}
