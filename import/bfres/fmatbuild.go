package bfres

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/animbake/bake/model"
)

// Render-state modes (flags bits 0–1) and GX2 compare functions.
const (
	renderModeOpaque      = 1
	renderModeAlphaMask   = 2
	renderModeTranslucent = 3

	compareGreater      = 4
	compareGreaterEqual = 6
)

// Sampler slots: the sampler name's letters before the digit say what the
// texture is for (BotW, MK8 and most NW4F games name samplers _a0, _n0 …).
// Only the glTF slots are listed; others (_s0 specular, _a1 second albedo,
// _b0 bake, _t0 …) stay in the material's extras.
var samplerSlots = map[string]string{
	"_a0":  "baseColor",
	"_n0":  "normal",
	"_e0":  "emissive",
	"_ao0": "occlusion",
}

// buildMaterial maps an FMAT to a glTF metallic-roughness material. The
// FMAT has no PBR terms (those live in the shader archive): base colour
// white, metallic 0, roughness 1. Alpha: a translucent mode or an enabled
// blend gives BLEND; an enabled alpha test with ≥ or > gives MASK at the
// reference value; BotW's render info (gsys_render_state_mode,
// gsys_alpha_test_*, gsys_render_state_display_face) wins over the render
// state when present. Culling: nothing culled gives DoubleSided. Textures
// are linked later (linkTextures) once the FTEX names are known to exist.
func buildMaterial(m *Material) model.Material {
	out := model.Material{Name: m.Name, BaseColor: [4]float64{1, 1, 1, 1}, Roughness: 1, AlphaMode: model.AlphaOpaque}
	ex := map[string]any{"flags": m.Flags, "shaderArchive": m.Shader.Archive, "shadingModel": m.Shader.Model}
	doubleSided := false
	if rs := m.RenderState; rs != nil {
		ex["renderState"] = map[string]any{
			"flags": rs.Flags, "polygonControl": rs.PolygonControl, "depthControl": rs.DepthControl,
			"alphaControl": rs.AlphaControl, "alphaRef": rs.AlphaRef, "colorControl": rs.ColorControl,
			"blendTarget": rs.BlendTarget, "blendControl": rs.BlendControl, "blendColor": rs.BlendColor[:],
		}
		blend := rs.ColorControl>>8&0xFF != 0
		test := rs.AlphaControl&8 != 0
		fn := rs.AlphaControl & 7
		switch {
		case rs.Flags&3 == renderModeTranslucent || blend:
			out.AlphaMode = model.AlphaBlend
		case test && (fn == compareGreaterEqual || fn == compareGreater):
			out.AlphaMode, out.AlphaCutoff = model.AlphaMask, float64(rs.AlphaRef)
		}
		doubleSided = rs.PolygonControl&3 == 0
	}
	info := map[string]RenderInfo{}
	ri := map[string]any{}
	for _, r := range m.RenderInfo {
		info[r.Name] = r
		switch {
		case r.Strings != nil:
			ri[r.Name] = r.Strings
		case r.Floats != nil:
			ri[r.Name] = r.Floats
		default:
			ri[r.Name] = r.Ints
		}
	}
	if len(ri) > 0 {
		ex["renderInfo"] = ri
	}
	if mode, ok := renderInfoString(info, "gsys_render_state_mode"); ok {
		switch mode {
		case "opaque":
			out.AlphaMode, out.AlphaCutoff = model.AlphaOpaque, 0
		case "mask":
			out.AlphaMode = model.AlphaMask
		case "translucent", "xlu":
			out.AlphaMode, out.AlphaCutoff = model.AlphaBlend, 0
		}
	}
	if on, ok := renderInfoString(info, "gsys_alpha_test_enable"); ok && on == "true" {
		if v, ok := info["gsys_alpha_test_value"]; ok && len(v.Floats) > 0 && out.AlphaMode != model.AlphaBlend {
			out.AlphaMode, out.AlphaCutoff = model.AlphaMask, float64(v.Floats[0])
		}
	}
	if out.AlphaMode == model.AlphaMask && out.AlphaCutoff == 0 {
		out.AlphaCutoff = 0.5 // glTF's default; a zero cutoff would hide nothing
	}
	for _, name := range displayFaceInfos {
		if face, ok := renderInfoString(info, name); ok {
			doubleSided = face == "both"
		}
	}
	out.DoubleSided = doubleSided
	var samplers []map[string]any
	for i, s := range m.Samplers {
		e := map[string]any{"name": s.Name, "slot": samplerSlot(m, s.Name)}
		if s.NX != nil {
			e["nx"] = map[string]any{"wrap": s.NX.Wrap[:], "filter": s.NX.Filter}
		} else {
			e["gx2"] = s.Words[:]
		}
		if i < len(m.Textures) {
			e["texture"] = m.Textures[i]
		}
		samplers = append(samplers, e)
	}
	if samplers != nil {
		ex["samplers"] = samplers
	}
	if params := shaderParams(m.Params); len(params) > 0 {
		ex["shaderParams"] = params
	}
	if len(m.Shader.Options) > 0 {
		ex["shaderOptions"] = m.Shader.Options
	}
	out.Extras = ex
	return out
}

