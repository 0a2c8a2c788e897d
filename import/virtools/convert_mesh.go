package virtools

import (
	"math"

	"github.com/animbake/bake/model"
)

// meshName returns the model name of a mesh object, building the mesh on
// first use. prelit meshes get their materials' unlit variants.
func (ax *assetConverter) meshName(index int) (string, bool) {
	if name, done := ax.meshNames[index]; done {
		return name, name != ""
	}
	m := ax.a.Meshes[index]
	name := ax.unique(ax.usedMesh, ax.s.Objects[index].Name, "mesh", index)
	mesh, ok := ax.buildMesh(m, name)
	if !ok {
		ax.meshNames[index] = ""
		return "", false
	}
	ax.meshNames[index] = name
	ax.file.Meshes = append(ax.file.Meshes, mesh)
	return name, true
}

// buildMesh turns a CKMesh into a model mesh: one triangle primitive per
// material in slot order, each with only the vertices its faces use
// (positions, normals, the mesh's UVs as set 0, each active channel's own
// UVs as the next sets, and for prelit meshes the vertex colours). Faces
// keep Virtools' winding and axes; sample mirrors both.
func (ax *assetConverter) buildMesh(m *Mesh, name string) (model.Mesh, bool) {
	objName := ax.s.Objects[m.Index].Name
	out := model.Mesh{Name: name, Extras: map[string]any{"virtoolsFlags": m.Flags, "virtoolsVertices": m.Vertices,
		"virtoolsFaces": m.FaceCount()}}
	switch {
	case m.Positions == nil && m.Vertices > 0:
		ax.warnf("mesh %q: its vertex positions are procedural (not saved); the mesh is left out", objName)
		return out, false
	case m.FaceCount() == 0 && len(m.Lines) == 0:
		if m.Vertices > 0 {
			ax.warnf("mesh %q has no faces or lines (%d vertices); it is left out", objName, m.Vertices)
		}
		return out, false
	}
	normals := m.Normals
	if normals == nil {
		normals = buildNormals(m.Positions, m.Faces)
		out.Extras["virtoolsNormals"] = "built"
	} else {
		normals = unitNormals(normals, m)
	}
	prelit := m.Flags&MeshPrelit != 0
	uvSets, channels := ax.uvSets(m)
	if len(channels) > 0 {
		out.Extras["virtoolsChannels"] = channels
	}
	materials, faces := ax.faceGroups(m, prelit)
	for i, mat := range materials {
		out.Primitives = append(out.Primitives, primitive(m, m.Faces, 3, faces[i], normals, uvSets, prelit, mat))
	}
	if len(m.Lines) > 0 {
		// Lines carry no material slot; bake gives them the mesh's first
		// material (what the engine uses was not checked).
		lines := make([]int, len(m.Lines)/2)
		for i := range lines {
			lines[i] = i
		}
		p := primitive(m, m.Lines, 2, lines, normals, uvSets, prelit, ax.slotMaterial(m, firstMaterialSlot(m), prelit))
		p.Mode = model.ModeLines
		out.Primitives = append(out.Primitives, p)
	}
	if prelit {
		out.Extras["virtoolsPrelit"] = true
	}
	return out, true
}

// uvSets lists the mesh's UV sets, its own first, then each material
// channel's own UVs, with a description of every channel (material,
// flags, blend factors and the UV set it uses) for the mesh's extras.
func (ax *assetConverter) uvSets(m *Mesh) ([][]float32, []map[string]any) {
	var sets [][]float32
	if m.UVs != nil {
		sets = append(sets, m.UVs)
	}
	var channels []map[string]any
	for _, ch := range m.Channels {
		info := map[string]any{"flags": ch.Flags, "srcBlend": ch.SrcBlend, "dstBlend": ch.DstBlend, "uvSet": 0}
		if ch.Material != noRef {
			info["material"] = ax.s.Objects[ch.Material].Name
		}
		if ch.UVs != nil && ch.Flags&ChannelSameUV == 0 {
			info["uvSet"] = len(sets)
			sets = append(sets, ch.UVs)
		}
		channels = append(channels, info)
	}
	return sets, channels
}

// faceGroups splits the faces by model material, in the order each
// material is first used.
func (ax *assetConverter) faceGroups(m *Mesh, prelit bool) (materials []string, faces [][]int) {
	index := map[string]int{}
	for f := range m.FaceCount() {
		mat := ax.slotMaterial(m, int(m.FaceSlots[f]), prelit)
		i, ok := index[mat]
		if !ok {
			i = len(materials)
			index[mat] = i
			materials = append(materials, mat)
			faces = append(faces, nil)
		}
		faces[i] = append(faces[i], f)
	}
	return materials, faces
}

// slotMaterial names the model material of a face's slot: none for an
// empty slot or one past the list (the engine draws those with its
// default material), the material's unlit variant on prelit meshes.
func (ax *assetConverter) slotMaterial(m *Mesh, slot int, prelit bool) string {
	if slot >= len(m.Materials) {
		ax.warnOnce("slot", m.Index, "mesh %q: a face uses material slot %d of %d; it is drawn with the default material", ax.s.Objects[m.Index].Name, slot, len(m.Materials))
		return ""
	}
	mi := m.Materials[slot]
	if mi == noRef || ax.a.Materials[mi] == nil {
		return ""
	}
	return ax.materialName(mi, prelit)
}

