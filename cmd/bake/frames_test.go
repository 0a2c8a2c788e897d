package main

import (
	"errors"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/qmuntal/gltf"

	"github.com/animbake/bake/fidelity"
	"github.com/animbake/bake/format"
	"github.com/animbake/bake/internal/testfiles"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// framesSamples are the samples of issue 20's acceptance: the default keys
// hold the tolerance at every source frame of these, and at random times
// they are never more than the tolerance worse than --tolerance 0.
var framesSamples = []string{
	"bfres/Animal_Bass_Animation.bfres",
	"bfres/Npc_Gerudo_Queen_Animation.bfres",
	"bfres/Animal_Bear_Animation.bfres",
	"ccsf/S01.CCS",
	"virtools/Ballance.Three.js/menulevel.nmo",
	"virtools/Ballance.Three.js/pe_balloon.nmo",
}

// randomTimesPerClip is how many random times of each clip the default
// output is compared with the --tolerance 0 output.
const randomTimesPerClip = 200

// TestDefaultKeysAtFramesAndBetween converts the samples with the default
// keys and with --tolerance 0 (GLB, animation only) and plays the written
// files as a glTF client does (float32 key times and values, LINEAR with
// slerp and with nlerp, STEP held; fidelity.NewGLTFPlayer):
//
//   - at every source frame k, asked at k/fps in float64, and at the clip's
//     end (a repeat's end is its next start), every node's virtual vertices
//     are within the default tolerance of the engine's (bake eval --world);
//   - at 200 random times per clip, every node's error with the default
//     keys is at most its error with --tolerance 0 plus the tolerance.
//
// Run with -v to see what it checked.
func TestDefaultKeysAtFramesAndBetween(t *testing.T) {
	if testing.Short() {
		t.Skip("converts the samples twice")
	}
	dir := testfiles.SamplesDir()
	if dir == "" {
		t.Skip("shared samples (../shared/samples) are absent")
	}
	tol := fidelity.DefaultTolerance
	for _, rel := range framesSamples {
		in := testfiles.Samples(t, strings.Split(rel, "/")...)
		t.Run(filepath.Base(rel), func(t *testing.T) {
			def, zero := convertGLB(t, in), convertGLB(t, in, "--tolerance", "0")
			f, b := bakeSource(t, in)
			h := fidelity.NewHierarchy(b.Nodes)
			cv := fidelity.Converter(f, b)
			m := fidelity.NewMeter(h, 0)
			rng := rand.New(rand.NewPCG(20, uint64(len(rel))))
			var frames, times int
			var worstFrame, worstExcess float64
			var whereFrame, whereExcess string
			for i := range b.Animations {
				ba, a := &b.Animations[i], &f.Animations[i]
				eng, err := fidelity.NewEngine(h, f.Nodes, a, cv)
				if err != nil {
					t.Fatal(err)
				}
				dp, zp := players(t, def, ba.Name, h), players(t, zero, ba.Name, h)
				modes := []fidelity.Interp{fidelity.Slerp, fidelity.Nlerp}
				probes := fidelity.FrameProbes(a, ba.SourceFPS)
				r := m.Measure(eng, dp, modes, probes)
				frames += len(probes)
				if r.Max > worstFrame {
					worstFrame, whereFrame = r.Max, whereAt(ba.Name, r.WorstNode, r.WorstTime*ba.SourceFPS)
				}
				if r.Max > tol {
					t.Errorf("%s %s: %.3g m at frame %.6g (%s), above the tolerance %g m", ba.Name, r.WorstNode, r.Max,
						r.WorstTime*ba.SourceFPS, r.WorstInterp, tol)
				}
				span := sample.Span(a)
				for range randomTimesPerClip {
					fr := rng.Float64() * span
					p := []fidelity.Probe{{Frame: fr, Time: fr / ba.SourceFPS}}
					rd := m.Measure(eng, dp, modes, p).NodeMax
					rz := m.Measure(eng, zp, modes, p).NodeMax
					times++
					for n := range rd {
						if ex := rd[n] - rz[n]; ex > worstExcess {
							worstExcess, whereExcess = ex, whereAt(ba.Name, h.Names[n], fr)
						}
						if rd[n] > rz[n]+tol {
							t.Errorf("%s %s at frame %.6g: %.3g m with the default keys, %.3g m with --tolerance 0", ba.Name,
								h.Names[n], fr, rd[n], rz[n])
						}
					}
				}
			}
			t.Logf("%s: %d clips; %d frames at k/fps: worst %.3g m (%s); %d random times: the default at most %.3g m worse than --tolerance 0 (%s), per node",
				rel, len(b.Animations), frames, worstFrame, whereFrame, times, worstExcess, whereExcess)
		})
	}
}

func whereAt(clip, node string, frame float64) string {
	return clip + " " + node + " frame " + strconv.FormatFloat(frame, 'g', 6, 64)
}

// convertGLB converts one input to GLB, animation only, with the extra
// flags, and returns the written document.
func convertGLB(t *testing.T, in string, flags ...string) *gltf.Document {
	t.Helper()
	out := t.TempDir()
	args := append([]string{"-q", "--no-manifest", "--no-meshes", "-o", out}, flags...)
	if code, _, stderr := runCLI(append(args, in)...); code != 0 {
		t.Fatalf("bake %v: exit %d: %s", flags, code, stderr)
	}
	name := strings.TrimSuffix(filepath.Base(in), filepath.Ext(in)) + ".glb"
	doc, err := gltf.Open(filepath.Join(out, name))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// bakeSource decodes an input (one model file) and bakes it at the native
// rate: the clips and nodes under their output names, for the engine.
func bakeSource(t *testing.T, in string) (*model.File, *sample.Baked) {
	t.Helper()
	flags := importFlags{maxInflate: 1 << 30, timing: "graph", curveSeconds: 10}
	files, _, err := decodePath(in, flags.options(func(string) {}))
	if errors.Is(err, format.ErrUnknown) || err != nil || len(files) != 1 {
		t.Fatalf("%s: %d files, %v", in, len(files), err)
	}
	b, err := sample.Bake(files[0], sample.Options{Axes: "gltf", NoSamples: true})
	if err != nil {
		t.Fatal(err)
	}
	return files[0], b
}

// players plays the clip named name of doc with slerp and with nlerp.
func players(t *testing.T, doc *gltf.Document, name string, h *fidelity.Hierarchy) []fidelity.Player {
	t.Helper()
	for i, a := range doc.Animations {
		if a.Name != name {
			continue
		}
		var out []fidelity.Player
		for _, mode := range []fidelity.Interp{fidelity.Slerp, fidelity.Nlerp} {
			p, err := fidelity.NewGLTFPlayer(doc, i, h, mode)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, p)
		}
		return out
	}
	t.Fatalf("no clip %q in the output", name)
	return nil
}
