package sample

import (
	"math"

	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample/ps2float"
)

// The ccAnm controllers (ccs-anime-playback.txt "Floats and vectors",
// "Rotations", "Time") advance in whole ticks, 1/256 of a frame: the game
// shows the value of tick T = ⌊256·frame⌋, a staircase. The bounds below
// are those of the curve the staircase samples, linear in time within a
// segment (acc + delta·rem/dur; a rotation about a fixed axis at a fixed
// rate; a slerp), which passes through the engine's value at every whole
// tick, the only times the game can show (docs/fidelity.md, "Which times
// the engine can show"). Between two ticks the game holds the earlier
// tick's value: at most one tick's motion, d1/256 of a frame, off that
// curve. A probe between two ticks (a float32 key time just below a key,
// a halving finer than a tick) measures that held value, up to a part of
// a tick's motion e off the curve, which the consumer's
// max(|D(t_a)|, |D(t_b)|) then misses: tickSlack adds it.

// ccSegment finds the segment of durs that holds the frames [f0, f1]
// (clamped to the playable ticks [0, (N−1)·256] as _AnimateForward
// clamps time): its index, the interval's fractions [u0, u1] of it and
// its duration in frames. held is true when
// the interval lies where the value cannot move (clamped, or past every
// segment); ok is false when a segment boundary (a key) lies strictly
// inside.
func ccSegment(durs []uint32, timing model.CcAnmTiming, f0, f1 float64) (seg int, u0, u1, frames float64, held, ok bool) {
	last := 0.0
	if timing.Frames > 1 {
		last = float64((timing.Frames - 1) * ccTicksPerFrame)
	}
	t0, t1 := max(f0*ccTicksPerFrame, 0), min(f1*ccTicksPerFrame, last)
	if !(t0 < t1) {
		return 0, 0, 0, 0, true, true // wholly clamped at one end
	}
	// ccWalk at the middle, in real ticks: a segment runs from (start,
	// start + dur]; a zero one is always passed.
	passed, rem := 0, (t0+t1)/2
	for passed < len(durs) {
		d := float64(durs[passed])
		if d != 0 && d >= rem {
			break
		}
		rem -= d
		passed++
	}
	if passed == len(durs) {
		return 0, 0, 0, 0, true, true
	}
	start := (t0+t1)/2 - rem
	end := start + float64(durs[passed])
	slack := keySlack * (1 + t1)
	if t0 < start-slack || t1 > end+slack {
		return 0, 0, 0, 0, false, false
	}
	dur := float64(durs[passed])
	return passed, max((t0-start)/dur, 0), min((t1-start)/dur, 1), dur / ccTicksPerFrame, false, true
}

// Bend implements Bender for ccAnm float and vector tracks: a stepped or
// constant track holds between its keys (its jumps are at keys); a keyed
// one is acc + delta·rem/dur per component (ccAnmCtrlFloat_Set in EE
// single precision), moving at |delta|/(dur/256) a frame without bending.
func (e *ccTrackEval) Bend(f0, f1 float64) (float64, float64, bool) {
	if e.stepped {
		return 0, 0, !keyInside(e.keys, f0, f1)
	}
	seg, _, _, d, held, ok := ccSegment(e.durs, e.timing, f0, f1)
	if !ok || held {
		return 0, 0, ok
	}
	slope := e.slope(seg, d)
	return slope, tickSlack(f0, f1, func(t float64) float64 { return ccSlope(e.durs, e.timing, t, e.slope) }), true
}

// slope is |delta|/(dur/256) of segment seg, d frames long.
func (e *ccTrackEval) slope(seg int, d float64) float64 {
	var s float64
	for j := range e.width {
		x := ps2float.ToFloat64(e.deltas[seg*e.width+j])
		s += x * x
	}
	return math.Sqrt(s) / d
}

