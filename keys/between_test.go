package keys

import (
	"math/rand"
	"testing"

	"github.com/animbake/bake/fidelity"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// The probes reduceBetween adds between the frames are held to half of
// --between (1 mm / 2 over 0.1 mm: 5 times the tolerance); the frames,
// and a jump's side at a listed frame, keep the tolerance; data channels
// keep their own.
func TestProbeSlack(t *testing.T) {
	probes := []fidelity.Probe{{Frame: 0}, {Frame: 0.5}, {Frame: 1}, {Frame: 1.25, Edge: true}, {Frame: 2}}
	chans := []*channel{{kind: kindTranslation}, {kind: kindData}}
	opts := Options{Tolerance: 1e-4, Between: 1e-3, frames: []float64{0.5, 1, 1.25}}
	got := probeSlack(probes, chans, []float64{0, 1, 2}, opts)
	want := []float64{1, 5, 1, 1, 1}
	for k := range want {
		if got[k] != want[k] || slackAt(chans[0].slack, k) != want[k] || slackAt(chans[1].slack, k) != 1 {
			t.Fatalf("slack %v (data %v), want %v", got, chans[1].slack, want)
		}
	}
	if probeSlack(probes, chans[:0], []float64{0, 1, 2}, Options{Tolerance: 1e-4, Between: 1e-4, frames: opts.frames}) != nil {
		t.Error("--between at the tolerance loosens nothing")
	}
}

// Keys at probes 0 and 2 (x = 0) play x = 0 at probe 1, where the engine
// is at 0.3 mm: beyond an allowed 0.1 mm, within 5 times it, not twice.
func TestSlackLoosensItsProbe(t *testing.T) {
	c := &channel{path: model.PathTranslation, width: 3, node: 0, kind: kindTranslation, factor: 1, allowed: 1e-4,
		vals: []float64{0, 0, 0, 3e-4, 0, 0, 0, 0, 0}, v32: make([]float64, 9)}
	probes := []fidelity.Probe{{Frame: 0, Time: 0}, {Frame: 1, Time: 0.5, Index: 1}, {Frame: 2, Time: 1, Index: 2}}
	t32 := times32(probes)
	for _, tc := range []struct {
		slack []float64
		ok    bool
	}{{nil, false}, {[]float64{1, 2, 1}, false}, {[]float64{1, 5, 1}, true}} {
		c.slack = tc.slack
		if got := c.ok(0, 2, probes, t32, false); got != tc.ok {
			t.Errorf("slack %v: ok %v, want %v", tc.slack, got, tc.ok)
		}
	}
}

// A Hermite bump that the frames do not see: keys at frames 0, 1, 2 at
// x = 0 with tangents s, s, s (per frame) give x = s·t(1 − t)(1 − 2t) on
// each frame, 0 at every frame and peaking at s·√3/18 at
// t = (3 − √3)/6. With --between 1 mm the keys stay within the tolerance
// at the frames and random times within the bound the clip records: a
// 0.8 mm bump needs no key (the bound settles between 0.8 and 1 mm as
// the probes close in: the rest pose is played), a 1.6 mm one gets keys
// between the frames and a bound within 1 mm.
func TestBetweenHermiteBump(t *testing.T) {
	for _, tc := range []struct {
		peak   float64
		keys   bool
		lo, hi float64
	}{{0.8e-3, false, 0.8e-3, 1e-3}, {1.6e-3, true, 0, 1e-3}} {
		s := tc.peak * 18 / 1.7320508075688772
		f := oneNode(&model.Keyed{Interp: model.InterpHermite, Width: 3, Frames: []float64{0, 1, 2},
			Values: make([]float64, 9), InTangents: []float64{s, 0, 0, s, 0, 0, s, 0, 0}, OutTangents: []float64{s, 0, 0, s, 0, 0, s, 0, 0}},
			3, 2, 0, model.LoopOnce)
		b, err := sample.Bake(f, sample.Options{NoSamples: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := Reduce(f, b, Options{Tolerance: 1e-4, Between: 1e-3}); err != nil {
			t.Fatal(err)
		}
		ba := &b.Animations[0]
		rec := ba.Extras[FidelityKey].(map[string]any)
		bound, _ := rec["anyTime"].(float64)
		if !(bound >= tc.lo && bound <= tc.hi) || rec["frames"].(float64) > 1e-4 || (len(ba.Channels) > 0) != tc.keys {
			t.Fatalf("%g m bump: recorded %v, %d channels; want frames within 0.1 mm, a bound in [%g, %g], keys %v",
				tc.peak, rec, len(ba.Channels), tc.lo, tc.hi, tc.keys)
		}
		h := fidelity.NewHierarchy(b.Nodes)
		eng, err := fidelity.NewEngine(h, f.Nodes, &f.Animations[0], fidelity.Converter(f, b))
		if err != nil {
			t.Fatal(err)
		}
		m := fidelity.NewMeter(h, 0)
		rng := rand.New(rand.NewSource(4))
		worst := 0.0
		for range 400 {
			tm := rng.Float64() * ba.Duration
			r := m.Measure(eng, []fidelity.Player{fidelity.NewKeyPlayer(h, ba, fidelity.Slerp), fidelity.NewKeyPlayer(h, ba, fidelity.Nlerp)},
				[]fidelity.Interp{fidelity.Slerp, fidelity.Nlerp}, []fidelity.Probe{{Frame: tm * ba.SourceFPS, Time: tm}})
			worst = max(worst, r.Max)
		}
		if worst > bound {
			t.Fatalf("%g m bump: %g m at a random time, above the bound %g", tc.peak, worst, bound)
		}
		if tc.keys {
			t.Logf("%g m bump: %d keys, random times %.3g m, recorded %v", tc.peak, len(ba.Channels[0].Times), worst, rec)
		}
	}
}
