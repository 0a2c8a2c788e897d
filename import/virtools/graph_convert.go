package virtools

import (
	"math"

	"github.com/animbake/bake/model"
)

// Timing choices (format.Options.Timing). The empty string is the default,
// graph.
const (
	TimingGraph  = "graph"
	TimingFrames = "frames"
)

// DrivenByFrames is the "driven by" of a clip no behaviour graph times.
const DrivenByFrames = "frames"

// DrivenByCurveSeconds is the "driven by" of a curve's follower, which
// travels the curve once in --curve-seconds.
const DrivenByCurveSeconds = "--curve-seconds"

// graphState is the converter's view of the behaviour graph: what the
// recognised BBs say, and the paths built from the curves (for Position
// On Curve). It is nil with --timing frames.
type graphState struct {
	f     *graphFindings
	paths map[int]*model.VirtoolsCurve
}

// readGraph decodes and analyses the behaviour graph unless the options
// ask for the frames timing.
func (cv *converter) readGraph() *graphState {
	if cv.opts != nil && cv.opts.Timing == TimingFrames {
		return nil
	}
	warn := func(f string, a ...any) { cv.opts.Warnf(f, a...) }
	g := DecodeGraph(cv.s.Container, warn)
	return &graphState{f: analyseGraph(g, cv.s, warn), paths: map[int]*model.VirtoolsCurve{}}
}

// graphTargets lists the entities graph-driven animations move, so that
// they become nodes.
func (cv *converter) graphTargets() []int {
	if cv.gx == nil {
		return nil
	}
	var out []int
	for _, r := range cv.gx.f.Rides {
		out = append(out, r.Target)
	}
	for _, s := range cv.gx.f.Spins {
		out = append(out, s.Target)
	}
	return out
}

// notePath remembers the model path of a curve for the rides along it.
func (cv *converter) notePath(curve int, p *model.VirtoolsCurve) {
	if cv.gx != nil {
		cv.gx.paths[curve] = p
	}
}

// timeClip applies a Play Animation 3D Entity or Play Global Animation
// timing to the clip of animation object index: the clip keeps its frames
// (0..length) but plays them in Duration, through the progression curve,
// looping or not. Every clip gets a "drivenBy" extra.
func (cv *converter) timeClip(anim *model.Animation, index int) {
	if anim.Extras == nil {
		anim.Extras = map[string]any{}
	}
	anim.Extras["drivenBy"] = DrivenByFrames
	if cv.gx == nil {
		return
	}
	ct, ok := cv.gx.f.Clips[index]
	if !ok {
		return
	}
	length := anim.End
	if !(length > 0) {
		cv.opts.Warnf("%s plays %q, which has no length; it keeps the frames timing", ct.DrivenBy, anim.Name)
		return
	}
	anim.FPS = length * 1000 / ct.DurationMs
	anim.Loop = model.LoopOnce
	if ct.Loop {
		anim.Loop = model.LoopRepeat
	}
	for i := range anim.Channels {
		c := &anim.Channels[i]
		c.Curve = &model.VirtoolsProgression{Inner: c.Curve, Frames: length, Shape: ct.Shape, A: 0, B: 1, InnerFrames: length}
	}
	anim.Extras["drivenBy"] = ct.DrivenBy
	anim.Extras["virtoolsDurationMs"] = ct.DurationMs
	anim.Extras["virtoolsProgressionCurve"] = ct.Shape != nil
	anim.Extras["virtoolsStartedBy"] = ct.StartedBy
}

// addGraphAnimations adds the animations only the graph makes: rides along
// curves, spins and texture scrolls, and records what is not baked.
func (cv *converter) addGraphAnimations() {
	if cv.gx == nil {
		return
	}
	for _, r := range cv.gx.f.Rides {
		cv.addRide(r)
	}
	for _, s := range cv.gx.f.Spins {
		cv.addSpin(s)
	}
	for _, s := range cv.gx.f.Scrolls {
		cv.addScroll(s)
	}
	var list []map[string]any
	for _, u := range cv.gx.f.Unbaked {
		target := ""
		if u.Target != noRef {
			target = cv.s.Objects[u.Target].Name
		}
		cv.opts.Warnf("%s: %s (target %q)", u.DrivenBy, u.What, target)
		list = append(list, map[string]any{"drivenBy": u.DrivenBy, "target": target, "what": u.What})
	}
	if list != nil {
		cv.file.Extras["virtoolsUnbakedMotion"] = list
	}
	if len(cv.gx.f.Unknown) > 0 {
		cv.file.Extras["virtoolsOtherBuildingBlocks"] = cv.gx.f.Unknown
	}
}

// addRide adds "<target> on <curve>": the target's position along the
// curve, world position = GetPos(A + (B − A)·GetY(t / Duration)), at 30
// clip frames per second, repeating when the graph restarts the
// progression.
func (cv *converter) addRide(r curveRide) {
	path := cv.gx.paths[r.Curve]
	node, ok := cv.nodeOf[r.Target]
	if path == nil || !ok || len(path.Points) < 2 {
		cv.opts.Warnf("%s: the curve %q cannot be travelled; not converted", r.DrivenBy, cv.s.Objects[r.Curve].Name)
		return
	}
	if p := cv.file.Nodes[node].Parent; p >= 0 {
		cv.opts.Warnf("%s: the target %q has a parent; Position On Curve sets its world position, which bake does not map into the parent's frame; not converted", r.DrivenBy, cv.file.Nodes[node].Name)
		return
	}
	target := cv.file.Nodes[node].Name
	frames := r.DurationMs / 1000 * DefaultFrameRate
	anim := newAnimation(target+" on "+cv.s.Objects[r.Curve].Name, DefaultFrameRate, frames)
	if r.Repeat {
		anim.Loop = model.LoopRepeat
	}
	anim.Extras = map[string]any{"drivenBy": r.DrivenBy, "virtoolsDurationMs": r.DurationMs,
		"virtoolsProgressionA": r.A, "virtoolsProgressionB": r.B, "virtoolsProgressionCurve": r.Shape != nil,
		"virtoolsStartedBy": r.StartedBy}
	anim.Channels = []model.Channel{{Node: target, Path: model.PathTranslation, Curve: &model.VirtoolsProgression{
		Inner: &model.VirtoolsPathFollow{Path: path, Frames: 1}, Frames: frames, Shape: r.Shape, A: r.A, B: r.B, InnerFrames: 1}}}
	cv.file.Animations = append(cv.file.Animations, anim)
}

