package virtools

import (
	"math"
	"strconv"

	"github.com/animbake/bake/model"
)

// clipTiming is what a Play Animation 3D Entity or Play Global Animation
// says about the animation it plays (OA §5.5, virtools-behaviours.md §5.1,
// §5.4): frame(t) = GetY(p(t)) × length, p(t) = t / Duration, looped or
// clamped.
type clipTiming struct {
	BB         int
	StartedBy  []string // what activates On
	DurationMs float64
	Shape      *model.Virtools2dCurve // nil: y = p
	Loop       bool
	DrivenBy   string
}

// curveRide is Position On Curve driven by Bezier Progression (§5.2, §5.3):
// the target's world position is curve.GetPos(A + (B − A)·GetY(t/Duration)).
type curveRide struct {
	BB, Progression int
	Target, Curve   int
	DurationMs      float64
	A, B            float64
	Shape           *model.Virtools2dCurve
	Repeat          bool     // Out → In restarts the progression
	StartedBy       []string // what activates the progression's In
	Follow, Bank    bool
	DrivenBy        string
}

// spin is Rotate fed by Per Second (§5.5, §5.6): a constant angular
// velocity about Axis, given in Referential's frame (noRef: world).
type spin struct {
	BB          int
	Target      int
	Axis        [3]float64
	Referential int
	RadPerSec   float64
	Hierarchy   bool
	DrivenBy    string
	Assumptions []string
	StartedBy   []string // what activates Rotate's In
}

// uvScroll is Texture Scroller fed by Per Second: a constant UV velocity
// on a mesh (virtools-gameplay-building-blocks.txt, Texture Scroller).
type uvScroll struct {
	BB       int
	Target   int
	PerSec   [2]float64
	Channel  int32
	DrivenBy string
}

// unbaked is procedural motion bake reports but cannot express.
type unbaked struct {
	BB       int
	Target   int
	What     string
	DrivenBy string
}

// graphFindings is everything the recognised BBs say.
type graphFindings struct {
	Clips   map[int]clipTiming // by the played animation's table index
	Rides   []curveRide
	Spins   []spin
	Scrolls []uvScroll
	Unbaked []unbaked
	// Unknown counts the BBs of other prototypes (by GUID): they do not
	// move anything bake converts, or bake does not know how they do.
	Unknown map[string]int
}

// reportBrokenPins warns about the pins of a recognised BB that cannot be
// resolved: a chain through shared inputs that loops, or a source that is
// not a parameter (a dangling or damaged reference).
func (g *Graph) reportBrokenPins(c *Container, b *Behavior, warn func(string, ...any)) {
	pins := b.InParams
	if b.Target != noRef {
		pins = append(append([]int(nil), pins...), b.Target)
	}
	for k, p := range pins {
		if r := g.ResolvePin(p); r.Kind == PinBroken {
			what := "pIn " + itoa(k)
			if k == len(b.InParams) {
				what = "target"
			}
			warn("%s: %s: %s; its built-in default is used", g.describe(c, b.Index), what, r.Problem)
		}
	}
}

// analyseGraph walks every recognised BB and reads what it does. What
// cannot be determined (a dynamic duration, a missing animation) is
// reported through warn and left to the frames timing.
func analyseGraph(g *Graph, s *Scene, warn func(string, ...any)) *graphFindings {
	f := &graphFindings{Clips: map[int]clipTiming{}, Unknown: map[string]int{}}
	for _, i := range sortedKeys(g.Behaviors) {
		b := g.Behaviors[i]
		if !b.IsBuildingBlock() {
			continue
		}
		if _, known := bbNames[b.Prototype]; !known {
			f.Unknown[b.Prototype.String()]++
			continue
		}
		g.reportBrokenPins(s.Container, b, warn)
		switch b.Prototype {
		case BBPlayAnimation3DEntity, BBPlayGlobalAnimation:
			f.addClip(g, s, b, warn)
		case BBPositionOnCurve:
			f.addRide(g, s, b, warn)
		case BBRotate:
			f.addSpin(g, s, b, warn)
		case BBTextureScroller:
			f.addScroll(g, s, b, warn)
		case BBTextureSine:
			f.Unbaked = append(f.Unbaked, unbaked{BB: i, Target: g.targetOf(b),
				What: "per-vertex UV wobble (TT_TextureSine): no glTF target, not baked", DrivenBy: g.describe(s.Container, i)})
		}
	}
	return f
}

