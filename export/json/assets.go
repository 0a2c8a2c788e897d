package json

import (
	"fmt"

	"github.com/animbake/bake/model"
)

// Assets describes the file's meshes, materials, textures, skins, cameras
// and lights. Vertex data and pixels are not repeated here (the glTF output
// carries them): meshes give their counts, textures their size and origin.
type Assets struct {
	Meshes    []Mesh     `json:"meshes,omitempty"`
	Materials []Material `json:"materials,omitempty"`
	Textures  []Texture  `json:"textures,omitempty"`
	Skins     []Skin     `json:"skins,omitempty"`
	Cameras   []Camera   `json:"cameras,omitempty"`
	Lights    []Light    `json:"lights,omitempty"`
}

// Mesh summarises a mesh.
type Mesh struct {
	Name        string         `json:"name"`
	Primitives  []Primitive    `json:"primitives"`
	TargetNames []string       `json:"targetNames,omitempty"`
	Extras      map[string]any `json:"extras,omitempty"`
}

// Primitive summarises one draw: its vertex and index counts, the
// attributes present, its glTF mode and material.
type Primitive struct {
	Vertices   int      `json:"vertices"`
	Indices    int      `json:"indices"`
	Mode       int      `json:"mode"`
	Attributes []string `json:"attributes"`
	Material   string   `json:"material,omitempty"`
	// Min and Max bound the positions (in the output axes).
	Min []F32 `json:"min"`
	Max []F32 `json:"max"`
}

// Material is a material's glTF metallic-roughness mapping.
type Material struct {
	Name             string         `json:"name"`
	BaseColor        []F32          `json:"baseColor"`
	BaseColorTexture *TextureRef    `json:"baseColorTexture,omitempty"`
	Metallic         F32            `json:"metallic"`
	Roughness        F32            `json:"roughness"`
	Normal           *TextureRef    `json:"normalTexture,omitempty"`
	Occlusion        *TextureRef    `json:"occlusionTexture,omitempty"`
	Emissive         []F32          `json:"emissive"`
	EmissiveTexture  *TextureRef    `json:"emissiveTexture,omitempty"`
	AlphaMode        string         `json:"alphaMode"`
	AlphaCutoff      F32            `json:"alphaCutoff,omitempty"`
	DoubleSided      bool           `json:"doubleSided"`
	Unlit            bool           `json:"unlit"`
	Extras           map[string]any `json:"extras,omitempty"`
}

// TextureRef binds a texture with its UV set and transform.
type TextureRef struct {
	Texture  string `json:"texture"`
	UV       int    `json:"uv"`
	Offset   []F32  `json:"offset"`
	Scale    []F32  `json:"scale"`
	Rotation F32    `json:"rotation"`
}

// Texture names an image: "pixels" (decoded, written as PNG), a stored
// file's MIME type, or "missing" with the file the input names.
type Texture struct {
	Name   string         `json:"name"`
	Width  int            `json:"width,omitempty"`
	Height int            `json:"height,omitempty"`
	Image  string         `json:"image"`
	URI    string         `json:"uri,omitempty"`
	Extras map[string]any `json:"extras,omitempty"`
}

// Skin lists a skin's joints and inverse bind matrices (column-major).
type Skin struct {
	Name        string   `json:"name"`
	Joints      []string `json:"joints"`
	InverseBind [][]F32  `json:"inverseBindMatrices"`
	Skeleton    string   `json:"skeleton,omitempty"`
}

// Camera is a camera's projection.
type Camera struct {
	Name   string `json:"name"`
	Type   string `json:"type"`
	Yfov   F32    `json:"yfov,omitempty"`
	Aspect F32    `json:"aspectRatio,omitempty"`
	XMag   F32    `json:"xmag,omitempty"`
	YMag   F32    `json:"ymag,omitempty"`
	Znear  F32    `json:"znear"`
	Zfar   F32    `json:"zfar,omitempty"`
}

// Light is a punctual light.
type Light struct {
	Name      string `json:"name"`
	Type      string `json:"type"`
	Color     []F32  `json:"color"`
	Intensity F32    `json:"intensity"`
	Range     F32    `json:"range,omitempty"`
	InnerCone F32    `json:"innerConeAngle,omitempty"`
	OuterCone F32    `json:"outerConeAngle,omitempty"`
}

