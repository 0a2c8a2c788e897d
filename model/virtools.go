package model

import (
	"fmt"
	"math"
)

// This file holds the plain data of Virtools 2.x animation semantics: the
// keys of every CKObjectAnimation controller kind, the object animation that
// SetStep composes from them (flags, merging, the keyed-animation root
// offset), and the CKCurve path. The importer fills these structs with the
// values as stored; package sample evaluates them with the engine's rules
// (docs/formats/virtools-semantics.md). Quaternions here are always in the
// stored Virtools convention (the conjugate of Hamilton, axes.md §2): the
// evaluators conjugate their results, so channel values come out Hamilton.

// Virtools controller type ids (the dword before each key block in a
// CKObjectAnimation chunk, virtools-controllers.md §1). The old ids 1, 2, 4,
// 8 and 0x10 are synonyms of the linear and morph types.
const (
	VirtoolsLinearPosition  uint32 = 0x637c4301
	VirtoolsTCBPosition     uint32 = 0x347e4a01
	VirtoolsBezierPosition  uint32 = 0x921ab801
	VirtoolsLinearRotation  uint32 = 0x49ed4002
	VirtoolsTCBRotation     uint32 = 0x45b52a02
	VirtoolsLinearScale     uint32 = 0x654a3a04
	VirtoolsTCBScale        uint32 = 0x1b545904
	VirtoolsBezierScale     uint32 = 0x18ab4404
	VirtoolsLinearScaleAxis uint32 = 0x2f200b08
	VirtoolsTCBScaleAxis    uint32 = 0x32595908
	VirtoolsMorph           uint32 = 0x73847810
)

// VirtoolsInterp names how a Virtools controller interpolates its keys.
type VirtoolsInterp string

// Interpolations of Virtools controllers.
const (
	// VirtoolsLinear lerps vectors and slerps quaternions with VxMath's
	// Slerp (linear fallback within 0.01).
	VirtoolsLinear VirtoolsInterp = "linear"
	// VirtoolsTCB is a Kochanek–Bartels spline (Hermite for vectors, Squad
	// for quaternions) with key-interval correction and ease to/from.
	VirtoolsTCB VirtoolsInterp = "tcb"
	// VirtoolsBezier is a cubic Bezier with per-key tangent modes
	// (vectors only).
	VirtoolsBezier VirtoolsInterp = "bezier"
)

// VirtoolsControllerSlot says which component of an object animation a
// controller drives (the low byte of its type id).
type VirtoolsControllerSlot int

// Controller slots, named after the base type bits.
const (
	VirtoolsSlotPosition  VirtoolsControllerSlot = 1
	VirtoolsSlotRotation  VirtoolsControllerSlot = 2
	VirtoolsSlotScale     VirtoolsControllerSlot = 4
	VirtoolsSlotScaleAxis VirtoolsControllerSlot = 8
	VirtoolsSlotMorph     VirtoolsControllerSlot = 0x10
)

// VirtoolsControllerType describes one known controller type id: which
// slot it fills, how it interpolates, and how many dwords a key takes on
// disk (0 for variable-size keys: Bezier and morph).
type VirtoolsControllerType struct {
	Slot    VirtoolsControllerSlot
	Interp  VirtoolsInterp
	KeySize int
}

// VirtoolsControllerTypes is the table of virtools-controllers.md §1 (and
// virtools-curves-and-object-animations.txt §5.2), keyed by type id, old
// ids included. Importers look a type up here; a type that is absent is
// unknown and must be skipped by its size field.
var VirtoolsControllerTypes = map[uint32]VirtoolsControllerType{
	VirtoolsLinearPosition:  {VirtoolsSlotPosition, VirtoolsLinear, 4},
	1:                       {VirtoolsSlotPosition, VirtoolsLinear, 4},
	VirtoolsTCBPosition:     {VirtoolsSlotPosition, VirtoolsTCB, 9},
	VirtoolsBezierPosition:  {VirtoolsSlotPosition, VirtoolsBezier, 0},
	VirtoolsLinearRotation:  {VirtoolsSlotRotation, VirtoolsLinear, 5},
	2:                       {VirtoolsSlotRotation, VirtoolsLinear, 5},
	VirtoolsTCBRotation:     {VirtoolsSlotRotation, VirtoolsTCB, 10},
	VirtoolsLinearScale:     {VirtoolsSlotScale, VirtoolsLinear, 4},
	4:                       {VirtoolsSlotScale, VirtoolsLinear, 4},
	VirtoolsTCBScale:        {VirtoolsSlotScale, VirtoolsTCB, 9},
	VirtoolsBezierScale:     {VirtoolsSlotScale, VirtoolsBezier, 0},
	VirtoolsLinearScaleAxis: {VirtoolsSlotScaleAxis, VirtoolsLinear, 5},
	8:                       {VirtoolsSlotScaleAxis, VirtoolsLinear, 5},
	VirtoolsTCBScaleAxis:    {VirtoolsSlotScaleAxis, VirtoolsTCB, 10},
	VirtoolsMorph:           {VirtoolsSlotMorph, "", 0},
	0x10:                    {VirtoolsSlotMorph, "", 0},
}