// addClip reads a Play Animation 3D Entity or Play Global Animation.
func (f *graphFindings) addClip(g *Graph, s *Scene, b *Behavior, warn func(string, ...any)) {
	who := g.describe(s.Container, b.Index)
	anim := pinObject(g.InPin(b, playPinAnimation))
	_, isObj := s.ObjectAnimations[anim]
	_, isKeyed := s.KeyedAnimations[anim]
	if !isObj && !isKeyed {
		warn("%s: its Animation pin does not name an animation in this file; nothing to time", who)
		return
	}
	name := s.Objects[anim].Name
	dur, ok := g.durationMs(b, playPinDuration, defaultPlayDurationMs)
	if !ok || math.IsNaN(dur) || math.IsInf(dur, 0) {
		warn("%s: the duration of %q is set at run time; it keeps the frames timing", who, name)
		return
	}
	if dur < minPlayDurationMs {
		warn("%s: duration %v ms is below 0.001 ms, so the BB never plays %q; it keeps the frames timing", who, dur, name)
		return
	}
	if prev, dup := f.Clips[anim]; dup {
		warn("%s also plays %q; the timing of %s is kept", who, name, prev.DrivenBy)
		return
	}
	ct := clipTiming{BB: b.Index, DurationMs: dur, Loop: pinBool(g.InPin(b, playPinLoop), true), DrivenBy: who,
		StartedBy: g.startedBy(s.Container, b, 0)}
	if p := curve2D(g.InPin(b, playPinCurve)); p != nil {
		ct.Shape = p.Curve2D
	}
	f.Clips[anim] = ct
}

// addRide reads a Position On Curve whose progression comes from a Bezier
// Progression's Value or Progression output.
func (f *graphFindings) addRide(g *Graph, s *Scene, b *Behavior, warn func(string, ...any)) {
	who := g.describe(s.Container, b.Index)
	target := g.targetOf(b)
	curve := pinObject(g.InPin(b, pocPinCurve))
	if s.Entities[target] == nil || s.Curves[curve] == nil {
		warn("%s: no 3D entity target or no curve; not converted", who)
		return
	}
	prog := g.InPin(b, pocPinProgression)
	bez := g.Behaviors[prog.Producer]
	if prog.Kind != PinProduced || prog.FromOperation || bez == nil || bez.Prototype != BBBezierProgression ||
		(prog.OutIndex != bezOutValue && prog.OutIndex != bezOutProgress) {
		warn("%s: its progression does not come from a Bezier Progression's Value or Progression; the motion is runtime-driven and not converted", who)
		return
	}
	r := curveRide{BB: b.Index, Progression: bez.Index, Target: target, Curve: curve, A: 0, B: 1,
		Follow: pinBool(g.InPin(b, pocPinFollow), false), Bank: pinBool(g.InPin(b, pocPinBank), false),
		DrivenBy: g.describePair(s.Container, b.Index, bez.Index)}
	dur, ok := g.durationMs(bez, bezPinDuration, 0)
	if !ok || !(dur > 0) || math.IsInf(dur, 0) {
		warn("%s: the duration of its Bezier Progression is not a positive constant; not converted", who)
		return
	}
	r.DurationMs = dur
	if prog.OutIndex == bezOutValue {
		var okA, okB bool
		r.A, okA = pinFloat(g.InPin(bez, bezPinA), 0)
		r.B, okB = pinFloat(g.InPin(bez, bezPinB), 1)
		if !finiteAll([]float64{r.A, r.B}) {
			r.A, r.B, okA = 0, 1, false
		}
		if !okA || !okB {
			warn("%s: A or B of its Bezier Progression is not a constant; 0 and 1 assumed", who)
		}
		if p := curve2D(g.InPin(bez, bezPinCurve)); p != nil {
			r.Shape = p.Curve2D
		}
	}
	r.Repeat = g.linked(bez, 0, bez, 0)
	r.StartedBy = g.startedBy(s.Container, bez, 0)
	if r.Follow {
		warn("%s: Follow is not analysed; the target keeps its orientation", who)
	} else if r.Bank {
		// OA §4 step 7: without Follow the bank roll is added once per
		// engine frame and never reset, so it grows with the frame rate.
		warn("%s: Bank without Follow adds a roll once per engine frame (it depends on the frame rate); the target keeps its orientation", who)
	}
	f.Rides = append(f.Rides, r)
}

