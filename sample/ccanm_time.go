package sample

import (
	"math"

	"github.com/animbake/bake/model"
)

// This file holds what every ccAnm controller shares: the time base (1/256
// of a frame) and the segment walk of ccAnmCtrl*_SetCtrl / _Set
// (ccs-anime-playback.txt "Floats and vectors", "Rotations").

// ccTicksPerFrame is ccAnm's time unit: time = frameNow·256 + frameCnt.
const ccTicksPerFrame = 256

// ccTicks turns a source frame into ccAnm time: whole 1/256 frames (the
// game only ever reaches integer ticks), clamped to [0, (N−1)·256] as
// _AnimateForward clamps it.
func ccTicks(frame float64, timing model.CcAnmTiming) uint32 {
	last := uint32(0)
	if timing.Frames > 1 {
		last = (timing.Frames - 1) * ccTicksPerFrame
	}
	t := math.Floor(frame * ccTicksPerFrame)
	switch {
	case !(t > 0): // also NaN
		return 0
	case t >= float64(last):
		return last
	}
	return uint32(t)
}

// ccDurations compiles key frames into the u32 segment durations of
// _SetCtrl, in ticks: a hold up to the first key when it is after frame 0,
// then one segment per later key of 256·(frame − previous frame), wrapping
// (a key that goes back gives ≈2^32, two keys on one frame give 0), then
// the final hold. finalHold is that last duration: N·256 − last·256 for
// floats, (last − N)·256 for rotations (both wrap as u32).
func ccDurations(frames []uint32, finalHold uint32) (durs []uint32, leadingHold bool) {
	leadingHold = frames[0] > 0
	if leadingHold {
		durs = append(durs, frames[0]*ccTicksPerFrame)
	}
	for i := 1; i < len(frames); i++ {
		durs = append(durs, (frames[i]-frames[i-1])*ccTicksPerFrame)
	}
	return append(durs, finalHold), leadingHold
}

// ccWalk finds the segment that time t falls in: it passes every segment
// whose duration is below the remaining time, or zero (the spec: "a segment
// of 0 that always is" passed), and returns how many it passed and the time
// left in the current one. passed == len(durs) means every segment was
// passed (impossible for monotonic keys, as the final hold runs past
// (N−1)·256).
func ccWalk(durs []uint32, t uint32) (passed int, rem uint32) {
	rem = t
	for passed < len(durs) {
		d := durs[passed]
		if d != 0 && d >= rem {
			break
		}
		rem -= d
		passed++
	}
	return passed, rem
}

// ccKeyFrames lists key frames as float64 for Keyer, clamped to the
// playable span and without repeats.
func ccKeyFrames(frames []uint32, timing model.CcAnmTiming) []float64 {
	end := timing.End()
	out := make([]float64, 0, len(frames))
	for _, f := range frames {
		v := min(float64(f), end)
		if len(out) == 0 || v > out[len(out)-1] {
			out = append(out, v)
		}
	}
	return out
}
