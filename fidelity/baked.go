package fidelity

import (
	"fmt"
	"slices"

	"github.com/qmuntal/gltf"

	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// Converter returns the converter that takes f's values to the axes b was
// baked in ("gltf": glTF's; otherwise the source's own).
func Converter(f *model.File, b *sample.Baked) *sample.Converter {
	if b.Axes == "gltf" {
		return sample.NewConverter(f.Axes)
	}
	return sample.NewConverter(model.GLTFAxes)
}

// MeasureOptions control MeasureBaked.
type MeasureOptions struct {
	// Shell is the virtual vertices' distance (DefaultShell when 0).
	Shell float64
	// PerFrame is the number of regular probes per source frame
	// (ProbesPerFrame when 0).
	PerFrame int
	// Mesh measures at the output's mesh vertices where it has meshes
	// (NodeDistances) instead of the shell.
	Mesh bool
	// AnyTime also measures every clip at its source frames
	// (Result.Frames) and bounds it at any time (Result.AnyTime).
	AnyTime bool
	// AnyTimeLimit, when above 0, halves the probe intervals whose
	// any-time bound exceeds it (AnyTimeRefined), so that the bound
	// settles where the keys allow.
	AnyTimeLimit float64
	// Midpoints also probes halfway between consecutive key times (of all
	// channels together): a stricter look between keys than the regular
	// probes give.
	Midpoints bool
	// AtFrames probes only the source frames, at k/fps in float64, and the
	// clip's end (FrameProbes): where the default keys' contract holds.
	AtFrames bool
}

// probes returns the probes of a clip measured with opts, spec's times
// being the keys of the played clip.
func (opts MeasureOptions) probes(spec ProbeSpec) []Probe {
	if opts.AtFrames {
		return FrameProbes(spec.Anim, spec.FPS)
	}
	return Probes(spec)
}

// MeasureBaked measures every clip of b, a bake of f, against the engine:
// probes as Probes gives them plus every key of every channel, playback
// with slerp and with nlerp.
func MeasureBaked(f *model.File, b *sample.Baked, opts MeasureOptions) ([]Result, error) {
	if len(f.Animations) != len(b.Animations) {
		return nil, fmt.Errorf("bake has %d animations, the file %d", len(b.Animations), len(f.Animations))
	}
	h := NewHierarchy(b.Nodes)
	cv := Converter(f, b)
	m := newMeter(h, b, opts)
	var out []Result
	for i := range b.Animations {
		ba, a := &b.Animations[i], &f.Animations[i]
		eng, err := NewEngine(h, f.Nodes, a, cv)
		if err != nil {
			return nil, fmt.Errorf("animation %q: %w", a.Name, err)
		}
		spec := ProbeSpec{Anim: a, FPS: ba.SourceFPS, Evals: eng.Evals(), Times: KeyTimes(ba), Midpoints: opts.Midpoints,
			PerFrame: opts.PerFrame}
		probes := opts.probes(spec)
		var data []DataChannel
		for c := range ba.Channels {
			ch := &ba.Channels[c]
			if h.Target(ch.Node, ch.Path) < 0 {
				data = append(data, DataChannel{Ref: ch.Source, Play: c, Width: ch.Width, Tolerance: ChannelTolerance(ch.Path)})
			}
		}
		m.DataChannels(data)
		slerp, nlerp := NewKeyPlayer(h, ba, Slerp), NewKeyPlayer(h, ba, Nlerp)
		out = append(out, m.Measure(eng, []Player{slerp, nlerp}, []Interp{Slerp, Nlerp}, probes))
		if opts.AnyTime {
			m.frames(&out[len(out)-1], eng, slerp, nlerp, a, ba.SourceFPS, spec, opts.AnyTimeLimit)
		}
	}
	return out, nil
}

// newMeter is a meter for b's hierarchy with the shell, or the mesh's
// distances when opts.Mesh.
func newMeter(h *Hierarchy, b *sample.Baked, opts MeasureOptions) *Meter {
	m := NewMeter(h, opts.Shell)
	if opts.Mesh {
		m.SetDistances(NodeDistances(b.Nodes, &b.Assets, opts.Shell))
	}
	return m
}

// KeyTimes returns the sorted union of a baked clip's key times.
func KeyTimes(ba *sample.BakedAnimation) []float64 {
	var all []float64
	seen := map[*float64]bool{}
	for i := range ba.Channels {
		ts := ba.Channels[i].KeyTimes(ba)
		if len(ts) == 0 || seen[&ts[0]] {
			continue
		}
		seen[&ts[0]] = true
		all = append(all, ts...)
	}
	slices.Sort(all)
	return slices.Compact(all)
}

// MeasureGLTF measures another glTF rendition of f's clips (doc, with the
// node and clip names of b, f's bake) against the engine, as MeasureBaked
// does: clips are matched by name, probes include every key of doc's
// clip. Clips doc lacks are left out (their Result has Probes 0).
func MeasureGLTF(f *model.File, b *sample.Baked, doc *gltf.Document, opts MeasureOptions) ([]Result, error) {
	h := NewHierarchy(b.Nodes)
	cv := Converter(f, b)
	m := newMeter(h, b, opts)
	byName := map[string]int{}
	for i, a := range doc.Animations {
		byName[a.Name] = i
	}
	out := make([]Result, len(b.Animations))
	for i := range b.Animations {
		ba, a := &b.Animations[i], &f.Animations[i]
		di, ok := byName[ba.Name]
		if !ok {
			continue
		}
		eng, err := NewEngine(h, f.Nodes, a, cv)
		if err != nil {
			return nil, fmt.Errorf("animation %q: %w", a.Name, err)
		}
		slerp, err := NewGLTFPlayer(doc, di, h, Slerp)
		if err != nil {
			return nil, err
		}
		nlerp, _ := NewGLTFPlayer(doc, di, h, Nlerp)
		var times []float64
		for _, k := range slerp.channels {
			times = append(times, k.Times...)
		}
		slices.Sort(times)
		times = slices.Compact(times)
		spec := ProbeSpec{Anim: a, FPS: ba.SourceFPS, Evals: eng.Evals(), Times: times, Midpoints: opts.Midpoints,
			PerFrame: opts.PerFrame}
		probes := opts.probes(spec)
		m.DataChannels(nil)
		out[i] = m.Measure(eng, []Player{slerp, nlerp}, []Interp{Slerp, Nlerp}, probes)
		if opts.AnyTime {
			m.frames(&out[i], eng, slerp, nlerp, a, ba.SourceFPS, spec, opts.AnyTimeLimit)
		}
	}
	return out, nil
}