// perSecondRate follows an angle or vector pin back to a Per Second output
// (directly, or through an Op BB scaling it by a constant), and returns
// the per-second value, n floats wide.
func perSecondRate(g *Graph, s *Scene, p Pin, n int) (rate []float64, via int, assumed []string, ok bool) {
	if p.Kind != PinProduced || p.FromOperation {
		return nil, 0, nil, false
	}
	src := g.Behaviors[p.Producer]
	scale := 1.0
	if src.Prototype == BBOp {
		// Op wraps a parameter operation (VB §5.8); its GUID is in the
		// locals. A product of a Per Second output and a constant scales
		// the rate (PE_Balloon's counter-rotating UFO top: × −1).
		if op, ok := g.opOperation(src); !ok || op != OpMultiplication {
			return nil, 0, nil, false
		}
		a, b := g.InPin(src, 0), g.InPin(src, 1)
		if a.Kind == PinConstant {
			a, b = b, a
		}
		c, okc := pinFloat(b, 0)
		if !okc || a.Kind != PinProduced || a.FromOperation || g.Behaviors[a.Producer].Prototype != BBPerSecond {
			return nil, 0, nil, false
		}
		scale = c
		assumed = append(assumed, g.describe(s.Container, src.Index)+" multiplies by "+strconv.FormatFloat(c, 'g', -1, 64))
		p, src = a, g.Behaviors[a.Producer]
	}
	if src.Prototype != BBPerSecond {
		return nil, 0, nil, false
	}
	in := g.InPin(src, p.OutIndex)
	if in.Kind != PinConstant {
		return nil, 0, nil, false
	}
	v, okv := in.Param.Floats(n)
	if !okv {
		return nil, 0, nil, false
	}
	for i := range v {
		v[i] *= scale
	}
	return v, src.Index, assumed, true
}

// addSpin reads a Rotate whose angle comes from Per Second.
func (f *graphFindings) addSpin(g *Graph, s *Scene, b *Behavior, warn func(string, ...any)) {
	who := g.describe(s.Container, b.Index)
	rate, via, assumed, ok := perSecondRate(g, s, g.InPin(b, rotPinAngle), 1)
	if !ok || !finiteAll(rate) {
		return // a one-off or runtime-driven rotation: not a constant rate
	}
	target := g.targetOf(b)
	if s.Entities[target] == nil {
		warn("%s: its target is not a 3D entity; not converted", who)
		return
	}
	axis := [3]float64{0, 1, 0}
	if p := g.InPin(b, rotPinAxis); p.Kind == PinConstant {
		if v, ok := p.Param.Floats(3); ok && finiteAll(v) {
			axis = [3]float64{v[0], v[1], v[2]}
		}
	}
	if axis == [3]float64{} || rate[0] == 0 {
		return
	}
	f.Spins = append(f.Spins, spin{BB: b.Index, Target: target, Axis: axis, RadPerSec: rate[0],
		Referential: pinObject(g.InPin(b, rotPinReferential)), Hierarchy: pinBool(g.InPin(b, rotPinHierarchy), true),
		DrivenBy: g.describePair(s.Container, b.Index, via), Assumptions: assumed, StartedBy: g.startedBy(s.Container, b, 0)})
}

// addScroll reads a Texture Scroller whose vector comes from Per Second.
func (f *graphFindings) addScroll(g *Graph, s *Scene, b *Behavior, warn func(string, ...any)) {
	who := g.describe(s.Container, b.Index)
	rate, via, _, ok := perSecondRate(g, s, g.InPin(b, scrollPinVector), 2)
	if !ok || !finiteAll(rate) {
		warn("%s: its scroll vector does not come from Per Second; not converted", who)
		return
	}
	target := g.targetOf(b)
	if target == noRef {
		warn("%s: no target mesh; not converted", who)
		return
	}
	ch := int32(-1)
	if p := g.InPin(b, scrollPinChannel); p.Kind == PinConstant {
		if v, ok := p.Param.Int(); ok {
			ch = v
		}
	}
	f.Scrolls = append(f.Scrolls, uvScroll{BB: b.Index, Target: target, PerSec: [2]float64{rate[0], rate[1]},
		Channel: ch, DrivenBy: g.describePair(s.Container, b.Index, via)})
}

// finiteAll reports whether every value is a finite number.
func finiteAll(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
