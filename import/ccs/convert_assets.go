package ccs

import (
	"fmt"
	"math"
	"sort"

	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/model"
)

// AssetOptions choose the assets Convert adds beside the animations.
type AssetOptions struct {
	// NoMeshes leaves meshes, materials, textures, cameras and lights
	// out: the animation-only output. Skins stay (format.Options.NoMeshes):
	// they make a clump's bones an armature.
	NoMeshes bool
	// Shadows adds shadow models (kept out by default: the game draws them
	// as projected shadows, not as geometry), each on a child node
	// "<object>:shadow".
	Shadows bool
}

// assetConverter turns decoded asset chunks into the model's assets.
type assetConverter struct {
	s    *Scene
	a    *Assets
	ns   *nodeSet
	f    *model.File
	opts AssetOptions
	warn func(string, ...any)

	names    map[string]map[string]bool // kind → names taken
	texName  map[uint32]string
	texAlpha map[uint32]alphaUse
	matName  map[uint32]string
	models   map[uint32]*Model
	meshName map[uint32]string // model id → mesh name
	clumpOf  map[uint32]*Clump // object id → its clump
	skinName map[uint32]string // clump id → skin name
	world    [][16]float64     // rest world matrix per node
	refused  []string
}

// alphaUse says how a texture uses its alpha: all opaque, cut-outs only
// (0 and 255), or translucent.
type alphaUse int

const (
	alphaOpaque alphaUse = iota
	alphaCutout
	alphaBlend
)

// unique returns name, or name#id when kind already has it.
func (ac *assetConverter) unique(kind, name string, id uint32) string {
	taken := ac.names[kind]
	if taken == nil {
		taken = map[string]bool{}
		ac.names[kind] = taken
	}
	if name == "" || taken[name] {
		name = fmt.Sprintf("%s#%d", name, id)
	}
	taken[name] = true
	return name
}

// convertAssets adds textures, materials, meshes and skins to f, and the
// nodes the meshes hang on (every object with a model, at its clump's bind
// pose).
func convertAssets(s *Scene, a *Assets, ns *nodeSet, f *model.File, opts AssetOptions, warn func(string, ...any)) error {
	ac := &assetConverter{s: s, a: a, ns: ns, f: f, opts: opts, warn: warn,
		names: map[string]map[string]bool{}, texName: map[uint32]string{}, texAlpha: map[uint32]alphaUse{},
		matName: map[uint32]string{}, models: map[uint32]*Model{}, meshName: map[uint32]string{},
		clumpOf: map[uint32]*Clump{}, skinName: map[uint32]string{}}
	for _, err := range a.Refused {
		ac.refuse("%v", err)
	}
	for _, m := range a.Models {
		if _, dup := ac.models[m.ID]; !dup {
			ac.models[m.ID] = m
		}
	}
	for _, cl := range a.Clumps {
		for _, id := range cl.Nodes {
			if _, dup := ac.clumpOf[id]; !dup {
				ac.clumpOf[id] = cl
			}
		}
	}
	if !opts.NoMeshes {
		ac.textures()
		ac.materials()
	}
	// Every object with a model becomes a node before rest poses and
	// world matrices are worked out.
	for _, o := range a.Objects {
		if !opts.NoMeshes && (o.Model != 0 || opts.Shadows && o.Shadow != 0) {
			if _, err := ns.add(o.ID, o.Off+8); err != nil {
				return err
			}
		}
	}
	for _, cl := range a.Clumps {
		if ac.deformableIn(cl) {
			for _, id := range cl.Nodes {
				if _, err := ns.add(id, cl.Off+16); err != nil {
					return err
				}
			}
		}
	}
	if !opts.NoMeshes {
		if err := ac.camerasAndLights(); err != nil {
			return err
		}
	}
	ac.restPoses()
	for _, cl := range a.Clumps {
		if ac.deformableIn(cl) {
			if _, err := ac.skin(cl); err != nil {
				return err
			}
		}
	}
	if !opts.NoMeshes {
		for _, o := range a.Objects {
			if err := ac.objectMeshes(o); err != nil {
				return err
			}
		}
	}
	if len(ac.refused) > 0 {
		f.Extras["ccsRefused"] = ac.refused
	}
	return nil
}

// deformableIn reports whether an object of the clump has a deformable
// model (so the clump needs a skin).
func (ac *assetConverter) deformableIn(cl *Clump) bool {
	for _, o := range ac.a.Objects {
		if m := ac.models[o.Model]; m != nil && m.Type&ModelDeformable != 0 && ac.clumpOf[o.ID] == cl {
			return true
		}
	}
	return false
}

