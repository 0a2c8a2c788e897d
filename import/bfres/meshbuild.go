package bfres

import (
	"fmt"
	"math"
	"sort"

	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/model"
)

// modelAssets are the meshes, nodes and materials one FMDL gives.
type modelAssets struct {
	meshes    []model.Mesh
	nodes     []model.Node // one root node per shape, skinned
	materials []model.Material
	skin      model.Skin
	// shapeNode names each shape's node; shapesOfBone and shapesOfMaterial
	// list the shape nodes a bone's or a material's visibility hides.
	shapesOfBone     map[string][]string
	shapesOfMaterial map[string][]string
}

// buildModel converts the shapes of m into one mesh and one root node per
// shape, all skinned by the skeleton's one skin; nodes are the file's
// nodes, m's bones among them. lod selects the level of detail drawn
// (shapes with fewer take their last); the others are kept in the mesh's
// extras.
//
// Skinning follows the runtime's matrix palette (docs/formats/bfres.md):
// skin count 0 draws the shape rigidly on its bone; skin count 1 reads one
// palette index per vertex, a rigid matrix (the bone's world matrix) or a
// smooth one (world × inverse model); more read smooth indices and
// weights. Rigid vertices are stored in their bone's space: they are
// taken to model space with the inverse of the joint's inverse bind matrix
// and skinned with weight 1 to that joint, so the skin reproduces the
// runtime's world × vertex exactly and one skin serves the whole model.
func buildModel(m *Model, nodes []model.Node, lod int, warn func(string, ...any)) (*modelAssets, error) {
	s := m.Skeleton
	used := map[string]bool{}
	for _, n := range nodes {
		used[n.Name] = true
	}
	out := &modelAssets{skin: skeletonSkin(s, nodes),
		shapesOfBone: map[string][]string{}, shapesOfMaterial: map[string][]string{}}
	bindWorld := make([][16]float64, len(out.skin.InverseBind))
	for j, ib := range out.skin.InverseBind {
		bindWorld[j] = invertAffine(ib)
	}
	for _, mat := range m.Materials {
		out.materials = append(out.materials, buildMaterial(mat))
	}
	for _, sh := range m.Shapes {
		if sh.KeyShapes > 0 {
			warn("model %s shape %s: %d key shapes (morph targets) are not converted", m.Name, sh.Name, sh.KeyShapes)
		}
		use := min(lod, len(sh.LODs)-1)
		if vb := m.VertexBuffers[sh.VertexBuffer]; vb.Count == 0 || len(sh.LODs[use].Indices) == 0 {
			warn("model %s shape %s draws nothing (%d vertices, %d indices); it is left out", m.Name, sh.Name, vb.Count, len(sh.LODs[use].Indices))
			continue
		}
		if sh.Bone >= len(s.Bones) {
			return nil, binread.Errorf(int64(sh.BoneAt), "shape %s hangs on bone %d of %d", sh.Name, sh.Bone, len(s.Bones))
		}
		prim, err := buildPrimitive(m, sh, bindWorld, out.skin.InverseBind, warn)
		if err != nil {
			return nil, err
		}
		mat := m.Materials[sh.Material]
		prim.Material = mat.Name
		if use != lod {
			warn("model %s shape %s has %d levels of detail; drawing the last for --lod %d", m.Name, sh.Name, len(sh.LODs), lod)
		}
		idx, mode := sh.LODs[use].drawIndices()
		prim.Indices, prim.Mode = idx, mode
		if flipWinding(mat) {
			prim.Indices, prim.Mode = flipIndices(prim.Indices, prim.Mode)
		}
		mesh := model.Mesh{Name: sh.Name, Primitives: []model.Primitive{prim},
			Extras: shapeExtras(sh, use)}
		node := uniqueName(sh.Name, used)
		out.meshes = append(out.meshes, mesh)
		out.nodes = append(out.nodes, model.Node{Name: node, Parent: -1, Rotation: [4]float64{0, 0, 0, 1},
			Scale: [3]float64{1, 1, 1}, Mesh: mesh.Name, Skin: out.skin.Name})
		bone := s.Bones[sh.Bone].Name
		out.shapesOfBone[bone] = append(out.shapesOfBone[bone], node)
		out.shapesOfMaterial[mat.Name] = append(out.shapesOfMaterial[mat.Name], node)
	}
	return out, nil
}

