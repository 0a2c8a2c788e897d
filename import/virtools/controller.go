package virtools

import (
	"fmt"
	"math"

	"github.com/animbake/bake/import/binread"
)

// Controller type ids (CKANIMATION_CONTROLLER). The low byte is the base
// type: 1 position, 2 rotation, 4 scale, 8 scale axis, 0x10 morph.
const (
	CtrlLinearPosition  = 0x637c4301
	CtrlTCBPosition     = 0x347e4a01
	CtrlBezierPosition  = 0x921ab801
	CtrlLinearRotation  = 0x49ed4002
	CtrlTCBRotation     = 0x45b52a02
	CtrlLinearScale     = 0x654a3a04
	CtrlTCBScale        = 0x1b545904
	CtrlBezierScale     = 0x18ab4404
	CtrlLinearScaleAxis = 0x2f200b08
	CtrlTCBScaleAxis    = 0x32595908
	CtrlMorph           = 0x73847810
)

// Base controller types (the low byte of a type id).
const (
	BasePosition  = 0x01
	BaseRotation  = 0x02
	BaseScale     = 0x04
	BaseScaleAxis = 0x08
	BaseMorph     = 0x10
)

// oldControllerTypes maps the pre-2.0 ids, which are just the base type,
// to the linear controller they stand for.
var oldControllerTypes = map[uint32]uint32{
	1: CtrlLinearPosition, 2: CtrlLinearRotation, 4: CtrlLinearScale,
	8: CtrlLinearScaleAxis, 0x10: CtrlMorph,
}

// Bezier tangent modes (CKBEZIERKEY_FLAGS): the low 16 bits of a key's
// flags are the in-tangent mode, the high 16 bits the out-tangent mode.
const (
	BezierAutoSmooth = 0x01
	BezierLinear     = 0x02
	BezierStep       = 0x04
	BezierFast       = 0x08
	BezierSlow       = 0x10
	BezierTangents   = 0x20 // the stored In/Out vector is used
)

// VectorKey is a linear position or scale key.
type VectorKey struct {
	Time  float32
	Value [3]float32
}

// QuatKey is a linear rotation or scale-axis key, as stored: (x, y, z, w)
// in Virtools' convention, the conjugate of a Hamilton quaternion.
type QuatKey struct {
	Time  float32
	Value [4]float32
}

// TCBParams are the extras of a TCB key, in file order.
type TCBParams struct {
	Tension, Continuity, Bias float32
	EaseTo, EaseFrom          float32
}

// TCBVectorKey is a TCB position or scale key.
type TCBVectorKey struct {
	VectorKey
	TCBParams
}

// TCBQuatKey is a TCB rotation or scale-axis key.
type TCBQuatKey struct {
	QuatKey
	TCBParams
}

// BezierVectorKey is a Bezier position or scale key; In and Out are zero
// unless the variable-length form stored them.
type BezierVectorKey struct {
	VectorKey
	Flags   uint32
	In, Out [3]float32
}

// Controller is one controller block of an object animation with its keys
// exactly as read. Exactly one of the key slices is set, by Type.
type Controller struct {
	Type   uint32 // full type id (old ids are mapped to the linear ones)
	Off    int64  // Data-section offset of the block's type dword
	Linear []VectorKey
	Quat   []QuatKey
	TCB    []TCBVectorKey
	TCBRot []TCBQuatKey
	Bezier []BezierVectorKey
}

// Base is the controller's base type (Base* constants).
func (c *Controller) Base() uint32 { return c.Type & 0xff }

// KeyCount is the number of keys read.
func (c *Controller) KeyCount() int {
	return len(c.Linear) + len(c.Quat) + len(c.TCB) + len(c.TCBRot) + len(c.Bezier)
}

// keyDwords gives the fixed key size of each fully supported type.
var keyDwords = map[uint32]int{
	CtrlLinearPosition: 4, CtrlLinearScale: 4,
	CtrlLinearRotation: 5, CtrlLinearScaleAxis: 5,
	CtrlTCBPosition: 9, CtrlTCBScale: 9,
	CtrlTCBRotation: 10, CtrlTCBScaleAxis: 10,
}