// textures decodes every texture with its CLUT. One that cannot be decoded
// (an unknown format, a missing CLUT, an index beyond the palette) is left
// out with a notice and listed in File.Extras["ccsRefused"].
func (ac *assetConverter) textures() {
	for _, t := range ac.a.Textures {
		rgba, err := t.Decode(ac.a.CLUTs[t.CLUT], false)
		if err != nil {
			ac.refuse("texture %s: %v", ac.s.Index.ObjectName(t.ID), err)
			continue
		}
		name := ac.unique("texture", ac.s.Index.ObjectName(t.ID), t.ID)
		ac.texName[t.ID] = name
		ac.texAlpha[t.ID] = alphaOf(rgba)
		ac.f.Textures = append(ac.f.Textures, model.Texture{Name: name,
			Image: model.Image{Width: t.Width, Height: t.Height, RGBA: rgba},
			WrapS: model.WrapRepeat, WrapT: model.WrapRepeat,
			Extras: map[string]any{"ccsObject": int64(t.ID), "ccsFormat": t.FormatName(),
				"ccsCLUT": ac.s.Index.ObjectName(t.CLUT)}})
	}
}

func (ac *assetConverter) refuse(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	ac.warn("%s", msg)
	ac.refused = append(ac.refused, msg)
}

func alphaOf(rgba []byte) alphaUse {
	use := alphaOpaque
	for i := 3; i < len(rgba); i += 4 {
		switch rgba[i] {
		case 255:
		case 0:
			use = alphaCutout
		default:
			return alphaBlend
		}
	}
	return use
}

// materials maps every Material chunk to a glTF material: base colour
// white with the material's alpha, its texture with the offset and scale
// as KHR_texture_transform, double-sided (the GS does not cull; whether
// the game's microcode does is not known), BLEND when the alpha is below 1
// or the texture translucent, MASK (cutoff 0.5) for cut-out textures.
func (ac *assetConverter) materials() {
	for _, m := range ac.a.Materials {
		if _, dup := ac.matName[m.ID]; dup {
			continue
		}
		name := ac.s.MaterialName(m.ID)
		ac.matName[m.ID] = name
		mat := model.Material{Name: name, BaseColor: [4]float64{1, 1, 1, clamp(float64(m.Alpha), 0, 1)},
			Metallic: 0, Roughness: 1, DoubleSided: true,
			Extras: map[string]any{"ccsObject": int64(m.ID), "ccsAlpha": float64(m.Alpha)}}
		mode := alphaOpaque
		if tex, ok := ac.texName[m.Texture]; ok {
			mat.BaseColorTexture = model.TextureRef{Texture: tex, Scale: m.Scale,
				Offset: [2]float64{m.Offset[0], flipOffsetV(m.Offset[1], m.Scale[1])}}
			mode = ac.texAlpha[m.Texture]
		} else if m.Texture != 0 {
			mat.Extras["ccsTexture"] = ac.s.Index.ObjectName(m.Texture)
		}
		if m.Alpha < 1 {
			mode = alphaBlend
		}
		switch mode {
		case alphaBlend:
			mat.AlphaMode = model.AlphaBlend
		case alphaCutout:
			mat.AlphaMode, mat.AlphaCutoff = model.AlphaMask, 0.5
		}
		ac.f.Materials = append(ac.f.Materials, mat)
	}
}

func clamp(v, lo, hi float64) float64 {
	if v < lo || math.IsNaN(v) {
		return lo
	}
	return min(v, hi)
}

// restPoses gives every node of a clump object its bind pose and works
// out each node's rest world matrix.
func (ac *assetConverter) restPoses() {
	nodes := ac.ns.nodes
	for i := range nodes {
		id, ok := nodes[i].Extras["ccsObject"].(int64)
		if !ok {
			continue
		}
		cl := ac.clumpOf[uint32(id)]
		if cl == nil || cl.Pose == nil {
			continue
		}
		for j, nid := range cl.Nodes {
			if int64(nid) == id {
				p := cl.Pose[j]
				nodes[i].Translation = [3]float64{float64(p.Position[0]), float64(p.Position[1]), float64(p.Position[2])}
				nodes[i].Rotation = eulerQuat(p.Rotation)
				nodes[i].Scale = [3]float64{float64(p.Scale[0]), float64(p.Scale[1]), float64(p.Scale[2])}
				break
			}
		}
	}
	ac.world = make([][16]float64, len(nodes))
	for i := range nodes {
		local := trsMatrix(nodes[i].Translation, nodes[i].Rotation, nodes[i].Scale)
		if p := nodes[i].Parent; p >= 0 {
			ac.world[i] = matMul(&ac.world[p], &local)
		} else {
			ac.world[i] = local
		}
	}
}

