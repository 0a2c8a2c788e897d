package ccs

import (
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
//     they blend. The node channel stays, as data. A material shared with
//     other objects' meshes fades with them: glTF has no per-node
//     material alpha.
func bindAssetChannels(f *model.File, warn func(string, ...any)) {
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
			if c.Node == "" || c.Path != model.PathAlpha {
				continue
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
