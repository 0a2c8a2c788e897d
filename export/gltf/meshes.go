package gltf

import (
	"fmt"
	"math"

	"github.com/qmuntal/gltf"

	"github.com/animbake/bake/model"
)

// meshes writes every mesh with its primitives and morph targets. Vertex
// data is written as the model holds it, with three repairs the glTF
// validator would otherwise report as errors, each a no-op on clean data:
// normals are renormalised (a zero normal becomes +Z), colours are clamped
// to [0,1], and a skinned vertex's weights are merged per joint, zero-weight
// joints set to 0 and the weights renormalised.
func (w *writer) meshes() error {
	defer w.finishMeshViews()
	for _, m := range w.b.Assets.Meshes {
		gm := &gltf.Mesh{Name: m.Name, Extras: extrasOrNil(m.Extras)}
		if len(m.TargetNames) > 0 {
			gm.Weights = make([]float64, len(m.TargetNames))
			copy(gm.Weights, m.Weights)
			ex := map[string]any{"targetNames": m.TargetNames}
			for k, v := range m.Extras {
				ex[k] = v
			}
			gm.Extras = ex
		}
		for i := range m.Primitives {
			gp, err := w.primitive(&m.Primitives[i])
			if err != nil {
				return fmt.Errorf("mesh %q primitive %d: %w", m.Name, i, err)
			}
			gm.Primitives = append(gm.Primitives, gp)
		}
		w.meshIndex[m.Name] = len(w.doc.Meshes)
		w.doc.Meshes = append(w.doc.Meshes, gm)
	}
	return nil
}

func (w *writer) primitive(p *model.Primitive) (*gltf.Primitive, error) {
	gp := &gltf.Primitive{Attributes: gltf.PrimitiveAttributes{}, Mode: primitiveModes[p.Mode]}
	gp.Attributes[gltf.POSITION] = w.vertexFloats(p.Positions, 3, true)
	if p.Normals != nil {
		gp.Attributes[gltf.NORMAL] = w.vertexFloats(unitNormals(p.Normals), 3, false)
	}
	if p.Tangents != nil {
		gp.Attributes[gltf.TANGENT] = w.vertexFloats(unitTangents(p.Tangents), 4, false)
	}
	for i, uv := range p.UVs {
		gp.Attributes[fmt.Sprintf("TEXCOORD_%d", i)] = w.vertexFloats(uv, 2, false)
	}
	if p.Colors != nil {
		c := make([]float32, len(p.Colors))
		for i, v := range p.Colors {
			c[i] = min(max(v, 0), 1)
		}
		gp.Attributes[gltf.COLOR_0] = w.vertexFloats(c, 4, false)
	}
	if p.Joints != nil {
		j, wt := cleanSkinWeights(p.Joints, p.Weights)
		gp.Attributes[gltf.JOINTS_0] = w.joints(j)
		gp.Attributes[gltf.WEIGHTS_0] = w.vertexFloats(wt, 4, false)
	}
	if p.Indices != nil {
		gp.Indices = gltf.Index(w.indices(p.Indices))
	}
	if p.Material != "" {
		mi, ok := w.materialIndex[p.Material]
		if !ok {
			return nil, fmt.Errorf("material %q was not written", p.Material)
		}
		gp.Material = gltf.Index(mi)
	}
	for _, t := range p.Targets {
		target := map[string]int{}
		nv := len(p.Positions) / 3
		pos := t.Positions
		if pos == nil {
			pos = make([]float32, 3*nv)
		}
		target[gltf.POSITION] = w.vertexFloats(pos, 3, true)
		if t.Normals != nil && p.Normals != nil {
			target[gltf.NORMAL] = w.vertexFloats(t.Normals, 3, false)
		}
		gp.Targets = append(gp.Targets, target)
	}
	return gp, nil
}

// unitNormals returns normals scaled to unit length in float32 (glTF
// requires it); a zero or non-finite normal becomes +Z.
func unitNormals(n []float32) []float32 {
	out := make([]float32, len(n))
	for i := 0; i+3 <= len(n); i += 3 {
		x, y, z := float64(n[i]), float64(n[i+1]), float64(n[i+2])
		l := math.Sqrt(x*x + y*y + z*z)
		if !(l > 1e-12) || math.IsInf(l, 0) {
			out[i+2] = 1
			continue
		}
		out[i], out[i+1], out[i+2] = float32(x/l), float32(y/l), float32(z/l)
	}
	return out
}

// unitTangents normalises the xyz part and snaps w to ±1.
func unitTangents(t []float32) []float32 {
	out := make([]float32, len(t))
	for i := 0; i+4 <= len(t); i += 4 {
		x, y, z := float64(t[i]), float64(t[i+1]), float64(t[i+2])
		l := math.Sqrt(x*x + y*y + z*z)
		if !(l > 1e-12) || math.IsInf(l, 0) {
			out[i] = 1
		} else {
			out[i], out[i+1], out[i+2] = float32(x/l), float32(y/l), float32(z/l)
		}
		out[i+3] = 1
		if t[i+3] < 0 {
			out[i+3] = -1
		}
	}
	return out
}

// cleanSkinWeights merges repeated joints of a vertex, moves zero-weight
// slots to joint 0 after the used ones, and renormalises the sum to 1 in
// float32, as glTF's validator requires.
func cleanSkinWeights(joints []uint16, weights []float32) ([]uint16, []float32) {
	j := make([]uint16, len(joints))
	wt := make([]float32, len(weights))
	for v := 0; v+4 <= len(joints); v += 4 {
		var js [4]uint16
		var ws [4]float64
		n := 0
	slots:
		for k := range 4 {
			x := float64(weights[v+k])
			if !(x > 0) {
				continue
			}
			for m := range n {
				if js[m] == joints[v+k] {
					ws[m] += x
					continue slots
				}
			}
			js[n], ws[n] = joints[v+k], x
			n++
		}
		sum := ws[0] + ws[1] + ws[2] + ws[3]
		if n == 0 || sum <= 0 {
			js[0], ws[0], sum, n = joints[v], 1, 1, 1
		}
		for k := range n {
			j[v+k] = js[k]
			wt[v+k] = float32(ws[k] / sum)
		}
	}
	return j, wt
}

func extrasOrNil(m map[string]any) any {
	if len(m) == 0 {
		return nil
	}
	return m
}

// primitiveModes maps glTF's mode numbers (the model's) to qmuntal's
// enumeration, which starts at TRIANGLES.
var primitiveModes = map[int]gltf.PrimitiveMode{model.ModePoints: gltf.PrimitivePoints, model.ModeLines: gltf.PrimitiveLines,
	model.ModeLineLoop: gltf.PrimitiveLineLoop, model.ModeLineStrip: gltf.PrimitiveLineStrip, model.ModeTriangles: gltf.PrimitiveTriangles,
	model.ModeTriangleStrip: gltf.PrimitiveTriangleStrip, model.ModeTriangleFan: gltf.PrimitiveTriangleFan}
