package fidelity

import (
	"fmt"
	"sort"

	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// Player gives the local transforms some playback shows at a probe. Pose
// is called with locals already set to the rest pose and overwrites what
// the playback animates. It must not allocate.
type Player interface {
	Pose(p Probe, locals []TRS)
}

// DataPlayer is a Player that also plays the clip's non-TRS channels
// (weights, visibility, alpha, UV, ...), by channel index; ok is false for
// a channel it does not play.
type DataPlayer interface {
	Player
	Data(p Probe, channel int, out []float64) (ok bool)
}

// target says where channel values go: node index and path, or node -1 for
// channels that move no node's transform.
type target struct {
	node int
	path string
}

func targetOf(h *Hierarchy, node, path string) target {
	i, ok := h.Index(node)
	if !ok || h.Static[i] != nil || !isTRS(path) {
		return target{node: -1, path: path}
	}
	return target{node: i, path: path}
}

func isTRS(p string) bool {
	return p == model.PathTranslation || p == model.PathRotation || p == model.PathScale
}

func (t target) set(locals []TRS, v []float64) {
	if t.node < 0 {
		return
	}
	l := &locals[t.node]
	switch t.path {
	case model.PathTranslation:
		copy(l.T[:], v)
	case model.PathRotation:
		copy(l.R[:], v)
	case model.PathScale:
		copy(l.S[:], v)
	}
}

// Engine plays a clip by the engine's own rules: package sample's compiled
// curves at the probe's frame (loops wrapped, ping-pongs turned), converted
// to the output axes like the bake.
type Engine struct {
	clip    *sample.Clip
	cv      *sample.Converter
	targets []target
	buf     [16]float64
}

// NewEngine compiles a's channels; cv converts to the bake's output axes.
// src are the model file's nodes, in the order of h's (the bake's nodes
// carry output names, a's channels the source names).
func NewEngine(h *Hierarchy, src []model.Node, a *model.Animation, cv *sample.Converter) (*Engine, error) {
	clip, err := sample.CompileClip(a)
	if err != nil {
		return nil, err
	}
	return NewEngineOf(h, src, clip, cv)
}

// NewEngineOf is NewEngine with the clip's channels already compiled
// (sample.BakedAnimation.Compiled).
func NewEngineOf(h *Hierarchy, src []model.Node, clip *sample.Clip, cv *sample.Converter) (*Engine, error) {
	a := clip.Anim
	if len(src) != len(h.Names) {
		return nil, fmt.Errorf("%d source nodes for %d baked ones", len(src), len(h.Names))
	}
	byName := make(map[string]int, len(src))
	for i, n := range src {
		byName[n.Name] = i
	}
	e := &Engine{clip: clip, cv: cv, targets: make([]target, len(a.Channels))}
	for i, c := range a.Channels {
		e.targets[i] = target{node: -1, path: c.Path}
		if n, ok := byName[c.Node]; ok && c.Node != "" {
			e.targets[i] = targetOf(h, h.Names[n], c.Path)
		}
		if w := clip.Evals[i].Width(); w > len(e.buf) {
			return nil, fmt.Errorf("channel %s of %q has %d components, more than %d", c.Path, c.Node+c.Material, w, len(e.buf))
		}
	}
	return e, nil
}

// Evals returns the compiled channels (for Probes).
func (e *Engine) Evals() []sample.Evaluator { return e.clip.Evals }

// Pose implements Player.
func (e *Engine) Pose(p Probe, locals []TRS) {
	f := sample.SourceFrame(e.clip.Anim, p.Frame)
	for i, t := range e.targets {
		if t.node < 0 {
			continue
		}
		v := e.buf[:e.clip.Evals[i].Width()]
		e.clip.EvalInto(i, f, e.cv, v)
		t.set(locals, v)
	}
}

// Data implements DataPlayer.
func (e *Engine) Data(p Probe, channel int, out []float64) bool {
	e.clip.EvalInto(channel, sample.SourceFrame(e.clip.Anim, p.Frame), e.cv, out)
	return true
}

// KeyChannel is one channel's keys as a client reads them: times and
// values rounded to float32, as the glTF and JSON outputs carry them.
type KeyChannel struct {
	Path   string
	Step   bool
	Width  int
	Times  []float64
	Values []float64
	target target
	cursor int
}

// NewKeyChannel rounds times and values to float32.
func NewKeyChannel(path string, step bool, width int, times, values []float64) *KeyChannel {
	k := &KeyChannel{Path: path, Step: step, Width: width, Times: make([]float64, len(times)), Values: make([]float64, len(values))}
	for i, t := range times {
		k.Times[i] = float64(float32(t))
	}
	for i, v := range values {
		k.Values[i] = float64(float32(v))
	}
	return k
}

// At writes the client's value at time t (clamped to the keys' range;
// STEP holds the earlier key). Successive increasing times walk a cursor.
// With Nlerp a rotation is normalised at a key too (Blender normalises
// every quaternion it builds a matrix from); with Slerp a key is shown as
// stored (three.js).
func (k *KeyChannel) At(t float64, mode Interp, out []float64) {
	n, w := len(k.Times), k.Width
	if n == 0 {
		return
	}
	if t <= k.Times[0] || n == 1 {
		k.held(k.Values[:w], mode, out)
		return
	}
	if t >= k.Times[n-1] {
		k.held(k.Values[(n-1)*w:n*w], mode, out)
		return
	}
	i := k.cursor
	if i >= n-1 || k.Times[i] > t {
		i = sort.SearchFloat64s(k.Times, t)
		if i >= n || k.Times[i] > t {
			i--
		}
	}
	for i+1 < n-1 && k.Times[i+1] <= t {
		i++
	}
	k.cursor = i
	t0, t1 := k.Times[i], k.Times[i+1]
	if k.Step {
		k.held(k.Values[i*w:i*w+w], mode, out)
		return
	}
	u := (t - t0) / (t1 - t0)
	Interpolate(k.Path, false, mode, k.Values[i*w:i*w+w], k.Values[(i+1)*w:(i+2)*w], u, out)
}

// held writes key value v as the client shows it where it holds the key.
func (k *KeyChannel) held(v []float64, mode Interp, out []float64) {
	copy(out, v)
	if mode == Nlerp && k.Path == model.PathRotation && k.Width == 4 {
		normalize(out)
	}
}

// KeyPlayer plays baked keys the way a glTF client does.
type KeyPlayer struct {
	Mode     Interp
	channels []*KeyChannel
	buf      [16]float64
}

// NewKeyPlayer plays a baked clip's channels (each with its own key times)
// on hierarchy h with the given rotation blend.
func NewKeyPlayer(h *Hierarchy, a *sample.BakedAnimation, mode Interp) *KeyPlayer {
	p := &KeyPlayer{Mode: mode}
	for _, c := range a.Channels {
		k := NewKeyChannel(c.Path, c.Step, c.Width, c.KeyTimes(a), c.Values)
		k.target = targetOf(h, c.Node, c.Path)
		p.channels = append(p.channels, k)
	}
	return p
}

// Channels are the played channels, for AnyTimeBound.
func (p *KeyPlayer) Channels() []*KeyChannel { return p.channels }

// Pose implements Player.
func (p *KeyPlayer) Pose(pr Probe, locals []TRS) {
	for _, k := range p.channels {
		if k.target.node < 0 || k.Width > len(p.buf) {
			continue
		}
		v := p.buf[:k.Width]
		k.At(pr.Time, p.Mode, v)
		k.target.set(locals, v)
	}
}

// Data implements DataPlayer.
func (p *KeyPlayer) Data(pr Probe, channel int, out []float64) bool {
	if channel >= len(p.channels) {
		return false
	}
	p.channels[channel].At(pr.Time, p.Mode, out)
	return true
}

// TablePlayer plays channels tabulated at every probe of one probe list:
// Values[c] holds the c-th channel's Width[c] components at probe k from
// index k·Width[c] (Probe.Index). The key builder uses it to play the
// engine from the samples it already took.
type TablePlayer struct {
	targets []target
	widths  []int
	values  [][]float64
}

// NewTablePlayer makes a TablePlayer of channels (node, path) on h.
func NewTablePlayer(h *Hierarchy, nodes, paths []string, widths []int, values [][]float64) *TablePlayer {
	t := &TablePlayer{targets: make([]target, len(paths)), widths: widths, values: values}
	for c := range paths {
		t.targets[c] = targetOf(h, nodes[c], paths[c])
	}
	return t
}

// Pose implements Player.
func (t *TablePlayer) Pose(p Probe, locals []TRS) {
	for c, tg := range t.targets {
		if tg.node >= 0 {
			w := t.widths[c]
			tg.set(locals, t.values[c][p.Index*w:p.Index*w+w])
		}
	}
}

// Data implements DataPlayer.
func (t *TablePlayer) Data(p Probe, c int, out []float64) bool {
	w := t.widths[c]
	copy(out, t.values[c][p.Index*w:p.Index*w+w])
	return true
}

// Target returns the node index a channel (node, path) moves on h, or -1
// when it moves no node's transform (a data channel, or a node with a
// static matrix).
func (h *Hierarchy) Target(node, path string) int {
	return targetOf(h, node, path).node
}

// SetLocal writes a channel value into node's local transform (path
// translation, rotation or scale), as players do.
func SetLocal(locals []TRS, node int, path string, v []float64) {
	target{node: node, path: path}.set(locals, v)
}