// Bend implements Bender for ccAnm rotations: single values and stepped
// records hold between keys; a keyed Euler segment turns the running
// matrix about a fixed axis by angle·rem/dur, ω = |angle|/(dur/256) a
// frame, so |q'| = ω/2 and |q”| = ω²/4 (q = (sin(θ/2)·axis, cos(θ/2)) times
// a fixed unit quaternion); a quaternion-keyed segment is Slerp of unit
// keys θ apart, |q'| = θ/Δ and |q”| = (θ/Δ)² (Δ = dur/256), or its nlerp
// for keys closer than Slerp's threshold (lerpQuatBend).
func (e *ccRotEval) Bend(f0, f1 float64) (float64, float64, bool) {
	if e.kind != model.CcAnmKeyed && e.kind != model.CcAnmQuatKeyed {
		return 0, 0, !keyInside(e.keys, f0, f1)
	}
	seg, u0, u1, d, held, ok := ccSegment(e.durs, e.timing, f0, f1)
	if !ok || held {
		return 0, 0, ok
	}
	slack := tickSlack(f0, f1, func(t float64) float64 { return ccSlope(e.durs, e.timing, t, e.slope) })
	if e.kind == model.CcAnmKeyed {
		w := math.Abs(e.angles[seg]) / d
		return w / 2, w*w/4 + slack, true
	}
	d1, d2, ok := unitSlerpBend(e.quats[e.from[seg]][:], e.quats[e.to[seg]][:], u0, u1)
	return d1 / d, d2/(d*d) + slack, ok
}

// slope bounds |q'| over segment seg, d frames long: ω/2 for an Euler
// step, the slerp's (or its nlerp's) rate for quaternion keys.
func (e *ccRotEval) slope(seg int, d float64) float64 {
	if e.kind == model.CcAnmKeyed {
		return math.Abs(e.angles[seg]) / d / 2
	}
	d1, _, _ := unitSlerpBend(e.quats[e.from[seg]][:], e.quats[e.to[seg]][:], 0, 1)
	return d1 / d
}

// unitSlerpBend bounds Slerp (keyed.go) of unit keys a and b over the
// fractions [u0, u1], per unit of the fraction: the slerp of keys θ apart
// turns at θ and bends at θ²; where Slerp takes the nlerp (|a·b| >
// 0.9995), lerpQuatBend.
func unitSlerpBend(a, b []float64, u0, u1 float64) (float64, float64, bool) {
	dot := a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3]
	s := 1.0
	if dot < 0 {
		dot, s = -dot, -1
	}
	if dot > 0.9995 {
		return lerpQuatBend(a, b, s, u0, u1)
	}
	w := math.Acos(min(dot, 1))
	return w, w * w, true
}

// tickSlack is what Bend adds to d2 for the interval's ends that are not
// whole ticks: the game shows g(⌊T⌋) at tick time T, off the curve g by
// e ≤ slope·(T − ⌊T⌋) (the slope of the segment holding (⌊T⌋, T]), so the
// error measured there may be e below the curve's; 8·e/h² in d2 adds e to
// the consumer's h²/8·d2 term (h = f1 − f0). Whole-tick ends add nothing.
func tickSlack(f0, f1 float64, slope func(tick float64) float64) float64 {
	e := 0.0
	for _, f := range []float64{f0, f1} {
		t := f * ccTicksPerFrame
		if frac := t - math.Floor(t); frac > 0 {
			e = max(e, slope(math.Floor(t)+frac/2)*frac/ccTicksPerFrame)
		}
	}
	if e == 0 {
		return 0
	}
	return 8 * e / ((f1 - f0) * (f1 - f0))
}

// ccSlope is the largest first derivative (per frame) of the segment of
// durs holding tick t, from rate(seg, frames) (0 past every segment or
// outside the playable ticks).
func ccSlope(durs []uint32, timing model.CcAnmTiming, t float64, rate func(seg int, frames float64) float64) float64 {
	f := t / ccTicksPerFrame
	seg, _, _, d, held, ok := ccSegment(durs, timing, f, f+1e-9)
	if !ok || held {
		return 0
	}
	return rate(seg, d)
}
