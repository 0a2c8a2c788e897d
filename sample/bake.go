package sample

import (
	"fmt"
	"math"

	"github.com/animbake/bake/model"
)

// Options control a bake.
type Options struct {
	// FPS is the output rate in samples per second; 0 means native, one
	// sample per source frame.
	FPS float64
	// Timebase overrides every animation's source frame rate when > 0.
	Timebase float64
	// Axes is "gltf" (convert to glTF's convention) or "source" (leave the
	// engine's own coordinates).
	Axes string
	// LoopSuffix names repeating clips with Godot's "-loop" suffix (see
	// names.go).
	LoopSuffix bool
	// NoSamples leaves every channel's Values empty: a key builder that
	// samples on its own times (package keys) fills them.
	NoSamples bool
}

// Baked is a file's content ready for export: nodes in the output
// convention, every animation sampled on one time grid each, and nodes and
// clips under their output names (names.go; a renamed one keeps its source
// name in extras.sourceName).
type Baked struct {
	Name       string
	Source     model.Source
	Axes       string // "gltf" or the source convention's name
	Nodes      []model.Node
	Animations []BakedAnimation
	Curves     []BakedCurve
	// Assets are the file's meshes, materials, textures, skins, cameras
	// and lights, converted to the output axes like the nodes.
	Assets model.Assets
	Extras map[string]any
}

// CurveSteps is how many equal steps of progression a baked curve holds
// (positions every 1/100 of its length).
const CurveSteps = 100

// BakedCurve is a 3D path sampled at progressions 0, 1/100, ..., 1.
type BakedCurve struct {
	Name   string
	Node   string
	Closed bool
	Length float64
	// Positions and Directions hold CurveSteps+1 rows of 3 components.
	Positions, Directions []float64
	Extras                map[string]any
}

// BakedAnimation is one animation sampled at its output times.
type BakedAnimation struct {
	Name         string
	Loop         string
	SourceFPS    float64
	SourceFrames float64
	FPS          float64 // output samples per second
	Duration     float64 // seconds, = the last time
	// Times are the sample times in seconds, shared by every channel.
	Times    []float64
	Channels []BakedChannel
	Events   []BakedEvent
	Extras   map[string]any
	// clip is the animation's channels as the bake compiled them, for a
	// later pass that evaluates the engine again (Compiled).
	clip *Clip
}

// Compiled returns the channels of a as the bake that made ba compiled
// them, or nil when ba was not baked from a: key reduction evaluates the
// engine with them instead of compiling the curves again.
func (ba *BakedAnimation) Compiled(a *model.Animation) *Clip {
	if ba.clip == nil || ba.clip.Anim != a {
		return nil
	}
	return ba.clip
}

// BakedChannel holds one channel's values at the animation's times.
type BakedChannel struct {
	Node, Material, Path string
	// Source is the index of the model channel this was baked from (key
	// reduction may drop channels, so it need not be the position).
	Source      int
	TextureSlot string
	Labels      []string
	Width       int
	Step        bool
	// Times are this channel's key times in seconds; nil means the
	// animation's Times (every sample of the output grid). Channels whose
	// keys were reduced to an error bound (package keys) carry their own.
	Times []float64
	// Values holds len(KeyTimes())*Width components.
	Values []float64
	// Short says the values are rotations already quantized to normalized
	// 16-bit integers (each component c/32767): the glTF writes them as
	// such, the JSON as the numbers they stand for.
	Short bool
	// KeyFrames are the source key frames when the curve reports them.
	KeyFrames []float64
}

// KeyTimes returns the channel's key times: its own, or the animation's.
func (c *BakedChannel) KeyTimes(a *BakedAnimation) []float64 {
	if c.Times != nil {
		return c.Times
	}
	return a.Times
}

// BakedEvent is an event with its time in seconds.
type BakedEvent struct {
	Time float64
	model.Event
}

// Span returns the length in source frames that a bake of a covers: the
// end frame for once, the period for repeat, a whole cycle for ping-pong.
func Span(a *model.Animation) float64 {
	switch a.Loop {
	case model.LoopRepeat:
		return a.Period
	case model.LoopPingPong:
		return 2 * a.End
	}
	return a.End
}

