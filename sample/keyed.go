package sample

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/animbake/bake/model"
)

func init() {
	RegisterCompiler("keyed", compileKeyed)
	RegisterCompiler("constant", compileConstant)
	RegisterCompiler("sampled", compileSampled)
	RegisterCompiler("vector", compileVector)
	RegisterCompiler("euler", compileEuler)
}

// keyedEval evaluates a model.Keyed curve; the nearest end is held outside
// the keys.
type keyedEval struct {
	k *model.Keyed
}

func compileKeyed(c model.Curve) (Evaluator, error) {
	k := c.(*model.Keyed)
	if err := k.Validate(); err != nil {
		return nil, err
	}
	return &keyedEval{k: k}, nil
}

func (e *keyedEval) Width() int           { return e.k.Width }
func (e *keyedEval) Stepped() bool        { return e.k.Interp == model.InterpStep }
func (e *keyedEval) KeyFrames() []float64 { return e.k.Frames }

// segment returns the index i of the key at or before frame, with i in
// [0, n-1]; frames before the first key give -1.
func segment(frames []float64, frame float64) int {
	// sort.Search does not allocate.
	return sort.Search(len(frames), func(i int) bool { return frames[i] > frame }) - 1
}

func (e *keyedEval) Eval(frame float64, out []float64) {
	k := e.k
	w := k.Width
	n := len(k.Frames)
	i := segment(k.Frames, frame)
	if i < 0 {
		copy(out[:w], k.Values[:w])
		return
	}
	if i >= n-1 || k.Interp == model.InterpStep {
		copy(out[:w], k.Values[i*w:i*w+w])
		return
	}
	f0, f1 := k.Frames[i], k.Frames[i+1]
	t := (frame - f0) / (f1 - f0)
	a := k.Values[i*w : i*w+w]
	b := k.Values[(i+1)*w : (i+1)*w+w]
	switch k.Interp {
	case model.InterpLinear:
		for j := range w {
			out[j] = a[j] + (b[j]-a[j])*t
		}
	case model.InterpSlerp:
		Slerp(out, a, b, t)
	case model.InterpNlerp:
		Nlerp(out, a, b, t)
	case model.InterpHermite:
		d := f1 - f0
		h00, h10, h01, h11 := hermiteBasis(t)
		m0 := k.OutTangents[i*w : i*w+w]
		m1 := k.InTangents[(i+1)*w : (i+1)*w+w]
		for j := range w {
			out[j] = h00*a[j] + h10*d*m0[j] + h01*b[j] + h11*d*m1[j]
		}
	}
}

// hermiteBasis returns the cubic Hermite basis functions at t.
func hermiteBasis(t float64) (h00, h10, h01, h11 float64) {
	t2 := t * t
	t3 := t2 * t
	return 2*t3 - 3*t2 + 1, t3 - 2*t2 + t, -2*t3 + 3*t2, t3 - t2
}

// Slerp writes the spherical interpolation of unit quaternions a and b at t
// into out, going the short way; nearly equal keys fall back to nlerp.
func Slerp(out, a, b []float64, t float64) {
	dot := a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3]
	sign := 1.0
	if dot < 0 {
		dot, sign = -dot, -1
	}
	if dot > 0.9995 {
		Nlerp(out, a, b, t)
		return
	}
	theta := math.Acos(dot)
	s := math.Sin(theta)
	wa := math.Sin((1-t)*theta) / s
	wb := sign * math.Sin(t*theta) / s
	for j := range 4 {
		out[j] = wa*a[j] + wb*b[j]
	}
}

// Nlerp writes the normalised lerp of quaternions a and b (short way).
func Nlerp(out, a, b []float64, t float64) {
	dot := a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3]
	sb := t
	if dot < 0 {
		sb = -t
	}
	for j := range 4 {
		out[j] = (1-t)*a[j] + sb*b[j]
	}
	normalize4(out)
}

func normalize4(q []float64) {
	l := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
	if l == 0 {
		q[0], q[1], q[2], q[3] = 0, 0, 0, 1
		return
	}
	for j := range 4 {
		q[j] /= l
	}
}

type constantEval struct{ v []float64 }

func compileConstant(c model.Curve) (Evaluator, error) {
	k := c.(*model.Constant)
	if len(k.Value) == 0 {
		return nil, fmt.Errorf("constant curve has no value")
	}
	return &constantEval{v: k.Value}, nil
}

