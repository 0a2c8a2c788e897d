package sample

import (
	"fmt"
	"math"

	"github.com/animbake/bake/model"
)

// RestInverseBinds returns, for each joint (a node name), the inverse of
// the node's world matrix at rest, in the file's axes: the inverse bind
// matrices of a skin bound in the rest pose, for importers whose format
// stores none. A zero rest scale component counts as 1 here: a bone hidden
// by scale 0 still has a place to bind at, and glTF needs an invertible
// matrix.
func RestInverseBinds(nodes []model.Node, joints []string) ([][16]float64, error) {
	index := make(map[string]int, len(nodes))
	world := make([][16]float64, len(nodes))
	for i, n := range nodes {
		index[n.Name] = i
		NormalizeRest(&n)
		for k, s := range n.Scale {
			if s == 0 {
				n.Scale[k] = 1
			}
		}
		local := LocalMatrix(&n)
		if n.Parent >= 0 && n.Parent < i {
			world[i] = MatMul(&world[n.Parent], &local)
		} else {
			world[i] = local
		}
	}
	out := make([][16]float64, len(joints))
	for j, name := range joints {
		i, ok := index[name]
		if !ok {
			return nil, fmt.Errorf("joint %q is not a node", name)
		}
		inv, ok := InvertAffine(&world[i])
		if !ok {
			return nil, fmt.Errorf("joint %q: the rest world matrix is singular", name)
		}
		out[j] = inv
	}
	return out, nil
}

// InvertAffine inverts a column-major affine matrix (last row 0 0 0 1):
// the 3×3 part by its adjugate, the translation as −A⁻¹·t. The result's
// last row is exactly 0 0 0 1. ok is false when the 3×3 part is singular
// (|det| below 1e-300 or not finite).
func InvertAffine(m *[16]float64) (inv [16]float64, ok bool) {
	a, b, c := m[0], m[4], m[8] // row 0
	d, e, f := m[1], m[5], m[9] // row 1
	g, h, k := m[2], m[6], m[10]
	co0, co1, co2 := e*k-f*h, f*g-d*k, d*h-e*g
	det := a*co0 + b*co1 + c*co2
	if !(math.Abs(det) > 1e-300) || math.IsInf(det, 0) {
		return inv, false
	}
	r := 1 / det
	// Row-major inverse entries, stored column-major.
	i00, i01, i02 := co0*r, (c*h-b*k)*r, (b*f-c*e)*r
	i10, i11, i12 := co1*r, (a*k-c*g)*r, (c*d-a*f)*r
	i20, i21, i22 := co2*r, (b*g-a*h)*r, (a*e-b*d)*r
	tx, ty, tz := m[12], m[13], m[14]
	inv = [16]float64{
		i00, i10, i20, 0,
		i01, i11, i21, 0,
		i02, i12, i22, 0,
		-(i00*tx + i01*ty + i02*tz), -(i10*tx + i11*ty + i12*tz), -(i20*tx + i21*ty + i22*tz), 1,
	}
	return inv, true
}

// CommonRoot returns the index of the deepest node that is an ancestor of
// (or equal to) every listed node, or −1 when they share none (they hang
// under different roots).
func CommonRoot(nodes []model.Node, members []int) int {
	if len(members) == 0 {
		return -1
	}
	chain := func(i int) []int {
		var c []int
		for ; i >= 0; i = nodes[i].Parent {
			c = append(c, i)
			if len(c) > len(nodes) {
				return nil // a parent cycle; Validate rejects it
			}
		}
		// root first
		for l, r := 0, len(c)-1; l < r; l, r = l+1, r-1 {
			c[l], c[r] = c[r], c[l]
		}
		return c
	}
	common := chain(members[0])
	for _, m := range members[1:] {
		c := chain(m)
		n := 0
		for n < len(common) && n < len(c) && common[n] == c[n] {
			n++
		}
		common = common[:n]
	}
	if len(common) == 0 {
		return -1
	}
	return common[len(common)-1]
}
