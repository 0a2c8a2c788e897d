package gltf

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"net/url"
	"strings"

	"github.com/qmuntal/gltf"

	"github.com/animbake/bake/model"
)

// Extension names bake may list in extensionsUsed (never extensionsRequired:
// every one has a fallback a client without it can live with).
const (
	extTextureTransform = "KHR_texture_transform"
	extUnlit            = "KHR_materials_unlit"
	extLights           = "KHR_lights_punctual"
	extPointer          = "KHR_animation_pointer"
	extVisibility       = "KHR_node_visibility"
)

// textures writes every texture that has pixels or an image file: its image
// (decoded pixels as PNG, image files as they are) in a buffer view, and a
// sampler. A texture the input only names (Image.URI with no data) is not
// written; materials that use it keep its name in their extras.
func (w *writer) textures() error {
	type samplerKey struct{ wrapS, wrapT, minF, magF int }
	samplers := map[samplerKey]int{}
	for _, t := range w.b.Assets.Textures {
		var data []byte
		mime := t.Image.MIME
		switch {
		case t.Image.RGBA != nil:
			var err error
			if data, err = encodePNG(&t.Image); err != nil {
				return fmt.Errorf("texture %q: %w", t.Name, err)
			}
			mime = "image/png"
		case t.Image.Bytes != nil:
			data = t.Image.Bytes
		default:
			continue
		}
		gi := &gltf.Image{Name: t.Name, MimeType: mime}
		switch w.opts.Textures {
		case TexturesNone:
			continue
		case TexturesExternal:
			name := imageFileName(w.opts.ImagePrefix, len(w.doc.Images), t.Name, mime)
			w.images = append(w.images, File{Name: name, Data: data})
			gi.URI, gi.MimeType = url.PathEscape(name), ""
		default:
			gi.BufferView = gltf.Index(w.view(data, 0))
		}
		w.doc.Images = append(w.doc.Images, gi)
		gt := &gltf.Texture{Name: t.Name, Source: gltf.Index(len(w.doc.Images) - 1), Extras: extrasOrNil(t.Extras)}
		if k := (samplerKey{t.WrapS, t.WrapT, t.MinFilter, t.MagFilter}); k != (samplerKey{}) {
			si, seen := samplers[k]
			if !seen {
				si = len(w.doc.Samplers)
				samplers[k] = si
				w.doc.Samplers = append(w.doc.Samplers, &gltf.Sampler{WrapS: wrapModes[k.wrapS], WrapT: wrapModes[k.wrapT],
					MinFilter: minFilters[k.minF], MagFilter: magFilters[k.magF]})
			}
			gt.Sampler = gltf.Index(si)
		}
		w.textureIndex[t.Name] = len(w.doc.Textures)
		w.doc.Textures = append(w.doc.Textures, gt)
	}
	return nil
}

