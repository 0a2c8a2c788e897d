package sample

import "math"

// Quaternion arithmetic of VxMath, on (x, y, z, w) arrays, in the stored
// Virtools convention. None of these normalise: the engine does not, and
// its QuatToMatrix divides by |q|² anyway (virtools-controllers.md §2).

// vxFltEpsilon is FLT_EPSILON, the threshold VxMath's Exp and SetStep use.
const vxFltEpsilon = 1.1920929e-7

// VirtoolsSlerp is VxMath's Slerp(t, a, b) (virtools-curves-and-object-
// animations.txt §5.3): the short way round (b's weight negated when
// a·b < 0), a plain linear blend when 1 − |a·b| <= 0.01, and no
// normalisation of the result.
func VirtoolsSlerp(t float64, a, b [4]float64) [4]float64 {
	d := a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3]
	sign := 1.0
	if d < 0 {
		d, sign = -d, -1
	}
	var k0, k1 float64
	if 1-d > 0.01 {
		theta := math.Acos(d)
		s := math.Sin(theta)
		k0 = math.Sin((1-t)*theta) / s
		k1 = sign * math.Sin(t*theta) / s
	} else {
		k0, k1 = 1-t, sign*t
	}
	return [4]float64{k0*a[0] + k1*b[0], k0*a[1] + k1*b[1], k0*a[2] + k1*b[2], k0*a[3] + k1*b[3]}
}

// vxSquad is VxMath's Squad(s, p, a, b, r) = Slerp(2s(1−s), Slerp(s, p, r),
// Slerp(s, a, b)) (virtools-controllers.md §4.2).
func vxSquad(s float64, p, a, b, r [4]float64) [4]float64 {
	return VirtoolsSlerp(2*s*(1-s), VirtoolsSlerp(s, p, r), VirtoolsSlerp(s, a, b))
}

// vxConj returns (−x, −y, −z, w).
func vxConj(q [4]float64) [4]float64 { return [4]float64{-q[0], -q[1], -q[2], q[3]} }

// vxDot4 is the 4D dot product.
func vxDot4(a, b [4]float64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3] }

// vxNeg4 returns −q.
func vxNeg4(q [4]float64) [4]float64 { return [4]float64{-q[0], -q[1], -q[2], -q[3]} }

// vxLn is VxMath's Ln: the vector part scaled by atan2(|v|, w)/|v|, with
// w = 0; zero when |v| = 0. It ignores the quaternion's length.
func vxLn(q [4]float64) [3]float64 {
	n := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2])
	if n == 0 {
		return [3]float64{}
	}
	f := math.Atan2(n, q[3]) / n
	return [3]float64{q[0] * f, q[1] * f, q[2] * f}
}

// vxExp is VxMath's Exp of a pure quaternion v: (v·sin|v|/|v|, cos|v|),
// with the factor 1 when |v| < FLT_EPSILON.
func vxExp(v [3]float64) [4]float64 {
	n := math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2])
	f := 1.0
	if n >= vxFltEpsilon {
		f = math.Sin(n) / n
	}
	return [4]float64{v[0] * f, v[1] * f, v[2] * f, math.Cos(n)}
}

// vxQuatToRows is VxQuaternion::ToMatrix (§5.4): the 3×3 rotation whose
// rows are the entity axes, with s = 2/|q|² so any multiple of a unit
// quaternion gives the same matrix. A zero quaternion gives the identity.
func vxQuatToRows(q [4]float64) [9]float64 {
	x, y, z, w := q[0], q[1], q[2], q[3]
	n := x*x + y*y + z*z + w*w
	if n == 0 {
		return [9]float64{1, 0, 0, 0, 1, 0, 0, 0, 1}
	}
	s := 2 / n
	return [9]float64{
		1 - s*(y*y+z*z), s * (x*y - w*z), s * (x*z + w*y),
		s * (x*y + w*z), 1 - s*(x*x+z*z), s * (y*z - w*x),
		s * (x*z - w*y), s * (y*z + w*x), 1 - s*(x*x+y*y),
	}
}

// vxRowsToQuat inverts vxQuatToRows for a rotation matrix (rows already
// unit length): the unit quaternion q with rows = ToMatrix(q), w >= 0 when
// the trace allows. This is VxQuaternion::FromMatrix's job in SetStep's
// decomposition of the current local matrix.
func vxRowsToQuat(m [9]float64) [4]float64 {
	tr := m[0] + m[4] + m[8]
	var q [4]float64
	switch {
	case tr > 0:
		s := math.Sqrt(tr+1) * 2
		q = [4]float64{(m[7] - m[5]) / s, (m[2] - m[6]) / s, (m[3] - m[1]) / s, s / 4}
	case m[0] >= m[4] && m[0] >= m[8]:
		s := math.Sqrt(1+m[0]-m[4]-m[8]) * 2
		q = [4]float64{s / 4, (m[1] + m[3]) / s, (m[2] + m[6]) / s, (m[7] - m[5]) / s}
	case m[4] >= m[8]:
		s := math.Sqrt(1+m[4]-m[0]-m[8]) * 2
		q = [4]float64{(m[1] + m[3]) / s, s / 4, (m[5] + m[7]) / s, (m[2] - m[6]) / s}
	default:
		s := math.Sqrt(1+m[8]-m[0]-m[4]) * 2
		q = [4]float64{(m[2] + m[6]) / s, (m[5] + m[7]) / s, s / 4, (m[3] - m[1]) / s}
	}
	if math.IsNaN(q[0]+q[1]+q[2]+q[3]) || math.IsInf(q[0]+q[1]+q[2]+q[3], 0) {
		return [4]float64{0, 0, 0, 1}
	}
	return q
}
