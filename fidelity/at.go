package fidelity

import (
	"fmt"

	"github.com/qmuntal/gltf"

	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// ProbeAt is the probe at source frame frame of the baked timeline of a
// clip whose source runs at fps frames per second: the engine is evaluated
// at that frame, the client asked for the time frame/fps. bake stats
// --at-frame and bake view measure one time this way, so the two agree.
func ProbeAt(frame, fps float64) Probe { return Probe{Frame: frame, Time: frame / fps} }

// MeasureBakedAt measures every clip of b, a bake of f, at the one source
// frame given: the metric of MeasureBaked with opts' shell and distances
// (opts.Mesh: at the mesh's vertices) at a single probe, data channels
// left out. Max is the error at that time, WorstNode where it is, NodeMax
// each node's error.
func MeasureBakedAt(f *model.File, b *sample.Baked, frame float64, opts MeasureOptions) ([]Result, error) {
	if len(f.Animations) != len(b.Animations) {
		return nil, fmt.Errorf("bake has %d animations, the file %d", len(b.Animations), len(f.Animations))
	}
	h := NewHierarchy(b.Nodes)
	cv := Converter(f, b)
	m := newMeter(h, b, opts)
	out := make([]Result, len(b.Animations))
	for i := range b.Animations {
		ba := &b.Animations[i]
		c, err := NewComparison(m, f.Nodes, &f.Animations[i], cv,
			[]Player{NewKeyPlayer(h, ba, Slerp), NewKeyPlayer(h, ba, Nlerp)})
		if err != nil {
			return nil, err
		}
		out[i] = c.At(frame, ba.SourceFPS)
	}
	return out, nil
}

// Comparison measures one clip's engine pose against a rendition's
// playback (slerp and nlerp, the worse) at chosen times, and keeps the
// engine's world matrices of the last time measured: bake view draws them
// as the ghost skeleton beside the export. Not safe for concurrent use.
type Comparison struct {
	m      *Meter
	engine *Engine
	plays  []Player
}

// NewComparison compiles clip a of the model nodes src (in the order of
// m's hierarchy) for m; plays are the rendition's slerp and nlerp players.
func NewComparison(m *Meter, src []model.Node, a *model.Animation, cv *sample.Converter, plays []Player) (*Comparison, error) {
	if len(plays) != 2 {
		return nil, fmt.Errorf("a comparison takes a slerp and an nlerp player, not %d players", len(plays))
	}
	eng, err := NewEngine(m.h, src, a, cv)
	if err != nil {
		return nil, fmt.Errorf("animation %q: %w", a.Name, err)
	}
	return &Comparison{m: m, engine: eng, plays: plays}, nil
}

// NewGLTFComparison compares clip a of model f, baked as b (its nodes and
// assets; keys are not needed), with animation anim of doc, a glTF
// rendition of it whose nodes carry b's names (bake's own output), with
// opts' shell and distances as MeasureBaked measures.
func NewGLTFComparison(f *model.File, b *sample.Baked, a *model.Animation, doc *gltf.Document, anim int,
	opts MeasureOptions) (*Comparison, error) {
	h := NewHierarchy(b.Nodes)
	slerp, err := NewGLTFPlayer(doc, anim, h, Slerp)
	if err != nil {
		return nil, err
	}
	nlerp, err := NewGLTFPlayer(doc, anim, h, Nlerp)
	if err != nil {
		return nil, err
	}
	return NewComparison(newMeter(h, b, opts), f.Nodes, a, Converter(f, b), []Player{slerp, nlerp})
}

// At measures the clip at source frame frame (ProbeAt with the clip's
// source rate fps).
func (c *Comparison) At(frame, fps float64) Result {
	return c.m.Measure(c.engine, c.plays, []Interp{Slerp, Nlerp}, []Probe{ProbeAt(frame, fps)})
}

// EngineWorld returns the engine's world matrix of every node (column-major,
// in the hierarchy's order) at the time At last measured. The slice is
// overwritten by the next At.
func (c *Comparison) EngineWorld() [][16]float64 { return c.m.refW }

// Distance says where the virtual vertices are: "mesh" (each node's
// farthest mesh vertex where the output has a mesh) or "shell".
func (c *Comparison) Distance() string { return c.m.dist.Source() }

// Hierarchy returns the node tree the comparison poses.
func (c *Comparison) Hierarchy() *Hierarchy { return c.m.h }

// Engine returns the engine side (its Data gives any channel's value).
func (c *Comparison) Engine() *Engine { return c.engine }

// Keys returns the slerp player's key channels that move node (a hierarchy
// index): the rendition's keys as a client reads them.
func (c *Comparison) Keys(node int) []*KeyChannel {
	kp, ok := c.plays[0].(*KeyPlayer)
	if !ok {
		return nil
	}
	var out []*KeyChannel
	for _, k := range kp.channels {
		if k.target.node == node {
			out = append(out, k)
		}
	}
	return out
}

// Targets returns the hierarchy index each engine channel moves (-1 for
// channels that move no node's transform).
func (e *Engine) Targets() []int {
	out := make([]int, len(e.targets))
	for i, t := range e.targets {
		out[i] = t.node
	}
	return out
}
