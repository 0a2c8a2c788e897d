package bfres

import (
	"math"
	"strings"

	"github.com/animbake/bake/model"
)

// Texture-SRT parameter fields (TexSrt, §10.1): byte offsets in the parameter.
const (
	srtMode       = 0x00
	srtScaleX     = 0x04
	srtRotate     = 0x0C
	srtTranslateX = 0x10
	srtSize       = 0x18
)

// paramSource gives the curve, or else the constant, writing a target.
type paramSource struct {
	curves map[uint32]model.Curve
	consts map[uint32]uint32
}

func newParamSource(p *ParamAnim) *paramSource {
	s := &paramSource{curves: map[uint32]model.Curve{}, consts: map[uint32]uint32{}}
	for _, c := range p.Constants {
		s.consts[c.Target] = c.Bits
	}
	for i, c := range p.Curves {
		s.curves[p.Targets[i]] = c // curves are applied after constants
	}
	return s
}

// has reports whether anything writes target.
func (s *paramSource) has(target uint32) bool {
	_, c := s.curves[target]
	_, k := s.consts[target]
	return c || k
}

// float returns the curve at target, else the constant as f32, else def.
func (s *paramSource) float(target uint32, def float64) model.Curve {
	if c, ok := s.curves[target]; ok {
		return c
	}
	if v, ok := s.consts[target]; ok {
		return &model.Constant{Value: []float64{constantValue(v)}}
	}
	return &model.Constant{Value: []float64{def}}
}

// constantValue reads a constant's raw word as an f32, or as an s32 when
// its bits are no finite f32 (an int field such as a mode, e.g. −1).
func constantValue(bits uint32) float64 {
	v := f32bits(bits)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return float64(int32(bits))
	}
	return v
}

// isTexSRT reports whether a parameter has the TexSrt layout: every
// parameter of a texture-SRT animation, and "srt" parameters elsewhere.
func isTexSRT(group int, name string) bool {
	return group == GroupTexSRTAnims || strings.Contains(strings.ToLower(name), "srt")
}

// materialTarget names a channel's material: the material itself, or
// "material:param" when it animates several parameters of the same kind.
func materialTarget(material, param string, several bool) string {
	if several {
		return material + ":" + param
	}
	return material
}

// buildShaderParam converts an FSHU (§10.1). A texture-SRT parameter gives
// uvScale, uvRotation and uvOffset channels (the fields not written keep
// scale 1, rotation 0, translation 0, for the material's own values are not
// read); any other parameter gives one channel named after it, with one
// component per 32-bit field up to the highest written (unwritten ones 0).
func buildShaderParam(a *ShaderParamAnim, warn func(string, ...any)) model.Animation {
	anim := model.Animation{Name: a.Name, Extras: map[string]any{
		"subfiles": a.subfile("FSHU"), "group": groupNames[a.Group],
	}}
	timing(&anim, a.FrameCount, a.Flags)
	modes := map[string]any{}
	for _, m := range a.Materials {
		nSRT := 0
		for _, p := range m.Params {
			if isTexSRT(a.Group, p.Name) {
				nSRT++
			}
		}
		for i := range m.Params {
			p := &m.Params[i]
			src := newParamSource(p)
			if !isTexSRT(a.Group, p.Name) {
				anim.Channels = append(anim.Channels, genericParamChannel(m.Material, p, src))
				continue
			}
			target := materialTarget(m.Material, p.Name, nSRT > 1)
			if v, ok := src.consts[srtMode]; ok {
				modes[target] = v
			} else if src.has(srtMode) {
				modes[target] = "animated"
			}
			for t := range src.curves {
				if t%4 != 0 || t >= srtSize {
					warn("shader parameter animation %s material %s param %s: curve targets offset 0x%x outside the texture SRT; ignored", a.Name, m.Material, p.Name, t)
				}
			}
			if src.has(srtScaleX) || src.has(srtScaleX+4) {
				anim.Channels = append(anim.Channels, model.Channel{Material: target, Path: model.PathUVScale,
					Curve: &model.Vector{Components: []model.Curve{src.float(srtScaleX, 1), src.float(srtScaleX+4, 1)}}})
			}
			if src.has(srtRotate) {
				anim.Channels = append(anim.Channels, model.Channel{Material: target, Path: model.PathUVRotation,
					Curve: src.float(srtRotate, 0)})
			}
			if src.has(srtTranslateX) || src.has(srtTranslateX+4) {
				anim.Channels = append(anim.Channels, model.Channel{Material: target, Path: model.PathUVOffset,
					Curve: &model.Vector{Components: []model.Curve{src.float(srtTranslateX, 0), src.float(srtTranslateX+4, 0)}}})
			}
		}
	}
	if len(modes) > 0 {
		anim.Extras["texSRTMode"] = modes // 0 Maya, 1 3ds Max, 2 Softimage
	}
	return anim
}

