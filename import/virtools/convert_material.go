package virtools

import (
	"math"

	"github.com/animbake/bake/model"
)

// materialName returns the model name of a material, converting it on
// first use. Prelit meshes use an unlit variant named "<name> (prelit)".
func (ax *assetConverter) materialName(index int, prelit bool) string {
	k := materialKey{index, prelit}
	if name, done := ax.materialKeys[k]; done {
		return name
	}
	base := ax.s.Objects[index].Name
	if prelit {
		base += " (prelit)"
	}
	name := ax.unique(ax.usedMaterial, base, "material", index)
	ax.materialKeys[k] = name
	ax.file.Materials = append(ax.file.Materials, ax.material(ax.a.Materials[index], name, prelit))
	return name
}

// materialDefaults are the extras values left out: the CKMaterial defaults
// decodeMaterial starts from (source blend one, destination blend zero,
// z-write on) and Direct3D's render-state defaults Virtools keeps (alpha
// blending and alpha test off, alpha function always, reference 0,
// texture address wrap). The keys' types are the ones material writes.
var materialDefaults = map[string]any{
	"virtoolsSrcBlend": uint8(BlendOne), "virtoolsDstBlend": uint8(BlendZero), "virtoolsZWrite": true,
	"virtoolsAlphaBlend": false, "virtoolsAlphaTest": false, "virtoolsAlphaFunc": uint8(CmpAlways),
	"virtoolsAlphaRef": uint8(0), "virtoolsAddress": uint8(AddressWrap),
}

// material maps a Virtools fixed-function material to glTF
// metallic-roughness (docs/formats/virtools.md, "Materials"):
//   - base colour = diffuse (RGB sRGB-decoded, alpha as is); prelit meshes
//     and the decal texture modes light nothing, so they get an unlit
//     material whose base colour is white (the vertex colours or the
//     texture give the colour);
//   - metallic 0; roughness from the specular power p by the usual
//     Blinn-Phong to GGX match, α = √(2/(p+2)) and roughness = √α, or 1
//     when the specular colour is black (no highlight);
//   - emissive = emissive colour;
//   - alpha: blending on → BLEND, else the alpha test → MASK with the
//     reference as cutoff (ref/255; (ref+0.5)/255 for "greater"), else
//     OPAQUE;
//   - two-sided → double-sided;
//   - texture → base-colour texture on UV set 0 with its sampler from the
//     material's address and filter modes.
//
// Every original value is kept in Extras, except values at their defaults
// (materialDefaults) and the object's name when it is the material's.
func (ax *assetConverter) material(m *Material, name string, prelit bool) model.Material {
	o := ax.s.Objects[m.Index].Name
	d := argb(m.Diffuse)
	out := model.Material{Name: name, BaseColor: [4]float64{srgbToLinear(d[0]), srgbToLinear(d[1]), srgbToLinear(d[2]), d[3]},
		DoubleSided: m.TwoSided, Roughness: 1,
		Extras: map[string]any{"virtoolsMaterial": o, "virtoolsDiffuse": hexColor(m.Diffuse), "virtoolsAmbient": hexColor(m.Ambient),
			"virtoolsSpecular": hexColor(m.Specular), "virtoolsEmissive": hexColor(m.Emissive), "virtoolsPower": float64(m.Power),
			"virtoolsTextureBlend": m.TextureBlend, "virtoolsSrcBlend": m.SrcBlend, "virtoolsDstBlend": m.DstBlend,
			"virtoolsAlphaBlend": m.AlphaBlend, "virtoolsAlphaTest": m.AlphaTest, "virtoolsAlphaFunc": m.AlphaFunc,
			"virtoolsAlphaRef": m.AlphaRef, "virtoolsZWrite": m.ZWrite, "virtoolsAddress": m.Address,
			"virtoolsFilter": []int{int(m.MinFilter), int(m.MagFilter)}}}
	for k, def := range materialDefaults {
		if out.Extras[k] == def {
			delete(out.Extras, k)
		}
	}
	if o == name { // the material's own name, or its source name when renamed
		delete(out.Extras, "virtoolsMaterial")
	}
	if m.Effect != 0 {
		out.Extras["virtoolsEffect"] = m.Effect
	}
	if g := ax.groups[m.Index]; len(g) > 0 {
		out.Extras["virtoolsGroups"] = g
	}
	if s := argb(m.Specular); s[0]+s[1]+s[2] > 0 && m.Power > 0 {
		alpha := math.Sqrt(2 / (float64(m.Power) + 2))
		out.Roughness = math.Sqrt(alpha)
	}
	e := argb(m.Emissive)
	out.Emissive = [3]float64{srgbToLinear(e[0]), srgbToLinear(e[1]), srgbToLinear(e[2])}
	switch {
	case m.AlphaBlend:
		out.AlphaMode = model.AlphaBlend
	case m.AlphaTest:
		out.AlphaMode = model.AlphaMask
		out.AlphaCutoff = float64(m.AlphaRef) / 255
		if m.AlphaFunc == CmpGreater {
			out.AlphaCutoff = (float64(m.AlphaRef) + 0.5) / 255
		}
	}
	decal := m.TextureBlend == TexBlendDecal || m.TextureBlend == TexBlendCopy
	if m.Texture != noRef && ax.a.Textures[m.Texture] != nil {
		tex, pixels := ax.textureName(m.Texture, m)
		if tex != "" {
			out.BaseColorTexture = model.TextureRef{Texture: tex}
		}
		if !pixels {
			decal = false // no texture to replace the colour with
		}
		out.Extras["virtoolsTexture"] = ax.s.Objects[m.Texture].Name
	} else {
		decal = false
		if m.Texture != noRef {
			out.Extras["virtoolsTexture"] = ax.s.Objects[m.Texture].Name
		}
	}
	if prelit || decal {
		out.Unlit = true
		out.BaseColor = [4]float64{1, 1, 1, d[3]}
		if prelit {
			out.BaseColor[3] = 1 // the vertex colours carry the alpha
		}
	}
	return out
}

// sampler maps a material's address and filter modes to glTF: wrap →
// repeat, mirror → mirrored repeat, clamp and border → clamp to edge;
// nearest/linear magnification; the mip-mapped minification modes to
// glTF's NEAREST_MIPMAP_NEAREST (9984), LINEAR_MIPMAP_NEAREST (9985),
// NEAREST_MIPMAP_LINEAR (9986) and LINEAR_MIPMAP_LINEAR (9987; also for
// anisotropic).
func sampler(m *Material) [4]int {
	wrap := model.WrapRepeat
	switch m.Address {
	case AddressMirror:
		wrap = model.WrapMirroredRepeat
	case AddressClamp, AddressBorder:
		wrap = model.WrapClampToEdge
	}
	filter := func(f uint8) int {
		switch f {
		case FilterNearest:
			return model.FilterNearest
		case FilterLinear:
			return model.FilterLinear
		case FilterMipNearest:
			return 9984
		case 4:
			return 9985
		case 5:
			return 9986
		case 6, 7:
			return 9987
		}
		return 0
	}
	mag := filter(m.MagFilter)
	if mag > model.FilterLinear {
		mag = model.FilterLinear
	}
	return [4]int{wrap, wrap, filter(m.MinFilter), mag}
}

// hexColor formats an ARGB dword as "#AARRGGBB".
func hexColor(c uint32) string {
	const digits = "0123456789ABCDEF"
	b := []byte("#00000000")
	for i := range 8 {
		b[8-i] = digits[c>>(4*i)&0xf]
	}
	return string(b)
}
