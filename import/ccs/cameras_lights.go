package ccs

import (
	"math"

	"github.com/animbake/bake/model"
)

// Light types: the first byte of a Light chunk's body
// (blender_ccs_importer ccsLight.py).
const (
	LightDistant = 1
	LightDirect  = 2
	LightSpot    = 3
	LightOmni    = 4
)

// defaultFOV is the field of view of a camera no record gives one: 45°,
// blender_ccs_importer's default (CCS Camera chunks hold only their id).
const defaultFOV = 45

// camerasAndLights hangs a model.Camera on the node of every Camera chunk
// and a model.Light on the node of every Light chunk (distant and direct
// lights → directional, spot → spot, omni → point), adding the nodes when
// no animation did. Static values come from the first key of the first
// channel that animates them (CCS keeps colours and the field of view in
// the Anime records, not in the chunks): colour bytes /255, the field of
// view in degrees (blender_ccs_importer converts it with radians()) taken
// as vertical, intensity 1.
func (ac *assetConverter) camerasAndLights() error {
	first := func(node, path string) []float32 {
		for _, a := range ac.f.Animations {
			for _, c := range a.Channels {
				if c.Node == node && c.Path == path {
					if t, ok := c.Curve.(*model.CcAnmTrack); ok && len(t.Values) >= t.Width {
						return t.Values[:t.Width]
					}
				}
			}
		}
		return nil
	}
	for _, id := range ac.a.Cameras {
		i, err := ac.ns.add(id, 0)
		if err != nil {
			return err
		}
		n := &ac.ns.nodes[i]
		if n.Camera != "" {
			continue
		}
		fov := float64(defaultFOV)
		if v := first(n.Name, CameraFloatNames[0]); v != nil {
			fov = float64(v[0])
		}
		n.Kind, n.Camera = "camera", n.Name
		ac.f.Cameras = append(ac.f.Cameras, model.Camera{Name: n.Name, Type: model.CameraPerspective,
			Yfov: fov * math.Pi / 180, Znear: 1, Extras: map[string]any{"ccsObject": int64(id)}})
	}
	ids := make([]uint32, 0, len(ac.a.Lights))
	for id := range ac.a.Lights {
		ids = append(ids, id)
	}
	sortU32(ids)
	for _, id := range ids {
		typ := model.LightDirectional
		switch ac.a.Lights[id] {
		case LightSpot:
			typ = model.LightSpot
		case LightOmni:
			typ = model.LightPoint
		}
		i, err := ac.ns.add(id, 0)
		if err != nil {
			return err
		}
		n := &ac.ns.nodes[i]
		if n.Light != "" {
			continue
		}
		l := model.Light{Name: n.Name, Type: typ, Color: [3]float64{1, 1, 1}, Intensity: 1,
			Extras: map[string]any{"ccsObject": int64(id), "ccsLightType": int64(ac.a.Lights[id])}}
		if v := first(n.Name, PathColor); len(v) >= 3 {
			for k := range 3 {
				l.Color[k] = float64(v[k]) / 255
			}
		}
		if typ == model.LightSpot {
			l.OuterCone = math.Pi / 4
		}
		n.Kind, n.Light = "light", n.Name
		ac.f.Lights = append(ac.f.Lights, l)
	}
	return nil
}

// bindCameraLightChannels converts the channels of camera and light nodes
// to what glTF animates: a camera's fov from degrees to radians, a light's
// RGBA colour bytes to RGB 0..1 (both maps are linear, so ccAnm's
// interpolation carries over up to float32 rounding).
func bindCameraLightChannels(f *model.File) {
	cams, lights := map[string]bool{}, map[string]bool{}
	for _, n := range f.Nodes {
		cams[n.Name] = n.Camera != ""
		lights[n.Name] = n.Light != ""
	}
	for ai := range f.Animations {
		for ci := range f.Animations[ai].Channels {
			c := &f.Animations[ai].Channels[ci]
			t, ok := c.Curve.(*model.CcAnmTrack)
			if !ok {
				continue
			}
			switch {
			case cams[c.Node] && c.Path == CameraFloatNames[0] && t.Width == 1:
				c.Curve = scaleTrack(t, 1, math.Pi/180)
			case lights[c.Node] && c.Path == PathColor && t.Width == 4:
				c.Curve = scaleTrack(t, 3, 1.0/255)
			}
		}
	}
}

// scaleTrack returns t's first width components of every value times k.
func scaleTrack(t *model.CcAnmTrack, width int, k float64) *model.CcAnmTrack {
	out := *t
	out.Width = width
	out.Values = make([]float32, 0, len(t.Values)/t.Width*width)
	for i := 0; i+t.Width <= len(t.Values); i += t.Width {
		for j := range width {
			out.Values = append(out.Values, float32(float64(t.Values[i+j])*k))
		}
	}
	return &out
}

func sortU32(v []uint32) {
	for i := 1; i < len(v); i++ {
		for j := i; j > 0 && v[j] < v[j-1]; j-- {
			v[j], v[j-1] = v[j-1], v[j]
		}
	}
}
