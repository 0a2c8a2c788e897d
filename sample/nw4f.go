package sample

import (
	"fmt"
	"math"

	"github.com/animbake/bake/model"
)

// This file evaluates Wii U BFRES (NW4F G3D) curves exactly as the runtime
// does (bfres-container.md §5): every operation in float32, rounded after
// each step, in the runtime's order. Go only rounds to float32 at explicit
// conversions (the spec lets it fuse a*b+c otherwise), so every product is
// wrapped in float32(...) to forbid fused multiply-adds.

func init() {
	RegisterCompiler("nw4f", compileNW4F)
	RegisterCompiler("nw4fquat", compileNW4FQuat)
}

// nw4fEval is a compiled model.NW4FCurve: plain float32/int32 arrays.
type nw4fEval struct {
	curveType  int
	frameType  int
	pre, post  int
	start, end float32
	scale      float32
	offset     float32
	iOffset    int32
	// raw holds the frames as stored (10.5 frames as their s16 value), for the
	// quantized key search of §5.2; frames holds them decoded.
	raw    []float32
	frames []float32
	fkeys  []float32 // float curves: raw key elements
	ikeys  []int32   // int curves: raw key elements (words for bool curves)
	keyed  []float64 // KeyFrames answer
	n      int       // key count
}

func compileNW4F(c model.Curve) (Evaluator, error) {
	m := c.(*model.NW4FCurve)
	if err := m.Validate(); err != nil {
		return nil, err
	}
	e := &nw4fEval{
		curveType: m.CurveType, frameType: m.FrameType,
		pre: m.PreWrap, post: m.PostWrap,
		start: m.StartFrame, end: m.EndFrame,
		scale: m.Scale, offset: m.Offset, iOffset: m.IntOffset,
		n: m.NumKeys,
	}
	if m.UsesFrames() {
		e.raw = make([]float32, m.NumKeys)
		e.frames = make([]float32, m.NumKeys)
		e.keyed = make([]float64, m.NumKeys)
		for i, f := range m.Frames {
			e.raw[i] = float32(f)
			e.frames[i] = decodeNW4FFrame(float32(f), m.FrameType)
			e.keyed[i] = float64(e.frames[i])
		}
	} else {
		s := float64(int32(m.StartFrame))
		e.keyed = make([]float64, m.NumKeys)
		for i := range e.keyed {
			e.keyed[i] = s + float64(i)
		}
	}
	if m.IsFloat() {
		e.fkeys = make([]float32, len(m.Keys))
		for i, k := range m.Keys {
			e.fkeys[i] = float32(k)
		}
	} else {
		e.ikeys = make([]int32, len(m.Keys))
		for i, k := range m.Keys {
			// Words of bool curves are stored as uint32 values.
			e.ikeys[i] = int32(uint32(int64(k)))
		}
	}
	return e, nil
}

// decodeNW4FFrame turns a raw stored frame into frames (§4.3).
func decodeNW4FFrame(raw float32, frameType int) float32 {
	if frameType == model.NW4FFrameFixed {
		return raw / 32 // exact: a power-of-two divide of an s16
	}
	return raw
}

func (e *nw4fEval) Width() int                        { return 1 }
func (e *nw4fEval) Stepped() bool                     { return e.curveType >= model.NW4FStepInt }
func (e *nw4fEval) KeyFrames() []float64              { return e.keyed }
func (e *nw4fEval) Eval(frame float64, out []float64) { out[0] = e.value(float32(frame)) }

// JumpFrames implements Jumper for cubic and linear curves: at each key
// frame F after the first, the segment before F (the last key whose frame
// is below F) at t = 1 against the segment the runtime picks at F (the
// last key at F) at t = 0, both through scale and offset in float32.
// Baked curves interpolate their samples (no jumps); step curves hold
// (their consumers treat every key as a jump).
func (e *nw4fEval) JumpFrames(threshold float64) ([]float64, bool) {
	switch e.curveType {
	case model.NW4FBakedFloat:
		return nil, true
	case model.NW4FCubic, model.NW4FLinear:
	default:
		return nil, false
	}
	if e.frames == nil {
		return nil, false
	}
	at := func(i int, t float32) float64 {
		var raw float32
		if e.curveType == model.NW4FCubic {
			k := e.fkeys[4*i : 4*i+4]
			raw = CalcNW4FCubic(t, k[0], k[1], k[2], k[3])
		} else {
			raw = e.fkeys[2*i] + float32(e.fkeys[2*i+1]*t)
		}
		return float64(float32(raw*e.scale) + e.offset)
	}
	var out []float64
	prev := -1 // the last key whose frame is below the current one
	for i := 0; i < e.n; i++ {
		if i+1 < e.n && e.frames[i+1] == e.frames[i] {
			continue // a later key at the same frame wins
		}
		if prev >= 0 {
			end, start := at(prev, 1), at(i, 0)
			if math.Abs(start-end) > threshold*(1+math.Abs(start)) {
				out = append(out, float64(e.frames[i]))
			}
		}
		prev = i
	}
	return out, true
}