// Bezier tangent modes (CKBEZIERKEY_FLAGS). A Bezier key's flags dword
// holds the in mode in bits 0–15 and the out mode in bits 16–31.
const (
	VirtoolsBezierAutoSmooth uint16 = 0x01
	VirtoolsBezierLinear     uint16 = 0x02
	VirtoolsBezierStep       uint16 = 0x04
	VirtoolsBezierFast       uint16 = 0x08
	VirtoolsBezierSlow       uint16 = 0x10
	VirtoolsBezierTangents   uint16 = 0x20
)

// VirtoolsVectorKey is one key of a position or scale controller, with
// every field any controller kind stores: linear keys use Time and Value,
// TCB keys add Tension..EaseFrom, Bezier keys add the modes and tangents.
type VirtoolsVectorKey struct {
	Time  float64 // frame
	Value [3]float64
	// TCB parameters, in the on-disk order after the value.
	Tension, Continuity, Bias float64
	EaseTo, EaseFrom          float64
	// Bezier tangent modes (low and high half of the flags dword) and the
	// stored tangents (meaningful when the mode is VirtoolsBezierTangents).
	InMode, OutMode uint16
	In, Out         [3]float64
}

// VirtoolsQuatKey is one key of a rotation or scale-axis controller. Value
// is the quaternion (x, y, z, w) exactly as stored (Virtools convention,
// not necessarily normalised).
type VirtoolsQuatKey struct {
	Time                      float64 // frame
	Value                     [4]float64
	Tension, Continuity, Bias float64
	EaseTo, EaseFrom          float64
}

// VirtoolsVectorController is a position or scale controller.
type VirtoolsVectorController struct {
	Type   uint32 // type id as read (informative)
	Interp VirtoolsInterp
	Keys   []VirtoolsVectorKey // sorted by time as stored
}

// VirtoolsQuatController is a rotation or scale-axis controller.
type VirtoolsQuatController struct {
	Type   uint32 // type id as read (informative)
	Interp VirtoolsInterp
	Keys   []VirtoolsQuatKey // sorted by time as stored
}

// CKObjectAnimation flags (SDK CK_OBJECTANIMATION_FLAGS; the correction of
// virtools-controllers.md §9).
const (
	VirtoolsIgnorePosition  uint32 = 0x04
	VirtoolsIgnoreRotation  uint32 = 0x08
	VirtoolsIgnoreScale     uint32 = 0x10
	VirtoolsIgnoreMorph     uint32 = 0x20
	VirtoolsIgnoreScaleAxis uint32 = 0x40
	VirtoolsMergedAnimation uint32 = 0x80
)

// VirtoolsObjectAnimation is one CKObjectAnimation: the controllers that
// SetStep evaluates at a frame and composes into the entity's local matrix
// (virtools-curves-and-object-animations.txt §5.4). A nil controller (or
// one with no keys) is an absent component, taken from Rest.
type VirtoolsObjectAnimation struct {
	Name   string
	Flags  uint32  // VirtoolsIgnore* and VirtoolsMergedAnimation bits
	Length float64 // frames; SetStep evaluates at step*Length

	Position  *VirtoolsVectorController
	Scale     *VirtoolsVectorController
	Rotation  *VirtoolsQuatController
	ScaleAxis *VirtoolsQuatController

	// Merge is set when Flags has VirtoolsMergedAnimation: the animation
	// blends two others instead of using its own controllers.
	Merge *VirtoolsMerge

	// Offset is added to the evaluated position when this animation is the
	// root animation of a CKKeyedAnimation (§5.4 step 4, the keyed
	// animation's +0x48 vector); zero otherwise.
	Offset [3]float64

	// Rest is the entity's local matrix before animation, in Virtools
	// storage order (row-major, rows = axes, row 3 = translation). SetStep
	// takes absent components from it. Nil means identity.
	Rest *[16]float64
}

// VirtoolsMerge is the blend of a merged object animation (flag 0x80):
// A and B are evaluated at the same relative time and blended by Factor
// (0 = A only, 1 = B only).
type VirtoolsMerge struct {
	Factor float64
	A, B   *VirtoolsObjectAnimation
}

