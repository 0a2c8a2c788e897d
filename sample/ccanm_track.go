package sample

import (
	"fmt"

	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample/ps2float"
)

func init() {
	RegisterCompiler("ccanm-track", compileCcAnmTrack)
}

// ccTrackEval plays a ccAnm float or vector controller bit for bit in EE
// single precision (ccAnmCtrlFloat_Set / ccAnmCtrlFVec3_Set).
type ccTrackEval struct {
	timing  model.CcAnmTiming
	width   int
	stepped bool
	keys    []float64
	// durs are the segment durations in ticks.
	durs []uint32
	// deltas holds width EE values per segment (0 for holds).
	deltas []uint32
	// accs holds width EE values per number of segments passed: the start
	// value, then the running sums (len(durs)+1 rows).
	accs []uint32
	// stepFrames / stepValues serve the Stepped and constant kinds.
	stepFrames []uint32
	stepValues []float64
}

func compileCcAnmTrack(c model.Curve) (Evaluator, error) {
	tr := c.(*model.CcAnmTrack)
	if err := tr.Validate(); err != nil {
		return nil, err
	}
	e := &ccTrackEval{timing: tr.Timing, width: tr.Width}
	switch tr.Kind {
	case model.CcAnmAbsent, model.CcAnmConstant:
		e.stepped = true
		e.stepFrames = []uint32{0}
		e.stepValues = widen(tr.Values)
	case model.CcAnmStepped:
		e.stepped = true
		e.stepFrames = tr.Frames
		e.stepValues = widen(tr.Values)
		e.keys = ccKeyFrames(tr.Frames, tr.Timing)
	case model.CcAnmKeyed:
		e.compileKeyed(tr)
	default:
		return nil, fmt.Errorf("ccanm track kind %d", tr.Kind)
	}
	return e, nil
}

// compileKeyed is ccAnmCtrl*_SetCtrl: the start value is the first key; each
// later key's delta is key − running sum, the running sum growing by each
// delta, all in EE arithmetic. Holds carry a delta of 0.
func (e *ccTrackEval) compileKeyed(tr *model.CcAnmTrack) {
	w := tr.Width
	n := len(tr.Frames)
	final := tr.Timing.Frames*ccTicksPerFrame - tr.Frames[n-1]*ccTicksPerFrame
	durs, lead := ccDurations(tr.Frames, final)
	e.durs = durs
	e.deltas = make([]uint32, len(durs)*w)
	e.accs = make([]uint32, (len(durs)+1)*w)
	run := make([]uint32, w)
	for j := range w {
		run[j] = ps2float.F32(tr.Values[j])
	}
	copy(e.accs, run)
	seg := 0
	if lead {
		seg = 1
		copy(e.accs[w:], run)
	}
	for i := 1; i < n; i++ {
		for j := range w {
			d := ps2float.Sub(ps2float.F32(tr.Values[i*w+j]), run[j])
			e.deltas[seg*w+j] = d
			run[j] = ps2float.Add(run[j], d)
		}
		seg++
		copy(e.accs[seg*w:], run)
	}
	copy(e.accs[(seg+1)*w:], run) // after the final hold (delta 0)
	e.keys = ccKeyFrames(tr.Frames, tr.Timing)
}

func widen(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = ps2float.ToFloat64(ps2float.F32(x))
	}
	return out
}

func (e *ccTrackEval) Width() int           { return e.width }
func (e *ccTrackEval) Stepped() bool        { return e.stepped }
func (e *ccTrackEval) KeyFrames() []float64 { return e.keys }

// Eval implements Evaluator.
func (e *ccTrackEval) Eval(frame float64, out []float64) {
	w := e.width
	if e.stepped {
		i := ccStepIndex(e.stepFrames, ccTicks(frame, e.timing))
		copy(out[:w], e.stepValues[i*w:i*w+w])
		return
	}
	passed, rem := ccWalk(e.durs, ccTicks(frame, e.timing))
	var q uint32
	if passed < len(e.durs) {
		q = ps2float.Div(ps2float.U32tof(rem), ps2float.U32tof(e.durs[passed]))
	}
	for j := range w {
		out[j] = ps2float.ToFloat64(e.valueBits(passed, q, j))
	}
}

// valueBits is _Set's result for component j once the walk has passed
// `passed` segments and q = u32tof(rem) / u32tof(dur) is the fraction of the
// current one: acc + delta · q in EE arithmetic (fs = delta, ft = q).
func (e *ccTrackEval) valueBits(passed int, q uint32, j int) uint32 {
	w := e.width
	acc := e.accs[passed*w+j]
	if passed == len(e.durs) {
		return acc
	}
	return ps2float.Add(acc, ps2float.Mul(e.deltas[passed*w+j], q))
}

// Bits gives the EE bit patterns of the value at ccAnm time t (in 1/256
// frames, not clamped) for tests and for callers that need the raw words.
func (e *ccTrackEval) Bits(t uint32, out []uint32) {
	if e.stepped {
		i := ccStepIndex(e.stepFrames, t)
		for j := range e.width {
			out[j] = ps2float.F32(float32(e.stepValues[i*e.width+j]))
		}
		return
	}
	passed, rem := ccWalk(e.durs, t)
	var q uint32
	if passed < len(e.durs) {
		q = ps2float.Div(ps2float.U32tof(rem), ps2float.U32tof(e.durs[passed]))
	}
	for j := range e.width {
		out[j] = e.valueBits(passed, q, j)
	}
}

// ccStepIndex is the record of a stepped series in force at time t (ticks):
// the last whose frame is at or before the whole frame reached, the first
// before it.
func ccStepIndex(frames []uint32, t uint32) int {
	f := t / ccTicksPerFrame
	i := 0
	for i+1 < len(frames) && frames[i+1] <= f {
		i++
	}
	return i
}
