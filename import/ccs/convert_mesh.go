package ccs

import (
	"fmt"
	"math"
	"sort"

	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/model"
)

// rigidPrimitive converts a rigid or shadow sub-mesh: positions in the
// object's space, unit normals, vertex colours, UVs and the strip as an
// indexed triangle list (flags restart strips mid-array, which a glTF
// strip cannot).
func (ac *assetConverter) rigidPrimitive(sm *SubMesh) (model.Primitive, error) {
	p := model.Primitive{Mode: model.ModeTriangles, Positions: sm.Positions, Indices: sm.Triangles(),
		Material: ac.matName[sm.Material]}
	if sm.Normals != nil {
		p.Normals = unitNormals(sm.Normals)
	}
	if sm.UVs != nil {
		p.UVs = [][]float32{flipV(sm.UVs)}
	}
	if sm.Colors != nil {
		p.Colors = vertexColors(sm.Colors)
	}
	return p, nil
}

// unitNormals normalises stored normals (×64 fixed point, lengths 62..64
// on S01); a zero normal becomes +Z.
func unitNormals(n []float32) []float32 {
	out := make([]float32, len(n))
	for i := 0; i+2 < len(n); i += 3 {
		x, y, z := float64(n[i]), float64(n[i+1]), float64(n[i+2])
		l := math.Sqrt(x*x + y*y + z*z)
		if l == 0 || math.IsNaN(l) {
			out[i+2] = 1
			continue
		}
		out[i], out[i+1], out[i+2] = float32(x/l), float32(y/l), float32(z/l)
	}
	return out
}

// vertexColors converts PS2 vertex colours (0x80 = 1.0, as the GS
// modulates texels by c/128) to glTF's linear RGBA: RGB c/128 clamped to
// 1 and decoded from sRGB, so that a client multiplying the decoded
// texture by it and encoding the result shows texel·c/128 as the GS does;
// alpha c/128 clamped, linear.
func vertexColors(c []byte) []float32 {
	out := make([]float32, len(c))
	for i, v := range c {
		if i%4 == 3 {
			out[i] = float32(min(float64(v)/128, 1))
		} else {
			out[i] = colorLinear[v]
		}
	}
	return out
}

// colorLinear holds vertexColors' RGB conversion for every byte.
var colorLinear = func() (t [256]float32) {
	for v := range t {
		t[v] = float32(srgbToLinear(min(float64(v)/128, 1)))
	}
	return t
}()

func srgbToLinear(c float64) float64 {
	if c <= 0.04045 {
		return c / 12.92
	}
	return math.Pow((c+0.055)/1.055, 2.4)
}

// deformablePrimitive converts a deformable sub-mesh. CCS stores each
// influence of a vertex in its bone's space and the engine blends
// Σ wᵢ·Boneᵢ·pᵢ; glTF skins blend Σ wᵢ·Jointᵢ·InverseBindᵢ·v for one
// bind-pose vertex v. Taking v = Σ wᵢ·Worldᵢ·pᵢ / Σ wᵢ at the clump's rest
// pose makes both agree whenever the copies name one point (Worldᵢ·pᵢ
// equal), which is what an exporter writes; normals likewise, normalised.
// Weights are normalised to sum 1; two influences of one node merge.
func (ac *assetConverter) deformablePrimitive(m *Model, sm *SubMesh, cl *Clump) (model.Primitive, error) {
	n := len(sm.Influences)
	p := model.Primitive{Mode: model.ModeTriangles, Indices: sm.Triangles(), Material: ac.matName[sm.Material],
		Positions: make([]float32, 3*n), Normals: make([]float32, 3*n),
		Joints: make([]uint16, 4*n), Weights: make([]float32, 4*n)}
	if sm.UVs != nil {
		p.UVs = [][]float32{flipV(sm.UVs)}
	}
	// spread is the farthest any copy's bind-pose point lies from its
	// blended vertex; beyond two position units (more than the 16-bit
	// rounding of the copies) glTF's skin and the engine's blend part away
	// from the bind pose, which is worth a notice.
	var spread float64
	worst := -1
	for v, infs := range sm.Influences {
		bv, err := ac.blendVertex(m, cl, infs)
		if err != nil {
			return p, binread.Errorf(sm.Off, "model %s: vertex %d %v", ac.s.Index.ObjectName(m.ID), v, err)
		}
		if bv.spread > spread {
			spread, worst = bv.spread, v
		}
		for k := range 3 {
			p.Positions[3*v+k] = float32(bv.pos[k])
			p.Normals[3*v+k] = float32(bv.nrm[k])
		}
		copy(p.Joints[4*v:], bv.joints[:])
		copy(p.Weights[4*v:], bv.weights[:])
	}
	p.Normals = unitNormals(p.Normals)
	if unit := math.Abs(float64(m.Scale)) / 4096; spread > 2*unit {
		ac.warn("model %s: vertex %d's bone-local copies lie %.3g cm apart in the bind pose; the glTF skin blends their average, so it departs from the engine's blend as the bones move", ac.s.Index.ObjectName(m.ID), worst, spread)
	}
	return p, nil
}