// objectMeshes hangs an object's model (and shadow, when asked for) on
// its node.
func (ac *assetConverter) objectMeshes(o ObjectChunk) error {
	if o.Model != 0 {
		m := ac.models[o.Model]
		if m == nil {
			ac.warn("object %s: its model %d has no Model chunk", ac.s.Index.ObjectName(o.ID), o.Model)
		} else {
			mesh, skin, err := ac.mesh(m, o)
			if err != nil {
				return err
			}
			switch {
			case mesh != "" && skin != "":
				// A skinned mesh goes on a node of its own at the root, not
				// on the object (a joint): glTF ignores a skinned mesh
				// node's transform, and clients (Blender) make joints bones,
				// not mesh objects.
				name := mesh
				if ac.ns.names[name] {
					name = ac.ns.nodes[ac.ns.byID[o.ID]].Name + ":mesh"
				}
				if !ac.ns.names[name] {
					ac.ns.pseudo(name, "")
					n := &ac.ns.nodes[len(ac.ns.nodes)-1]
					n.Mesh, n.Skin = mesh, skin
					n.Extras = map[string]any{"ccsObject": int64(o.ID)}
				}
			case mesh != "":
				n := &ac.ns.nodes[ac.ns.byID[o.ID]]
				n.Mesh = mesh
			}
		}
	}
	if ac.opts.Shadows && o.Shadow != 0 {
		m := ac.models[o.Shadow]
		if m == nil {
			return nil
		}
		mesh, _, err := ac.mesh(m, o)
		if err != nil || mesh == "" {
			return err
		}
		parent := ac.ns.byID[o.ID]
		name := ac.ns.pseudo(ac.ns.nodes[parent].Name+":shadow", "")
		n := &ac.ns.nodes[len(ac.ns.nodes)-1]
		if n.Name == name {
			n.Parent, n.Mesh = parent, mesh
		}
	}
	return nil
}

// mesh returns the name of model m's mesh as object o draws it, building
// it on first use; skin names the clump skin of a deformable model.
func (ac *assetConverter) mesh(m *Model, o ObjectChunk) (mesh, skin string, err error) {
	var cl *Clump
	if m.Type&ModelDeformable != 0 {
		if cl = ac.clumpOf[o.ID]; cl == nil {
			return "", "", binread.Errorf(m.Off, "deformable model %s: its object %s is in no clump", ac.s.Index.ObjectName(m.ID), ac.s.Index.ObjectName(o.ID))
		}
		if skin, err = ac.skin(cl); err != nil {
			return "", "", err
		}
	}
	if name, ok := ac.meshName[m.ID]; ok {
		return name, skin, nil
	}
	if m.Unsupport != "" {
		ac.refuse("model %s: %s", ac.s.Index.ObjectName(m.ID), m.Unsupport)
		ac.meshName[m.ID] = ""
		return "", "", nil
	}
	me := model.Mesh{Extras: map[string]any{"ccsObject": int64(m.ID), "ccsModelType": int64(m.Type),
		"ccsVertexScale": float64(m.Scale)}}
	if m.DrawFlags != [4]byte{} {
		me.Extras["ccsDrawFlags"] = fmt.Sprintf("%02x%02x%02x%02x", m.DrawFlags[0], m.DrawFlags[1], m.DrawFlags[2], m.DrawFlags[3])
	}
	var subNames []string
	targets := ac.morphTargetsOf(m)
	for _, t := range targets {
		me.TargetNames = append(me.TargetNames, ac.s.Index.ObjectName(t.ID))
	}
	for i := range m.Meshes {
		sm := &m.Meshes[i]
		var p model.Primitive
		if cl != nil {
			p, err = ac.deformablePrimitive(m, sm, cl)
		} else {
			p, err = ac.rigidPrimitive(sm)
		}
		if err != nil {
			return "", "", err
		}
		if len(p.Indices) == 0 {
			continue // a strip of restarts only draws nothing
		}
		for _, t := range targets {
			p.Targets = append(p.Targets, ac.morphTarget(m, i, t))
		}
		me.Primitives = append(me.Primitives, p)
		if sm.Name != 0 {
			subNames = append(subNames, ac.s.Index.ObjectName(sm.Name))
		}
	}
	if len(me.Primitives) == 0 {
		ac.meshName[m.ID] = ""
		return "", skin, nil
	}
	if subNames != nil {
		me.Extras["ccsSubMeshes"] = subNames
	}
	me.Name = ac.unique("mesh", ac.s.Index.ObjectName(m.ID), m.ID)
	ac.meshName[m.ID] = me.Name
	ac.f.Meshes = append(ac.f.Meshes, me)
	return me.Name, skin, nil
}

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

