package virtools

import "math"

// affine is a Virtools world or local matrix in storage order: rows 0–2
// are the X, Y and Z axes, row 3 the position, for row vectors (v' = v·M).
type affine [4][3]float64

// identityAffine is the identity transform.
var identityAffine = affine{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, 0}}

// toAffine widens a saved float32 matrix.
func toAffine(m [4][3]float32) affine {
	var a affine
	for i := range m {
		for j := range m[i] {
			a[i][j] = float64(m[i][j])
		}
	}
	return a
}

// mul returns a·b for row vectors: first a, then b.
func (a affine) mul(b affine) affine {
	var out affine
	for i := range 4 {
		for j := range 3 {
			var s float64
			for k := range 3 {
				s += a[i][k] * b[k][j]
			}
			if i == 3 {
				s += b[3][j]
			}
			out[i][j] = s
		}
	}
	return out
}

// det3 is the determinant of the 3×3 axis part.
func (a affine) det3() float64 {
	return a[0][0]*(a[1][1]*a[2][2]-a[1][2]*a[2][1]) -
		a[0][1]*(a[1][0]*a[2][2]-a[1][2]*a[2][0]) +
		a[0][2]*(a[1][0]*a[2][1]-a[1][1]*a[2][0])
}

// inverse returns the inverse transform; ok is false for a singular matrix.
func (a affine) inverse() (affine, bool) {
	d := a.det3()
	if d == 0 || math.IsNaN(d) || math.IsInf(d, 0) {
		return affine{}, false
	}
	var inv affine
	inv[0][0] = (a[1][1]*a[2][2] - a[1][2]*a[2][1]) / d
	inv[0][1] = (a[0][2]*a[2][1] - a[0][1]*a[2][2]) / d
	inv[0][2] = (a[0][1]*a[1][2] - a[0][2]*a[1][1]) / d
	inv[1][0] = (a[1][2]*a[2][0] - a[1][0]*a[2][2]) / d
	inv[1][1] = (a[0][0]*a[2][2] - a[0][2]*a[2][0]) / d
	inv[1][2] = (a[0][2]*a[1][0] - a[0][0]*a[1][2]) / d
	inv[2][0] = (a[1][0]*a[2][1] - a[1][1]*a[2][0]) / d
	inv[2][1] = (a[0][1]*a[2][0] - a[0][0]*a[2][1]) / d
	inv[2][2] = (a[0][0]*a[1][1] - a[0][1]*a[1][0]) / d
	for j := range 3 {
		inv[3][j] = -(a[3][0]*inv[0][j] + a[3][1]*inv[1][j] + a[3][2]*inv[2][j])
	}
	return inv, true
}

// storage16 returns the matrix as 16 floats in Virtools storage order
// (row-major, fourth column 0, 0, 0, 1).
func (a affine) storage16() [16]float64 {
	var m [16]float64
	for i := range 4 {
		copy(m[4*i:4*i+3], a[i][:])
	}
	m[15] = 1
	return m
}

// columnMajor returns the same transform as a column-vector matrix in
// glTF's column-major layout: the transpose of the row-vector matrix, whose
// storage is therefore the row-vector storage itself.
func (a affine) columnMajor() [16]float64 { return a.storage16() }

// trs splits the matrix into translation, Hamilton rotation (column-vector
// convention) and scale, as SetStep's decomposition does: scale = the
// lengths of the axis rows, rotation = the normalised rows. A mirrored
// matrix gets a negative X scale. exact is false when the axes are not
// orthogonal (shear), which TRS cannot hold.
func (a affine) trs() (t [3]float64, q [4]float64, s [3]float64, exact bool) {
	t = a[3]
	var r [3][3]float64
	for i := range 3 {
		s[i] = math.Sqrt(a[i][0]*a[i][0] + a[i][1]*a[i][1] + a[i][2]*a[i][2])
		if s[i] == 0 {
			return t, [4]float64{0, 0, 0, 1}, s, false
		}
		for j := range 3 {
			r[i][j] = a[i][j] / s[i]
		}
	}
	if a.det3() < 0 {
		s[0] = -s[0]
		r[0] = [3]float64{-r[0][0], -r[0][1], -r[0][2]}
	}
	const tol = 1e-4
	exact = math.Abs(dot3(r[0], r[1])) < tol && math.Abs(dot3(r[1], r[2])) < tol && math.Abs(dot3(r[0], r[2])) < tol
	// The rows are the images of the axes, so the column-vector rotation
	// matrix is their transpose: c[i][j] = r[j][i].
	q = quatFromColumnMatrix(func(i, j int) float64 { return r[j][i] })
	return t, q, s, exact
}

func dot3(a, b [3]float64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

// quatFromColumnMatrix converts a rotation matrix m(i, j) (row i, column
// j, column vectors) into a unit Hamilton quaternion (x, y, z, w) with
// w ≥ 0 (Shepperd's method).
func quatFromColumnMatrix(m func(i, j int) float64) [4]float64 {
	tr := m(0, 0) + m(1, 1) + m(2, 2)
	var q [4]float64
	switch {
	case tr > 0:
		s := 2 * math.Sqrt(tr+1)
		q = [4]float64{(m(2, 1) - m(1, 2)) / s, (m(0, 2) - m(2, 0)) / s, (m(1, 0) - m(0, 1)) / s, s / 4}
	case m(0, 0) > m(1, 1) && m(0, 0) > m(2, 2):
		s := 2 * math.Sqrt(1+m(0, 0)-m(1, 1)-m(2, 2))
		q = [4]float64{s / 4, (m(0, 1) + m(1, 0)) / s, (m(0, 2) + m(2, 0)) / s, (m(2, 1) - m(1, 2)) / s}
	case m(1, 1) > m(2, 2):
		s := 2 * math.Sqrt(1+m(1, 1)-m(0, 0)-m(2, 2))
		q = [4]float64{(m(0, 1) + m(1, 0)) / s, s / 4, (m(1, 2) + m(2, 1)) / s, (m(0, 2) - m(2, 0)) / s}
	default:
		s := 2 * math.Sqrt(1+m(2, 2)-m(0, 0)-m(1, 1))
		q = [4]float64{(m(0, 2) + m(2, 0)) / s, (m(1, 2) + m(2, 1)) / s, s / 4, (m(1, 0) - m(0, 1)) / s}
	}
	if q[3] < 0 {
		q = [4]float64{-q[0], -q[1], -q[2], -q[3]}
	}
	n := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
	for i := range q {
		q[i] /= n
	}
	return q
}
