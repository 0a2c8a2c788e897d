package virtools

// Prototype GUIDs of the building blocks bake interprets
// (virtools-behaviours.md §5, virtools-gameplay-building-blocks.txt). A BB
// is recognised by its GUID only: names are what the designer typed.
var (
	BBPlayAnimation3DEntity = GUID{0x64221225, 0x769a143f}
	BBPositionOnCurve       = GUID{0x676776d0, 0x20d457bd}
	BBBezierProgression     = GUID{0x6bb8699a, 0x29fb6a4b}
	BBPlayGlobalAnimation   = GUID{0x1c9236e1, 0x42f40996}
	BBPerSecond             = GUID{0x448e54ce, 0x75a655c5}
	BBRotate                = GUID{0xffffffee, 0xeeffffff}
	BBTextureScroller       = GUID{0xf11d010a, 0xfb1d010a}
	BBTextureSine           = GUID{0x009c1208, 0x3a8d779e}
	BBOp                    = GUID{0x2d5d6d01, 0x6a353eb0}
)

// OpMultiplication is the parameter-operation GUID of Multiplication
// (CKOGUID_MULTIPLICATION, 38996b85:334e35c2). An Op BB stores the GUID of
// the operation it wraps in its locals 1 and 2 (PE_Balloon Op #1606:
// 0x38996b85, 0x334e35c2). Sources: doyaGu/libnmo nmo_operations.h
// (NMO_OP_GUID_MULTIPLY, "real Virtools CK2 GUIDs"), and a Ballance.Three.js
// test that reads the same two Op locals as "Multiplication".
var OpMultiplication = GUID{0x38996b85, 0x334e35c2}

// opLocalGUID is where an Op BB keeps its operation GUID: locals 1 and 2.
const opLocalGUID = 1

// opOperation reads the operation GUID of an Op BB from its locals.
func (g *Graph) opOperation(b *Behavior) (GUID, bool) {
	if len(b.Locals) < opLocalGUID+2 {
		return GUID{}, false
	}
	hi, ok1 := g.Params[b.Locals[opLocalGUID]].Int()
	lo, ok2 := g.Params[b.Locals[opLocalGUID+1]].Int()
	return GUID{uint32(hi), uint32(lo)}, ok1 && ok2
}

// bbNames are the prototype names bake reports (whatever the instance is
// called in the file).
var bbNames = map[GUID]string{
	BBPlayAnimation3DEntity: "Play Animation 3D Entity",
	BBPositionOnCurve:       "Position On Curve",
	BBBezierProgression:     "Bezier Progression",
	BBPlayGlobalAnimation:   "Play Global Animation",
	BBPerSecond:             "Per Second",
	BBRotate:                "Rotate",
	BBTextureScroller:       "Texture Scroller",
	BBTextureSine:           "TT_TextureSine",
	BBOp:                    "Op",
}

// Pin indices of the BBs (virtools-behaviours.md §5, OA §4, §5.5).
const (
	playPinAnimation = 0
	playPinDuration  = 1
	playPinCurve     = 2
	playPinLoop      = 3

	pocPinCurve       = 0
	pocPinProgression = 1
	pocPinFollow      = 2
	pocPinBank        = 3

	bezPinDuration = 0
	bezPinA        = 1
	bezPinB        = 2
	bezPinCurve    = 3
	bezOutValue    = 1
	bezOutProgress = 3

	rotPinAxis        = 0
	rotPinAngle       = 1
	rotPinReferential = 2
	rotPinHierarchy   = 3

	scrollPinVector  = 0
	scrollPinChannel = 1
)

// Built-in values the BBs fall back on when a pin has no source (OA §4,
// §5.5; virtools-behaviours.md §4.1).
const (
	defaultPlayDurationMs = 5000
	minPlayDurationMs     = 0.001
)

