package vtwrite

// Rows are the four rows of a Virtools world matrix: the images of the
// x, y and z axes, then the translation (row vectors).
type Rows = [4][3]float32

// TranslationRows returns the rows of a pure translation.
func TranslationRows(x, y, z float32) Rows {
	return Rows{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {x, y, z}}
}

// EntitySection is a CK3dEntity 0x100000 section: flags, moveable flags,
// the world matrix rows, then refs (the parent's table index when flags
// has EntityParentValid).
func EntitySection(flags uint32, rows Rows, refs ...uint32) Section {
	w := []uint32{flags, 0}
	for _, r := range rows {
		w = append(w, F32s(r[0], r[1], r[2])...)
	}
	return Section{IdentEntityData, append(w, refs...)}
}

// AnimationsSection is a CK3dEntity's list of its object animations
// (table indices).
func AnimationsSection(anims ...uint32) Section {
	return Section{IdentEntityAnimations, append([]uint32{uint32(len(anims))}, anims...)}
}

// Controller is one controller block of an object animation: type, key
// count and the key dwords.
type Controller struct {
	Type  uint32
	Count uint32
	Keys  []uint32
}

// ObjAnimSection is a CKObjectAnimation's 0x4000000 section: the leading
// vector and 4 unused floats (zero), flags, the entity's table index, the
// length in frames, the merge block, then the controller blocks (type,
// size, count, keys) and the terminating 0.
func ObjAnimSection(flags, entity uint32, length float32, merge []uint32, ctls ...Controller) Section {
	w := F32s(0, 0, 0, 0, 0, 0, 0)
	w = append(w, flags, entity, F32(length))
	w = append(w, merge...)
	for _, c := range ctls {
		w = append(w, c.Type, uint32(1+len(c.Keys)), c.Count)
		w = append(w, c.Keys...)
	}
	return Section{IdentObjAnimControllers, append(w, 0)}
}

// TCB are a TCB key's extras in file order: tension, continuity, bias,
// ease to, ease from.
type TCB struct{ Tension, Continuity, Bias, EaseTo, EaseFrom float32 }

func (p TCB) words() []uint32 {
	return F32s(p.Tension, p.Continuity, p.Bias, p.EaseTo, p.EaseFrom)
}

// TCBVectorKey is a TCB position or scale key (9 dwords).
type TCBVectorKey struct {
	Time  float32
	Value [3]float32
	TCB
}

// TCBQuatKey is a TCB rotation key (10 dwords); Value is (x, y, z, w) in
// Virtools' stored convention, the conjugate of the Hamilton quaternion.
type TCBQuatKey struct {
	Time  float32
	Value [4]float32
	TCB
}

// TCBPosition is a TCB position controller (or, with CtrlTCBScale, a
// scale controller) of the given keys.
func TCBPosition(typ uint32, keys ...TCBVectorKey) Controller {
	c := Controller{Type: typ, Count: uint32(len(keys))}
	for _, k := range keys {
		c.Keys = append(c.Keys, F32s(k.Time, k.Value[0], k.Value[1], k.Value[2])...)
		c.Keys = append(c.Keys, k.TCB.words()...)
	}
	return c
}

// TCBRotation is a TCB rotation controller of the given keys.
func TCBRotation(keys ...TCBQuatKey) Controller {
	c := Controller{Type: CtrlTCBRotation, Count: uint32(len(keys))}
	for _, k := range keys {
		c.Keys = append(c.Keys, F32s(k.Time, k.Value[0], k.Value[1], k.Value[2], k.Value[3])...)
		c.Keys = append(c.Keys, k.TCB.words()...)
	}
	return c
}

// LinearVector is a linear position or scale controller (type
// CtrlLinearPosition or CtrlLinearScale); keys are (time, x, y, z).
func LinearVector(typ uint32, keys ...[4]float32) Controller {
	c := Controller{Type: typ, Count: uint32(len(keys))}
	for _, k := range keys {
		c.Keys = append(c.Keys, F32s(k[:]...)...)
	}
	return c
}

// LinearRotation is a linear rotation controller; keys are (time, x, y,
// z, w) with the quaternion in the stored convention.
func LinearRotation(keys ...[5]float32) Controller {
	c := Controller{Type: CtrlLinearRotation, Count: uint32(len(keys))}
	for _, k := range keys {
		c.Keys = append(c.Keys, F32s(k[:]...)...)
	}
	return c
}

// KeyedAnimationSections are a CKKeyedAnimation's sections: length in
// frames, rate (interrupt 5, no link, fps), root entity, the object
// animations and the merge section (not merged, factor 0.5).
func KeyedAnimationSections(length, fps float32, root uint32, anims ...uint32) []Section {
	return []Section{
		{IdentAnimLength, F32s(length)},
		{IdentAnimRate, []uint32{5, 0, F32(fps)}},
		{IdentAnimRoot, []uint32{0, root}},
		{IdentKeyedAnimList, append([]uint32{uint32(len(anims))}, anims...)},
		{IdentKeyedAnimMerge, []uint32{0, F32(0.5)}},
	}
}

// CurveSection is a CKCurve's 0xffc00000 section: the points (table
// indices), fitting coefficient, step count and open flag.
func CurveSection(fitting float32, steps uint32, open bool, points ...uint32) Section {
	w := append([]uint32{uint32(len(points))}, points...)
	o := uint32(0)
	if open {
		o = 1
	}
	return Section{IdentCurveData, append(w, F32(fitting), steps, o)}
}

// PointSection is a CKCurvePoint's 0x10000000 section: curve, user-tangent
// and linear flags, tension, continuity, bias, then the in and out tangents
// (the game's cache; Update recomputes them).
func PointSection(curve uint32, userTangents, linear bool, tension, continuity, bias float32, in, out [3]float32) Section {
	b := func(v bool) uint32 {
		if v {
			return 1
		}
		return 0
	}
	w := []uint32{curve, b(userTangents), b(linear)}
	w = append(w, F32s(tension, continuity, bias, in[0], in[1], in[2], out[0], out[1], out[2])...)
	return Section{IdentPointData, w}
}