// SourceFrame maps a frame of the baked timeline to the frame evaluated:
// repeats wrap at the period (so the seam sample equals frame 0) and
// ping-pong plays back down after its end.
func SourceFrame(a *model.Animation, f float64) float64 {
	switch a.Loop {
	case model.LoopRepeat:
		if f >= a.Period {
			f = math.Mod(f, a.Period)
		}
	case model.LoopPingPong:
		if f > a.End {
			f = 2*a.End - f
		}
	}
	return f
}

// MaxSamples caps the samples of one baked animation (about 19 hours of
// 60 fps), so a corrupt frame count cannot drive a huge allocation.
const MaxSamples = 1 << 22

// SampleCount is the number of samples SampleFrames returns, computed
// without allocating.
func SampleCount(span, srcFPS, outFPS float64) float64 {
	if span <= 0 {
		return 1
	}
	if outFPS <= 0 {
		outFPS = srcFPS
	}
	return math.Floor(span*outFPS/srcFPS) + 2
}

// SampleFrames returns the baked timeline in source frames: every source
// frame (native) or every 1/fps second, always ending exactly at the span.
func SampleFrames(span, srcFPS, outFPS float64) []float64 {
	if span <= 0 {
		return []float64{0}
	}
	if outFPS <= 0 {
		outFPS = srcFPS
	}
	ratio := srcFPS / outFPS // source frames per output sample
	n := int(math.Floor(span/ratio + 1e-9))
	frames := make([]float64, 0, n+2)
	for k := 0; k <= n; k++ {
		frames = append(frames, float64(k)*ratio)
	}
	// The grid ends exactly at the span. A last grid point within a
	// thousandth of a step of it (a period of 72.0000013 frames from a
	// float32 angle) is moved there rather than doubled, and so is one
	// whose time in float32 seconds would equal the span's: glTF times must
	// strictly increase.
	last := frames[len(frames)-1]
	sameF32 := float32(last/srcFPS) == float32(span/srcFPS)
	if span-last > 1e-3*ratio && !sameF32 {
		frames = append(frames, span)
	} else {
		frames[len(frames)-1] = span
	}
	return frames
}

// Bake samples every animation of f.
func Bake(f *model.File, opts Options) (*Baked, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	cv := NewConverter(f.Axes)
	axes := "gltf"
	if opts.Axes == "source" {
		cv = NewConverter(model.GLTFAxes)
		axes = f.Axes.Name
		if axes == "" {
			axes = "source"
		}
	}
	out := &Baked{Name: f.Name, Source: f.Source, Axes: axes, Extras: f.Extras}
	out.Nodes = make([]model.Node, len(f.Nodes))
	for i, n := range f.Nodes {
		NormalizeRest(&n)
		cv.Node(&n)
		out.Nodes[i] = n
	}
	out.Assets = cv.Assets(&f.Assets)
	for _, c := range f.Curves {
		bc, err := BakeCurve(&c, cv)
		if err != nil {
			return nil, fmt.Errorf("curve %q: %w", c.Name, err)
		}
		out.Curves = append(out.Curves, *bc)
	}
	for i := range f.Animations {
		ba, err := BakeAnimation(&f.Animations[i], cv, opts)
		if err != nil {
			return nil, fmt.Errorf("animation %q: %w", f.Animations[i].Name, err)
		}
		out.Animations = append(out.Animations, *ba)
	}
	applyNames(out, f, opts.LoopSuffix)
	applyAssetNames(out)
	return out, nil
}

