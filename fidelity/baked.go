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
	// Midpoints also probes halfway between consecutive key times (of all
	// channels together): a stricter look between keys than the regular
	// probes give.
	Midpoints bool
	// AtFrames probes only the source frames, at k/fps in float64, and the
	// clip's end (FrameProbes): where the default keys' contract holds.
	AtFrames bool
}

// probes returns the probes of a clip measured with opts, times being
// the keys of the played clip.
func (opts MeasureOptions) probes(a *model.Animation, fps float64, eng *Engine, times []float64) []Probe {
	if opts.AtFrames {
		return FrameProbes(a, fps)
	}
	return Probes(ProbeSpec{Anim: a, FPS: fps, Evals: eng.Evals(), Times: times, Midpoints: opts.Midpoints, PerFrame: opts.PerFrame})
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
	m := NewMeter(h, opts.Shell)
	var out []Result
	for i := range b.Animations {
		ba, a := &b.Animations[i], &f.Animations[i]
		eng, err := NewEngine(h, f.Nodes, a, cv)
		if err != nil {
			return nil, fmt.Errorf("animation %q: %w", a.Name, err)
		}
		probes := opts.probes(a, ba.SourceFPS, eng, KeyTimes(ba))
		var data []DataChannel
		for c := range ba.Channels {
			ch := &ba.Channels[c]
			if h.Target(ch.Node, ch.Path) < 0 {
				data = append(data, DataChannel{Ref: ch.Source, Play: c, Width: ch.Width, Tolerance: ChannelTolerance(ch.Path)})
			}
		}
		m.DataChannels(data)
		plays := []Player{NewKeyPlayer(h, ba, Slerp), NewKeyPlayer(h, ba, Nlerp)}
		out = append(out, m.Measure(eng, plays, []Interp{Slerp, Nlerp}, probes))
	}
	return out, nil
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
	m := NewMeter(h, opts.Shell)
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
		probes := opts.probes(a, ba.SourceFPS, eng, times)
		m.DataChannels(nil)
		out[i] = m.Measure(eng, []Player{slerp, nlerp}, []Interp{Slerp, Nlerp}, probes)
	}
	return out, nil
}
