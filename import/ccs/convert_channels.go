package ccs

import (
	"fmt"
	"maps"

	"github.com/animbake/bake/model"
)

// bindAssetChannels ties the animations' material and transparency
// channels to the assets Convert built (docs/formats/ccs.md §9.6):
//
//   - uvOffset on a material with a texture: V moves into glTF's flipped
//     texture space, V' = 1 − scaleV − V (the material's static offset
//     flips the same way, see flipOffsetV), and the texture reference
//     asks for a KHR_texture_transform (Transform), which the animation
//     pointer needs; uvScale likewise marks it.
//   - alpha on a node whose mesh has materials: the same curve drives
//     each of those materials' alpha (ccAnm's transparency scales the
//     object's colour alpha; glTF animates baseColorFactor's alpha), and
//     they blend. The node channel stays, as data. A node that fades gets
//     its own copies of materials other nodes draw too (isolateFading), so
//     that only it fades.
func bindAssetChannels(f *model.File, warn func(string, ...any)) {
	isolateFading(f)
	mats := map[string]*model.Material{}
	for i := range f.Materials {
		mats[f.Materials[i].Name] = &f.Materials[i]
	}
	meshMats := map[string][]string{}
	for _, me := range f.Meshes {
		seen := map[string]bool{}
		for _, p := range me.Primitives {
			if p.Material != "" && !seen[p.Material] {
				seen[p.Material] = true
				meshMats[me.Name] = append(meshMats[me.Name], p.Material)
			}
		}
	}
	nodeMesh := map[string]string{}
	for _, n := range f.Nodes {
		if n.Mesh != "" {
			nodeMesh[n.Name] = n.Mesh
		}
	}
	for ai := range f.Animations {
		a := &f.Animations[ai]
		type key struct{ mat, path string }
		taken := map[key]bool{}
		for _, c := range a.Channels {
			if c.Material != "" {
				taken[key{c.Material, c.Path}] = true
			}
		}
		for ci := range a.Channels {
			c := &a.Channels[ci]
			m := mats[c.Material]
			switch {
			case m != nil && m.BaseColorTexture.Texture != "" && c.Path == model.PathUVOffset:
				sv := m.BaseColorTexture.Scale[1]
				if sv == 0 {
					sv = 1
				}
				c.Curve = flipVCurve(c.Curve, float32(1-sv))
				m.BaseColorTexture.Transform = true
			case m != nil && m.BaseColorTexture.Texture != "" && c.Path == model.PathUVScale:
				m.BaseColorTexture.Transform = true
			}
		}
		for ci := range a.Channels {
			c := a.Channels[ci]
			if c.Node == "" || c.Path != model.PathAlpha || alwaysOpaque(c.Curve) {
				continue // F_Obj records give every posed object a transparency, mostly 1
			}
			for _, mat := range meshMats[nodeMesh[c.Node]] {
				if taken[key{mat, model.PathAlpha}] {
					warn("Anime %s: material %s's alpha is already animated; %s's transparency does not drive it", a.Name, mat, c.Node)
					continue
				}
				taken[key{mat, model.PathAlpha}] = true
				a.Channels = append(a.Channels, model.Channel{Material: mat, Path: model.PathAlpha, Curve: c.Curve})
				if m := mats[mat]; m != nil {
					m.AlphaMode, m.AlphaCutoff = model.AlphaBlend, 0
				}
			}
		}
	}
}

// flipVCurve maps the V component of a uvOffset curve (a Vector of U, V
// tracks, or a stepped series of width 2) to k − V. The map is affine, so
// ccAnm's linear interpolation and steps carry over (up to float32
// rounding of k − v at the keys).
func flipVCurve(c model.Curve, k float32) model.Curve {
	switch c := c.(type) {
	case *model.Vector:
		if len(c.Components) < 2 {
			return c
		}
		out := &model.Vector{Components: append([]model.Curve(nil), c.Components...)}
		if t, ok := c.Components[1].(*model.CcAnmTrack); ok {
			out.Components[1] = affineTrack(t, 0, k)
		}
		return out
	case *model.CcAnmTrack:
		if c.Width == 2 {
			return affineTrack(c, 1, k)
		}
	}
	return c
}

// affineTrack returns a copy of t whose component comp is k − value.
func affineTrack(t *model.CcAnmTrack, comp int, k float32) *model.CcAnmTrack {
	out := *t
	out.Values = append([]float32(nil), t.Values...)
	for i := comp; i < len(out.Values); i += t.Width {
		out.Values[i] = k - out.Values[i]
	}
	if out.Kind == model.CcAnmAbsent {
		out.Kind = model.CcAnmConstant
	}
	return &out
}

