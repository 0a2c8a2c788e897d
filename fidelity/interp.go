package fidelity

import (
	"math"

	"github.com/animbake/bake/model"
)

// Interp is how a client blends two LINEAR rotation keys.
type Interp int

const (
	// Slerp is glTF 2.0's rule (Appendix C): spherical, the short way.
	Slerp Interp = iota
	// Nlerp is what Blender's importer gives: component-wise lerp of keys
	// flipped to the short way, normalised (its quaternion F-curves).
	Nlerp
)

func (m Interp) String() string {
	if m == Nlerp {
		return "nlerp"
	}
	return "slerp"
}

// Interpolate writes a glTF client's value at fraction u ∈ [0,1] between
// keys v0 and v1 of a channel: v0 for STEP, otherwise lerp per component,
// or for rotations (4 components on path "rotation") slerp or nlerp.
func Interpolate(path string, step bool, mode Interp, v0, v1 []float64, u float64, out []float64) {
	switch {
	case step:
		copy(out, v0)
	case path == model.PathRotation && len(v0) == 4:
		Rotate(mode, v0, v1, u, out)
	default:
		for j := range out {
			out[j] = v0[j] + (v1[j]-v0[j])*u
		}
	}
}

// Rotate blends quaternions a and b the short way at fraction u. Nlerp
// normalises the result, as Blender does before it builds a matrix. Slerp
// does not: glTF's slerp of unit keys is unit, and keys that are not (16-bit
// keys, |1 − |q|²| below 4/32767) are played the way three.js
// plays them, slerp of the keys as stored, whose length error is at most
// the larger key's (docs/fidelity.md, "16-bit rotations").
func Rotate(mode Interp, a, b []float64, u float64, out []float64) {
	d := a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3]
	sb := 1.0
	if d < 0 {
		d, sb = -d, -1
	}
	k0, k1 := 1-u, u
	if mode == Slerp && d < 1-1e-12 {
		th := math.Acos(min(d, 1))
		s := math.Sin(th)
		k0, k1 = math.Sin((1-u)*th)/s, math.Sin(u*th)/s
	}
	k1 *= sb
	for j := range 4 {
		out[j] = k0*a[j] + k1*b[j]
	}
	if mode == Nlerp {
		normalize(out)
	}
}

// normalize scales a quaternion to unit length (a zero one stays).
func normalize(q []float64) {
	n := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
	if n > 0 {
		for j := range 4 {
			q[j] /= n
		}
	}
}
