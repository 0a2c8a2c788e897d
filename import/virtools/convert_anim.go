package virtools

import (
	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/model"
)

// animKey identifies one conversion of an object animation: its table
// index and the length it is stretched to (0 = its own length).
type animKey struct {
	index  int
	length float32
}

// objectAnimation converts a stored object animation into the model's
// VirtoolsObjectAnimation, resolving shared keyframe data and merge
// sources recursively. length, when nonzero and different from the
// animation's own, stretches the key times so that frame f of the result
// is frame f·own/length of the original: a keyed animation calls each
// child's SetStep with its own step, so a child of a different length
// plays at that rate. The stretch is exact for every controller kind,
// because all of them depend on key times only through ratios.
func (cv *converter) objectAnimation(index int, length float32) (*model.VirtoolsObjectAnimation, error) {
	key := animKey{index, length}
	if m, ok := cv.anims[key]; ok {
		return m, nil
	}
	if cv.visiting[index] {
		return nil, cv.objectError(index, "merged or shared animations refer to each other in a cycle")
	}
	cv.visiting[index] = true
	defer delete(cv.visiting, index)

	a := cv.s.ObjectAnimations[index]
	if a == nil {
		return nil, cv.objectError(index, "is referenced as an object animation but has class %d", cv.s.Objects[index].ClassID)
	}
	src, err := cv.sharedSource(a)
	if err != nil {
		return nil, err
	}
	own := src.Length
	scale := 1.0
	if length != 0 && own > 0 && length != own {
		scale = float64(length) / float64(own)
		own = length
	}
	m := &model.VirtoolsObjectAnimation{
		Name:   cv.s.Objects[index].Name,
		Flags:  a.Flags,
		Length: float64(own),
		Rest:   cv.restOf(a.Entity),
	}
	if a.Flags&AnimMerged != 0 {
		ma, err := cv.objectAnimation(a.MergeA, 0)
		if err != nil {
			return nil, err
		}
		mb, err := cv.objectAnimation(a.MergeB, 0)
		if err != nil {
			return nil, err
		}
		m.Merge = &model.VirtoolsMerge{Factor: float64(a.MergeFactor), A: ma, B: mb}
	}
	m.Position = vectorController(src.Position, scale)
	m.Scale = vectorController(src.Scale, scale)
	m.Rotation = quatController(src.Rotation, scale)
	m.ScaleAxis = quatController(src.ScaleAxis, scale)
	if k, ok := cv.parentKeyed[index]; ok && cv.rootAnim[k] == index {
		off := cv.rootOffset[k]
		m.Offset = [3]float64{float64(off[0]), float64(off[1]), float64(off[2])}
	}
	cv.anims[key] = m
	return m, nil
}

// sharedSource follows the 0x2000000 "shared keyframe data" links to the
// animation whose controllers and length a shared animation uses.
func (cv *converter) sharedSource(a *ObjectAnimation) (*ObjectAnimation, error) {
	seen := map[int]bool{a.Index: true}
	for a.Shared != noRef {
		src := cv.s.ObjectAnimations[a.Shared]
		if src == nil {
			return nil, cv.objectError(a.Index, "shares the keyframe data of object #%d, which is not an object animation", a.Shared)
		}
		if seen[src.Index] {
			return nil, cv.objectError(a.Index, "shared keyframe data links form a cycle")
		}
		seen[src.Index] = true
		a = src
	}
	return a, nil
}

// restOf returns the local matrix of an entity in Virtools storage order,
// or nil for an animation without entity.
func (cv *converter) restOf(entity int) *[16]float64 {
	if entity == noRef {
		return nil
	}
	l, ok := cv.local[entity]
	if !ok {
		return nil
	}
	m := l.storage16()
	return &m
}

// objectError builds a FormatError naming an object, at its chunk.
func (cv *converter) objectError(index int, format string, args ...any) error {
	o := &cv.s.Objects[index]
	var off int64
	if o.Chunk != nil {
		off = o.Chunk.off
	}
	e := binread.Errorf(off, format, args...)
	e.Msg = "Data section (inflated): object #" + itoa(index) + " " + quote(o.Name) + ": " + e.Msg
	return e
}

// vectorController copies position or scale keys into the model, with key
// times multiplied by scale.
func vectorController(c *Controller, scale float64) *model.VirtoolsVectorController {
	if c == nil {
		return nil
	}
	out := &model.VirtoolsVectorController{Type: c.Type}
	switch {
	case c.Linear != nil:
		out.Interp = model.VirtoolsLinear
		out.Keys = make([]model.VirtoolsVectorKey, len(c.Linear))
		for i, k := range c.Linear {
			out.Keys[i] = model.VirtoolsVectorKey{Time: float64(k.Time) * scale, Value: vec3(k.Value)}
		}
	case c.TCB != nil:
		out.Interp = model.VirtoolsTCB
		out.Keys = make([]model.VirtoolsVectorKey, len(c.TCB))
		for i, k := range c.TCB {
			out.Keys[i] = model.VirtoolsVectorKey{Time: float64(k.Time) * scale, Value: vec3(k.Value),
				Tension: float64(k.Tension), Continuity: float64(k.Continuity), Bias: float64(k.Bias),
				EaseTo: float64(k.EaseTo), EaseFrom: float64(k.EaseFrom)}
		}
	case c.Bezier != nil:
		out.Interp = model.VirtoolsBezier
		out.Keys = make([]model.VirtoolsVectorKey, len(c.Bezier))
		for i, k := range c.Bezier {
			out.Keys[i] = model.VirtoolsVectorKey{Time: float64(k.Time) * scale, Value: vec3(k.Value),
				InMode: uint16(k.Flags), OutMode: uint16(k.Flags >> 16), In: vec3(k.In), Out: vec3(k.Out)}
		}
	default:
		out.Interp = interpOf(c.Type)
	}
	return out
}

// quatController copies rotation or scale-axis keys (stored convention).
func quatController(c *Controller, scale float64) *model.VirtoolsQuatController {
	if c == nil {
		return nil
	}
	out := &model.VirtoolsQuatController{Type: c.Type}
	switch {
	case c.Quat != nil:
		out.Interp = model.VirtoolsLinear
		out.Keys = make([]model.VirtoolsQuatKey, len(c.Quat))
		for i, k := range c.Quat {
			out.Keys[i] = model.VirtoolsQuatKey{Time: float64(k.Time) * scale, Value: quat4(k.Value)}
		}
	case c.TCBRot != nil:
		out.Interp = model.VirtoolsTCB
		out.Keys = make([]model.VirtoolsQuatKey, len(c.TCBRot))
		for i, k := range c.TCBRot {
			out.Keys[i] = model.VirtoolsQuatKey{Time: float64(k.Time) * scale, Value: quat4(k.Value),
				Tension: float64(k.Tension), Continuity: float64(k.Continuity), Bias: float64(k.Bias),
				EaseTo: float64(k.EaseTo), EaseFrom: float64(k.EaseFrom)}
		}
	default:
		out.Interp = interpOf(c.Type)
	}
	return out
}

// interpOf looks a controller type up in the model's table.
func interpOf(typ uint32) model.VirtoolsInterp {
	return model.VirtoolsControllerTypes[typ].Interp
}

func vec3(v [3]float32) [3]float64 {
	return [3]float64{float64(v[0]), float64(v[1]), float64(v[2])}
}

func quat4(q [4]float32) [4]float64 {
	return [4]float64{float64(q[0]), float64(q[1]), float64(q[2]), float64(q[3])}
}
