package keys

import (
	"maps"

	"github.com/animbake/bake/fidelity"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// FidelityKey names the clip extras entry where --between records the
// clip's error at frames and its any-time bound (the clip table of the
// glTF scene's extras, the JSON form's animation extras).
const FidelityKey = "fidelity"

// maxKeyRounds bounds how often keys are chosen again with the probes
// where the error measured between the probes misses.
const maxKeyRounds = 4

// reduceBetween reduces a clip (reduceClip) so that, beyond the tolerance
// at every probe, its error at any time is bounded by opts.Between
// (fidelity.AnyTimeRefined): intervals between probes that the bound does
// not prove within it are halved (measuring only, up to fidelity.MaxRefineRounds
// times); where the error measured beside an interval still over it
// exceeds half of it, those times become probes of the key choice, which
// holds them within that half (probeSlack; the frames keep the
// tolerance), and keys are chosen again (up to maxKeyRounds times). The clip's extras
// record the error measured at the source frames and the bound reached
// (FidelityKey).
func reduceBetween(h *fidelity.Hierarchy, srcNodes []model.Node, g *geometry, a *model.Animation, ba *sample.BakedAnimation,
	cv *sample.Converter, opts Options) error {
	eng, err := engine(h, srcNodes, a, ba, cv) // the bake's compiled curves, as reduceClip has them
	if err != nil {
		return err
	}
	dist := fidelity.Distances{Of: g.dist, Mesh: g.meshNodes}
	grid := sample.SampleFrames(sample.Span(a), ba.SourceFPS, ba.FPS) // the output grid, as reduceClip has it
	var extra, measured []float64                                     // probes of the key choice; and of the bound only
	var at fidelity.AnyTime
	var slerp, nlerp *fidelity.KeyPlayer
	for round := 0; ; round++ {
		o := opts
		o.frames = extra
		if err := reduceClip(h, srcNodes, g, a, ba, cv, o); err != nil {
			return err
		}
		slerp, nlerp = fidelity.NewKeyPlayer(h, ba, fidelity.Slerp), fidelity.NewKeyPlayer(h, ba, fidelity.Nlerp)
		spec := fidelity.ProbeSpec{Anim: a, FPS: ba.SourceFPS, Evals: eng.Evals(), PerFrame: opts.PerFrame,
			Frames: append(append(grid, extra...), measured...), Times: fidelity.KeyTimes(ba)}
		at = fidelity.AnyTimeRefined(h, eng, slerp.Channels(), spec, dist, opts.Between, fidelity.MaxRefineRounds)
		measured = append(measured, at.Refined...) // the next keys are measured there from the start
		if at.Bound <= opts.Between || at.Reason != "" || len(at.Misses) == 0 || round == maxKeyRounds {
			break
		}
		extra = append(extra, at.Misses...)
	}
	m := fidelity.NewMeter(h, opts.Shell)
	m.SetDistances(dist)
	frames := m.Measure(eng, []fidelity.Player{slerp, nlerp}, []fidelity.Interp{fidelity.Slerp, fidelity.Nlerp},
		fidelity.FrameProbes(a, ba.SourceFPS))
	rec := map[string]any{"frames": frames.Max, "distance": dist.Source()}
	if at.Reason == "" {
		rec["anyTime"] = at.Bound
	} else {
		rec["anyTimeNotDerived"] = at.Reason
	}
	ba.Extras = maps.Clone(ba.Extras) // the model's map is shared
	if ba.Extras == nil {
		ba.Extras = map[string]any{}
	}
	ba.Extras[FidelityKey] = rec
	return nil
}

// probeSlack returns each probe's allowed error as a multiple of
// opts.Tolerance, and gives it to the channels that move nodes: 1 at the
// frames (the contract: --tolerance at every source frame), and at the
// probes reduceBetween added between them (opts.frames, off the grid)
// opts.Between/2 over the tolerance (at least 1): the any-time bound asks
// no more there than half of --between, which is where it looks for keys
// (fidelity.AnyTime.Misses). nil when every probe keeps the tolerance.
func probeSlack(probes []fidelity.Probe, chans []*channel, grid []float64, opts Options) []float64 {
	loose := opts.Between / 2 / opts.Tolerance
	if len(opts.frames) == 0 || !(loose > 1) {
		return nil
	}
	extra := make(map[float64]bool, len(opts.frames))
	for _, f := range opts.frames {
		extra[f] = true
	}
	for _, f := range grid {
		delete(extra, f)
	}
	slack := make([]float64, len(probes))
	for k, p := range probes {
		slack[k] = 1
		if extra[p.Frame] && !p.Edge {
			slack[k] = loose
		}
	}
	for _, c := range chans {
		if c.kind != kindData {
			c.slack = slack
		}
	}
	return slack
}

// slackAt is slack's factor at probe k (1 when slack is nil).
func slackAt(slack []float64, k int) float64 {
	if slack == nil {
		return 1
	}
	return slack[k]
}
