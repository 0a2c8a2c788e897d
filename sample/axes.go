package sample

import (
	"math"

	"github.com/animbake/bake/model"
)

// Converter maps values from a source convention to glTF's (axes.md §0.1):
// positions by k·C·p, quaternion vector parts by C·v (−C·v when C mirrors),
// scales by |C| and matrices by C·L·Cᵀ with k·C·t.
type Converter struct {
	c      [9]float64
	abs    [9]float64
	k      float64
	mirror bool
	ident  bool
}

// NewConverter returns the converter from axes to glTF's convention.
func NewConverter(axes model.Axes) *Converter {
	cv := &Converter{c: axes.Basis, k: axes.Scale}
	if cv.k == 0 {
		cv.k = 1
	}
	if cv.c == ([9]float64{}) {
		cv.c = model.IdentityBasis
	}
	for i, v := range cv.c {
		cv.abs[i] = math.Abs(v)
	}
	c := cv.c
	det := c[0]*(c[4]*c[8]-c[5]*c[7]) - c[1]*(c[3]*c[8]-c[5]*c[6]) + c[2]*(c[3]*c[7]-c[4]*c[6])
	cv.mirror = det < 0
	cv.ident = c == model.IdentityBasis && cv.k == 1
	return cv
}

// Identity reports whether the converter changes nothing.
func (cv *Converter) Identity() bool { return cv.ident }

func mul3(m *[9]float64, v []float64) (float64, float64, float64) {
	return m[0]*v[0] + m[1]*v[1] + m[2]*v[2],
		m[3]*v[0] + m[4]*v[1] + m[5]*v[2],
		m[6]*v[0] + m[7]*v[1] + m[8]*v[2]
}

// Position converts a point in place.
func (cv *Converter) Position(p []float64) {
	x, y, z := mul3(&cv.c, p)
	p[0], p[1], p[2] = cv.k*x, cv.k*y, cv.k*z
}

// Direction converts a direction in place (no unit scale).
func (cv *Converter) Direction(d []float64) {
	d[0], d[1], d[2] = mul3(&cv.c, d)
}

// Quaternion converts a Hamilton quaternion (x,y,z,w) in place.
func (cv *Converter) Quaternion(q []float64) {
	x, y, z := mul3(&cv.c, q)
	if cv.mirror {
		x, y, z = -x, -y, -z
	}
	q[0], q[1], q[2] = x, y, z
}

// Scale converts per-axis scale factors in place.
func (cv *Converter) Scale(s []float64) {
	s[0], s[1], s[2] = mul3(&cv.abs, s)
}

// Matrix converts a column-major 4×4 affine matrix in place.
func (cv *Converter) Matrix(m *[16]float64) {
	// L' = C·L·Cᵀ (C is orthogonal), t' = k·C·t.
	var l, tmp, out [9]float64
	for r := range 3 {
		for c := range 3 {
			l[r*3+c] = m[c*4+r]
		}
	}
	for r := range 3 {
		for c := range 3 {
			tmp[r*3+c] = cv.c[r*3]*l[c] + cv.c[r*3+1]*l[3+c] + cv.c[r*3+2]*l[6+c]
		}
	}
	for r := range 3 {
		for c := range 3 {
			out[r*3+c] = tmp[r*3]*cv.c[c*3] + tmp[r*3+1]*cv.c[c*3+1] + tmp[r*3+2]*cv.c[c*3+2]
		}
	}
	for r := range 3 {
		for c := range 3 {
			m[c*4+r] = out[r*3+c]
		}
	}
	cv.Position(m[12:15])
}

// Value converts one value of a channel path in place; paths that carry
// no spatial quantity are left alone.
func (cv *Converter) Value(path string, v []float64) {
	if cv.ident {
		return
	}
	switch path {
	case model.PathTranslation:
		cv.Position(v)
	case model.PathRotation:
		cv.Quaternion(v)
	case model.PathScale:
		cv.Scale(v)
	}
}

// Node converts a node's rest transform in place.
func (cv *Converter) Node(n *model.Node) {
	if cv.ident {
		return
	}
	cv.Position(n.Translation[:])
	cv.Quaternion(n.Rotation[:])
	cv.Scale(n.Scale[:])
	if n.Matrix != nil {
		m := *n.Matrix
		cv.Matrix(&m)
		n.Matrix = &m
	}
}
