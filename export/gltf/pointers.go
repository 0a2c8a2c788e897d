package gltf

import (
	"fmt"

	"github.com/qmuntal/gltf"

	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// channelOut is where one baked channel goes in glTF: a target (a node
// path, or a KHR_animation_pointer) and the output values as written.
type channelOut struct {
	target gltf.AnimationChannelTarget
	values []float64
	width  int  // components per key in values (1 for weights and pointers to scalars)
	ubyte  bool // unsigned-byte output (KHR_node_visibility's boolean)
	step   bool // forced STEP (booleans)
	// pointer: a KHR_animation_pointer channel (listed in extensionsUsed;
	// not repeated in the extras, its pointer naming the target).
	pointer bool
	key     string // the animated property, to keep one channel per property
}

// channelTarget maps a baked channel to its glTF target when the target
// exists in this file: TRS on a node without a matrix; weights on a node
// whose mesh has that many morph targets; and through KHR_animation_pointer
// node visibility (KHR_node_visibility), material alpha (baseColorFactor),
// texture transforms, camera yfov and light colour and intensity. Anything
// else stays data (ok false).
func (w *writer) channelTarget(c *sample.BakedChannel) (channelOut, bool) {
	if c.Node != "" {
		ni, ok := w.index[c.Node]
		if !ok {
			return channelOut{}, false
		}
		n := &w.b.Nodes[ni]
		switch c.Path {
		case model.PathTranslation, model.PathRotation, model.PathScale:
			if n.Matrix != nil {
				return channelOut{}, false
			}
			return channelOut{target: gltf.AnimationChannelTarget{Node: gltf.Index(ni), Path: gltf.TRSProperty(c.Path)},
				values: c.Values, width: c.Width, key: fmt.Sprintf("n%d/%s", ni, c.Path)}, true
		case model.PathWeights:
			mi, ok := w.meshIndex[n.Mesh]
			if !ok || n.Mesh == "" || len(w.doc.Meshes[mi].Weights) != c.Width {
				return channelOut{}, false
			}
			return channelOut{target: gltf.AnimationChannelTarget{Node: gltf.Index(ni), Path: gltf.TRSWeights},
				values: c.Values, width: 1, key: fmt.Sprintf("n%d/weights", ni)}, true
		case model.PathVisibility:
			if c.Width != 1 {
				return channelOut{}, false
			}
			w.visibleNodes[ni] = true
			return w.pointerOut(fmt.Sprintf("/nodes/%d/extensions/%s/visible", ni, extVisibility), c.Values, 1, true), true
		case "fov":
			ci, ok := w.cameraIndex[n.Camera]
			if !ok || n.Camera == "" || c.Width != 1 || w.doc.Cameras[ci].Perspective == nil {
				return channelOut{}, false
			}
			return w.pointerOut(fmt.Sprintf("/cameras/%d/perspective/yfov", ci), c.Values, 1, false), true
		case "color", "intensity":
			li, ok := w.lightIndex[n.Light]
			if !ok || n.Light == "" || (c.Path == "color") != (c.Width == 3) || (c.Path == "intensity") != (c.Width == 1) {
				return channelOut{}, false
			}
			return w.pointerOut(fmt.Sprintf("/extensions/%s/lights/%d/%s", extLights, li, c.Path), c.Values, c.Width, false), true
		}
		return channelOut{}, false
	}
	if c.Material == "" {
		return channelOut{}, false
	}
	mi, ok := w.materialIndex[c.Material]
	if !ok {
		return channelOut{}, false
	}
	gm := w.doc.Materials[mi]
	switch c.Path {
	case model.PathAlpha:
		if c.Width != 1 {
			return channelOut{}, false
		}
		base := [4]float64{1, 1, 1, 1}
		if gm.PBRMetallicRoughness.BaseColorFactor != nil {
			base = *gm.PBRMetallicRoughness.BaseColorFactor
		}
		rgba := make([]float64, 4*len(c.Values))
		for i, a := range c.Values {
			copy(rgba[4*i:], base[:3])
			rgba[4*i+3] = a
		}
		return w.pointerOut(fmt.Sprintf("/materials/%d/pbrMetallicRoughness/baseColorFactor", mi), rgba, 4, false), true
	case model.PathUVOffset, model.PathUVScale, model.PathUVRotation:
		slot, ok := w.slotPointer(gm, c.TextureSlot)
		if !ok {
			return channelOut{}, false
		}
		prop := map[string]string{model.PathUVOffset: "offset", model.PathUVScale: "scale", model.PathUVRotation: "rotation"}[c.Path]
		if (prop == "rotation") != (c.Width == 1) || (prop != "rotation" && c.Width != 2) {
			return channelOut{}, false
		}
		return w.pointerOut(fmt.Sprintf("/materials/%d/%s/extensions/%s/%s", mi, slot, extTextureTransform, prop), c.Values, c.Width, false), true
	}
	return channelOut{}, false
}

func (w *writer) pointerOut(ptr string, values []float64, width int, boolean bool) channelOut {
	return channelOut{target: gltf.AnimationChannelTarget{Path: "pointer",
		Extensions: gltf.Extensions{extPointer: map[string]any{"pointer": ptr}}},
		values: values, width: width, ubyte: boolean, step: boolean, pointer: true, key: ptr}
}

// slotPointer returns the JSON pointer path (below the material) of the
// textureInfo a UV channel moves, when that textureInfo was written with a
// KHR_texture_transform object (materials with an animated slot always get
// one).
func (w *writer) slotPointer(gm *gltf.Material, slot string) (string, bool) {
	var ext gltf.Extensions
	var path string
	switch slot {
	case "", "baseColor":
		if t := gm.PBRMetallicRoughness.BaseColorTexture; t != nil {
			ext, path = t.Extensions, "pbrMetallicRoughness/baseColorTexture"
		}
	case "metallicRoughness":
		if t := gm.PBRMetallicRoughness.MetallicRoughnessTexture; t != nil {
			ext, path = t.Extensions, "pbrMetallicRoughness/metallicRoughnessTexture"
		}
	case "normal":
		if t := gm.NormalTexture; t != nil {
			ext, path = t.Extensions, "normalTexture"
		}
	case "occlusion":
		if t := gm.OcclusionTexture; t != nil {
			ext, path = t.Extensions, "occlusionTexture"
		}
	case "emissive":
		if t := gm.EmissiveTexture; t != nil {
			ext, path = t.Extensions, "emissiveTexture"
		}
	}
	if _, ok := ext[extTextureTransform]; !ok {
		return "", false
	}
	return path, true
}

// animatedAssets looks through every animation for the material
// properties that channels animate, so that materials are written with the
// objects those pointers need: a KHR_texture_transform on an animated
// texture slot, and blending for an animated alpha.
func animatedAssets(b *sample.Baked) (slots map[string]bool, alpha map[string]bool) {
	slots, alpha = map[string]bool{}, map[string]bool{}
	for _, a := range b.Animations {
		for _, c := range a.Channels {
			if c.Material == "" {
				continue
			}
			switch c.Path {
			case model.PathUVOffset, model.PathUVScale, model.PathUVRotation:
				s := c.TextureSlot
				if s == "" {
					s = "baseColor"
				}
				slots[c.Material+"\x00"+s] = true
			case model.PathAlpha:
				alpha[c.Material] = true
			}
		}
	}
	return slots, alpha
}