// addSpin adds "<target> spin": a constant angular velocity baked over one
// full turn at 30 frames per second, repeating. The axis is taken from the
// referential's frame into the target's own frame through the saved world
// matrices, so that the channel turns the rest rotation about it.
func (cv *converter) addSpin(s spin) {
	node, ok := cv.nodeOf[s.Target]
	if !ok {
		return
	}
	n := &cv.file.Nodes[node]
	axis := s.Axis
	if s.Referential != s.Target {
		world := axis
		if ref := cv.s.Entities[s.Referential]; ref != nil && ref.HasWorld {
			world = rowsTimes(unitRows(ref.World), axis)
		}
		axis = rowsDot(unitRows(cv.s.Entities[s.Target].World), world)
	}
	period := 2 * math.Pi / math.Abs(s.RadPerSec) * DefaultFrameRate
	anim := newAnimation(n.Name+" spin", DefaultFrameRate, period)
	anim.Loop = model.LoopRepeat
	anim.Extras = map[string]any{"drivenBy": s.DrivenBy, "virtoolsRadiansPerSecond": s.RadPerSec,
		"virtoolsAxis": axis[:], "virtoolsHierarchy": s.Hierarchy, "virtoolsStartedBy": s.StartedBy}
	if len(s.Assumptions) > 0 {
		anim.Extras["virtoolsAssumptions"] = s.Assumptions
	}
	anim.Channels = []model.Channel{{Node: n.Name, Path: model.PathRotation,
		Curve: &model.VirtoolsSpin{Rest: n.Rotation, Axis: axis, RadiansPerFrame: s.RadPerSec / DefaultFrameRate}}}
	cv.file.Animations = append(cv.file.Animations, anim)
}

// addScroll adds "<mesh> texture scroll": a uvOffset channel on every
// textured material of the mesh (on the mesh's own UVs, channel -1; see
// scrolledMaterials), or, when there is none, on a material named after
// the mesh (kept as data), over the shortest period after which both offsets have wrapped a whole
// number of times (up to 1000 turns of the faster one).
func (cv *converter) addScroll(s uvScroll) {
	name := cv.s.Objects[s.Target].Name
	u, v := math.Abs(s.PerSec[0]), math.Abs(s.PerSec[1])
	fast, slow := max(u, v), min(u, v)
	if fast == 0 {
		return
	}
	secs := 1 / fast
	if slow > 0 {
		for k := 1; k <= 1000; k++ {
			t := float64(k) / fast
			if x := slow * t; math.Abs(x-math.Round(x)) < 1e-9 {
				secs = t
				break
			}
			if k == 1000 {
				cv.opts.Warnf("%s: the u and v rates %v and %v have no common period; one turn of the faster one is baked", s.DrivenBy, s.PerSec[0], s.PerSec[1])
			}
		}
	}
	frames := secs * DefaultFrameRate
	anim := newAnimation(name+" texture scroll", DefaultFrameRate, frames)
	anim.Loop = model.LoopRepeat
	anim.Extras = map[string]any{"drivenBy": s.DrivenBy, "virtoolsUVPerSecond": s.PerSec[:], "virtoolsUVChannel": s.Channel}
	curve := &model.VirtoolsUVScroll{PerFrame: [2]float64{s.PerSec[0] / DefaultFrameRate, s.PerSec[1] / DefaultFrameRate}}
	mats := cv.scrolledMaterials(s)
	if len(mats) == 0 {
		mats = []string{name} // no converted material: the channel stays data
	}
	for _, m := range mats {
		anim.Channels = append(anim.Channels, model.Channel{Material: m, Path: model.PathUVOffset, Curve: curve})
	}
	cv.file.Animations = append(cv.file.Animations, anim)
}

// unitRows normalises the three axis rows of a saved world matrix.
func unitRows(w [4][3]float32) [3][3]float64 {
	var r [3][3]float64
	for i := range 3 {
		n := math.Sqrt(float64(w[i][0])*float64(w[i][0]) + float64(w[i][1])*float64(w[i][1]) + float64(w[i][2])*float64(w[i][2]))
		if n == 0 {
			n = 1
		}
		for k := range 3 {
			r[i][k] = float64(w[i][k]) / n
		}
	}
	return r
}

// rowsTimes maps a vector from a frame to the world: v · R (row vectors).
func rowsTimes(r [3][3]float64, v [3]float64) [3]float64 {
	var out [3]float64
	for i := range 3 {
		for k := range 3 {
			out[k] += v[i] * r[i][k]
		}
	}
	return out
}

// rowsDot maps a world vector into a frame: its component along each row.
func rowsDot(r [3][3]float64, v [3]float64) [3]float64 {
	return [3]float64{dot3(r[0], v), dot3(r[1], v), dot3(r[2], v)}
}