// readKeys decodes a controller's key block (`count`, then the keys) from
// the size dwords of s that belong to the block.
func readKeys(ctl *Controller, s *sectionReader, size int) error {
	end := s.pos + size
	count, err := s.U32("key count")
	if err != nil {
		return err
	}
	if ctl.Type == CtrlBezierPosition || ctl.Type == CtrlBezierScale {
		return readBezierKeys(ctl, s, int(min(count, math.MaxInt32)), end)
	}
	kd := keyDwords[ctl.Type]
	if uint64(count)*uint64(kd) > uint64(size-1) {
		return s.errorf("controller 0x%x: %d keys of %d dwords do not fit in its %d-dword block", ctl.Type, count, kd, size)
	}
	n := int(count)
	next := func() float32 { v := math.Float32frombits(s.c.word(s.pos)); s.pos++; return v }
	vec := func() (v [3]float32) { v[0], v[1], v[2] = next(), next(), next(); return }
	quat := func() (q [4]float32) { q[0], q[1], q[2], q[3] = next(), next(), next(), next(); return }
	tcb := func() TCBParams { return TCBParams{next(), next(), next(), next(), next()} }
	switch ctl.Type {
	case CtrlLinearPosition, CtrlLinearScale:
		ctl.Linear = make([]VectorKey, n)
		for i := range ctl.Linear {
			ctl.Linear[i] = VectorKey{next(), vec()}
		}
	case CtrlLinearRotation, CtrlLinearScaleAxis:
		ctl.Quat = make([]QuatKey, n)
		for i := range ctl.Quat {
			ctl.Quat[i] = QuatKey{next(), quat()}
		}
	case CtrlTCBPosition, CtrlTCBScale:
		ctl.TCB = make([]TCBVectorKey, n)
		for i := range ctl.TCB {
			k := VectorKey{next(), vec()}
			ctl.TCB[i] = TCBVectorKey{k, tcb()}
		}
	case CtrlTCBRotation, CtrlTCBScaleAxis:
		ctl.TCBRot = make([]TCBQuatKey, n)
		for i := range ctl.TCBRot {
			k := QuatKey{next(), quat()}
			ctl.TCBRot[i] = TCBQuatKey{k, tcb()}
		}
	default:
		return fmt.Errorf("controller type 0x%x has no key reader", ctl.Type)
	}
	s.pos = end
	return checkKeys(ctl, s)
}

// checkKeys rejects keys the engine could not have produced: non-finite
// numbers, and times that go backwards (the engine's binary search assumes
// sorted keys; AddKey keeps them sorted).
func checkKeys(ctl *Controller, s *sectionReader) error {
	bad := func(i int, what string) error {
		e := binread.Errorf(ctl.Off, "controller 0x%x: key %d %s", ctl.Type, i, what)
		e.Msg = "section 0x" + hex32(s.ident) + ": " + e.Msg
		return e
	}
	var prev float32
	check := func(i int, t float32, vals ...float32) error {
		for _, v := range append(vals, t) {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return bad(i, "holds a NaN or infinite number")
			}
		}
		if i > 0 && t < prev {
			return bad(i, fmt.Sprintf("at time %v comes before the previous key at %v", t, prev))
		}
		prev = t
		return nil
	}
	var err error
	for i, k := range ctl.Linear {
		if err = check(i, k.Time, k.Value[:]...); err != nil {
			return err
		}
	}
	for i, k := range ctl.Quat {
		if err = check(i, k.Time, k.Value[:]...); err != nil {
			return err
		}
	}
	for i, k := range ctl.TCB {
		if err = check(i, k.Time, k.Value[0], k.Value[1], k.Value[2], k.Tension, k.Continuity, k.Bias, k.EaseTo, k.EaseFrom); err != nil {
			return err
		}
	}
	for i, k := range ctl.TCBRot {
		if err = check(i, k.Time, k.Value[0], k.Value[1], k.Value[2], k.Value[3], k.Tension, k.Continuity, k.Bias, k.EaseTo, k.EaseFrom); err != nil {
			return err
		}
	}
	for i, k := range ctl.Bezier {
		if err = check(i, k.Time, k.Value[0], k.Value[1], k.Value[2], k.In[0], k.In[1], k.In[2], k.Out[0], k.Out[1], k.Out[2]); err != nil {
			return err
		}
	}
	return nil
}

// readBezierKeys decodes Bezier keys. The sources disagree on their
// serialisation: the game's disassembly reads a variable-length key (t,
// x, y, z, flags, then In only when the in mode has TANGENTS and Out only
// when the out mode has it), a reimplementation a fixed 11 dwords. The
// block size decides: 1 + 11·count means fixed; otherwise the variable
// form must end exactly at the block's end.
func readBezierKeys(ctl *Controller, s *sectionReader, count, end int) error {
	size := end - s.pos + 1
	if count > (size-1)/5 {
		return s.errorf("Bezier controller: %d keys of at least 5 dwords do not fit in its %d-dword block", count, size)
	}
	keys := make([]BezierVectorKey, count)
	fixed := uint64(size) == 1+11*uint64(count)
	for i := range keys {
		k := &keys[i]
		if err := s.need(5, "Bezier key"); err != nil {
			return err
		}
		t, _ := s.F32("time")
		v, _ := s.Vec3("value")
		f, _ := s.U32("flags")
		k.VectorKey, k.Flags = VectorKey{t, v}, f
		var err error
		if fixed || f&BezierTangents != 0 {
			if k.In, err = s.Vec3("in tangent"); err != nil {
				return err
			}
		}
		if fixed || (f>>16)&BezierTangents != 0 {
			if k.Out, err = s.Vec3("out tangent"); err != nil {
				return err
			}
		}
		if s.pos > end {
			return s.errorf("Bezier key %d runs past the end of its controller block", i)
		}
	}
	if s.pos != end {
		return s.errorf("Bezier controller: keys end %d dwords before the block does; neither the fixed nor the variable layout fits", end-s.pos)
	}
	ctl.Bezier = keys
	return checkKeys(ctl, s)
}
