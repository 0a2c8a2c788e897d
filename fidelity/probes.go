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
	// Edge marks one side of a discontinuity: Time is then a float32 value
	// and Frame lies on the engine's side of the jump that Time shows (see
	// JumpMargin for where the two sides are).
	Edge bool
	// Jump marks a discontinuity's after side: the engine's value may jump
	// between the probe before this one and this one, so no motion is
	// inferred across that interval.
	Jump bool
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
	// JumpsOnly probes a source key only where a value jumps there (both
	// sides), not every source key: the key builder's probes are the
	// frames and the jumps.
	JumpsOnly bool
}

// JumpMargin is how far before a discontinuity at frame f, in source
// frames, its before side is probed (and keyed): f − 1/16. The after side
// is at f's time rounded down to float32, so that a client asking for f's
// time in float64 (three.js at k/fps), or at whole frames (Blender: the key
// lands at or just below frame k, and F-curves show a key within 0.01 frame
// as the key), or at a float32 running sum of 1/fps (Godot 3) lands on the
// engine's side after the jump; the before side is far enough from it that
// no client confuses the two keys: Blender's 0.01-frame key threshold at
// 24 fps (the stock importer's rate) holds for sources up to 120 fps
// (1/16·24/120 = 0.0125), and Godot 3's sampling drift (microseconds) is a
// thousandth of the margin at 30 fps. Between the two sides a client
// ramps from one value to the other, as it ramps over a whole frame when
// keys are at every frame. docs/fidelity.md, "Jumps".
const JumpMargin = 1.0 / 16

// Down32 is the largest float32 value not above t: a key there is reached
// by a client asking for t in float64.
func Down32(t float64) float64 {
	f := float32(t)
	if float64(f) > t {
		f = math.Nextafter32(f, float32(math.Inf(-1)))
	}
	return float64(f)
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
	var edges []float64
	edge := func(f float64) {
		if f > 0 && f <= span {
			edges = append(edges, f)
		}
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
				if !spec.JumpsOnly {
					add(f)
				}
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
	ps = addSides(ps, edges, src, span)
	out := ps[:0]
	for _, p := range ps {
		if len(out) > 0 {
			// One probe per float32 time, and one per frame (a jump's after
			// side and the grid probe of its frame): a side replaces the
			// other probe, and so does a jump's after side.
			last := &out[len(out)-1]
			if float32(last.Time) == float32(p.Time) || last.Frame == p.Frame {
				if p.Edge && !last.Edge || p.Jump {
					*last = p
				}
				continue
			}
		}
		out = append(out, p)
	}
	RoundBeforeJumps(out)
	for i := range out {
		out[i].Index = i
	}
	return out
}

// RoundBeforeJumps moves the probe just before a jump's after side (when
// it is not a side itself) to its time rounded up to float32, the mirror
// of the after side's rounding down: a client asking for that frame in
// float64 then plays the segment that ends there, not the ramp to the
// jump (on menulevel's 350 m teleport at 59 s, rounding down showed 3.9 cm
// of the ramp at the frame before).
func RoundBeforeJumps(ps []Probe) {
	for i := 1; i < len(ps); i++ {
		if p := &ps[i-1]; ps[i].Jump && !p.Edge {
			if up := Up32(p.Time); float32(up) < float32(ps[i].Time) {
				p.Time = up
			}
		}
	}
}

// Up32 is the smallest float32 value not below t: a key there is reached
// after a client asking for t in float64.
func Up32(t float64) float64 {
	f := float32(t)
	if float64(f) < t {
		f = math.Nextafter32(f, float32(math.Inf(1)))
	}
	return float64(f)
}

// FrameProbes returns the probes where the default keys' contract holds:
// every source frame k of the baked span asked at k/fps in float64 (as
// three.js asks for it), and the end of a clip played once. A looping
// clip's end is its next start, frame 0 at time 0: a looping client wraps
// there.
func FrameProbes(a *model.Animation, fps float64) []Probe {
	span := sample.Span(a)
	n := int(math.Floor(span + 1e-9))
	loops := a.Loop == model.LoopRepeat || a.Loop == model.LoopPingPong
	ps := make([]Probe, 0, n+2)
	for k := 0; k <= n; k++ {
		if loops && k > 0 && float64(k) >= span-1e-9 {
			break
		}
		ps = append(ps, Probe{Frame: float64(k), Time: float64(k) / fps, Index: len(ps)})
	}
	if !loops && span-float64(n) > 1e-9 {
		ps = append(ps, Probe{Frame: span, Time: span / fps, Index: len(ps)})
	}
	return ps
}

// addSides adds both sides of every discontinuity (frames on the baked
// timeline) to ps and sorts them by time. The after side is at the jump's
// time rounded down to float32 (at the span's end, to the nearest float32,
// so that the clip lasts as long as with keys at every frame: a loop's end
// is its next start, and the clip's duration is its last key's time); the
// before side JumpMargin frames earlier, unless a probe of ps already lies
// in between (it then serves as the before side: the engine shows the
// value before the jump there).
func addSides(ps []Probe, edges []float64, src, span float64) []Probe {
	slices.SortStableFunc(ps, func(x, y Probe) int { return cmp.Compare(x.Time, y.Time) })
	slices.Sort(edges)
	edges = slices.Compact(edges)
	regular := len(ps)
	prevHi := math.Inf(-1) // the last jump's after side
	for _, f := range edges {
		hi := Down32(f / src)
		if f >= span {
			hi = float64(float32(f / src))
		}
		ps = append(ps, Probe{Frame: f, Time: hi, Edge: true, Jump: true})
		// The regular probes are sorted: is one in [f − margin, f)?
		lo := float64(float32((f - JumpMargin) / src))
		i, _ := slices.BinarySearchFunc(ps[:regular], lo, func(p Probe, t float64) int { return cmp.Compare(p.Time, t) })
		between := i < regular && ps[i].Frame < f && float32(ps[i].Time) < float32(hi)
		if !between && prevHi < lo && lo > 0 {
			ps = append(ps, Probe{Frame: lo * src, Time: lo, Edge: true})
		}
		prevHi = hi
	}
	slices.SortStableFunc(ps, func(x, y Probe) int { return cmp.Compare(x.Time, y.Time) })
	return ps
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
