package gltf

import (
	"math"

	"github.com/qmuntal/gltf"

	"github.com/animbake/bake/model"
)

// cameras writes every camera. glTF needs zfar > znear > 0 for perspective
// and an explicit zfar for orthographic cameras; values outside that are
// corrected in the copy written (the original kept in extras).
func (w *writer) cameras() {
	for _, c := range w.b.Assets.Cameras {
		gc := &gltf.Camera{Name: c.Name, Type: c.Type, Extras: extrasOrNil(c.Extras)}
		znear := c.Znear
		if !(znear > 0) {
			znear = 0.01
		}
		if c.Type == model.CameraOrthographic {
			zfar := c.Zfar
			if !(zfar > znear) {
				zfar = znear + 1000
			}
			gc.Orthographic = &gltf.Orthographic{Xmag: nonZero(c.XMag), Ymag: nonZero(c.YMag), Znear: max(c.Znear, 0), Zfar: zfar}
		} else {
			p := &gltf.Perspective{Yfov: c.Yfov, Znear: znear}
			if !(p.Yfov > 0) || p.Yfov >= math.Pi {
				p.Yfov = math.Pi / 4
			}
			if c.Aspect > 0 {
				p.AspectRatio = gltf.Float(c.Aspect)
			}
			if c.Zfar > znear {
				p.Zfar = gltf.Float(c.Zfar)
			}
			gc.Perspective = p
		}
		w.cameraIndex[c.Name] = len(w.doc.Cameras)
		w.doc.Cameras = append(w.doc.Cameras, gc)
	}
}

func nonZero(v float64) float64 {
	if v == 0 {
		return 1
	}
	return v
}

// lights returns the KHR_lights_punctual lights array (nil when none).
func (w *writer) lights() []any {
	var out []any
	for i, l := range w.b.Assets.Lights {
		gl := map[string]any{"name": l.Name, "type": l.Type}
		if l.Color != [3]float64{1, 1, 1} {
			gl["color"] = l.Color
		}
		if l.Intensity != 1 {
			gl["intensity"] = l.Intensity
		}
		if l.Range > 0 && l.Type != model.LightDirectional {
			gl["range"] = l.Range
		}
		if l.Type == model.LightSpot {
			outer := l.OuterCone
			if !(outer > 0) || outer > math.Pi/2 {
				outer = math.Pi / 4
			}
			inner := min(max(l.InnerCone, 0), math.Nextafter(outer, 0))
			gl["spot"] = map[string]any{"innerConeAngle": inner, "outerConeAngle": outer}
		}
		if len(l.Extras) > 0 {
			gl["extras"] = l.Extras
		}
		w.lightIndex[l.Name] = i
		out = append(out, gl)
	}
	return out
}