// firstMaterialSlot is the first slot holding a material (0 when none
// does).
func firstMaterialSlot(m *Mesh) int {
	for i, mi := range m.Materials {
		if mi != noRef {
			return i
		}
	}
	return 0
}

// primitive gathers the given elements of elems (n vertex indices each:
// 3 for faces, 2 for lines) with the vertices they use, in order of first
// use.
func primitive(m *Mesh, elems []uint16, n int, which []int, normals []float32, uvSets [][]float32, prelit bool, material string) model.Primitive {
	remap := map[uint16]uint32{}
	var order []uint16
	idx := make([]uint32, 0, n*len(which))
	for _, f := range which {
		for k := range n {
			v := elems[n*f+k]
			n, ok := remap[v]
			if !ok {
				n = uint32(len(order))
				remap[v] = n
				order = append(order, v)
			}
			idx = append(idx, n)
		}
	}
	p := model.Primitive{Mode: model.ModeTriangles, Indices: idx, Material: material,
		Positions: gather(m.Positions, order, 3), Normals: gather(normals, order, 3)}
	for _, uv := range uvSets {
		p.UVs = append(p.UVs, gather(uv, order, 2))
	}
	if prelit && m.Colors != nil {
		p.Colors = make([]float32, 0, 4*len(order))
		for _, v := range order {
			c := argb(m.Colors[v])
			p.Colors = append(p.Colors, float32(srgbToLinear(c[0])), float32(srgbToLinear(c[1])), float32(srgbToLinear(c[2])), float32(c[3]))
		}
	}
	return p
}

// gather picks the n-component elements of src at the given vertices.
func gather(src []float32, order []uint16, n int) []float32 {
	if src == nil {
		return nil
	}
	out := make([]float32, 0, n*len(order))
	for _, v := range order {
		out = append(out, src[n*int(v):n*int(v)+n]...)
	}
	return out
}

// buildNormals computes vertex normals for a mesh saved without them, as
// the engine's BuildNormals does on load: each vertex gets the normalised
// sum of the unit normals of the faces that use it, a face's normal being
// (b − a) × (c − a) — the side its clockwise front faces in Virtools'
// left-handed axes. A vertex no face uses gets (0, 1, 0).
func buildNormals(pos []float32, faces []uint16) []float32 {
	n := make([]float64, len(pos))
	p := func(i uint16) [3]float64 {
		return [3]float64{float64(pos[3*int(i)]), float64(pos[3*int(i)+1]), float64(pos[3*int(i)+2])}
	}
	for f := 0; f+3 <= len(faces); f += 3 {
		a, b, c := p(faces[f]), p(faces[f+1]), p(faces[f+2])
		u := [3]float64{b[0] - a[0], b[1] - a[1], b[2] - a[2]}
		w := [3]float64{c[0] - a[0], c[1] - a[1], c[2] - a[2]}
		fn := [3]float64{u[1]*w[2] - u[2]*w[1], u[2]*w[0] - u[0]*w[2], u[0]*w[1] - u[1]*w[0]}
		l := math.Sqrt(fn[0]*fn[0] + fn[1]*fn[1] + fn[2]*fn[2])
		if l == 0 {
			continue
		}
		for _, v := range faces[f : f+3] {
			for k := range 3 {
				n[3*int(v)+k] += fn[k] / l
			}
		}
	}
	out := make([]float32, len(pos))
	for v := 0; v+3 <= len(n); v += 3 {
		l := math.Sqrt(n[v]*n[v] + n[v+1]*n[v+1] + n[v+2]*n[v+2])
		if l == 0 {
			out[v+1] = 1
			continue
		}
		out[v], out[v+1], out[v+2] = float32(n[v]/l), float32(n[v+1]/l), float32(n[v+2]/l)
	}
	return out
}

// argb splits an ARGB dword into red, green, blue and alpha in 0..1.
func argb(c uint32) [4]float64 {
	return [4]float64{float64(c>>16&0xff) / 255, float64(c>>8&0xff) / 255, float64(c&0xff) / 255, float64(c>>24) / 255}
}

// srgbToLinear decodes an sRGB-encoded channel: Virtools colours, like all
// D3D fixed-function colours, are the values the display shows, while
// glTF factors and vertex colours are linear.
func srgbToLinear(c float64) float64 {
	if c <= 0.04045 {
		return c / 12.92
	}
	return math.Pow((c+0.055)/1.055, 2.4)
}

// unitNormals returns saved normals scaled to unit length (glTF requires
// it; the engine renders with the saved ones and D3D normalises them when
// lighting); a zero normal is replaced by the one BuildNormals would give.
func unitNormals(n []float32, m *Mesh) []float32 {
	out := make([]float32, len(n))
	var built []float32
	for v := 0; v+3 <= len(n); v += 3 {
		x, y, z := float64(n[v]), float64(n[v+1]), float64(n[v+2])
		l := math.Sqrt(x*x + y*y + z*z)
		if l == 0 {
			if built == nil {
				built = buildNormals(m.Positions, m.Faces)
			}
			copy(out[v:v+3], built[v:v+3])
			continue
		}
		out[v], out[v+1], out[v+2] = float32(x/l), float32(y/l), float32(z/l)
	}
	return out
}