// VirtoolsTransform is the curve of one channel of an object animation: the
// value SetStep applies at a source frame, in source (left-handed) axes.
// Rotations come out as Hamilton quaternions (the conjugate of the engine's).
type VirtoolsTransform struct {
	Anim *VirtoolsObjectAnimation
	// Part selects the output: one of the VirtoolsPart constants.
	Part string
}

// Parts of a VirtoolsTransform.
const (
	// VirtoolsPartTranslation is the local position (3 components).
	VirtoolsPartTranslation = "translation"
	// VirtoolsPartRotation is the local rotation, Hamilton (x,y,z,w).
	VirtoolsPartRotation = "rotation"
	// VirtoolsPartScale is the scale along the scale axes (3 components).
	VirtoolsPartScale = "scale"
	// VirtoolsPartScaleAxis is the rotation of the scale axes, Hamilton
	// (x,y,z,w); identity when the animation has no scale-axis controller.
	// The exact local transform is T · R(rotation) · R(scaleAxis) · S ·
	// R(scaleAxis)⁻¹ (column vectors).
	VirtoolsPartScaleAxis = "scaleAxis"
	// VirtoolsPartMatrix is the whole local matrix SetStep writes, as a
	// column-vector 4×4 in column-major order (glTF layout), 16 components.
	VirtoolsPartMatrix = "matrix"
)

// CurveKind implements Curve.
func (*VirtoolsTransform) CurveKind() string { return "virtools-transform" }

// Validate checks the animation graph: known part, finite sorted keys,
// consistent interpolations, and no merge cycles.
func (t *VirtoolsTransform) Validate() error {
	switch t.Part {
	case VirtoolsPartTranslation, VirtoolsPartRotation, VirtoolsPartScale, VirtoolsPartScaleAxis, VirtoolsPartMatrix:
	default:
		return fmt.Errorf("virtools transform: unknown part %q", t.Part)
	}
	if t.Anim == nil {
		return fmt.Errorf("virtools transform: no object animation")
	}
	return t.Anim.Validate()
}

// Validate checks an object animation and, recursively, its merge sources.
func (a *VirtoolsObjectAnimation) Validate() error {
	return a.validate(map[*VirtoolsObjectAnimation]bool{})
}

// validate walks the merge graph; state holds false for an animation being
// checked (a second visit is a cycle) and true for one already checked.
func (a *VirtoolsObjectAnimation) validate(state map[*VirtoolsObjectAnimation]bool) error {
	if done, seen := state[a]; seen {
		if done {
			return nil
		}
		return fmt.Errorf("object animation %q: merge cycle", a.Name)
	}
	state[a] = false
	if err := a.validateOwn(state); err != nil {
		return err
	}
	state[a] = true
	return nil
}

func (a *VirtoolsObjectAnimation) validateOwn(active map[*VirtoolsObjectAnimation]bool) error {
	if math.IsNaN(a.Length) || math.IsInf(a.Length, 0) || a.Length < 0 {
		return fmt.Errorf("object animation %q: length %v", a.Name, a.Length)
	}
	if !finite(a.Offset[:]) || (a.Rest != nil && !finite(a.Rest[:])) {
		return fmt.Errorf("object animation %q: offset or rest matrix not finite", a.Name)
	}
	if a.Flags&VirtoolsMergedAnimation != 0 {
		m := a.Merge
		if m == nil || m.A == nil || m.B == nil {
			return fmt.Errorf("object animation %q: merged without two source animations", a.Name)
		}
		if math.IsNaN(m.Factor) || math.IsInf(m.Factor, 0) {
			return fmt.Errorf("object animation %q: merge factor %v", a.Name, m.Factor)
		}
		if err := m.A.validate(active); err != nil {
			return err
		}
		return m.B.validate(active)
	}
	for _, c := range []*VirtoolsVectorController{a.Position, a.Scale} {
		if err := c.validate(); err != nil {
			return fmt.Errorf("object animation %q: %w", a.Name, err)
		}
	}
	for _, c := range []*VirtoolsQuatController{a.Rotation, a.ScaleAxis} {
		if err := c.validate(); err != nil {
			return fmt.Errorf("object animation %q: %w", a.Name, err)
		}
	}
	return nil
}