// isolateFading gives every node with a transparency channel (in any
// clip) its own copy of its mesh when the mesh or one of its materials is
// drawn by another node too, with its own copies of the shared materials
// ("MAT_x@OBJ_y"); the copies take the source materials' UV channels too.
// glTF animates a material's alpha for everything drawn with it, while
// ccAnm fades one object: S01's OBJ_efe_030_1 and _2 share
// MAT_s01efe00_2.
func isolateFading(f *model.File) {
	fading := map[string]bool{}
	for _, a := range f.Animations {
		for _, c := range a.Channels {
			if c.Node != "" && c.Path == model.PathAlpha && !alwaysOpaque(c.Curve) {
				fading[c.Node] = true
			}
		}
	}
	meshIdx := map[string]int{}
	for i, m := range f.Meshes {
		meshIdx[m.Name] = i
	}
	matIdx := map[string]int{}
	for i, m := range f.Materials {
		matIdx[m.Name] = i
	}
	drawers := map[string]map[string]bool{} // material or mesh → nodes
	draw := func(key, node string) {
		if drawers[key] == nil {
			drawers[key] = map[string]bool{}
		}
		drawers[key][node] = true
	}
	for _, n := range f.Nodes {
		if i, ok := meshIdx[n.Mesh]; ok {
			draw("mesh:"+n.Mesh, n.Name)
			for _, p := range f.Meshes[i].Primitives {
				draw("mat:"+p.Material, n.Name)
			}
		}
	}
	clones := map[string][]string{} // material → its copies
	names := map[string]bool{}
	for _, m := range f.Meshes {
		names["mesh:"+m.Name] = true
	}
	for _, m := range f.Materials {
		names["mat:"+m.Name] = true
	}
	unique := func(kind, name string) string {
		out := name
		for k := 2; names[kind+out]; k++ {
			out = fmt.Sprintf("%s#%d", name, k)
		}
		names[kind+out] = true
		return out
	}
	for ni := range f.Nodes {
		n := &f.Nodes[ni]
		mi, ok := meshIdx[n.Mesh]
		if !fading[n.Name] || !ok {
			continue
		}
		shared := len(drawers["mesh:"+n.Mesh]) > 1
		for _, p := range f.Meshes[mi].Primitives {
			shared = shared || p.Material != "" && len(drawers["mat:"+p.Material]) > 1
		}
		if !shared {
			continue
		}
		me := f.Meshes[mi]
		me.Name = unique("mesh:", me.Name+"@"+n.Name)
		me.Primitives = append([]model.Primitive(nil), me.Primitives...)
		me.Extras = maps.Clone(me.Extras)
		if me.Extras == nil {
			me.Extras = map[string]any{}
		}
		me.Extras["ccsCopyFor"] = n.Name
		copied := map[string]string{}
		for pi := range me.Primitives {
			p := &me.Primitives[pi]
			src := p.Material
			if src == "" || len(drawers["mat:"+src]) <= 1 {
				continue
			}
			if _, done := copied[src]; !done {
				mat := f.Materials[matIdx[src]]
				mat.Name = unique("mat:", src+"@"+n.Name)
				mat.Extras = maps.Clone(mat.Extras)
				if mat.Extras == nil {
					mat.Extras = map[string]any{}
				}
				mat.Extras["ccsCopyOf"] = src
				f.Materials = append(f.Materials, mat)
				matIdx[mat.Name] = len(f.Materials) - 1
				copied[src] = mat.Name
				clones[src] = append(clones[src], mat.Name)
			}
			p.Material = copied[src]
		}
		f.Meshes = append(f.Meshes, me)
		meshIdx[me.Name] = len(f.Meshes) - 1
		n.Mesh = me.Name
	}
	if len(clones) == 0 {
		return
	}
	for ai := range f.Animations {
		a := &f.Animations[ai]
		for _, c := range a.Channels {
			if c.Material == "" || c.Path == model.PathAlpha {
				continue
			}
			for _, cl := range clones[c.Material] {
				c2 := c
				c2.Material = cl
				a.Channels = append(a.Channels, c2)
			}
		}
	}
}

// alwaysOpaque reports whether a transparency curve never drops below 1
// (its every stored value is 1 or more: ccAnm interpolates between keys
// and holds at the ends, so it stays there).
func alwaysOpaque(c model.Curve) bool {
	t, ok := c.(*model.CcAnmTrack)
	if !ok {
		return false
	}
	for _, v := range t.Values {
		if !(v >= 1) {
			return false
		}
	}
	return true
}
