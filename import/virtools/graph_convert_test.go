package virtools

import (
	"math"
	"strings"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/virtools/vtwrite"
	"github.com/animbake/bake/internal/modeltest"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// convertGraphScene converts a written file with the graph timing.
func convertGraphScene(t *testing.T, f *vtwrite.File) (*model.File, []string) {
	t.Helper()
	var warnings []string
	m, err := DecodeBytes(f.Bytes(), &format.Options{Timing: TimingGraph, Warn: func(s string) { warnings = append(warnings, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	return m, warnings
}

// TestGraphSceneConvert checks every recognised BB of graphScene against
// values worked out by hand from virtools-behaviours.md §5 and §7 step 4.
func TestGraphSceneConvert(t *testing.T) {
	f, ix := graphScene()
	m, warnings := convertGraphScene(t, f)
	if len(warnings) != 1 || !strings.Contains(warnings[0], "TT_TextureSine #") {
		t.Errorf("warnings %q, want only the TT_TextureSine notice", warnings)
	}
	// §5.1: "Move" (length 10) over 2000 ms in a loop: 5 frames per second.
	move := modeltest.Animation(t, m, "Move")
	if move.FPS != 5 || move.Loop != model.LoopRepeat || move.Extras["drivenBy"] != "Play Animation 3D Entity #"+itoa(int(ix.play))+" in Arm Script" {
		t.Errorf("Move: %v fps, %s, %v", move.FPS, move.Loop, move.Extras["drivenBy"])
	}
	// Halfway through (1 s) the linear progression is at frame 5 of 10:
	// the position key 0 (1,2,3) at frame 0 and (4,5,6) at frame 10 give (2.5, 3.5, 4.5).
	if p := evalAt(t, move, &move.Channels[0], 1); math.Abs(p[0]-2.5) > 1e-12 || math.Abs(p[1]-3.5) > 1e-12 || math.Abs(p[2]-4.5) > 1e-12 {
		t.Errorf("Move at 1 s: %v, want (2.5, 3.5, 4.5)", p)
	}
	// §5.2/§5.3: "Arm on Path", 3000 ms, restarted by Out → In.
	ride := modeltest.Animation(t, m, "Arm on Path")
	if d := sample.Span(ride) / ride.FPS; d != 3 || ride.Loop != model.LoopRepeat {
		t.Errorf("ride: %v s, %s", d, ride.Loop)
	}
	want := "Position On Curve #" + itoa(int(ix.ride)) + " and Bezier Progression #" + itoa(int(ix.bezier)) + " in Arm Script"
	if ride.Extras["drivenBy"] != want {
		t.Errorf("ride driven by %v, want %s", ride.Extras["drivenBy"], want)
	}
	// OA §3.4: GetPos maps the point into the curve's frame and back, so
	// at 0 s the arm is at the first point's saved world position (0, 0, 0)
	// and at 1 s (p = 1/3 of the closed curve's length) somewhere else.
	if p := evalAt(t, ride, &ride.Channels[0], 0); math.Abs(p[0]) > 1e-9 || math.Abs(p[1]) > 1e-9 || math.Abs(p[2]) > 1e-9 {
		t.Errorf("ride at 0 s: %v, want the first point (0, 0, 0)", p)
	}
	// §5.6: 180°/s about the arm's own Z: a 2 s turn; 0.5 s is 90°.
	spin := modeltest.Animation(t, m, "Arm spin")
	if d := sample.Span(spin) / spin.FPS; math.Abs(d-2) > 1e-6 || spin.Loop != model.LoopRepeat {
		t.Errorf("spin: %v s, %s", d, spin.Loop)
	}
	q0, q1 := evalAt(t, spin, &spin.Channels[0], 0), evalAt(t, spin, &spin.Channels[0], 0.5)
	rel := sample.QuatMul([4]float64{-q0[0], -q0[1], -q0[2], q0[3]}, [4]float64(q1))
	if math.Abs(rel[2]-math.Sqrt2/2) > 1e-6 || math.Abs(rel[3]-math.Sqrt2/2) > 1e-6 {
		t.Errorf("spin after 0.5 s: relative %v, want 90° about Z", rel)
	}
	// Texture Scroller fed by Per Second (0.5, 0.25)/s: the offsets wrap
	// together after 4 s; at 1 s the offset is (0.5, 0.25).
	sc := modeltest.Animation(t, m, "Mesh texture scroll")
	if d := sample.Span(sc) / sc.FPS; d != 4 || sc.Channels[0].Material != "Mesh" || sc.Channels[0].Path != "uvOffset" {
		t.Errorf("scroll: %v s, %+v", d, sc.Channels[0])
	}
	if uv := evalAt(t, sc, &sc.Channels[0], 1); math.Abs(uv[0]-0.5) > 1e-12 || math.Abs(uv[1]-0.25) > 1e-12 {
		t.Errorf("scroll at 1 s: %v", uv)
	}
	// TT_TextureSine is reported, not baked; the unknown BB is counted.
	if u, ok := m.Extras["virtoolsUnbakedMotion"].([]map[string]any); !ok || len(u) != 1 || u[0]["target"] != "Mesh" {
		t.Errorf("unbaked extras %v", m.Extras["virtoolsUnbakedMotion"])
	}
	if o, ok := m.Extras["virtoolsOtherBuildingBlocks"].(map[string]int); !ok || o["12345678:9abcdef0"] != 1 {
		t.Errorf("other BBs %v", m.Extras["virtoolsOtherBuildingBlocks"])
	}
}

// TestGraphSceneNoRestart: without the Out → In link the progression runs
// once (§5.3), so the ride plays once.
func TestGraphSceneNoRestart(t *testing.T) {
	f, ix := graphScene()
	f.Objects[ix.restartLink].Chunk.Sections[0].Words[2] = f.Objects[ix.restartLink].Chunk.Sections[0].Words[1] // Out → Out
	m, _ := convertGraphScene(t, f)
	if ride := modeltest.Animation(t, m, "Arm on Path"); ride.Loop != model.LoopOnce {
		t.Errorf("ride loop %s, want once", ride.Loop)
	}
}

// TestGraphBadInput: damaged graph objects are reported and dropped; the
// rest of the file converts.
func TestGraphBadInput(t *testing.T) {
	check := func(name string, damage func(f *vtwrite.File, ix graphSceneIndices), wantWarning string, verify func(m *model.File)) {
		t.Run(name, func(t *testing.T) {
			f, ix := graphScene()
			damage(f, ix)
			m, warnings := convertGraphScene(t, f)
			found := false
			for _, w := range warnings {
				found = found || strings.Contains(w, wantWarning)
			}
			if !found {
				t.Errorf("warnings %q lack %q", warnings, wantWarning)
			}
			modeltest.Animation(t, m, "Swing") // the keyed animation's child is untouched
			verify(m)
		})
	}
	check("link outside the table", func(f *vtwrite.File, ix graphSceneIndices) {
		f.Objects[ix.restartLink].Chunk.Sections[0].Words[2] = 9999
	}, "link destination IO refers to object #9999", func(m *model.File) {
		if ride := modeltest.Animation(t, m, "Arm on Path"); ride.Loop != model.LoopOnce {
			t.Errorf("ride loop %s with its restart link dropped", ride.Loop)
		}
	})
	check("pin source outside the table", func(f *vtwrite.File, ix graphSceneIndices) {
		f.Objects[ix.playDuration].Chunk.Sections[0].Words[2] = 9999
	}, "parameter source refers to object #9999", func(m *model.File) {
		if move := modeltest.Animation(t, m, "Move"); move.FPS != DefaultFrameRate || move.Extras["drivenBy"] != DrivenByFrames {
			t.Errorf("Move keeps %v fps, driven by %v; want the frames timing", move.FPS, move.Extras["drivenBy"])
		}
	})
	check("cycle through shared inputs", func(f *vtwrite.File, ix graphSceneIndices) {
		b := &graphBuilder{f}
		other := b.shared(TypeVector, ix.rotateAxis)
		f.Objects[ix.rotateAxis].Chunk.Sections[0] = vtwrite.Section{ID: identParamInShared, Words: []uint32{TypeVector[0], TypeVector[1], other}}
	}, "loops", func(m *model.File) {
		// The axis falls back to Rotate's default (0, 1, 0).
		spin := modeltest.Animation(t, m, "Arm spin")
		if ax := spin.Extras["virtoolsAxis"].([]float64); ax[0] != 0 || ax[1] != 1 || ax[2] != 0 {
			t.Errorf("axis %v, want the default (0, 1, 0)", ax)
		}
	})
	check("script IO outside the table", func(f *vtwrite.File, ix graphSceneIndices) {
		w := f.Objects[ix.script].Chunk.Sections[0].Words
		w[len(w)-1] = 0x7FFFFFF0 // the script's input IO
	}, "refers to object #2147483632", func(m *model.File) {
		// The script is dropped; its BBs are intact and still time their clips.
		if move := modeltest.Animation(t, m, "Move"); move.FPS != 5 {
			t.Errorf("Move at %v fps after its script was dropped, want 5", move.FPS)
		}
	})
	check("truncated behaviour", func(f *vtwrite.File, ix graphSceneIndices) {
		w := &f.Objects[ix.rotate].Chunk.Sections[0].Words
		*w = (*w)[:len(*w)-3]
	}, "(class 8): section 0x20: inputs needs 1 dwords", func(m *model.File) {
		for _, a := range m.Animations {
			if a.Name == "Arm spin" {
				t.Error("a truncated Rotate still spins the arm")
			}
		}
	})
}

// TestGraphTimingFramesScene: --timing frames reads no graph.
func TestGraphTimingFramesScene(t *testing.T) {
	f, _ := graphScene()
	m, err := DecodeBytes(f.Bytes(), &format.Options{Timing: TimingFrames})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range m.Animations {
		if d := a.Extras["drivenBy"]; d != DrivenByFrames && d != DrivenByCurveSeconds {
			t.Errorf("%q driven by %v with --timing frames", a.Name, a.Extras["drivenBy"])
		}
	}
	if len(m.Animations) != 4 { // Move, Swing, Keyed, Path
		t.Errorf("%d animations, want 4", len(m.Animations))
	}
}

// TestGraphPlayDuration covers OA §5.5 step 2 and VB §4.1: an Integer pin
// reads its source as an int (4000 ms → 10 frames at 2.5 frames/s); an
// unconnected pin keeps the BB's built-in 5000 ms (2 frames/s); a duration
// produced by another BB at run time leaves the clip on the frames timing
// with a warning; a duration under 0.001 ms never plays.
func TestGraphPlayDuration(t *testing.T) {
	for _, tc := range []struct {
		name    string
		damage  func(f *vtwrite.File, ix graphSceneIndices)
		fps     float64
		warning string
	}{
		{"integer", func(f *vtwrite.File, ix graphSceneIndices) {
			b := &graphBuilder{f}
			f.Objects[ix.playDuration].Chunk.Sections[0].Words = []uint32{TypeInteger[0], TypeInteger[1], b.local(TypeInteger, 4000)}
		}, 2.5, ""},
		{"unconnected", func(f *vtwrite.File, ix graphSceneIndices) {
			f.Objects[ix.playDuration].Chunk.Sections[0].Words[2] = noSource
		}, 2, ""},
		{"produced", func(f *vtwrite.File, ix graphSceneIndices) {
			// A Timer's pOut 0 (Elapsed Time) feeds the duration.
			b := &graphBuilder{f}
			out := b.output(TypeTime, 1)
			b.behavior(testBehavior{name: "Timer", guid: &GUID{0xa2a5a63a, 0xe4e7e8e5}, outs: []uint32{out}})
			f.Objects[ix.playDuration].Chunk.Sections[0].Words[2] = out
		}, DefaultFrameRate, "is set at run time"},
		{"too short", func(f *vtwrite.File, ix graphSceneIndices) {
			b := &graphBuilder{f}
			f.Objects[ix.playDuration].Chunk.Sections[0].Words[2] = b.local(TypeTime, vtwrite.F32(0.0005))
		}, DefaultFrameRate, "below 0.001 ms"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, ix := graphScene()
			tc.damage(f, ix)
			m, warnings := convertGraphScene(t, f)
			if move := modeltest.Animation(t, m, "Move"); move.FPS != tc.fps {
				t.Errorf("Move at %v fps, want %v", move.FPS, tc.fps)
			}
			if tc.warning != "" && !strings.Contains(strings.Join(warnings, "|"), tc.warning) {
				t.Errorf("warnings %q lack %q", warnings, tc.warning)
			}
		})
	}
}

// TestGraphOpScalesRate: an Op BB between Per Second and Rotate scales the
// rate only when it wraps Multiplication (its locals 1, 2 hold the
// operation GUID, VB §5.8); ×2 makes graphScene's 180°/s a 1 s turn, and
// any other operation leaves the rotation unconverted.
func TestGraphOpScalesRate(t *testing.T) {
	for _, tc := range []struct {
		op     GUID
		period float64 // 0: no spin
	}{{OpMultiplication, 1}, {GUID{0x33cc6b49, 0x3589282b}, 0}} {
		f, ix := graphScene()
		b := &graphBuilder{f}
		rot := f.Objects[ix.rotate].Chunk.Sections[0].Words
		// Rotate's pIn 1 (angle): flags, GUID(2), version, target, save flags, then the pIn array.
		anglePin := rot[7+1]
		angleSource := f.Objects[anglePin].Chunk.Sections[0].Words[2]
		out := b.output(TypeAngle, 1)
		b.behavior(testBehavior{name: "Op", guid: &BBOp,
			ins:    []uint32{b.pin(TypeAngle, angleSource), b.pin(TypeFloat, b.local(TypeFloat, vtwrite.F32(2)))},
			outs:   []uint32{out},
			locals: []uint32{b.local(GUID{0x4d082c90, 0x0c8339a2}, 0, 0), b.local(TypeInteger, tc.op[0]), b.local(TypeInteger, tc.op[1])}})
		f.Objects[anglePin].Chunk.Sections[0].Words[2] = out
		m, _ := convertGraphScene(t, f)
		var spin *model.Animation
		for i := range m.Animations {
			if m.Animations[i].Name == "Arm spin" {
				spin = &m.Animations[i]
			}
		}
		switch {
		case tc.period == 0 && spin != nil:
			t.Errorf("operation %s: the arm spins", tc.op)
		case tc.period != 0 && spin == nil:
			t.Errorf("operation %s: no spin", tc.op)
		case spin != nil:
			if d := sample.Span(spin) / spin.FPS; math.Abs(d-tc.period) > 1e-6 {
				t.Errorf("operation %s: a turn takes %v s, want %v", tc.op, d, tc.period)
			}
		}
	}
}
