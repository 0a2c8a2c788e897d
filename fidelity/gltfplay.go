package fidelity

import (
	"fmt"

	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"
)

// NewGLTFPlayer plays animation anim of any glTF document (another tool's
// output of a bake, say) on hierarchy h: its TRS channels are matched to
// h's nodes by name (nodes h lacks are ignored), outputs stored as float
// or as normalized integers are read the way glTF defines, LINEAR and STEP
// are played as KeyChannel does. CUBICSPLINE is refused.
func NewGLTFPlayer(doc *gltf.Document, anim int, h *Hierarchy, mode Interp) (*KeyPlayer, error) {
	if anim < 0 || anim >= len(doc.Animations) {
		return nil, fmt.Errorf("no animation %d", anim)
	}
	a := doc.Animations[anim]
	p := &KeyPlayer{Mode: mode}
	for ci, ch := range a.Channels {
		if ch.Target.Node == nil || int(*ch.Target.Node) >= len(doc.Nodes) || ch.Sampler >= len(a.Samplers) {
			continue
		}
		var path string
		switch ch.Target.Path {
		case gltf.TRSTranslation:
			path = "translation"
		case gltf.TRSRotation:
			path = "rotation"
		case gltf.TRSScale:
			path = "scale"
		default:
			continue
		}
		node, ok := h.Index(doc.Nodes[*ch.Target.Node].Name)
		if !ok {
			continue
		}
		s := a.Samplers[ch.Sampler]
		if s.Interpolation == gltf.InterpolationCubicSpline {
			return nil, fmt.Errorf("animation %q channel %d: CUBICSPLINE is not played", a.Name, ci)
		}
		times, _, err := floats(doc, s.Input)
		if err != nil {
			return nil, fmt.Errorf("animation %q channel %d input: %w", a.Name, ci, err)
		}
		values, width, err := floats(doc, s.Output)
		if err != nil {
			return nil, fmt.Errorf("animation %q channel %d output: %w", a.Name, ci, err)
		}
		if len(values) != len(times)*width {
			return nil, fmt.Errorf("animation %q channel %d: %d values for %d times", a.Name, ci, len(values)/max(width, 1), len(times))
		}
		k := NewKeyChannel(path, s.Interpolation == gltf.InterpolationStep, width, times, values)
		k.target = targetOf(h, h.Names[node], path)
		p.channels = append(p.channels, k)
	}
	return p, nil
}

// floats reads an accessor as float64 components, dequantizing
// normalized integers (glTF 2.0 §3.11: max(c/127, −1), c/255,
// max(c/32767, −1), c/65535).
func floats(doc *gltf.Document, acc int) ([]float64, int, error) {
	if acc < 0 || acc >= len(doc.Accessors) {
		return nil, 0, fmt.Errorf("no accessor %d", acc)
	}
	a := doc.Accessors[acc]
	data, err := modeler.ReadAccessor(doc, a, nil)
	if err != nil {
		return nil, 0, err
	}
	norm := func(v float64) float64 {
		if !a.Normalized {
			return v
		}
		switch a.ComponentType {
		case gltf.ComponentByte:
			return max(v/127, -1)
		case gltf.ComponentUbyte:
			return v / 255
		case gltf.ComponentShort:
			return max(v/32767, -1)
		case gltf.ComponentUshort:
			return v / 65535
		}
		return v
	}
	var out []float64
	width := a.Type.Components()
	switch d := data.(type) {
	case []float32:
		for _, v := range d {
			out = append(out, float64(v))
		}
	case [][3]float32:
		for _, v := range d {
			out = append(out, float64(v[0]), float64(v[1]), float64(v[2]))
		}
	case [][4]float32:
		for _, v := range d {
			out = append(out, float64(v[0]), float64(v[1]), float64(v[2]), float64(v[3]))
		}
	case [][4]int16:
		for _, v := range d {
			out = append(out, norm(float64(v[0])), norm(float64(v[1])), norm(float64(v[2])), norm(float64(v[3])))
		}
	case [][4]int8:
		for _, v := range d {
			out = append(out, norm(float64(v[0])), norm(float64(v[1])), norm(float64(v[2])), norm(float64(v[3])))
		}
	case [][4]uint16:
		for _, v := range d {
			out = append(out, norm(float64(v[0])), norm(float64(v[1])), norm(float64(v[2])), norm(float64(v[3])))
		}
	case [][4]uint8:
		for _, v := range d {
			out = append(out, norm(float64(v[0])), norm(float64(v[1])), norm(float64(v[2])), norm(float64(v[3])))
		}
	case [][3]int16:
		for _, v := range d {
			out = append(out, norm(float64(v[0])), norm(float64(v[1])), norm(float64(v[2])))
		}
	default:
		return nil, 0, fmt.Errorf("accessor %d: %T values are not read", acc, data)
	}
	return out, int(width), nil
}