func (c *VirtoolsVectorController) validate() error {
	if c == nil {
		return nil
	}
	switch c.Interp {
	case VirtoolsLinear, VirtoolsTCB, VirtoolsBezier:
	default:
		return fmt.Errorf("controller %#x: unknown interpolation %q", c.Type, c.Interp)
	}
	for i, k := range c.Keys {
		v := []float64{k.Time, k.Value[0], k.Value[1], k.Value[2], k.Tension, k.Continuity, k.Bias,
			k.EaseTo, k.EaseFrom, k.In[0], k.In[1], k.In[2], k.Out[0], k.Out[1], k.Out[2]}
		if !finite(v) {
			return fmt.Errorf("controller %#x key %d is not finite", c.Type, i)
		}
		if i > 0 && k.Time < c.Keys[i-1].Time {
			return fmt.Errorf("controller %#x key %d at %v comes before key %d at %v", c.Type, i, k.Time, i-1, c.Keys[i-1].Time)
		}
	}
	return nil
}

func (c *VirtoolsQuatController) validate() error {
	if c == nil {
		return nil
	}
	switch c.Interp {
	case VirtoolsLinear, VirtoolsTCB:
	default:
		return fmt.Errorf("controller %#x: unknown interpolation %q", c.Type, c.Interp)
	}
	for i, k := range c.Keys {
		v := []float64{k.Time, k.Value[0], k.Value[1], k.Value[2], k.Value[3], k.Tension, k.Continuity, k.Bias, k.EaseTo, k.EaseFrom}
		if !finite(v) {
			return fmt.Errorf("controller %#x key %d is not finite", c.Type, i)
		}
		if i > 0 && k.Time < c.Keys[i-1].Time {
			return fmt.Errorf("controller %#x key %d at %v comes before key %d at %v", c.Type, i, k.Time, i-1, c.Keys[i-1].Time)
		}
	}
	return nil
}

// VirtoolsCurvePoint is one CKCurvePoint as saved (§2 of
// virtools-curves-and-object-animations.txt).
type VirtoolsCurvePoint struct {
	Name string
	// World is the point's saved world position (row 3 of its world
	// matrix); the evaluator maps it into the curve's frame.
	World [3]float64
	// UserTangents is the saved not_tcb flag: when set, In and Out are used
	// as they are; otherwise they are a cache that the curve recomputes.
	UserTangents bool
	// Linear makes the segment leaving this point a straight line.
	Linear                    bool
	Tension, Continuity, Bias float64
	// In and Out are the saved tangents, curve-local.
	In, Out [3]float64
}

// VirtoolsCurve is a CKCurve: its control points in curve order and the
// curve's world matrix. Compiled, it evaluates at "frame" = progression p
// to 6 components: world position then unit direction (GetPos, §3.4).
type VirtoolsCurve struct {
	Points  []VirtoolsCurvePoint
	Closed  bool    // the saved open flag is 0
	Fitting float64 // fitting coefficient (0 = pass through the points)
	// World is the curve's world matrix in Virtools storage order
	// (row-major, rows = axes, row 3 = translation).
	World [16]float64
}

// CurveKind implements Curve.
func (*VirtoolsCurve) CurveKind() string { return "virtools-curve" }

// Validate checks that the curve's numbers are finite and its matrix is
// invertible enough to map the points into its frame.
func (c *VirtoolsCurve) Validate() error {
	if !finite(c.World[:]) || math.IsNaN(c.Fitting) || math.IsInf(c.Fitting, 0) {
		return fmt.Errorf("virtools curve: matrix or fitting not finite")
	}
	for i, p := range c.Points {
		v := []float64{p.World[0], p.World[1], p.World[2], p.Tension, p.Continuity, p.Bias,
			p.In[0], p.In[1], p.In[2], p.Out[0], p.Out[1], p.Out[2]}
		if !finite(v) {
			return fmt.Errorf("virtools curve point %d (%q) is not finite", i, p.Name)
		}
	}
	return nil
}

// VirtoolsPathFollow moves a follower along a VirtoolsCurve at constant
// progression speed: frame f is progression f/Frames, wrapped (closed
// curve) or clamped (open curve) as GetPos does. It evaluates to a
// position (3 components).
type VirtoolsPathFollow struct {
	Path *VirtoolsCurve
	// Frames is the number of frames of one traversal (p from 0 to 1).
	Frames float64
	// Local gives curve-local positions (for a follower that is a child of
	// the curve's node) instead of world positions.
	Local bool
}

// CurveKind implements Curve.
func (*VirtoolsPathFollow) CurveKind() string { return "virtools-path-follow" }

// Validate checks the traversal length and the path.
func (f *VirtoolsPathFollow) Validate() error {
	if !(f.Frames > 0) || math.IsInf(f.Frames, 0) {
		return fmt.Errorf("path follower: traversal of %v frames", f.Frames)
	}
	if f.Path == nil {
		return fmt.Errorf("path follower: no path")
	}
	return f.Path.Validate()
}
