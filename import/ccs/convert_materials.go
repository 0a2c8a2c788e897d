package ccs

import (
	"math"

	"github.com/animbake/bake/model"
)

// alphaUse says how a texture uses its alpha: all opaque, cut-outs only
// (0 and 255), or translucent.
type alphaUse int

const (
	alphaOpaque alphaUse = iota
	alphaCutout
	alphaBlend
)

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