func (e *constantEval) Width() int                    { return len(e.v) }
func (e *constantEval) Eval(_ float64, out []float64) { copy(out, e.v) }
func (e *constantEval) Constant() bool                { return true }

// JumpFrames implements Jumper: a constant never jumps.
func (e *constantEval) JumpFrames(float64) ([]float64, bool) { return nil, true }

type sampledEval struct{ s *model.Sampled }

func compileSampled(c model.Curve) (Evaluator, error) {
	s := c.(*model.Sampled)
	if s.Width <= 0 || len(s.Values) == 0 || len(s.Values)%s.Width != 0 || !(s.Step > 0) {
		return nil, fmt.Errorf("sampled curve: width %d, %d values, step %v do not fit", s.Width, len(s.Values), s.Step)
	}
	return &sampledEval{s: s}, nil
}

func (e *sampledEval) Width() int    { return e.s.Width }
func (e *sampledEval) Stepped() bool { return e.s.Hold }

func (e *sampledEval) Eval(frame float64, out []float64) {
	s := e.s
	w := s.Width
	n := len(s.Values) / w
	x := (frame - s.Start) / s.Step
	if !(x > 0) {
		copy(out[:w], s.Values[:w])
		return
	}
	i := int(math.Floor(x))
	if i >= n-1 {
		copy(out[:w], s.Values[(n-1)*w:n*w])
		return
	}
	if s.Hold {
		copy(out[:w], s.Values[i*w:i*w+w])
		return
	}
	t := x - float64(i)
	for j := range w {
		a, b := s.Values[i*w+j], s.Values[(i+1)*w+j]
		out[j] = a + (b-a)*t
	}
}

type vectorEval struct {
	parts []Evaluator
	width int
	keys  []float64
}

func compileVector(c model.Curve) (Evaluator, error) {
	v := c.(*model.Vector)
	e := &vectorEval{}
	for i, p := range v.Components {
		pe, err := Compile(p)
		if err != nil {
			return nil, fmt.Errorf("component %d: %w", i, err)
		}
		e.parts = append(e.parts, pe)
		e.width += pe.Width()
	}
	if e.width == 0 {
		return nil, fmt.Errorf("vector curve has no components")
	}
	e.keys = UnionKeyFrames(e.parts...)
	return e, nil
}

func (e *vectorEval) Width() int           { return e.width }
func (e *vectorEval) KeyFrames() []float64 { return e.keys }

// Constant implements Constanter: every component is constant.
func (e *vectorEval) Constant() bool {
	for _, p := range e.parts {
		if !IsConstant(p) {
			return false
		}
	}
	return true
}

// JumpFrames implements Jumper: where any component jumps.
func (e *vectorEval) JumpFrames(threshold float64) ([]float64, bool) {
	return unionJumps(threshold, e.parts...)
}

// unionJumps is the sorted union of the parts' jump frames, if every part
// can tell them.
func unionJumps(threshold float64, parts ...Evaluator) ([]float64, bool) {
	var all []float64
	for _, p := range parts {
		f, ok := JumpFrames(p, threshold)
		if !ok {
			return nil, false
		}
		all = append(all, f...)
	}
	slices.Sort(all)
	return slices.Compact(all), true
}

func (e *vectorEval) Stepped() bool {
	for _, p := range e.parts {
		if !IsStepped(p) {
			return false
		}
	}
	return true
}

func (e *vectorEval) Eval(frame float64, out []float64) {
	o := 0
	for _, p := range e.parts {
		p.Eval(frame, out[o:])
		o += p.Width()
	}
}

// eulerEval composes three angle curves into a quaternion.
type eulerEval struct {
	x, y, z Evaluator
	order   string
	keys    []float64
	// fixed tells the components whose curve is a constant; half holds the
	// sine and cosine of half their angle, worked out once (BFRES bones
	// often turn about one or two axes only).
	fixed [3]bool
	half  [3][2]float64
}