// blended is one deformable vertex in the bind pose: its position and
// (unnormalised) normal, up to 4 joints with weights summing to 1, and how
// far its farthest copy lies from the position.
type blended struct {
	pos, nrm [3]float64
	joints   [4]uint16
	weights  [4]float32
	spread   float64
}

// blendVertex puts a vertex's bone-local copies into the bind pose:
// position Σ wᵢ·Worldᵢ·pᵢ / Σ wᵢ, normal Σ wᵢ·Worldᵢ·nᵢ; copies of one
// node merge, the 4 heaviest nodes are kept and their weights normalised.
func (ac *assetConverter) blendVertex(m *Model, cl *Clump, infs []Influence) (blended, error) {
	var b blended
	type jw struct {
		j uint16
		w float64
	}
	var js []jw
	points := make([][3]float64, 0, len(infs))
	var total float64
	for _, inf := range infs {
		j := int(inf.Node)
		if m.Lookup != nil {
			if j >= len(m.Lookup) {
				return b, fmt.Errorf("names bone %d beyond its %d-entry lookup list", j, len(m.Lookup))
			}
			j = int(m.Lookup[j])
		}
		if j >= len(cl.Nodes) {
			return b, fmt.Errorf("names clump node %d, clump %s has %d", j, ac.s.Index.ObjectName(cl.ID), len(cl.Nodes))
		}
		w := float64(inf.Weight)
		world := &ac.world[ac.ns.byID[cl.Nodes[j]]]
		wp, wn := transformPoint(world, inf.Position), transformDir(world, inf.Normal)
		points = append(points, wp)
		for k := range 3 {
			b.pos[k] += w * wp[k]
			b.nrm[k] += w * wn[k]
		}
		total += w
		merged := false
		for k := range js {
			if js[k].j == uint16(j) {
				js[k].w += w
				merged = true
			}
		}
		if !merged {
			js = append(js, jw{uint16(j), w})
		}
	}
	if total <= 0 || math.IsNaN(total) {
		return b, fmt.Errorf("has weights summing to %v", total)
	}
	for k := range 3 {
		b.pos[k] /= total
	}
	for _, wp := range points {
		b.spread = max(b.spread, math.Sqrt(sq(wp[0]-b.pos[0])+sq(wp[1]-b.pos[1])+sq(wp[2]-b.pos[2])))
	}
	sort.SliceStable(js, func(x, y int) bool { return js[x].w > js[y].w })
	js = js[:min(len(js), 4)]
	var kept float64
	for _, x := range js {
		kept += x.w
	}
	for k, x := range js {
		b.joints[k], b.weights[k] = x.j, float32(x.w/kept)
	}
	return b, nil
}

func sq(x float64) float64 { return x * x }

// morphTargetsOf returns the target models of the morpher that deforms m
// (if any), in the order its weights channels use; a target id without a
// Model chunk is left out with a notice.
func (ac *assetConverter) morphTargetsOf(m *Model) []*Model {
	var ids []uint32
	morphers := make([]uint32, 0, len(ac.ns.morphs))
	for id := range ac.ns.morphs {
		morphers = append(morphers, id)
	}
	sort.Slice(morphers, func(i, j int) bool { return morphers[i] < morphers[j] })
	for _, morpher := range morphers {
		b := ac.ns.morphs[morpher]
		if b.model == m.ID && b.object != 0 && m.Type&ModelDeformable != 0 {
			ac.warn("model %s: morphing a deformable model is not supported; morpher %d is left out", ac.s.Index.ObjectName(m.ID), morpher)
			continue
		}
		if b.model == m.ID && b.object != 0 {
			if ids != nil {
				ac.warn("model %s has more than one morpher; morpher %d's targets are left out", ac.s.Index.ObjectName(m.ID), morpher)
				continue
			}
			ids = b.targets
		}
	}
	var out []*Model
	for _, id := range ids {
		t := ac.models[id]
		if t == nil {
			// Keep the slot: weights channels count every target.
			ac.warn("morph target %s has no Model chunk; it does not move the mesh", ac.s.Index.ObjectName(id))
			t = &Model{ID: id}
		}
		out = append(out, t)
	}
	return out
}

// morphTarget returns sub-mesh i's displacement towards target t: target
// position − base position, both in cm (ccMorpher::Modify blends
// base + Σ w·(t − base) in integers after bringing the target to the
// base's vertex scale; glTF blends the float difference, which equals it
// up to the engine's integer rounding: ccs-anime-playback.txt
// "Morphing"). Normals are not morphed, as in the engine. A target whose
// sub-mesh does not match the base's vertex count displaces nothing (with
// a notice).
func (ac *assetConverter) morphTarget(base *Model, i int, t *Model) model.MorphTarget {
	bp := base.Meshes[i].Positions
	d := make([]float32, len(bp))
	if i >= len(t.Meshes) || len(t.Meshes[i].Positions) != len(bp) {
		if t.Meshes != nil {
			ac.warn("morph target %s: sub-mesh %d does not match %s's vertices; it does not move them", ac.s.Index.ObjectName(t.ID), i, ac.s.Index.ObjectName(base.ID))
		}
		return model.MorphTarget{Positions: d}
	}
	for k, v := range t.Meshes[i].Positions {
		d[k] = v - bp[k]
	}
	return model.MorphTarget{Positions: d}
}
