package keys_test

import (
	"cmp"
	"math/rand"
	"path/filepath"
	"slices"
	"testing"

	"github.com/animbake/bake/fidelity"
	"github.com/animbake/bake/format"
	_ "github.com/animbake/bake/import/all"
	"github.com/animbake/bake/internal/testfiles"
	"github.com/animbake/bake/keys"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// decodeSample decodes a real sample file (skipping when the samples are
// absent), with the meshes of a model file.
func decodeSample(t *testing.T, rel string) *model.File {
	t.Helper()
	dir := testfiles.SamplesDir()
	if dir == "" {
		t.Skip("../shared/samples absent")
	}
	in, closer, err := format.OpenFile(filepath.Join(dir, rel))
	if err != nil {
		t.Skip(err)
	}
	defer closer.Close()
	_, files, err := format.Decode(in, &format.Options{})
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: %v", rel, err)
	}
	return files[0]
}

// With --between 1 mm, the keys are within 1 mm of the engine at random
// times (not the probes bake chose), measured on the real mesh where the
// file has one, and within the tolerance at the source frames; the clip
// extras record a bound within 1 mm (issue 20's acceptance, on the Bass and
// all of Gerudo).
func TestBetweenHoldsAtRandomTimes(t *testing.T) {
	if testing.Short() {
		t.Skip("real samples with --between: slow")
	}
	for _, tc := range []struct {
		rel   string
		clips int // the first clips only (0: all)
	}{{"bfres/Animal_Bass.bfres", 0}, {"bfres/Npc_Gerudo_Queen_Animation.bfres", 0}} {
		t.Run(filepath.Base(tc.rel), func(t *testing.T) {
			f := decodeSample(t, tc.rel)
			if tc.clips > 0 && len(f.Animations) > tc.clips {
				f.Animations = f.Animations[:tc.clips]
			}
			b, err := sample.Bake(f, sample.Options{NoSamples: true, Axes: "gltf"})
			if err != nil {
				t.Fatal(err)
			}
			const between = 1e-3 // as bake --between 0.001 (one probe a frame: --probes)
			if err := keys.Reduce(f, b, keys.Options{Tolerance: 1e-4, Between: between, ShortRotations: true, PerFrame: 1}); err != nil {
				t.Fatal(err)
			}
			h := fidelity.NewHierarchy(b.Nodes)
			m := fidelity.NewMeter(h, 0)
			m.SetDistances(fidelity.NodeDistances(b.Nodes, &b.Assets, 0))
			rng := rand.New(rand.NewSource(20))
			var worst, frames float64
			for i := range b.Animations {
				ba, a := &b.Animations[i], &f.Animations[i]
				rec, _ := ba.Extras[keys.FidelityKey].(map[string]any)
				if b, ok := rec["anyTime"].(float64); !ok || b > between {
					t.Errorf("%s: recorded %v, want an any-time bound within %g", a.Name, rec, between)
				}
				eng, err := fidelity.NewEngine(h, f.Nodes, a, fidelity.Converter(f, b))
				if err != nil {
					t.Fatal(err)
				}
				plays := []fidelity.Player{fidelity.NewKeyPlayer(h, ba, fidelity.Slerp), fidelity.NewKeyPlayer(h, ba, fidelity.Nlerp)}
				modes := []fidelity.Interp{fidelity.Slerp, fidelity.Nlerp}
				// A jump is a jump: the JumpMargin before each (where the keys
				// ramp to the value after it) is left out.
				var jumps []float64
				for _, p := range fidelity.Probes(fidelity.ProbeSpec{Anim: a, FPS: ba.SourceFPS, Evals: eng.Evals(), Times: fidelity.KeyTimes(ba)}) {
					if p.Jump {
						jumps = append(jumps, p.Frame)
					}
				}
				inRamp := func(f float64) bool {
					for _, j := range jumps {
						if f > j-fidelity.JumpMargin && f < j {
							return true
						}
					}
					return false
				}
				probes := make([]fidelity.Probe, 0, 300)
				for len(probes) < cap(probes) {
					tm := rng.Float64() * ba.Duration
					if !inRamp(tm * ba.SourceFPS) {
						probes = append(probes, fidelity.Probe{Frame: tm * ba.SourceFPS, Time: tm})
					}
				}
				slices.SortFunc(probes, func(x, y fidelity.Probe) int { return cmp.Compare(x.Time, y.Time) })
				r := m.Measure(eng, plays, modes, probes)
				if r.Max > between {
					t.Errorf("%s: %.3g m at t=%g (%s), more than %g", a.Name, r.Max, r.WorstTime, r.WorstNode, between)
				}
				worst = max(worst, r.Max)
				fr := m.Measure(eng, plays, modes, fidelity.FrameProbes(a, ba.SourceFPS))
				if fr.Max > 1e-4 {
					t.Errorf("%s: %.3g m at frame %g (%s), above the tolerance", a.Name, fr.Max, fr.WorstTime*ba.SourceFPS, fr.WorstNode)
				}
				frames = max(frames, fr.Max)
			}
			t.Logf("random times: largest %.3g m (limit %g); source frames: largest %.3g m", worst, between, frames)
		})
	}
}