// uniqueName returns name, or name_2, name_3 … when taken, and marks it.
func uniqueName(name string, used map[string]bool) string {
	out := name
	for n := 2; used[out]; n++ {
		out = fmt.Sprintf("%s_%d", name, n)
	}
	used[out] = true
	return out
}

// shapeExtras records what the glTF mesh does not carry: the FSHP's
// skinning facts, its sub-meshes and the levels of detail not drawn.
func shapeExtras(sh *Shape, drawn int) map[string]any {
	ex := map[string]any{"vertexSkinCount": sh.SkinCount, "lod": drawn, "lodCount": len(sh.LODs)}
	var lods []map[string]any
	for i := range sh.LODs {
		l := &sh.LODs[i]
		var subs [][2]uint32
		for _, s := range l.SubMeshes {
			subs = append(subs, [2]uint32{s.Offset, s.Count})
		}
		if i == drawn {
			ex["subMeshes"] = subs
			continue
		}
		idx, mode := l.drawIndices()
		lods = append(lods, map[string]any{"lod": i, "mode": mode, "indices": idx, "subMeshes": subs})
	}
	if lods != nil {
		ex["otherLODs"] = lods
	}
	return ex
}

// buildPrimitive decodes a shape's vertex buffer into a primitive (no
// indices yet) and skins it.
func buildPrimitive(m *Model, sh *Shape, bindWorld, inverseBind [][16]float64, warn func(string, ...any)) (model.Primitive, error) {
	vb := m.VertexBuffers[sh.VertexBuffer]
	var p model.Primitive
	get := func(name string, minComps int) ([]float32, int, error) {
		a := vb.Attrib(name)
		if a == nil {
			return nil, 0, nil
		}
		n := a.Format.Components()
		if n < minComps {
			return nil, 0, binread.Errorf(int64(a.pos+8), "shape %s: attribute %s has %d components (%s), at least %d needed", sh.Name, name, n, a.Format, minComps)
		}
		v, err := decodeAttribute(a, vb.Buffers, vb.Count, vb.byteOrder())
		return v, n, err
	}
	pos, pn, err := get("_p0", 3)
	if err != nil {
		return p, err
	}
	if pos == nil {
		return p, binread.Errorf(int64(vb.Off), "shape %s: its vertex buffer has no _p0 (position) attribute", sh.Name)
	}
	nv := vb.Count
	p.Positions = take(pos, pn, 3, nv)
	if nrm, n, err := get("_n0", 3); err != nil {
		return p, err
	} else if nrm != nil {
		p.Normals = take(nrm, n, 3, nv)
	}
	if tan, n, err := get("_t0", 3); err != nil {
		return p, err
	} else if tan != nil {
		p.Tangents = make([]float32, 4*nv)
		for v := range nv {
			copy(p.Tangents[4*v:4*v+3], tan[n*v:n*v+3])
			p.Tangents[4*v+3] = 1
			if n == 4 && tan[n*v+3] < 0 {
				p.Tangents[4*v+3] = -1
			}
		}
		var binormals []float32
		if bin, bn, err := get("_b0", 3); err != nil {
			return p, err
		} else if bin != nil && p.Normals != nil {
			binormals = take(bin, bn, 3, nv)
			handedness(p.Tangents, p.Normals, binormals)
		}
		if n := rebuildTangents(p.Tangents, p.Normals, binormals); n > 0 {
			warn("model %s shape %s: %d zero-length tangents rebuilt perpendicular to their normals (from the binormal where it has one)", m.Name, sh.Name, n)
		}
	}
	for k := range 4 {
		uv, n, err := get(fmt.Sprintf("_u%d", k), 2)
		if err != nil {
			return p, err
		}
		if uv == nil {
			break
		}
		p.UVs = append(p.UVs, take(uv, n, 2, nv))
	}
	if col, n, err := get("_c0", 3); err != nil {
		return p, err
	} else if col != nil {
		p.Colors = make([]float32, 4*nv)
		for v := range nv {
			for c := range 4 {
				x := float32(1)
				if c < n {
					x = min(max(col[n*v+c], 0), 1)
				}
				p.Colors[4*v+c] = x
			}
		}
	}
	if err := skinPrimitive(&p, m, sh, vb, bindWorld, inverseBind, get, warn); err != nil {
		return p, err
	}
	if bad := unitize(p.Normals, 3); bad > 0 {
		warn("model %s shape %s: %d zero-length normals replaced by +Z", m.Name, sh.Name, bad)
	}
	if p.Tangents != nil {
		if bad := unitize(p.Tangents, 4); bad > 0 {
			warn("model %s shape %s: %d zero-length tangents; tangents dropped", m.Name, sh.Name, bad)
			p.Tangents = nil
		}
	}
	return p, nil
}

