package sample

import (
	"fmt"
	"math"
	"sort"

	"github.com/animbake/bake/model"
)

func init() {
	RegisterCompiler("oni", compileOniKeys)
}

// oniEval evaluates model.OniKeys in single precision, operation for
// operation as OBrAnimation_GetMatrix, MUrPoint3D_Lerp and MUrQuat_Lerp do
// (docs/formats/oni.md "Interpolation"). Every float32 product is rounded
// by an explicit conversion so that no platform fuses it into an FMA.
type oniEval struct {
	width  int
	frames []float64
	vals   []float32
}

func compileOniKeys(c model.Curve) (Evaluator, error) {
	k := c.(*model.OniKeys)
	if err := k.Validate(); err != nil {
		return nil, err
	}
	e := &oniEval{width: k.Width, frames: k.Frames, vals: make([]float32, len(k.Values))}
	for i, v := range k.Values {
		f := float32(v)
		if float64(f) != v {
			return nil, fmt.Errorf("oni key value %d (%v) is not a single-precision number", i, v)
		}
		e.vals[i] = f
	}
	return e, nil
}

func (e *oniEval) Width() int           { return e.width }
func (e *oniEval) KeyFrames() []float64 { return e.frames }

// Eval writes the value at frame: a key's own value at its frame, the
// nearest end outside the keys, else the lerp of the keys around it.
func (e *oniEval) Eval(frame float64, out []float64) {
	w := e.width
	n := len(e.frames)
	// i is the last key at or before frame (-1 when frame is before them all).
	i := sort.Search(n, func(j int) bool { return e.frames[j] > frame }) - 1
	if i < 0 {
		i = 0
	}
	if e.frames[i] == frame || i == n-1 || frame < e.frames[0] {
		for j := range w {
			out[j] = float64(e.vals[i*w+j])
		}
		return
	}
	// OBrAnimation_GetMatrix: distance = (float)(frame - start) / (float)(end - start).
	span := float32(e.frames[i+1] - e.frames[i])
	into := float32(frame - e.frames[i])
	t := into / span
	a := e.vals[i*w : i*w+w]
	b := e.vals[(i+1)*w : (i+1)*w+w]
	if w == 3 {
		oniPointLerp(out, a, b, t)
		return
	}
	oniQuatLerp(out, a, b, t)
}

// oniPointLerp is MUrPoint3D_Lerp: from·(1−t) + to·t in float32.
func oniPointLerp(out []float64, a, b []float32, t float32) {
	s0 := 1 - t
	for j := range 3 {
		out[j] = float64(float32(a[j]*s0) + float32(b[j]*t))
	}
}

// oniQuatLerp is MUrQuat_Lerp: the dot product in float32 picks the short
// way (the right key is negated when it is negative), the components are
// mixed in double precision and rounded to float32, and the result is
// normalised by MUrQuat_Normalize in float32 (1/sqrt, then four products;
// a zero quaternion becomes the identity).
func oniQuatLerp(out []float64, a, b []float32, t float32) {
	dot := float32(a[0]*b[0]) + float32(a[1]*b[1]) + float32(a[2]*b[2]) + float32(a[3]*b[3])
	sign := 1.0
	if dot < 0 {
		sign = -1
	}
	s0 := 1.0 - float64(t)
	s1 := float64(t)
	var q [4]float32
	for j := range 4 {
		q[j] = float32(float64(s0*float64(a[j])) + float64(s1*(sign*float64(b[j]))))
	}
	sq := float32(q[0]*q[0]) + float32(q[1]*q[1]) + float32(q[2]*q[2]) + float32(q[3]*q[3])
	if !(sq > 0) {
		out[0], out[1], out[2], out[3] = 0, 0, 0, 1
		return
	}
	inv := 1 / float32(math.Sqrt(float64(sq)))
	for j := range 4 {
		out[j] = float64(q[j] * inv)
	}
}