// describe names a BB instance for "driven by": the prototype name, the
// table index and the script it belongs to.
func (g *Graph) describe(c *Container, b int) string {
	name := bbNames[g.Behaviors[b].Prototype]
	if name == "" {
		name = c.Objects[b].Name
	}
	return name + " #" + itoa(b) + " in " + c.Objects[g.Script(b)].Name
}

// describePair names two cooperating BBs, "A #i and B #j in Script" (or
// each with its own script when they differ).
func (g *Graph) describePair(c *Container, a, b int) string {
	if g.Script(a) != g.Script(b) {
		return g.describe(c, a) + " and " + g.describe(c, b)
	}
	name := func(i int) string {
		n := bbNames[g.Behaviors[i].Prototype]
		if n == "" {
			n = c.Objects[i].Name
		}
		return n + " #" + itoa(i)
	}
	return name(a) + " and " + name(b) + " in " + c.Objects[g.Script(a)].Name
}

// linked reports whether some link runs from output out of behaviour from
// to input in of behaviour to (any delay).
func (g *Graph) linked(from *Behavior, out int, to *Behavior, in int) bool {
	if out >= len(from.Outputs) || in >= len(to.Inputs) {
		return false
	}
	src, dst := from.Outputs[out], to.Inputs[in]
	for _, l := range g.Links {
		if l.From == src && l.To == dst {
			return true
		}
	}
	return false
}

// targetOf resolves a targetable BB's target entity: its target pin, or the
// owner of its script when it is not targetable or the pin is unconnected
// (§4.6).
func (g *Graph) targetOf(b *Behavior) int {
	if b.Flags&BehaviorTargetable != 0 && b.Target != noRef {
		if t := pinObject(g.ResolvePin(b.Target)); t != noRef {
			return t
		}
	}
	if owner, ok := g.ScriptOwner[g.Script(b.Index)]; ok {
		return owner
	}
	return noRef
}

// durationMs reads a duration pin: an Integer pin reads its source as an
// int (OA §5.5 step 2), anything else as a float in ms. ok is false when
// the value is produced at run time or broken.
func (g *Graph) durationMs(b *Behavior, k int, def float64) (float64, bool) {
	p := g.InPin(b, k)
	switch p.Kind {
	case PinUnconnected:
		return def, true
	case PinConstant:
	default:
		return 0, false
	}
	if k < len(b.InParams) {
		if in := g.ParamIns[b.InParams[k]]; in != nil && in.Type == TypeInteger {
			v, ok := p.Param.Int()
			return float64(v), ok
		}
	}
	return p.Param.Float()
}

// curve2D is a pin's 2D curve, or nil (y = p).
func curve2D(p Pin) *Parameter {
	if p.Kind == PinConstant && p.Param.Curve2D != nil {
		return p.Param
	}
	return nil
}

// startedBy describes what activates input k of behaviour b: for each
// link into it, the IO it comes from ("<graph> In" for the enclosing
// graph's own input, "<BB> #i output n" for a sibling), with the link's
// delay when it is not 0 (VB §7 step 3).
func (g *Graph) startedBy(c *Container, b *Behavior, k int) []string {
	if k >= len(b.Inputs) {
		return nil
	}
	var out []string
	for _, li := range sortedKeys(g.Links) {
		l := g.Links[li]
		if l.To != b.Inputs[k] {
			continue
		}
		owner, ok := g.Owner[l.From]
		if !ok {
			continue
		}
		what := "output"
		if io := g.IOs[l.From]; io != nil && io.Flags&1 != 0 {
			what = "input"
		}
		name := bbNames[g.Behaviors[owner].Prototype]
		if name == "" {
			name = c.Objects[owner].Name
		}
		s := name + " #" + itoa(owner) + " " + what + " " + itoa(g.PinIndex[l.From])
		if pin := c.Objects[l.From].Name; pin != "" {
			s += " (" + pin + ")"
		}
		if l.Delay != 0 {
			s += ", delay " + itoa(int(l.Delay))
		}
		out = append(out, s)
	}
	return out
}