// encodePNG encodes RGBA pixels; Go's encoder is deterministic, so the same
// pixels always give the same bytes.
func encodePNG(im *model.Image) ([]byte, error) {
	img := &image.NRGBA{Pix: im.RGBA, Stride: 4 * im.Width, Rect: image.Rect(0, 0, im.Width, im.Height)}
	var out bytes.Buffer
	if err := png.Encode(&out, img); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// materials writes every material. Factors at glTF's defaults are left
// out; a texture slot whose texture was not written is dropped and named in
// the material's extras (missingTextures).
func (w *writer) materials() {
	for _, m := range w.b.Assets.Materials {
		ex := map[string]any{}
		for k, v := range m.Extras {
			ex[k] = v
		}
		var missing []string
		ref := func(r model.TextureRef, slot string) (*gltf.TextureInfo, bool) {
			if r.Texture == "" {
				return nil, false
			}
			ti, ok := w.textureIndex[r.Texture]
			if !ok {
				missing = append(missing, r.Texture)
				return nil, false
			}
			info := &gltf.TextureInfo{Index: ti, TexCoord: r.UV}
			r.Transform = r.Transform || w.animatedSlots[m.Name+"\x00"+slot]
			if tt := textureTransform(r); tt != nil {
				info.Extensions = gltf.Extensions{extTextureTransform: tt}
				w.use(extTextureTransform)
			}
			return info, true
		}
		pbr := &gltf.PBRMetallicRoughness{}
		if m.BaseColor != [4]float64{1, 1, 1, 1} {
			c := m.BaseColor
			short32In(c[:]) // numbers in float32's shortest form (Short32)
			pbr.BaseColorFactor = &c
		}
		pbr.BaseColorTexture, _ = ref(m.BaseColorTexture, "baseColor")
		pbr.MetallicRoughnessTexture, _ = ref(m.MetallicRoughnessTexture, "metallicRoughness")
		if m.Metallic != 1 {
			pbr.MetallicFactor = gltf.Float(Short32(m.Metallic))
		}
		if m.Roughness != 1 {
			pbr.RoughnessFactor = gltf.Float(Short32(m.Roughness))
		}
		gm := &gltf.Material{Name: m.Name, PBRMetallicRoughness: pbr, EmissiveFactor: m.Emissive,
			DoubleSided: m.DoubleSided}
		short32In(gm.EmissiveFactor[:])
		if info, ok := ref(m.Normal, "normal"); ok {
			gm.NormalTexture = &gltf.NormalTexture{Index: gltf.Index(info.Index), TexCoord: info.TexCoord, Extensions: info.Extensions}
		}
		if info, ok := ref(m.Occlusion, "occlusion"); ok {
			gm.OcclusionTexture = &gltf.OcclusionTexture{Index: gltf.Index(info.Index), TexCoord: info.TexCoord, Extensions: info.Extensions}
		}
		gm.EmissiveTexture, _ = ref(m.EmissiveTexture, "emissive")
		switch m.AlphaMode {
		case model.AlphaMask:
			gm.AlphaMode = gltf.AlphaMask
			if m.AlphaCutoff != 0.5 {
				gm.AlphaCutoff = gltf.Float(Short32(m.AlphaCutoff))
			}
		case model.AlphaBlend:
			gm.AlphaMode = gltf.AlphaBlend
		default:
			if w.animatedAlpha[m.Name] {
				// An animated alpha shows only when the material blends.
				gm.AlphaMode = gltf.AlphaBlend
				ex["alphaModeFromAnimation"] = true
			}
		}
		if m.Unlit {
			gm.Extensions = gltf.Extensions{extUnlit: map[string]any{}}
			w.use(extUnlit)
		}
		if len(missing) > 0 {
			ex["missingTextures"] = missing
		}
		if len(ex) > 0 {
			gm.Extras = ex
		}
		w.materialIndex[m.Name] = len(w.doc.Materials)
		w.doc.Materials = append(w.doc.Materials, gm)
	}
}

// textureTransform returns the KHR_texture_transform object of r, or nil
// when r is the identity and no channel animates it.
func textureTransform(r model.TextureRef) map[string]any {
	scale := r.Scale
	if scale == ([2]float64{}) {
		scale = [2]float64{1, 1}
	}
	if !r.Transform && r.Offset == ([2]float64{}) && scale == ([2]float64{1, 1}) && r.Rotation == 0 {
		return nil
	}
	// Offset and scale at the extension's defaults (0 0, 1 1) are written
	// only when a channel animates them, for the pointer to name.
	offset := r.Offset
	short32In(offset[:])
	short32In(scale[:])
	tt := map[string]any{}
	if r.Transform || offset != ([2]float64{}) {
		tt["offset"] = offset
	}
	if r.Transform || scale != ([2]float64{1, 1}) {
		tt["scale"] = scale
	}
	if r.Rotation != 0 {
		tt["rotation"] = Short32(r.Rotation)
	}
	return tt
}

// qmuntal/gltf numbers its enumerations from 0 and maps them to the GL
// values on output; the model uses the GL values. Unknown values map to
// the zero value, which qmuntal writes as glTF's default (left out).
var (
	wrapModes = map[int]gltf.WrappingMode{model.WrapRepeat: gltf.WrapRepeat, model.WrapClampToEdge: gltf.WrapClampToEdge,
		model.WrapMirroredRepeat: gltf.WrapMirroredRepeat}
	minFilters = map[int]gltf.MinFilter{model.FilterNearest: gltf.MinNearest, model.FilterLinear: gltf.MinLinear}
	magFilters = map[int]gltf.MagFilter{model.FilterNearest: gltf.MagNearest, model.FilterLinear: gltf.MagLinear}
)

// imageFileName names the n-th external image: the output's base name, a
// number that keeps names unique, and the texture name reduced to
// characters safe in any file system and URI.
func imageFileName(prefix string, n int, texture, mime string) string {
	safe := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, texture)
	ext := ".png"
	if mime == "image/jpeg" {
		ext = ".jpg"
	}
	if prefix == "" {
		prefix = "texture"
	}
	return fmt.Sprintf("%s_%d_%s%s", prefix, n, safe, ext)
}