func compileEuler(c model.Curve) (Evaluator, error) {
	r := c.(*model.EulerRotation)
	var e eulerEval
	var err error
	for _, p := range []struct {
		dst *Evaluator
		src model.Curve
	}{{&e.x, r.X}, {&e.y, r.Y}, {&e.z, r.Z}} {
		if *p.dst, err = Compile(p.src); err != nil {
			return nil, err
		}
		if (*p.dst).Width() != 1 {
			return nil, fmt.Errorf("euler component has width %d, want 1", (*p.dst).Width())
		}
	}
	switch r.Order {
	case "XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX":
	default:
		return nil, fmt.Errorf("unknown euler order %q", r.Order)
	}
	e.order = r.Order
	e.keys = UnionKeyFrames(e.x, e.y, e.z)
	for i, c := range []Evaluator{e.x, e.y, e.z} {
		if k, ok := c.(*constantEval); ok {
			e.fixed[i] = true
			e.half[i][0], e.half[i][1] = math.Sincos(k.v[0] / 2)
		}
	}
	return &e, nil
}

func (e *eulerEval) Width() int     { return 4 }
func (e *eulerEval) Constant() bool { return IsConstant(e.x) && IsConstant(e.y) && IsConstant(e.z) }

// JumpFrames implements Jumper: where any angle jumps.
func (e *eulerEval) JumpFrames(threshold float64) ([]float64, bool) {
	return unionJumps(threshold, e.x, e.y, e.z)
}
func (e *eulerEval) KeyFrames() []float64 { return e.keys }

func (e *eulerEval) Eval(frame float64, out []float64) {
	// The angles go through out itself: a local array passed to the
	// interface methods would escape to the heap at every call.
	e.x.Eval(frame, out[0:1])
	e.y.Eval(frame, out[1:2])
	e.z.Eval(frame, out[2:3])
	if e.order != "ZYX" {
		q := EulerToQuat(out[0], out[1], out[2], e.order)
		copy(out, q[:])
		return
	}
	var sin, cos [3]float64
	for i := range 3 {
		if e.fixed[i] {
			sin[i], cos[i] = e.half[i][0], e.half[i][1]
		} else {
			sin[i], cos[i] = math.Sincos(out[i] / 2)
		}
	}
	q := zyxQuat(sin, cos)
	copy(out, q[:])
}

// EulerToQuat returns the quaternion of R = R_{order[0]}·R_{order[1]}·R_{order[2]}
// (column vectors, so the last axis named is applied first), angles in radians.
func EulerToQuat(x, y, z float64, order string) [4]float64 {
	if order == "ZYX" { // BFRES's order
		var sin, cos [3]float64
		sin[0], cos[0] = math.Sincos(x / 2)
		sin[1], cos[1] = math.Sincos(y / 2)
		sin[2], cos[2] = math.Sincos(z / 2)
		return zyxQuat(sin, cos)
	}
	q := QuatMul(axisQuat(order[0], x, y, z), axisQuat(order[1], x, y, z))
	return QuatMul(q, axisQuat(order[2], x, y, z))
}

// zyxQuat is EulerToQuat for the order ZYX from the sines and cosines of
// the half angles about x, y and z: the general products without their
// zero terms.
func zyxQuat(sin, cos [3]float64) [4]float64 {
	sx, sy, sz, cx, cy, cz := sin[0], sin[1], sin[2], cos[0], cos[1], cos[2]
	mx, my, mz, mw := -sz*sy, cz*sy, sz*cy, cz*cy // R_z·R_y
	// Adding +0 writes a zero as +0 whatever the signs of the products
	// (the general product's zero signs vary; no value differs).
	return [4]float64{mw*sx + mx*cx + 0, my*cx + mz*sx + 0, mz*cx - my*sx + 0, mw*cx - mx*sx + 0}
}

// axisQuat is the quaternion of the rotation about axis c ('X', 'Y' or 'Z')
// by its angle among x, y, z.
func axisQuat(c byte, x, y, z float64) [4]float64 {
	var q [4]float64
	switch c {
	case 'X':
		q[0], q[3] = math.Sincos(x / 2)
	case 'Y':
		q[1], q[3] = math.Sincos(y / 2)
	default:
		q[2], q[3] = math.Sincos(z / 2)
	}
	return q
}

// QuatMul returns the Hamilton product a·b of quaternions (x,y,z,w).
func QuatMul(a, b [4]float64) [4]float64 {
	return [4]float64{
		a[3]*b[0] + a[0]*b[3] + a[1]*b[2] - a[2]*b[1],
		a[3]*b[1] - a[0]*b[2] + a[1]*b[3] + a[2]*b[0],
		a[3]*b[2] + a[0]*b[1] - a[1]*b[0] + a[2]*b[3],
		a[3]*b[3] - a[0]*b[0] - a[1]*b[1] - a[2]*b[2],
	}
}