// renderInfoString returns the first string of a render info.
func renderInfoString(info map[string]RenderInfo, name string) (string, bool) {
	r, ok := info[name]
	if !ok || len(r.Strings) == 0 {
		return "", false
	}
	return r.Strings[0], true
}

// samplerSlot returns the glTF slot of a material sampler: its own name's
// when that is a known one (_a0, _n0, _e0, _ao0), else that of the shader
// sampler assigned to it (sampler assign maps shader name → material
// sampler name), but only base colour or normal: a shader-side _e0 is not
// emission in every shader. Breath of the Wild's uking_mat feeds its _e0
// with an ambient-occlusion map (Npc_Rito_Musician's Mt_Body: _e0 ← _ao0)
// or an eye-shadow map (Mt_Eyeball_L: _e0 ← _sd0); Switch-Toolbox reads a
// shader-side _e0 as emission for Mario Kart 8 Deluxe only, and AO from
// the material's own _ao0.
func samplerSlot(m *Material, name string) string {
	if slot, ok := samplerSlots[name]; ok {
		return slot
	}
	shaderNames := make([]string, 0, len(m.Shader.SamplerAssign))
	for shaderName, matName := range m.Shader.SamplerAssign {
		if matName == name {
			shaderNames = append(shaderNames, shaderName)
		}
	}
	slices.Sort(shaderNames)
	for _, shaderName := range shaderNames {
		if slot := samplerSlots[shaderName]; slot == "baseColor" || slot == "normal" {
			return slot
		}
	}
	return ""
}

// displayFaceInfos name the render info that says which faces are drawn
// (front, back or both): Breath of the Wild's, and the Switch games'
// (Super Mario Odyssey's materials all carry display_face).
var displayFaceInfos = []string{"gsys_render_state_display_face", "display_face"}

// flipWinding reports whether a material's faces must be reversed for
// glTF's counter-clockwise front faces: GX2's front face is clockwise
// (polygon control bit 2), or only front faces are culled (bit 0 without
// bit 1), so the back faces are the ones drawn.
func flipWinding(m *Material) bool {
	rs := m.RenderState
	cw := rs != nil && rs.PolygonControl&4 != 0
	backOnly := rs != nil && rs.PolygonControl&3 == 1
	for _, r := range m.RenderInfo {
		if slices.Contains(displayFaceInfos, r.Name) && len(r.Strings) > 0 {
			backOnly = r.Strings[0] == "back"
		}
	}
	return backOnly != cw
}

// shaderParams decodes the raw shader parameters by type: booleans, ints
// and uints as integers, floats (vectors, matrices, SRTs) as floats.
func shaderParams(ps []ShaderParam) map[string]any {
	out := map[string]any{}
	for _, p := range ps {
		out[p.Name] = shaderParamValue(p)
	}
	return out
}