// take copies the first want components of each of nv n-component values.
func take(v []float32, n, want, nv int) []float32 {
	if n == want {
		return v
	}
	out := make([]float32, want*nv)
	for i := range nv {
		copy(out[want*i:want*i+want], v[n*i:n*i+want])
	}
	return out
}

// handedness sets each tangent's w to the sign that makes the glTF
// bitangent cross(normal, tangent)·w point along the stored binormal _b0.
func handedness(tan, nrm, bin []float32) {
	for v := 0; v < len(nrm)/3; v++ {
		n := nrm[3*v : 3*v+3]
		t := tan[4*v : 4*v+3]
		b := bin[3*v : 3*v+3]
		cx := n[1]*t[2] - n[2]*t[1]
		cy := n[2]*t[0] - n[0]*t[2]
		cz := n[0]*t[1] - n[1]*t[0]
		if d := cx*b[0] + cy*b[1] + cz*b[2]; d < 0 {
			tan[4*v+3] = -1
		} else if d > 0 {
			tan[4*v+3] = 1
		}
	}
}

// rebuildTangents gives each zero tangent that has a normal a direction
// perpendicular to it, w = +1: binormal × normal when the vertex has a
// binormal not along its normal (the tangent that binormal implies, with
// the handedness handedness would give it), else a fixed axis × normal
// (the axis of the normal's smallest component, so the product is never
// zero). A zero tangent is what a tool writes where it could not compute
// one, and glTF needs a tangent on every vertex of a normal-mapped mesh.
// It returns the number rebuilt.
func rebuildTangents(tan, nrm, bin []float32) int {
	if nrm == nil {
		return 0
	}
	cross := func(a, b [3]float64) [3]float64 {
		return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
	}
	rebuilt := 0
	for v := 0; v < len(nrm)/3; v++ {
		t := tan[4*v : 4*v+4]
		n := vec3(nrm[3*v:])
		if t[0] != 0 || t[1] != 0 || t[2] != 0 || n == [3]float64{} {
			continue
		}
		var c [3]float64
		if bin != nil {
			c = cross(vec3(bin[3*v:]), n)
		}
		if c[0]*c[0]+c[1]*c[1]+c[2]*c[2] < 1e-12 {
			axis := [3]float64{1, 0, 0}
			if math.Abs(n[1]) < math.Abs(n[0]) && math.Abs(n[1]) <= math.Abs(n[2]) {
				axis = [3]float64{0, 1, 0}
			} else if math.Abs(n[2]) < math.Abs(n[0]) {
				axis = [3]float64{0, 0, 1}
			}
			c = cross(axis, n)
		}
		t[0], t[1], t[2], t[3] = float32(c[0]), float32(c[1]), float32(c[2]), 1
		rebuilt++
	}
	return rebuilt
}