func buildAssets(a *model.Assets) *Assets {
	if a.Empty() {
		return nil
	}
	out := &Assets{}
	for _, m := range a.Meshes {
		jm := Mesh{Name: m.Name, TargetNames: m.TargetNames, Extras: m.Extras}
		for _, p := range m.Primitives {
			jm.Primitives = append(jm.Primitives, summarise(&p))
		}
		out.Meshes = append(out.Meshes, jm)
	}
	for _, m := range a.Materials {
		alpha := m.AlphaMode
		if alpha == "" {
			alpha = model.AlphaOpaque
		}
		out.Materials = append(out.Materials, Material{Name: m.Name, BaseColor: f32s(m.BaseColor[:]),
			BaseColorTexture: textureRef(m.BaseColorTexture), Metallic: F32(m.Metallic), Roughness: F32(m.Roughness),
			Normal: textureRef(m.Normal), Occlusion: textureRef(m.Occlusion), Emissive: f32s(m.Emissive[:]),
			EmissiveTexture: textureRef(m.EmissiveTexture), AlphaMode: alpha, AlphaCutoff: F32(m.AlphaCutoff),
			DoubleSided: m.DoubleSided, Unlit: m.Unlit, Extras: m.Extras})
	}
	for _, t := range a.Textures {
		jt := Texture{Name: t.Name, Width: t.Image.Width, Height: t.Image.Height, Image: "pixels", Extras: t.Extras}
		switch {
		case t.Image.RGBA != nil:
		case t.Image.Bytes != nil:
			jt.Image = t.Image.MIME
		default:
			jt.Image, jt.URI = "missing", t.Image.URI
		}
		out.Textures = append(out.Textures, jt)
	}
	for _, s := range a.Skins {
		js := Skin{Name: s.Name, Joints: s.Joints, Skeleton: s.Skeleton, InverseBind: make([][]F32, len(s.InverseBind))}
		for i := range s.InverseBind {
			js.InverseBind[i] = f32s(s.InverseBind[i][:])
		}
		out.Skins = append(out.Skins, js)
	}
	for _, c := range a.Cameras {
		out.Cameras = append(out.Cameras, Camera{Name: c.Name, Type: c.Type, Yfov: F32(c.Yfov), Aspect: F32(c.Aspect),
			XMag: F32(c.XMag), YMag: F32(c.YMag), Znear: F32(c.Znear), Zfar: F32(c.Zfar)})
	}
	for _, l := range a.Lights {
		out.Lights = append(out.Lights, Light{Name: l.Name, Type: l.Type, Color: f32s(l.Color[:]), Intensity: F32(l.Intensity),
			Range: F32(l.Range), InnerCone: F32(l.InnerCone), OuterCone: F32(l.OuterCone)})
	}
	return out
}

func summarise(p *model.Primitive) Primitive {
	jp := Primitive{Vertices: len(p.Positions) / 3, Indices: len(p.Indices), Mode: p.Mode, Material: p.Material,
		Attributes: []string{"POSITION"}}
	for _, at := range []struct {
		name    string
		present bool
	}{{"NORMAL", p.Normals != nil}, {"TANGENT", p.Tangents != nil}, {"COLOR_0", p.Colors != nil},
		{"JOINTS_0", p.Joints != nil}, {"WEIGHTS_0", p.Weights != nil}} {
		if at.present {
			jp.Attributes = append(jp.Attributes, at.name)
		}
	}
	for i := range p.UVs {
		jp.Attributes = append(jp.Attributes, fmt.Sprintf("TEXCOORD_%d", i))
	}
	var mn, mx [3]float64
	for j := range 3 {
		mn[j], mx[j] = float64(p.Positions[j]), float64(p.Positions[j])
	}
	for i, v := range p.Positions {
		mn[i%3] = min(mn[i%3], float64(v))
		mx[i%3] = max(mx[i%3], float64(v))
	}
	jp.Min, jp.Max = f32s(mn[:]), f32s(mx[:])
	return jp
}

func textureRef(r model.TextureRef) *TextureRef {
	if r.Texture == "" {
		return nil
	}
	scale := r.Scale
	if scale == ([2]float64{}) {
		scale = [2]float64{1, 1}
	}
	return &TextureRef{Texture: r.Texture, UV: r.UV, Offset: f32s(r.Offset[:]), Scale: f32s(scale[:]), Rotation: F32(r.Rotation)}
}