// value evaluates the curve at frame f (§5).
func (e *nw4fEval) value(f float32) float64 {
	f = WrapNW4FFrame(f, e.start, e.end, e.pre, e.post)
	switch e.curveType {
	case model.NW4FCubic:
		i, t := e.findKey(f)
		k := e.fkeys[4*i : 4*i+4]
		raw := CalcNW4FCubic(t, k[0], k[1], k[2], k[3])
		return float64(float32(raw*e.scale) + e.offset)
	case model.NW4FLinear:
		i, t := e.findKey(f)
		c0, c1 := e.fkeys[2*i], e.fkeys[2*i+1]
		raw := c0 + float32(c1*t)
		return float64(float32(raw*e.scale) + e.offset)
	case model.NW4FBakedFloat:
		k, r := e.bakedIndex(f)
		raw := e.fkeys[k]
		if k+1 < e.n {
			raw = float32(e.fkeys[k]*(1-r)) + float32(e.fkeys[k+1]*r)
		}
		return float64(float32(raw*e.scale) + e.offset)
	case model.NW4FStepInt:
		i, _ := e.findKey(f)
		return float64(e.ikeys[i] + e.iOffset)
	case model.NW4FBakedInt:
		k, _ := e.bakedIndex(f)
		return float64(e.ikeys[k] + e.iOffset)
	case model.NW4FStepBool:
		i, _ := e.findKey(f)
		return float64(e.bit(i) + e.iOffset)
	default: // model.NW4FBakedBool
		k, _ := e.bakedIndex(f)
		return float64(e.bit(k) + e.iOffset)
	}
}

// CalcNW4FCubic is the runtime's cubic polynomial, ((c3·t + c2)·t)·t +
// (c1·t + c0), rounded to float32 after every operation (§5.3).
func CalcNW4FCubic(t, c0, c1, c2, c3 float32) float32 {
	a := float32(c3*t) + c2
	a = float32(a * t)
	a = float32(a * t)
	b := float32(c1*t) + c0
	return a + b
}

// bit returns bit i of a bool curve's bit array (LSB first in 32-bit words).
func (e *nw4fEval) bit(i int) int32 {
	return int32(uint32(e.ikeys[i>>5])>>(uint(i)&31)) & 1
}

// findKey finds the key whose segment holds f by comparing the frame,
// quantized like the frame array, with the raw stored frames (§5.2), and
// returns the key index and the segment parameter t.
func (e *nw4fEval) findKey(f float32) (int, float32) {
	var q float32
	switch e.frameType {
	case model.NW4FFrameFixed:
		q = float32(math.Floor(float64(float32(f * 32))))
	case model.NW4FFrameU8:
		q = float32(math.Floor(float64(f)))
	default:
		q = f
	}
	raw := e.raw
	last := len(raw) - 1
	var start, end float32
	i := last
	if q >= raw[last] {
		start = e.frames[last]
		end = start + 1
	} else {
		// The last key whose frame is <= q: later keys win at equal frames.
		// (sort.Search's bisection, without its call per step: this runs
		// for every evaluation.)
		lo, hi := 0, last
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if raw[m] > q {
				hi = m
			} else {
				lo = m + 1
			}
		}
		i = lo - 1
		if i < 0 {
			i = 0
		}
		start, end = e.frames[i], e.frames[i+1]
	}
	d := end - start
	if !(d > 0) {
		return i, 0 // hostile frame order; the runtime never selects such a segment
	}
	return i, (f - start) / d
}

// bakedIndex returns the sample index k = int(f) − int(start), clamped to
// the samples present, and the fraction r = f − (int(start) + k) (§5.6).
func (e *nw4fEval) bakedIndex(f float32) (int, float32) {
	s := truncToInt32(e.start)
	k := int(truncToInt32(f)) - int(s)
	if k < 0 {
		k = 0
	}
	if k > e.n-1 {
		k = e.n - 1
	}
	return k, f - float32(int64(s)+int64(k))
}

// truncToInt32 converts like PowerPC fctiwz: toward zero, saturating.
func truncToInt32(f float32) int32 {
	switch {
	case f >= 2147483647:
		return math.MaxInt32
	case f <= -2147483648:
		return math.MinInt32
	case f != f:
		return math.MinInt32
	}
	return int32(f)
}

// WrapNW4FFrame brings f into [start, end] with the curve's pre- and
// post-wrap modes, in float32, in the runtime's order (§5.1). A curve of
// zero length returns start.
func WrapNW4FFrame(f, start, end float32, pre, post int) float32 {
	if f >= start && f <= end {
		return f
	}
	var d float32
	var mode int
	isPost := f > end
	if isPost {
		if post == model.NW4FClamp {
			return end
		}
		d, mode = f-end, post
	} else {
		if pre == model.NW4FClamp {
			return start
		}
		d, mode = start-f, pre
	}
	span := end - start
	if !(span > 0) {
		return start
	}
	n := truncToInt32(d / span)
	m := d - float32(float32(n)*span)
	repeat := mode == model.NW4FRepeat || (mode == model.NW4FMirror && n&1 == 1)
	if repeat != isPost {
		return end - m
	}
	return start + m
}

// nw4fQuatEval composes four scalar evaluators into a normalised quaternion.
type nw4fQuatEval struct {
	parts [4]Evaluator
	keys  []float64
}

func compileNW4FQuat(c model.Curve) (Evaluator, error) {
	q := c.(*model.NW4FQuaternion)
	if err := q.Validate(); err != nil {
		return nil, err
	}
	var e nw4fQuatEval
	for i, p := range []model.Curve{q.X, q.Y, q.Z, q.W} {
		pe, err := Compile(p)
		if err != nil {
			return nil, fmt.Errorf("quaternion component %d: %w", i, err)
		}
		if pe.Width() != 1 {
			return nil, fmt.Errorf("quaternion component %d has width %d, want 1", i, pe.Width())
		}
		e.parts[i] = pe
	}
	e.keys = UnionKeyFrames(e.parts[:]...)
	return &e, nil
}

func (e *nw4fQuatEval) Width() int           { return 4 }
func (e *nw4fQuatEval) KeyFrames() []float64 { return e.keys }

func (e *nw4fQuatEval) Eval(frame float64, out []float64) {
	for i, p := range e.parts {
		p.Eval(frame, out[i:i+1])
	}
	normalize4(out[:4])
}