// skin returns the skin of a clump, building it on first use: its nodes
// as joints in clump order, each inverse bind the inverse of the node's
// rest world matrix.
func (ac *assetConverter) skin(cl *Clump) (string, error) {
	if name, ok := ac.skinName[cl.ID]; ok {
		return name, nil
	}
	sk := model.Skin{Name: ac.unique("skin", ac.s.Index.ObjectName(cl.ID), cl.ID)}
	for i, id := range cl.Nodes {
		ni, ok := ac.ns.byID[id]
		if !ok {
			return "", binread.Errorf(cl.Off+16+4*int64(i), "clump %s: node %d has no node", ac.s.Index.ObjectName(cl.ID), id)
		}
		inv, ok := invertAffine(&ac.world[ni])
		if !ok {
			return "", binread.Errorf(cl.Off, "clump %s: node %s's bind pose is singular (a zero scale)", ac.s.Index.ObjectName(cl.ID), ac.ns.nodes[ni].Name)
		}
		sk.Joints = append(sk.Joints, ac.ns.nodes[ni].Name)
		sk.InverseBind = append(sk.InverseBind, inv)
	}
	ac.skinName[cl.ID] = sk.Name
	ac.f.Skins = append(ac.f.Skins, sk)
	return sk.Name, nil
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
	// spread is the farthest any copy's bind-pose point lies from the
	// blended vertex; beyond two position units (more than the 16-bit
	// rounding of the copies) glTF's skin and the engine's blend part away
	// from the bind pose, which is worth a notice.
	var spread float64
	worst := -1
	for v, infs := range sm.Influences {
		var pos, nrm [3]float64
		type jw struct {
			j uint16
			w float64
		}
		var js []jw
		var total float64
		for _, inf := range infs {
			j := int(inf.Node)
			if m.Lookup != nil {
				if j >= len(m.Lookup) {
					return p, binread.Errorf(sm.Off, "model %s: vertex %d names bone %d beyond its %d-entry lookup list", ac.s.Index.ObjectName(m.ID), v, j, len(m.Lookup))
				}
				j = int(m.Lookup[j])
			}
			if j >= len(cl.Nodes) {
				return p, binread.Errorf(sm.Off, "model %s: vertex %d names clump node %d, clump %s has %d", ac.s.Index.ObjectName(m.ID), v, j, ac.s.Index.ObjectName(cl.ID), len(cl.Nodes))
			}
			w := float64(inf.Weight)
			world := &ac.world[ac.ns.byID[cl.Nodes[j]]]
			wp, wn := transformPoint(world, inf.Position), transformDir(world, inf.Normal)
			for k := range 3 {
				pos[k] += w * wp[k]
				nrm[k] += w * wn[k]
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
			return p, binread.Errorf(sm.Off, "model %s: vertex %d's weights sum to %v", ac.s.Index.ObjectName(m.ID), v, total)
		}
		for _, inf := range infs {
			j := int(inf.Node)
			if m.Lookup != nil {
				j = int(m.Lookup[j])
			}
			wp := transformPoint(&ac.world[ac.ns.byID[cl.Nodes[j]]], inf.Position)
			if d := math.Sqrt(sq(wp[0]-pos[0]/total) + sq(wp[1]-pos[1]/total) + sq(wp[2]-pos[2]/total)); d > spread {
				spread, worst = d, v
			}
		}
		sort.SliceStable(js, func(a, b int) bool { return js[a].w > js[b].w })
		js = js[:min(len(js), 4)]
		var kept float64
		for _, x := range js {
			kept += x.w
		}
		for k := range 3 {
			p.Positions[3*v+k] = float32(pos[k] / total)
			p.Normals[3*v+k] = float32(nrm[k])
		}
		for k, x := range js {
			p.Joints[4*v+k] = x.j
			p.Weights[4*v+k] = float32(x.w / kept)
		}
	}
	p.Normals = unitNormals(p.Normals)
	if unit := math.Abs(float64(m.Scale)) / 4096; spread > 2*unit {
		ac.warn("model %s: vertex %d's bone-local copies lie %.3g cm apart in the bind pose; the glTF skin blends their average, so it departs from the engine's blend as the bones move", ac.s.Index.ObjectName(m.ID), worst, spread)
	}
	return p, nil
}

func sq(x float64) float64 { return x * x }

// flipV turns CCS texture coordinates (v = 0 at the first stored row, the
// picture's bottom) into glTF's (v = 0 at the image's top, which Decode
// makes the last stored row): v' = 1 − v.
func flipV(uv []float32) []float32 {
	out := make([]float32, len(uv))
	for i := 0; i+1 < len(uv); i += 2 {
		out[i], out[i+1] = uv[i], 1-uv[i+1]
	}
	return out
}

// flipOffsetV is a material's V offset in glTF's flipped space: the engine
// samples t = v·s + o, glTF t' = 1 − t = v'·s + (1 − s − o) with v' = 1 − v.
func flipOffsetV(o, s float64) float64 { return 1 - s - o }

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
