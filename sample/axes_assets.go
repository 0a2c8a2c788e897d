package sample

import "github.com/animbake/bake/model"

// Assets returns a copy of a converted to the output axes: positions and
// morph displacements by k·C, normals and tangents by C (a tangent's
// handedness flips with a mirroring C), inverse bind matrices by
// conjugation like node matrices, and triangle winding reversed when C
// mirrors, so that faces stay front-facing (axes.md §0.1). Materials,
// textures, cameras and lights carry no spatial data and are shared.
func (cv *Converter) Assets(a *model.Assets) model.Assets {
	out := *a
	if cv.ident {
		return out
	}
	out.Meshes = make([]model.Mesh, len(a.Meshes))
	for i, m := range a.Meshes {
		prims := make([]model.Primitive, len(m.Primitives))
		for j, p := range m.Primitives {
			p.Positions = cv.points32(p.Positions, true)
			p.Normals = cv.points32(p.Normals, false)
			if p.Tangents != nil {
				t := make([]float32, len(p.Tangents))
				for v := 0; v+4 <= len(t); v += 4 {
					d := []float64{float64(p.Tangents[v]), float64(p.Tangents[v+1]), float64(p.Tangents[v+2])}
					cv.Direction(d)
					t[v], t[v+1], t[v+2] = float32(d[0]), float32(d[1]), float32(d[2])
					t[v+3] = p.Tangents[v+3]
					if cv.mirror {
						t[v+3] = -t[v+3]
					}
				}
				p.Tangents = t
			}
			if len(p.Targets) > 0 {
				ts := make([]model.MorphTarget, len(p.Targets))
				for k, t := range p.Targets {
					ts[k] = model.MorphTarget{Positions: cv.points32(t.Positions, true), Normals: cv.points32(t.Normals, false)}
				}
				p.Targets = ts
			}
			if cv.mirror {
				p.Indices, p.Mode = flipWinding(p.Indices, p.Mode, len(p.Positions)/3)
			}
			prims[j] = p
		}
		m.Primitives = prims
		out.Meshes[i] = m
	}
	out.Skins = make([]model.Skin, len(a.Skins))
	for i, s := range a.Skins {
		ib := make([][16]float64, len(s.InverseBind))
		for j, m := range s.InverseBind {
			// inverse(S·W·S⁻¹) = S·W⁻¹·S⁻¹: convert the inverse like a matrix.
			cv.Matrix(&m)
			ib[j] = m
		}
		s.InverseBind = ib
		out.Skins[i] = s
	}
	return out
}

// points32 converts a flat list of 3-vectors; positions get the unit scale.
func (cv *Converter) points32(v []float32, position bool) []float32 {
	if v == nil {
		return nil
	}
	out := make([]float32, len(v))
	var d [3]float64
	for i := 0; i+3 <= len(v); i += 3 {
		d = [3]float64{float64(v[i]), float64(v[i+1]), float64(v[i+2])}
		if position {
			cv.Position(d[:])
		} else {
			cv.Direction(d[:])
		}
		out[i], out[i+1], out[i+2] = float32(d[0]), float32(d[1]), float32(d[2])
	}
	return out
}

// flipWinding reverses the winding of triangle primitives: each triangle's
// last two corners swap; strips and fans become indexed triangle lists
// with the opposite winding (a strip's alternation is kept, its degenerate
// joining triangles dropped). Other modes
// have no winding and come back unchanged.
func flipWinding(indices []uint32, mode, vertices int) ([]uint32, int) {
	idx := indices
	if idx == nil {
		idx = make([]uint32, vertices)
		for i := range idx {
			idx[i] = uint32(i)
		}
	}
	switch mode {
	case model.ModeTriangles:
		out := make([]uint32, len(idx))
		copy(out, idx)
		for i := 0; i+3 <= len(out); i += 3 {
			out[i+1], out[i+2] = out[i+2], out[i+1]
		}
		return out, mode
	case model.ModeTriangleStrip:
		out := make([]uint32, 0, 3*max(len(idx)-2, 0))
		for i := 0; i+3 <= len(idx); i++ {
			a, b, c := idx[i], idx[i+1], idx[i+2]
			if i%2 == 1 {
				a, b = b, a
			}
			if a == b || b == c || a == c {
				continue // a strip's joining triangle draws nothing
			}
			out = append(out, a, c, b)
		}
		return out, model.ModeTriangles
	case model.ModeTriangleFan:
		out := make([]uint32, 0, 3*max(len(idx)-2, 0))
		for i := 1; i+2 <= len(idx); i++ {
			out = append(out, idx[0], idx[i+1], idx[i])
		}
		return out, model.ModeTriangles
	}
	return indices, mode
}
