package sample

import "math"

// 3×3 rotation helpers for ccAnm's running matrix, in float64. Matrices
// are row-major and act on column vectors (v' = M·v).

// mat3Mul returns a·b.
func mat3Mul(a, b *[9]float64) [9]float64 {
	var m [9]float64
	for r := range 3 {
		for c := range 3 {
			m[r*3+c] = a[r*3]*b[c] + a[r*3+1]*b[3+c] + a[r*3+2]*b[6+c]
		}
	}
	return m
}

// mat3MulT returns a·bᵀ.
func mat3MulT(a, b *[9]float64) [9]float64 {
	var m [9]float64
	for r := range 3 {
		for c := range 3 {
			m[r*3+c] = a[r*3]*b[c*3] + a[r*3+1]*b[c*3+1] + a[r*3+2]*b[c*3+2]
		}
	}
	return m
}

// mat3Identity is the 3×3 identity.
var mat3Identity = [9]float64{1, 0, 0, 0, 1, 0, 0, 0, 1}

// axisAngleMatrix is the rotation by angle (radians, right-handed) about
// the unit axis (Rodrigues).
func axisAngleMatrix(axis [3]float64, angle float64) [9]float64 {
	if angle == 0 {
		return mat3Identity
	}
	s, c := math.Sincos(angle)
	t := 1 - c
	x, y, z := axis[0], axis[1], axis[2]
	return [9]float64{
		t*x*x + c, t*x*y - s*z, t*x*z + s*y,
		t*x*y + s*z, t*y*y + c, t*y*z - s*x,
		t*x*z - s*y, t*y*z + s*x, t*z*z + c,
	}
}

// matrixAxisAngle is m2a: the axis and angle of a rotation matrix, the
// angle from atan2(sin, cos) so it lies in [0, π] (the short way round).
// A zero rotation gives the x axis and angle 0. At half a turn the axis
// comes from the diagonal.
func matrixAxisAngle(m *[9]float64) (axis [3]float64, angle float64) {
	vx := m[7] - m[5]
	vy := m[2] - m[6]
	vz := m[3] - m[1]
	s2 := math.Sqrt(vx*vx + vy*vy + vz*vz) // 2 sin θ
	c2 := m[0] + m[4] + m[8] - 1           // 2 cos θ
	angle = math.Atan2(s2, c2)
	if s2 > 1e-12 {
		return [3]float64{vx / s2, vy / s2, vz / s2}, angle
	}
	if c2 >= 0 {
		return [3]float64{1, 0, 0}, 0
	}
	// Half a turn: M = 2·a·aᵀ − I.
	ax := math.Sqrt(max(0, (m[0]+1)/2))
	ay := math.Sqrt(max(0, (m[4]+1)/2))
	az := math.Sqrt(max(0, (m[8]+1)/2))
	switch {
	case ax >= ay && ax >= az:
		ay = math.Copysign(ay, m[1])
		az = math.Copysign(az, m[2])
	case ay >= az:
		ax = math.Copysign(ax, m[1])
		az = math.Copysign(az, m[5])
	default:
		ax = math.Copysign(ax, m[2])
		ay = math.Copysign(ay, m[5])
	}
	l := math.Sqrt(ax*ax + ay*ay + az*az)
	return [3]float64{ax / l, ay / l, az / l}, math.Pi
}

// MatrixToQuat returns the unit quaternion (x, y, z, w), w ≥ 0, of a 3×3
// row-major rotation matrix (Shepperd's method, then normalised, so a
// slightly non-orthonormal matrix, such as the VU0's with its √(1−c²)
// sines, gives the nearby rotation).
func MatrixToQuat(m *[9]float64) [4]float64 {
	var q [4]float64
	tr := m[0] + m[4] + m[8]
	switch {
	case tr > 0:
		s := math.Sqrt(tr+1) * 2
		q = [4]float64{(m[7] - m[5]) / s, (m[2] - m[6]) / s, (m[3] - m[1]) / s, s / 4}
	case m[0] > m[4] && m[0] > m[8]:
		s := math.Sqrt(1+m[0]-m[4]-m[8]) * 2
		q = [4]float64{s / 4, (m[1] + m[3]) / s, (m[2] + m[6]) / s, (m[7] - m[5]) / s}
	case m[4] > m[8]:
		s := math.Sqrt(1+m[4]-m[0]-m[8]) * 2
		q = [4]float64{(m[1] + m[3]) / s, s / 4, (m[5] + m[7]) / s, (m[2] - m[6]) / s}
	default:
		s := math.Sqrt(1+m[8]-m[0]-m[4]) * 2
		q = [4]float64{(m[2] + m[6]) / s, (m[5] + m[7]) / s, s / 4, (m[3] - m[1]) / s}
	}
	if q[3] < 0 {
		q = [4]float64{-q[0], -q[1], -q[2], -q[3]}
	}
	for _, v := range q {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			// Only a matrix far from any rotation (hostile angles in the
			// EE's exponent-255 binade) gets here.
			return [4]float64{0, 0, 0, 1}
		}
	}
	normalize4(q[:])
	return q
}

// CcAnmLocalMatrix is ccAnm's local matrix T(position)·R·S(scale)
// (SetAnmCtrlWork), column-major 4×4 as glTF stores matrices. The node's
// TRS channels are exactly its three factors: translation = position,
// rotation = MatrixToQuat(R), scale = scale.
func CcAnmLocalMatrix(pos [3]float64, rot *[9]float64, scale [3]float64) [16]float64 {
	var m [16]float64
	for c := range 3 {
		for r := range 3 {
			m[c*4+r] = rot[r*3+c] * scale[c]
		}
	}
	m[12], m[13], m[14], m[15] = pos[0], pos[1], pos[2], 1
	return m
}