// genericParamChannel makes the channel of a non-SRT shader parameter.
func genericParamChannel(material string, p *ParamAnim, src *paramSource) model.Channel {
	var top uint32
	for t := range src.curves {
		top = max(top, t)
	}
	for t := range src.consts {
		top = max(top, t)
	}
	top = min(top, 0xFC) // a parameter is at most 64 floats
	var comps []model.Curve
	for t := uint32(0); t <= top; t += 4 {
		comps = append(comps, src.float(t, 0))
	}
	return model.Channel{Material: material, Path: p.Name, Curve: &model.Vector{Components: comps}}
}

// buildTexPattern converts an FTXP (§10.2): one stepped texturePattern
// channel per sampler whose value indexes Labels, the texture names.
func buildTexPattern(a *TexPatternAnim) model.Animation {
	anim := model.Animation{Name: a.Name, Extras: map[string]any{"subfiles": a.subfile("FTXP")}}
	timing(&anim, a.FrameCount, a.Flags)
	for _, m := range a.Materials {
		for _, p := range m.Patterns {
			var c model.Curve = &model.Constant{Value: []float64{float64(p.Base)}}
			if p.Curve != nil {
				c = p.Curve
			}
			anim.Channels = append(anim.Channels, model.Channel{
				Material: materialTarget(m.Material, p.Sampler, len(m.Patterns) > 1),
				Path:     model.PathTexturePattern, Curve: c, Labels: a.Textures,
			})
		}
	}
	return anim
}

// buildVisibility converts an FVIS (§10.3): one stepped visibility channel
// per entry, from its curve (the one whose target is the entry's index)
// or else its base bit. Bone entries are nodes; material entries materials.
// A bone entry the chosen skeleton lacks binds to nothing in the game and is
// dropped like a skeletal track (nodeSet.bound, extras.unboundBones).
func buildVisibility(a *VisibilityAnim, ns *nodeSet, warn func(string, ...any)) model.Animation {
	kind := "bone"
	if a.Material {
		kind = "material"
	}
	anim := model.Animation{Name: a.Name, Extras: map[string]any{"subfiles": a.subfile("FVIS"), "visibility": kind}}
	timing(&anim, a.FrameCount, a.Flags)
	curves := make([]model.Curve, len(a.Names))
	for i, c := range a.Curves {
		t := a.Targets[i]
		if int64(t) >= int64(len(a.Names)) {
			warn("visibility animation %s: curve %d targets entry %d of %d; ignored", a.Name, i, t, len(a.Names))
			continue
		}
		curves[t] = c
	}
	for i, name := range a.Names {
		c := curves[i]
		if c == nil {
			v := 0.0
			if a.Base[i] {
				v = 1
			}
			c = &model.Constant{Value: []float64{v}}
		}
		ch := model.Channel{Path: model.PathVisibility, Curve: c}
		if a.Material {
			ch.Material = name
		} else if ns.bound(name) {
			ch.Node = name
		} else {
			addUnbound(anim.Extras, name)
			continue
		}
		anim.Channels = append(anim.Channels, ch)
	}
	return anim
}