// unitize normalises the first three components of each stride-element
// value (glTF requires unit normals and tangents; the shaders normalise
// too). Zero vectors become +Z and are counted.
func unitize(v []float32, stride int) int {
	bad := 0
	for i := 0; i+2 < len(v); i += stride {
		x, y, z := float64(v[i]), float64(v[i+1]), float64(v[i+2])
		l := math.Sqrt(x*x + y*y + z*z)
		if !(l > 1e-12) {
			v[i], v[i+1], v[i+2] = 0, 0, 1
			bad++
			continue
		}
		v[i], v[i+1], v[i+2] = float32(x/l), float32(y/l), float32(z/l)
	}
	return bad
}

// skinPrimitive fills Joints and Weights (joint = bone index) and takes
// rigid vertices from their bone's space to model space.
func skinPrimitive(p *model.Primitive, m *Model, sh *Shape, vb *VertexBuffer, bindWorld, inverseBind [][16]float64,
	get func(string, int) ([]float32, int, error), warn func(string, ...any)) error {
	nv := vb.Count
	t := m.Skeleton.Tables
	p.Joints = make([]uint16, 4*nv)
	p.Weights = make([]float32, 4*nv)
	if sh.SkinCount == 0 {
		for v := range nv {
			p.Joints[4*v] = uint16(sh.Bone)
			p.Weights[4*v] = 1
		}
		rigid(p, 0, nv, sh.Bone, bindWorld, inverseBind)
		return nil
	}
	idx, in, err := get("_i0", 1)
	if err != nil {
		return err
	}
	if idx == nil {
		return binread.Errorf(int64(vb.Off), "shape %s: vertex skin count %d but no _i0 (skin index) attribute", sh.Name, sh.SkinCount)
	}
	a := vb.Attrib("_i0")
	count := min(sh.SkinCount, in)
	if count < sh.SkinCount {
		return binread.Errorf(int64(a.pos+8), "shape %s: vertex skin count %d but _i0 has %d components", sh.Name, sh.SkinCount, in)
	}
	var wts []float32
	wn := 0
	if sh.SkinCount > 1 {
		if wts, wn, err = get("_w0", 1); err != nil {
			return err
		}
		if wts == nil || wn < sh.SkinCount {
			return binread.Errorf(int64(vb.Off), "shape %s: vertex skin count %d needs a _w0 (skin weight) attribute with as many components", sh.Name, sh.SkinCount)
		}
	}
	palette := 0
	if t != nil {
		palette = len(t.MatrixToBone)
	}
	bone := func(v, k int) (int, bool, error) {
		f := idx[in*v+k]
		if !(f >= 0) || f >= float32(palette) || f != float32(int(f)) {
			return 0, false, binread.Errorf(int64(a.pos), "shape %s vertex %d: skin index %v is not one of the skeleton's %d palette matrices", sh.Name, v, f, palette)
		}
		i := int(f)
		return int(t.MatrixToBone[i]), i < t.NumSmooth, nil
	}
	if sh.SkinCount == 1 {
		for v := range nv {
			b, smooth, err := bone(v, 0)
			if err != nil {
				return err
			}
			p.Joints[4*v] = uint16(b)
			p.Weights[4*v] = 1
			if !smooth {
				rigid(p, v, v+1, b, bindWorld, inverseBind)
			}
		}
		return nil
	}
	trimmed, rigidInSmooth := 0, 0
	type jw struct {
		j int
		w float32
	}
	var list []jw
	for v := range nv {
		list = list[:0]
		sum := float32(0)
		for k := range sh.SkinCount {
			w := wts[wn*v+k]
			if w <= 0 {
				continue
			}
			b, smooth, err := bone(v, k)
			if err != nil {
				return err
			}
			if !smooth {
				rigidInSmooth++
			}
			merged := false
			for i := range list {
				if list[i].j == b {
					list[i].w += w
					merged = true
				}
			}
			if !merged {
				list = append(list, jw{b, w})
			}
			sum += w
		}
		if len(list) == 0 {
			return binread.Errorf(int64(vb.Off), "shape %s vertex %d: every skin weight is zero", sh.Name, v)
		}
		sort.SliceStable(list, func(i, j int) bool { return list[i].w > list[j].w })
		if len(list) > 4 {
			trimmed++
			list = list[:4]
			sum = list[0].w + list[1].w + list[2].w + list[3].w
		}
		// Weights are divided by their sum so that they add to 1: 8-bit
		// weights round (255ths), and glTF requires the sum to be 1.
		for i, e := range list {
			p.Joints[4*v+i] = uint16(e.j)
			p.Weights[4*v+i] = e.w / sum
		}
	}
	if trimmed > 0 {
		warn("model %s shape %s: %d vertices have more than 4 weights; the 4 largest are kept", m.Name, sh.Name, trimmed)
	}
	if rigidInSmooth > 0 {
		warn("model %s shape %s: %d smooth skin weights name a rigid palette matrix (no inverse model matrix); they are bound like smooth ones", m.Name, sh.Name, rigidInSmooth)
	}
	return nil
}

