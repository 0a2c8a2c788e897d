package gltf

import (
	"slices"

	"github.com/qmuntal/gltf"

	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// animations writes every baked animation: TRS channels as glTF channels,
// the others as data in the animation's extras.
func (w *writer) animations(opts Options, scene *gltf.Scene) {
	doc := w.doc
	// Every animation accessor goes to one buffer view, each distinct
	// content once (animData), sized up front.
	d := newAnimData()
	size := 0
	for _, a := range w.b.Animations {
		size += len(a.Times) + 8
		for _, c := range a.Channels {
			size += len(c.Values) + len(c.Times)
		}
	}
	d.data = slices.Grow(d.data, 4*size)
	defer w.finishAnimData(d)
	timesOf := func(ts []float64) int { return w.animAccessor(d, ts, 1, true) }
	dataNode := -1
	for ai := range w.b.Animations {
		a := &w.b.Animations[ai]
		ga := &gltf.Animation{Name: a.Name}
		// Channels with the same input, output and interpolation share a
		// sampler (constant tracks of equal value, most often).
		samplers := map[[3]int]int{}
		var data []map[string]any
		targeted := map[string]bool{}
		plain := 0 // channels every client plays (not KHR_animation_pointer)
		for _, c := range a.Channels {
			co, ok := w.channelTarget(&c)
			if !ok || targeted[co.key] {
				data = append(data, dataChannel(a, &c))
				continue
			}
			targeted[co.key] = true
			if !co.pointer {
				plain++
			}
			if co.pointer {
				w.use(extPointer)
			}
			times := timesOf(c.KeyTimes(a))
			var out int
			if co.ubyte {
				out = w.animUbytes(d, co.values)
			} else {
				if c.Short && c.Path == model.PathRotation && co.width == 4 && !co.pointer {
					out = w.animShorts(d, co.values, co.width)
				} else {
					out = w.animAccessor(d, co.values, co.width, false)
				}
			}
			interp := gltf.InterpolationLinear
			if c.Step || co.step {
				interp = gltf.InterpolationStep
			}
			sk := [3]int{times, out, int(interp)}
			si, ok := samplers[sk]
			if !ok {
				ga.Samplers = append(ga.Samplers, &gltf.AnimationSampler{Input: times, Output: out, Interpolation: interp})
				si = len(ga.Samplers) - 1
				samplers[sk] = si
			}
			ga.Channels = append(ga.Channels, &gltf.AnimationChannel{Sampler: si, Target: co.target})
		}
		// A clip every client should see with its length: one whose channels
		// are all data or pointers (which clients without the extension drop)
		// also holds a constant channel on the data node.
		if plain == 0 {
			if dataNode < 0 {
				dataNode = len(doc.Nodes)
				doc.Nodes = append(doc.Nodes, &gltf.Node{Name: DataNodeName})
				scene.Nodes = append(scene.Nodes, dataNode)
			}
			ends := []float64{0, a.Duration}
			if a.Duration <= 0 {
				ends = ends[:1]
			}
			ones := make([]float64, 3*len(ends))
			for i := range ones {
				ones[i] = 1
			}
			in := timesOf(ends)
			out := w.animAccessor(d, ones, 3, false)
			ga.Samplers = append(ga.Samplers, &gltf.AnimationSampler{Input: in, Output: out, Interpolation: gltf.InterpolationStep})
			ga.Channels = append(ga.Channels, &gltf.AnimationChannel{Sampler: len(ga.Samplers) - 1,
				Target: gltf.AnimationChannelTarget{Node: gltf.Index(dataNode), Path: gltf.TRSScale}})
		}
		ga.Extras = animationExtras(data)
		doc.Animations = append(doc.Animations, ga)
	}
}

// dataChannel describes a channel glTF cannot animate, for the extras:
// {"path", "times", "values" (rows), "node" or "material", "textureSlot"
// and "labels" when the channel has them (as in the JSON form), "interpolation": "STEP" when stepped (LINEAR, the
// default, is not written)}.
func dataChannel(a *sample.BakedAnimation, c *sample.BakedChannel) map[string]any {
	m := map[string]any{"path": c.Path, "times": Floats32(c.KeyTimes(a)), "values": Rows(c.Values, c.Width)}
	if c.Step {
		m["interpolation"] = "STEP"
	}
	if c.Node != "" {
		m["node"] = c.Node
	}
	if c.Material != "" {
		m["material"] = c.Material
	}
	if c.TextureSlot != "" {
		m["textureSlot"] = c.TextureSlot
	}
	if len(c.Labels) > 0 {
		m["labels"] = c.Labels
	}
	return m
}

// Rows splits flat values into rows of width components rounded to float32,
// the precision every output carries, each written in its shortest form
// (Short32).
func Rows(values []float64, width int) [][]float64 {
	rows := make([][]float64, 0, len(values)/max(width, 1))
	for i := 0; i+width <= len(values); i += width {
		r := make([]float64, width)
		for j := range width {
			r[j] = Short32(values[i+j])
		}
		rows = append(rows, r)
	}
	return rows
}

// Floats32 rounds values to float32, the precision every output carries,
// each written in its shortest form (Short32).
func Floats32(values []float64) []float64 { return short32s(values) }

// animationExtras holds, under "data", the channels glTF cannot animate
// (no target in the file, or a second channel on one target); nil when
// there are none. Every other fact about the clip is in the scene's clip
// table (fileExtras), where clients read it; a KHR_animation_pointer
// channel is only in the glTF channel, its pointer naming the target.
func animationExtras(data []map[string]any) any {
	if len(data) == 0 {
		return nil // no "extras" at all
	}
	return map[string]any{"data": data}
}