// BakeAnimation samples one animation through the converter cv.
func BakeAnimation(a *model.Animation, cv *Converter, opts Options) (*BakedAnimation, error) {
	src := a.FPS
	if opts.Timebase > 0 {
		src = opts.Timebase
	}
	if n := SampleCount(Span(a), src, opts.FPS); n > MaxSamples {
		return nil, fmt.Errorf("%g source frames at %g frames/s make %.0f samples, more than the %d a bake allows (is the frame count corrupt?)",
			Span(a), src, n, MaxSamples)
	}
	frames := SampleFrames(Span(a), src, opts.FPS)
	ba := &BakedAnimation{
		Name: a.Name, Loop: a.Loop, SourceFPS: src, SourceFrames: a.Frames,
		FPS: opts.FPS, Extras: a.Extras,
	}
	if ba.FPS <= 0 {
		ba.FPS = src
	}
	ba.Times = make([]float64, len(frames))
	for i, fr := range frames {
		ba.Times[i] = fr / src
	}
	ba.Duration = ba.Times[len(ba.Times)-1]
	clip := &Clip{Anim: a, Evals: make([]Evaluator, len(a.Channels))}
	for ci, c := range a.Channels {
		ev, err := Compile(c.Curve)
		if err != nil {
			return nil, fmt.Errorf("channel %s of %q: %w", c.Path, c.Node+c.Material, err)
		}
		clip.Evals[ci] = ev
		bc := BakedChannel{Source: ci, Node: c.Node, Material: c.Material, TextureSlot: c.TextureSlot, Path: c.Path, Labels: c.Labels,
			Width: ev.Width(), Step: IsStepped(ev)}
		if k, ok := ev.(Keyer); ok {
			bc.KeyFrames = k.KeyFrames()
		}
		if opts.NoSamples {
			ba.Channels = append(ba.Channels, bc)
			continue
		}
		bc.Values = make([]float64, len(frames)*bc.Width)
		sampleChannel(ev, a, frames, bc.Values, bc.Width)
		if err := finishChannel(&bc, cv); err != nil {
			return nil, fmt.Errorf("channel %s of %q: %w", c.Path, c.Node+c.Material, err)
		}
		ba.Channels = append(ba.Channels, bc)
	}
	for _, e := range a.Events {
		ba.Events = append(ba.Events, BakedEvent{Time: e.Frame / src, Event: e})
	}
	ba.clip = clip
	return ba, nil
}

// sampleChannel is the inner loop: one Eval per sample, no allocation.
func sampleChannel(ev Evaluator, a *model.Animation, frames, values []float64, w int) {
	for i, fr := range frames {
		ev.Eval(SourceFrame(a, fr), values[i*w:i*w+w])
	}
}

// finishChannel converts axes, normalises quaternions and keeps them
// sign-continuous, and rejects non-finite results.
func finishChannel(bc *BakedChannel, cv *Converter) error {
	w := bc.Width
	n := len(bc.Values) / max(w, 1)
	for i := range n {
		v := bc.Values[i*w : i*w+w]
		for _, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("sample %d is not finite", i)
			}
		}
		cv.Value(bc.Path, v)
		if bc.Path == model.PathRotation && w == 4 {
			normalize4(v)
			if i > 0 {
				p := bc.Values[(i-1)*w : i*w]
				if p[0]*v[0]+p[1]*v[1]+p[2]*v[2]+p[3]*v[3] < 0 {
					v[0], v[1], v[2], v[3] = -v[0], -v[1], -v[2], -v[3]
				}
			}
		}
	}
	return nil
}

// NormalizeRest gives a node's unset rest rotation and scale (all zero)
// their identity values and normalises the rotation.
func NormalizeRest(n *model.Node) {
	if n.Rotation == ([4]float64{}) {
		n.Rotation[3] = 1
	}
	normalize4(n.Rotation[:])
	if n.Scale == ([3]float64{}) {
		n.Scale = [3]float64{1, 1, 1}
	}
}

// BakeCurve samples a path at CurveSteps+1 progressions; its curve must
// evaluate to a position and a direction (6 components).
func BakeCurve(c *model.PathCurve, cv *Converter) (*BakedCurve, error) {
	ev, err := Compile(c.Curve)
	if err != nil {
		return nil, err
	}
	if ev.Width() != 6 {
		return nil, fmt.Errorf("path curve evaluates to %d components, want 6", ev.Width())
	}
	bc := &BakedCurve{Name: c.Name, Node: c.Node, Closed: c.Closed, Length: c.Length, Extras: c.Extras,
		Positions: make([]float64, 3*(CurveSteps+1)), Directions: make([]float64, 3*(CurveSteps+1))}
	var v [6]float64
	for k := 0; k <= CurveSteps; k++ {
		ev.Eval(float64(k)/CurveSteps, v[:])
		p, d := bc.Positions[3*k:3*k+3], bc.Directions[3*k:3*k+3]
		copy(p, v[:3])
		copy(d, v[3:])
		cv.Position(p)
		cv.Direction(d)
	}
	bc.Length *= cv.k
	return bc, nil
}
