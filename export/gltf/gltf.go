// Package gltf writes baked animations as glTF 2.0 (.glb, or .gltf with a
// .bin buffer) through github.com/qmuntal/gltf. Output is deterministic:
// the same baked input always gives the same bytes.
package gltf

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/qmuntal/gltf"

	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// Generator is written to asset.generator.
const Generator = "bake"

// Options control the glTF output.
type Options struct {
	// Binary writes one .glb; otherwise a .gltf whose buffer is BinName.
	Binary bool
	// BinName is the .bin file name the .gltf refers to (no directories).
	BinName string
	// LoopSuffix appends "-loop" to repeating animations' names, Godot's
	// import convention for looping clips.
	LoopSuffix bool
}

// DataNodeName names the empty node that carries clips whose channels are
// all data (visibility, material, camera values): glTF needs at least one
// channel per animation, so such clips hold a constant STEP scale on it.
const DataNodeName = "bake:data"

// Encode writes b as glTF. It returns the main file and, for .gltf output,
// the .bin buffer (nil for .glb).
func Encode(b *sample.Baked, opts Options) (main, bin []byte, err error) {
	w := newWriter(b)
	doc, err := w.document(opts)
	if err != nil {
		return nil, nil, err
	}
	var out bytes.Buffer
	enc := gltf.NewEncoder(&out)
	enc.AsBinary = opts.Binary
	if !opts.Binary {
		enc.SetJSONIndent("", " ")
		if len(doc.Buffers) > 0 {
			doc.Buffers[0].URI = opts.BinName
			bin = doc.Buffers[0].Data
		}
	}
	if err := enc.Encode(doc); err != nil {
		return nil, nil, err
	}
	return out.Bytes(), bin, nil
}

type writer struct {
	b     *sample.Baked
	doc   *gltf.Document
	buf   []byte
	index map[string]int
}

func newWriter(b *sample.Baked) *writer {
	return &writer{b: b, doc: &gltf.Document{Asset: gltf.Asset{Version: "2.0", Generator: Generator}},
		index: make(map[string]int, len(b.Nodes))}
}

func (w *writer) document(opts Options) (*gltf.Document, error) {
	doc := w.doc
	scene := &gltf.Scene{Name: w.b.Name}
	if scene.Name == "" {
		scene.Name = "bake"
	}
	for i, n := range w.b.Nodes {
		gn := &gltf.Node{Name: n.Name, Extras: nodeExtras(n)}
		if n.Matrix != nil {
			gn.Matrix = *n.Matrix
		} else {
			gn.Translation = n.Translation
			gn.Rotation = n.Rotation
			gn.Scale = n.Scale
		}
		doc.Nodes = append(doc.Nodes, gn)
		w.index[n.Name] = i
		if n.Parent < 0 {
			scene.Nodes = append(scene.Nodes, i)
		} else {
			p := doc.Nodes[n.Parent]
			p.Children = append(p.Children, i)
		}
	}
	// One buffer for every accessor, sized up front: times and values.
	size := 0
	for _, a := range w.b.Animations {
		size += len(a.Times) + 8
		for _, c := range a.Channels {
			size += len(c.Values)
		}
	}
	w.buf = make([]byte, 0, 4*size)
	dataNode := -1
	for ai := range w.b.Animations {
		a := &w.b.Animations[ai]
		ga := &gltf.Animation{Name: a.Name}
		if opts.LoopSuffix && a.Loop == model.LoopRepeat {
			ga.Name += "-loop"
		}
		times := w.floatAccessor(a.Times, 1, true)
		var data []map[string]any
		for _, c := range a.Channels {
			node, isNode := w.index[c.Node]
			if !isNode || c.Node == "" || !trsPath(c.Path) || w.b.Nodes[node].Matrix != nil {
				data = append(data, dataChannel(a, &c))
				continue
			}
			out := w.floatAccessor(c.Values, c.Width, false)
			interp := gltf.InterpolationLinear
			if c.Step {
				interp = gltf.InterpolationStep
			}
			ga.Samplers = append(ga.Samplers, &gltf.AnimationSampler{Input: times, Output: out, Interpolation: interp})
			ga.Channels = append(ga.Channels, &gltf.AnimationChannel{
				Sampler: len(ga.Samplers) - 1,
				Target:  gltf.AnimationChannelTarget{Node: gltf.Index(node), Path: gltf.TRSProperty(c.Path)},
			})
		}
		if len(ga.Channels) == 0 {
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
			in := w.floatAccessor(ends, 1, true)
			out := w.floatAccessor(ones, 3, false)
			ga.Samplers = append(ga.Samplers, &gltf.AnimationSampler{Input: in, Output: out, Interpolation: gltf.InterpolationStep})
			ga.Channels = append(ga.Channels, &gltf.AnimationChannel{Sampler: 0,
				Target: gltf.AnimationChannelTarget{Node: gltf.Index(dataNode), Path: gltf.TRSScale}})
		}
		ga.Extras = animationExtras(a, data)
		doc.Animations = append(doc.Animations, ga)
	}
	doc.Scenes = []*gltf.Scene{scene}
	doc.Scene = gltf.Index(0)
	if ex := fileExtras(w.b); len(ex) > 0 {
		doc.Extras = ex
	}
	if len(w.buf) > 0 {
		doc.Buffers = []*gltf.Buffer{{ByteLength: len(w.buf), Data: w.buf}}
	}
	return doc, nil
}