func shaderParamValue(p ShaderParam) any {
	words := len(p.Data) / 4
	switch {
	case p.Type <= 3: // bool, bool2..4
		var v []bool
		for i := range words {
			v = append(v, binary.BigEndian.Uint32(p.Data[4*i:]) != 0)
		}
		return v
	case p.Type <= 7: // int..int4
		var v []int32
		for i := range words {
			v = append(v, int32(binary.BigEndian.Uint32(p.Data[4*i:])))
		}
		return v
	case p.Type <= 11: // uint..uint4
		var v []uint32
		for i := range words {
			v = append(v, binary.BigEndian.Uint32(p.Data[4*i:]))
		}
		return v
	}
	// floats, matrices, Srt2D/3D; TexSrt starts with a u32 mode
	var v []any
	for i := range words {
		w := binary.BigEndian.Uint32(p.Data[4*i:])
		if i == 0 && (p.Type == shaderParamTexSrt || p.Type == shaderParamTexSrtEx) {
			v = append(v, w)
			continue
		}
		f := float64(math.Float32frombits(w))
		if math.IsNaN(f) || math.IsInf(f, 0) {
			v = append(v, w) // not a float: keep the raw word
			continue
		}
		v = append(v, f)
	}
	return v
}

// Shader parameter types with a leading mode word (ShaderParamType).
const (
	shaderParamTexSrt   = 30
	shaderParamTexSrtEx = 31
)

// linkTextures binds each material's sampler slots to the textures that
// exist (by FTEX name) and sets those textures' samplers from the first
// material that uses them. Names with no texture (modelTextures has warned
// about them) are kept in the material's extras ("missingTextures").
func linkTextures(mats []model.Material, src []*Material, textures []model.Texture) {
	byName := map[string]int{}
	for i, t := range textures {
		byName[t.Name] = i
	}
	sampled := map[string]bool{}
	for i := range mats {
		m, s := &mats[i], src[i]
		var missing []string
		for k, smp := range s.Samplers[:min(len(s.Samplers), len(s.Textures))] {
			name := s.Textures[k]
			ti, ok := byName[name]
			if !ok {
				missing = append(missing, name)
				continue
			}
			if !sampled[name] {
				sampled[name] = true
				t := &textures[ti]
				t.WrapS, t.WrapT, t.MagFilter, t.MinFilter = smp.gltf()
			}
			ref := model.TextureRef{Texture: name}
			switch samplerSlot(s, smp.Name) {
			case "baseColor":
				m.BaseColorTexture = ref
			case "normal":
				m.Normal = ref
				asNormalMap(&textures[ti])
			case "emissive":
				m.EmissiveTexture = ref
				m.Emissive = [3]float64{1, 1, 1}
			case "occlusion":
				m.Occlusion = ref
			}
		}
		if missing != nil {
			m.Extras["missingTextures"] = missing
		}
	}
}

// gltf returns the sampler's glTF wrap modes (S, T) and filters
// (magnification, minification).
func (s *Sampler) gltf() (wrapS, wrapT, mag, min int) {
	if n := s.NX; n != nil {
		return nxWrap(n.Wrap[0]), nxWrap(n.Wrap[1]), nxFilter(n.Filter >> 2 & 3), nxFilter(n.Filter >> 4 & 3)
	}
	w := s.Words[0]
	return gx2Wrap(w & 7), gx2Wrap(w >> 3 & 7), gx2Filter(w >> 9 & 3), gx2Filter(w >> 12 & 3)
}

// nxWrap maps a Switch address mode to glTF's wrap: repeat → REPEAT,
// mirror and mirror-once → MIRRORED_REPEAT (as for GX2, glTF has no
// mirror-once), clamp to edge or border → CLAMP_TO_EDGE.
func nxWrap(m uint8) int {
	switch m {
	case 0:
		return model.WrapRepeat
	case 1, 4:
		return model.WrapMirroredRepeat
	}
	return model.WrapClampToEdge
}

// nxFilter maps a Switch filter field (1 point, 2 linear) to glTF's.
func nxFilter(f uint16) int {
	if f == 1 {
		return model.FilterNearest
	}
	return model.FilterLinear
}

// gx2Wrap maps a GX2 texture clamp mode to glTF's wrap: wrap → REPEAT,
// mirror → MIRRORED_REPEAT, the clamp and border modes → CLAMP_TO_EDGE,
// mirror-once modes → MIRRORED_REPEAT (glTF has no mirror-once).
func gx2Wrap(c uint32) int {
	switch c {
	case 0:
		return model.WrapRepeat
	case 1, 3, 5, 7:
		return model.WrapMirroredRepeat
	}
	return model.WrapClampToEdge
}

// gx2Filter maps a GX2 XY filter (0 point, 1 bilinear) to glTF's.
func gx2Filter(f uint32) int {
	if f == 0 {
		return model.FilterNearest
	}
	return model.FilterLinear
}
