package ccs

import "math"

// Rest-pose arithmetic in float64, for clump bind poses, the skins' inverse
// binds and deformable vertices. Matrices are column-major 4×4 for column
// vectors (v' = M·v), like model.Node.Matrix and glTF.

// eulerQuat returns the quaternion (x, y, z, w) of R = Rx·Ry·Rz with the
// angles in degrees: ccAnm's composition (ccs-container.md §6.3), so the
// Z rotation applies first. Exact trigonometry: the bind pose is data, not
// a VU0 evaluation.
func eulerQuat(deg [3]float32) [4]float64 {
	half := func(d float32) (float64, float64) {
		a := float64(d) * math.Pi / 360
		return math.Sin(a), math.Cos(a)
	}
	sx, cx := half(deg[0])
	sy, cy := half(deg[1])
	sz, cz := half(deg[2])
	qx := [4]float64{sx, 0, 0, cx}
	qy := [4]float64{0, sy, 0, cy}
	qz := [4]float64{0, 0, sz, cz}
	return quatMul(quatMul(qx, qy), qz)
}

// quatMul is the Hamilton product a·b (b applied first).
func quatMul(a, b [4]float64) [4]float64 {
	return [4]float64{
		a[3]*b[0] + a[0]*b[3] + a[1]*b[2] - a[2]*b[1],
		a[3]*b[1] - a[0]*b[2] + a[1]*b[3] + a[2]*b[0],
		a[3]*b[2] + a[0]*b[1] - a[1]*b[0] + a[2]*b[3],
		a[3]*b[3] - a[0]*b[0] - a[1]*b[1] - a[2]*b[2],
	}
}

// trsMatrix composes T·R·S.
func trsMatrix(t [3]float64, q [4]float64, s [3]float64) [16]float64 {
	x, y, z, w := q[0], q[1], q[2], q[3]
	r := [9]float64{ // column-major rotation
		1 - 2*(y*y+z*z), 2 * (x*y + z*w), 2 * (x*z - y*w),
		2 * (x*y - z*w), 1 - 2*(x*x+z*z), 2 * (y*z + x*w),
		2 * (x*z + y*w), 2 * (y*z - x*w), 1 - 2*(x*x+y*y),
	}
	var m [16]float64
	for c := range 3 {
		for k := range 3 {
			m[4*c+k] = r[3*c+k] * s[c]
		}
	}
	m[12], m[13], m[14], m[15] = t[0], t[1], t[2], 1
	return m
}

// matMul returns a·b.
func matMul(a, b *[16]float64) [16]float64 {
	var m [16]float64
	for c := range 4 {
		for r := range 4 {
			var s float64
			for k := range 4 {
				s += a[4*k+r] * b[4*c+k]
			}
			m[4*c+r] = s
		}
	}
	return m
}

// transformPoint returns m·(p, 1); transformDir m·(d, 0).
func transformPoint(m *[16]float64, p [3]float32) [3]float64 {
	x, y, z := float64(p[0]), float64(p[1]), float64(p[2])
	return [3]float64{m[0]*x + m[4]*y + m[8]*z + m[12], m[1]*x + m[5]*y + m[9]*z + m[13], m[2]*x + m[6]*y + m[10]*z + m[14]}
}

func transformDir(m *[16]float64, d [3]float32) [3]float64 {
	x, y, z := float64(d[0]), float64(d[1]), float64(d[2])
	return [3]float64{m[0]*x + m[4]*y + m[8]*z, m[1]*x + m[5]*y + m[9]*z, m[2]*x + m[6]*y + m[10]*z}
}

// invertAffine inverts a matrix whose last row is (0, 0, 0, 1); ok is
// false when its 3×3 part is singular (a zero scale).
func invertAffine(m *[16]float64) (inv [16]float64, ok bool) {
	a, b, c := m[0], m[4], m[8]
	d, e, f := m[1], m[5], m[9]
	g, h, i := m[2], m[6], m[10]
	det := a*(e*i-f*h) - b*(d*i-f*g) + c*(d*h-e*g)
	if det == 0 || math.IsNaN(det) || math.IsInf(det, 0) {
		return inv, false
	}
	r := [9]float64{ // row-major inverse of the 3×3
		(e*i - f*h) / det, (c*h - b*i) / det, (b*f - c*e) / det,
		(f*g - d*i) / det, (a*i - c*g) / det, (c*d - a*f) / det,
		(d*h - e*g) / det, (b*g - a*h) / det, (a*e - b*d) / det,
	}
	for row := range 3 {
		for col := range 3 {
			inv[4*col+row] = r[3*row+col]
		}
		inv[12+row] = -(r[3*row]*m[12] + r[3*row+1]*m[13] + r[3*row+2]*m[14])
	}
	inv[15] = 1
	return inv, true
}