func trsPath(p string) bool {
	return p == model.PathTranslation || p == model.PathRotation || p == model.PathScale
}

// floatAccessor appends values as FLOAT components of the given width and
// returns the accessor index; inputs get the min and max glTF requires.
func (w *writer) floatAccessor(values []float64, width int, withBounds bool) int {
	off := len(w.buf)
	w.buf = slices.Grow(w.buf, 4*len(values))
	for _, v := range values {
		w.buf = binary.LittleEndian.AppendUint32(w.buf, math.Float32bits(float32(v)))
	}
	bv := &gltf.BufferView{Buffer: 0, ByteOffset: off, ByteLength: len(w.buf) - off}
	w.doc.BufferViews = append(w.doc.BufferViews, bv)
	types := map[int]gltf.AccessorType{1: gltf.AccessorScalar, 2: gltf.AccessorVec2, 3: gltf.AccessorVec3, 4: gltf.AccessorVec4}
	acc := &gltf.Accessor{BufferView: gltf.Index(len(w.doc.BufferViews) - 1), ComponentType: gltf.ComponentFloat,
		Count: len(values) / width, Type: types[width]}
	if withBounds && len(values) > 0 {
		lo, hi := make([]float64, width), make([]float64, width)
		for j := range width {
			lo[j], hi[j] = math.Inf(1), math.Inf(-1)
		}
		for i, v := range values {
			f := float64(float32(v))
			lo[i%width] = math.Min(lo[i%width], f)
			hi[i%width] = math.Max(hi[i%width], f)
		}
		acc.Min, acc.Max = lo, hi
	}
	w.doc.Accessors = append(w.doc.Accessors, acc)
	return len(w.doc.Accessors) - 1
}

// dataChannel describes a channel glTF cannot animate, for the extras.
func dataChannel(a *sample.BakedAnimation, c *sample.BakedChannel) map[string]any {
	m := map[string]any{"path": c.Path, "interpolation": interpName(c.Step), "values": Rows(c.Values, c.Width)}
	if c.Node != "" {
		m["node"] = c.Node
	}
	if c.Material != "" {
		m["material"] = c.Material
	}
	if len(c.Labels) > 0 {
		m["labels"] = c.Labels
	}
	return m
}

func interpName(step bool) string {
	if step {
		return "STEP"
	}
	return "LINEAR"
}

// Rows splits flat values into rows of width components rounded to float32,
// the precision every output carries.
func Rows(values []float64, width int) [][]float64 {
	rows := make([][]float64, 0, len(values)/max(width, 1))
	for i := 0; i+width <= len(values); i += width {
		r := make([]float64, width)
		for j := range width {
			r[j] = float64(float32(values[i+j]))
		}
		rows = append(rows, r)
	}
	return rows
}

func animationExtras(a *sample.BakedAnimation, data []map[string]any) map[string]any {
	ex := map[string]any{"loop": a.Loop, "sourceFps": a.SourceFPS, "sourceFrames": a.SourceFrames}
	events := make([]map[string]any, 0, len(a.Events))
	for _, e := range a.Events {
		m := map[string]any{"time": e.Time, "frame": e.Frame, "name": e.Name}
		if e.Node != "" {
			m["node"] = e.Node
		}
		if len(e.Args) > 0 {
			m["args"] = e.Args
		}
		events = append(events, m)
	}
	ex["events"] = events
	if len(data) > 0 {
		ex["times"] = Rows(a.Times, 1)
		ex["data"] = data
	}
	for k, v := range a.Extras {
		if _, taken := ex[k]; !taken {
			ex[k] = v
		}
	}
	return ex
}

func nodeExtras(n model.Node) any {
	if n.Kind == "" && len(n.Extras) == 0 {
		return nil
	}
	ex := map[string]any{}
	for k, v := range n.Extras {
		ex[k] = v
	}
	if n.Kind != "" {
		ex["kind"] = n.Kind
	}
	return ex
}

func fileExtras(b *sample.Baked) map[string]any {
	ex := map[string]any{}
	for k, v := range b.Extras {
		ex[k] = v
	}
	// Only the format: the same animations read from two containers (a
	// BFRES and its Yaz0 copy, a CCS file and its gzip copy) give the same
	// glTF bytes. The JSON form names the exact source file and digest.
	if b.Source.Format != "" {
		ex["sourceFormat"] = b.Source.Format
	}
	ex["axes"] = b.Axes
	if len(b.Curves) > 0 {
		names := make([]string, len(b.Curves))
		for i, c := range b.Curves {
			names[i] = c.Name
		}
		sort.Strings(names)
		ex["curves"] = names
	}
	return ex
}

// check that Encode's result parses back; used by tests.
func decode(data []byte) (*gltf.Document, error) {
	doc := new(gltf.Document)
	if err := gltf.NewDecoder(bytes.NewReader(data)).Decode(doc); err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	return doc, nil
}
