package fidelity

import (
	"github.com/animbake/bake/model"
)

// MaxRefineRounds bounds how often AnyTimeRefined halves an interval:
// 4 probes a frame become at most 4·2⁸.
const MaxRefineRounds = 8

// frames sets r.Frames, the metric at the source frames alone, and
// r.AnyTime, the bound at any time from spec's probes (which hold every
// key the players play), refined where above limit, for one clip.
func (m *Meter) frames(r *Result, eng *Engine, slerp, nlerp *KeyPlayer, a *model.Animation, fps float64, spec ProbeSpec, limit float64) {
	fr := m.Measure(eng, []Player{slerp, nlerp}, []Interp{Slerp, Nlerp}, FrameProbes(a, fps))
	fr.Hist, fr.NodeMax = nil, nil
	r.Frames = &fr
	at := AnyTimeRefined(m.h, eng, slerp.channels, spec, m.dist, limit, MaxRefineRounds)
	r.AnyTime = &at
}
