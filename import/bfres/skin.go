package bfres

import (
	"math"

	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// skeletonSkin builds the one skin of a skeleton: joints are the bones in
// FSKL bone-index order (joint i = bone i, so palette bone indices are
// joint indices), named as their nodes in nodes. A bone with a smooth
// matrix takes the file's inverse model matrix as its inverse bind matrix,
// exactly what the runtime multiplies by; any other bone takes the inverse
// of its world rest matrix. The skeleton root is the first root bone.
func skeletonSkin(s *Skeleton, nodes []model.Node) model.Skin {
	skin := model.Skin{Name: s.Model}
	world := restWorld(nodes)
	index := make(map[string]int, len(nodes))
	for i, n := range nodes {
		index[n.Name] = i
	}
	fromFile := map[int][12]float32{}
	if t := s.Tables; t != nil {
		for k, m := range t.InverseModel {
			b := int(t.MatrixToBone[k])
			if _, seen := fromFile[b]; !seen {
				fromFile[b] = m
			}
		}
	}
	for i, b := range s.Bones {
		skin.Joints = append(skin.Joints, b.Name)
		if m, ok := fromFile[i]; ok {
			skin.InverseBind = append(skin.InverseBind, rowMajor34(m))
		} else {
			skin.InverseBind = append(skin.InverseBind, invertAffine(world[index[b.Name]]))
		}
		if b.Parent < 0 && skin.Skeleton == "" {
			skin.Skeleton = b.Name
		}
	}
	return skin
}

// restWorld composes the nodes' rest transforms (parents precede children).
func restWorld(nodes []model.Node) [][16]float64 {
	return (*sample.Clip)(nil).WorldMatrices(&model.File{Nodes: nodes}, 0,
		sample.NewConverter(model.Axes{Basis: model.IdentityBasis, Scale: 1}))
}

// rowMajor34 widens a 3×4 row-major matrix (translation in the fourth
// column) to a column-major 4×4.
func rowMajor34(m [12]float32) [16]float64 {
	var out [16]float64
	for row := range 3 {
		for col := range 4 {
			out[col*4+row] = float64(m[row*4+col])
		}
	}
	out[15] = 1
	return out
}

// invertAffine inverts a column-major affine 4×4 matrix (last row 0 0 0 1);
// a singular one gives the identity (a zero-scale bone binds nothing).
func invertAffine(m [16]float64) [16]float64 {
	a, b, c := m[0], m[4], m[8]
	d, e, f := m[1], m[5], m[9]
	g, h, i := m[2], m[6], m[10]
	co0, co1, co2 := e*i-f*h, f*g-d*i, d*h-e*g
	det := a*co0 + b*co1 + c*co2
	if det == 0 || math.IsNaN(det) || math.IsInf(det, 0) {
		return [16]float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}
	}
	inv := 1 / det
	// rows of the inverse 3×3 (row-major r[row*3+col])
	r := [9]float64{
		co0 * inv, (c*h - b*i) * inv, (b*f - c*e) * inv,
		co1 * inv, (a*i - c*g) * inv, (c*d - a*f) * inv,
		co2 * inv, (b*g - a*h) * inv, (a*e - b*d) * inv,
	}
	t := [3]float64{m[12], m[13], m[14]}
	var out [16]float64
	for row := range 3 {
		for col := range 3 {
			out[col*4+row] = r[row*3+col]
		}
		out[12+row] = -(r[row*3]*t[0] + r[row*3+1]*t[1] + r[row*3+2]*t[2])
	}
	out[15] = 1
	return out
}

// transformPoint applies a column-major affine matrix to a point.
func transformPoint(m *[16]float64, p [3]float64) [3]float64 {
	return [3]float64{
		m[0]*p[0] + m[4]*p[1] + m[8]*p[2] + m[12],
		m[1]*p[0] + m[5]*p[1] + m[9]*p[2] + m[13],
		m[2]*p[0] + m[6]*p[1] + m[10]*p[2] + m[14],
	}
}

// transformDir applies the 3×3 part of a column-major matrix to a direction.
func transformDir(m *[16]float64, d [3]float64) [3]float64 {
	return [3]float64{
		m[0]*d[0] + m[4]*d[1] + m[8]*d[2],
		m[1]*d[0] + m[5]*d[1] + m[9]*d[2],
		m[2]*d[0] + m[6]*d[1] + m[10]*d[2],
	}
}

// transformNormal applies the inverse transpose of the 3×3 part of the
// matrix whose inverse is inv (a normal follows (M⁻¹)ᵀ).
func transformNormal(inv *[16]float64, n [3]float64) [3]float64 {
	return [3]float64{
		inv[0]*n[0] + inv[1]*n[1] + inv[2]*n[2],
		inv[4]*n[0] + inv[5]*n[1] + inv[6]*n[2],
		inv[8]*n[0] + inv[9]*n[1] + inv[10]*n[2],
	}
}
