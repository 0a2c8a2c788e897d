package fidelity

import (
	"cmp"
	"math"
	"slices"

	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// Probe is one time at which a client's playback is compared with the
// engine.
type Probe struct {
	// Frame is the source frame on the baked timeline (before a loop wraps
	// or a ping-pong turns), where the engine is evaluated.
	Frame float64
	// Time is the clip time in seconds a client is asked for.
	Time float64
	// Edge marks one side of a discontinuity: Time is then a float32 value,
	// the two sides are adjacent float32 times and Frame lies on the
	// engine's side of the jump that Time shows.
	Edge bool
	// Index is the probe's position in the list Probes returned.
	Index int
}

// ProbeSpec says what Probes covers.
type ProbeSpec struct {
	Anim *model.Animation
	// FPS is the source frame rate (with any --timebase applied).
	FPS float64
	// Evals are the clip's compiled channels: their source keys (Keyer)
	// are probed, and a key where the value jumps gets an edge pair.
	Evals []sample.Evaluator
	// PerFrame evenly spaced probes per source frame (ProbesPerFrame when 0).
	PerFrame int
	// Frames are more baked-timeline frames to probe (an output grid).
	Frames []float64
	// Times are more clip times in seconds (the keys of a played file).
	Times []float64
	// Midpoints also probes halfway between consecutive Times (sorted), so
	// that motion faster than the regular probes is seen between keys.
	Midpoints bool
	// Edges are more frames where a channel jumps (found by a search).
	Edges []float64
}

// jumpThreshold is the change in one component across one float32 time
// step at a source key that counts as a discontinuity (in the curve's own
// units: smooth motion changes by far less across 1e-7 s).
const jumpThreshold = 1e-5

// Probes returns the probe times of a clip, sorted, one per float32 time:
// PerFrame per source frame over the baked span, the clip's end, every
// source key, the given frames and times, and both sides of every
// discontinuity (a repeat's seam, every key of a stepped channel, a source
// key where the value jumps, and spec.Edges). Where an edge and another
// probe round to the same float32 time, the edge is kept: a client cannot
// ask between the two sides.
func Probes(spec ProbeSpec) []Probe {
	a, src := spec.Anim, spec.FPS
	span := sample.Span(a)
	per := spec.PerFrame
	if per <= 0 {
		per = ProbesPerFrame
	}
	var ps []Probe
	add := func(f float64) {
		if f >= 0 && f <= span {
			ps = append(ps, Probe{Frame: f, Time: f / src})
		}
	}
	n := int(math.Floor(span*float64(per) + 1e-9))
	ps = slices.Grow(ps, n+2)
	for k := 0; k <= n; k++ {
		add(float64(k) / float64(per))
	}
	add(span)
	for _, f := range spec.Frames {
		add(f)
	}
	for _, t := range spec.Times {
		if t >= 0 && t*src <= span*(1+1e-9) {
			ps = append(ps, Probe{Frame: min(t*src, span), Time: t})
		}
	}
	if spec.Midpoints {
		for i := 1; i < len(spec.Times); i++ {
			t := (spec.Times[i-1] + spec.Times[i]) / 2
			if float32(t) != float32(spec.Times[i-1]) && float32(t) != float32(spec.Times[i]) && t*src <= span {
				ps = append(ps, Probe{Frame: t * src, Time: t})
			}
		}
	}
	edge := func(f float64) {
		if f <= 0 || f > span {
			return
		}
		hi := float32(f / src)
		lo := math.Nextafter32(hi, float32(math.Inf(-1)))
		ps = append(ps, Probe{Frame: f, Time: float64(hi), Edge: true},
			Probe{Frame: float64(lo) * src, Time: float64(lo), Edge: true})
	}
	if a.Loop == model.LoopRepeat {
		edge(a.Period)
	}
	var v0, v1 [16]float64
	for _, ev := range spec.Evals {
		k, ok := ev.(sample.Keyer)
		if !ok {
			continue
		}
		stepped := sample.IsStepped(ev)
		// An evaluator that knows where it jumps (sample.Jumper) is not
		// evaluated around every key.
		jumps, known := sample.JumpFrames(ev, jumpThreshold)
		w := min(ev.Width(), len(v0))
		for _, kf := range k.KeyFrames() {
			_, jumpHere := slices.BinarySearch(jumps, kf)
			for _, f := range bakedFrames(a, kf) {
				add(f)
				if f <= 0 || f > span {
					continue
				}
				if !stepped && known && !jumpHere {
					continue
				}
				if !stepped && !known {
					hi := float32(f / src)
					lo := float64(math.Nextafter32(hi, float32(math.Inf(-1)))) * src
					ev.Eval(sample.SourceFrame(a, lo), v0[:w])
					ev.Eval(sample.SourceFrame(a, f), v1[:w])
					jump := false
					for j := range w {
						jump = jump || math.Abs(v1[j]-v0[j]) > jumpThreshold*(1+math.Abs(v1[j]))
					}
					if !jump {
						continue
					}
				}
				edge(f)
			}
		}
	}
	for _, f := range spec.Edges {
		edge(f)
	}
	slices.SortStableFunc(ps, func(x, y Probe) int { return cmp.Compare(x.Time, y.Time) })
	out := ps[:0]
	for _, p := range ps {
		if len(out) > 0 {
			last := &out[len(out)-1]
			if float32(last.Time) == float32(p.Time) {
				if p.Edge && !last.Edge {
					*last = p
				}
				continue
			}
		}
		out = append(out, p)
	}
	for i := range out {
		out[i].Index = i
	}
	return out
}

// bakedFrames maps a source key frame onto the baked timeline: itself for
// once and repeat (within the span), and also its mirror for ping-pong.
func bakedFrames(a *model.Animation, kf float64) []float64 {
	switch a.Loop {
	case model.LoopRepeat:
		if kf >= 0 && kf < a.Period {
			return []float64{kf}
		}
		return nil
	case model.LoopPingPong:
		if kf >= 0 && kf <= a.End {
			return []float64{kf, 2*a.End - kf}
		}
		return nil
	}
	if kf >= 0 && kf <= a.End {
		return []float64{kf}
	}
	return nil
}