// rigid takes vertices [from, to) of p from the space of joint j to model
// space: positions by the joint's bind world matrix (the inverse of its
// inverse bind matrix), directions by its 3×3, normals by the inverse
// transpose.
func rigid(p *model.Primitive, from, to, j int, bindWorld, inverseBind [][16]float64) {
	w := &bindWorld[j]
	ib := &inverseBind[j]
	for v := from; v < to; v++ {
		q := transformPoint(w, vec3(p.Positions[3*v:]))
		p.Positions[3*v], p.Positions[3*v+1], p.Positions[3*v+2] = float32(q[0]), float32(q[1]), float32(q[2])
		if p.Normals != nil {
			n := transformNormal(ib, vec3(p.Normals[3*v:]))
			p.Normals[3*v], p.Normals[3*v+1], p.Normals[3*v+2] = float32(n[0]), float32(n[1]), float32(n[2])
		}
		if p.Tangents != nil {
			t := transformDir(w, vec3(p.Tangents[4*v:]))
			p.Tangents[4*v], p.Tangents[4*v+1], p.Tangents[4*v+2] = float32(t[0]), float32(t[1]), float32(t[2])
		}
	}
}

func vec3(v []float32) [3]float64 {
	return [3]float64{float64(v[0]), float64(v[1]), float64(v[2])}
}

// flipIndices reverses the winding of every triangle: triangle lists swap
// each triangle's last two indices; strips and fans are first unrolled
// into lists. Other modes have no winding.
func flipIndices(idx []uint32, mode int) ([]uint32, int) {
	switch mode {
	case model.ModeTriangles:
		out := append([]uint32(nil), idx...)
		for i := 0; i+2 < len(out); i += 3 {
			out[i+1], out[i+2] = out[i+2], out[i+1]
		}
		return out, mode
	case model.ModeTriangleStrip:
		var out []uint32
		for i := 0; i+2 < len(idx); i++ {
			a, b, c := idx[i], idx[i+1], idx[i+2]
			if i%2 == 1 {
				a, b = b, a
			}
			out = append(out, a, c, b)
		}
		return out, model.ModeTriangles
	case model.ModeTriangleFan:
		var out []uint32
		for i := 1; i+1 < len(idx); i++ {
			out = append(out, idx[0], idx[i+1], idx[i])
		}
		return out, model.ModeTriangles
	}
	return idx, mode
}
