package ccsdemo_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/ccs"
	"github.com/animbake/bake/import/ccs/ccswrite/demogen/ccsdemo"
	"github.com/animbake/bake/internal/modeltest"
	"github.com/animbake/bake/internal/testfiles"
	"github.com/animbake/bake/model"
)

// The committed demo inputs are what `go generate ./import/ccs` writes
// today.
func TestDemoFilesAreUpToDate(t *testing.T) {
	testfiles.CheckDemoFiles(t, testfiles.DemoDir(t, "ccs"), ccsdemo.Files(), "go generate ./import/ccs")
}

// decode runs the importer on a demo file and fails on any notice.
func decode(t *testing.T, name string) []*model.File {
	t.Helper()
	for _, nf := range ccsdemo.Files() {
		if nf.Name != name {
			continue
		}
		files, err := ccs.Decode(format.BytesInput(name, nf.Data), &format.Options{Warn: func(s string) { t.Errorf("notice: %s", s) }})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if err := f.Validate(); err != nil {
				t.Fatal(err)
			}
		}
		return files
	}
	t.Fatalf("no demo file %s", name)
	return nil
}

// sameRotation compares quaternions up to sign: |q·w| = cos(half the
// angle between them), so 1 − |q·w| ≤ tol bounds that angle.
func sameRotation(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	dot := 0.0
	for i := range want {
		dot += got[i] * want[i]
	}
	if 1-math.Abs(dot) > tol {
		t.Errorf("%s: %v, want ±%v", what, got, want)
	}
}

func yQuat(deg float64) []float64 {
	s, c := math.Sincos(deg * math.Pi / 360)
	return []float64{0, s, 0, c}
}

// Timing (ccs.md §5): N frames, End = N − 1; a loop (end Top −2) repeats
// with Period N − 1. demo.cmp is the same file gzipped.
func TestDemoTiming(t *testing.T) {
	for _, name := range []string{"demo.ccs", "demo.cmp"} {
		files := decode(t, name)
		if len(files) != 1 {
			t.Fatalf("%s: %d files", name, len(files))
		}
		for _, w := range []struct {
			name   string
			frames float64
			loop   string
		}{
			{"ANM_spinner", ccsdemo.SpinnerFrames, model.LoopRepeat},
			{"ANM_crate", ccsdemo.CrateFrames, model.LoopOnce},
			{"ANM_face", ccsdemo.FaceFrames, model.LoopOnce},
			{"ANM_door", ccsdemo.DoorFrames, model.LoopOnce},
			{"ANM_water", ccsdemo.WaterFrames, model.LoopRepeat},
		} {
			a := modeltest.Animation(t, files[0], w.name)
			if a.FPS != 30 || a.Frames != w.frames || a.End != w.frames-1 || a.Loop != w.loop ||
				(w.loop == model.LoopRepeat && a.Period != w.frames-1) {
				t.Errorf("%s %s: fps %v frames %v end %v loop %s period %v", name, w.name, a.FPS, a.Frames, a.End, a.Loop, a.Period)
			}
		}
	}
}

// ccs-anime-playback.txt, worked by hand on the demo's keys.
func TestDemoValues(t *testing.T) {
	f := decode(t, "demo.ccs")[0]

	// Keyed rotation in 120° steps: each step is the short way between
	// key matrices, so the spinner passes 60° at frame 10 (half a step),
	// 120° at 20, 240° at 40 and is back round at 60. Quantisation
	// (182.044 per degree) and the VU0 polynomial keep it within 1.1e-4
	// rad of the exact turn (ccs-semantics.md §4); 1 − cos(1.1e-4/2) ≈ 1.5e-9.
	spin := modeltest.Animation(t, f, "ANM_spinner")
	for _, c := range []struct{ frame, deg float64 }{{0, 0}, {10, 60}, {20, 120}, {30, 180}, {40, 240}, {60, 360}} {
		sameRotation(t, fmt.Sprintf("spinner at %v", c.frame), modeltest.Eval(t, spin, "OBJ_spinner", model.PathRotation, c.frame), yQuat(c.deg), 2e-9)
	}

	// Floats (§"_SetCtrl"): the first key (frame 10) is held before it;
	// then start + δ·(rem/dur): position 0 + 20·(2560/5120) = 10 at
	// frame 20, scale 1 + 0.5·0.5 = 1.25, both exact in EE arithmetic;
	// transparency 1 − 10/29 at frame 30 (up to the EE's rounding).
	crate := modeltest.Animation(t, f, "ANM_crate")
	modeltest.Near(t, "crate at 5", modeltest.Eval(t, crate, "OBJ_crate", model.PathTranslation, 5), []float64{0, 0, 0}, 0)
	modeltest.Near(t, "crate at 20", modeltest.Eval(t, crate, "OBJ_crate", model.PathTranslation, 20), []float64{0, 10, 0}, 0)
	modeltest.Near(t, "crate scale at 20", modeltest.Eval(t, crate, "OBJ_crate", model.PathScale, 20), []float64{1.25, 1.25, 1.25}, 0)
	modeltest.Near(t, "crate at 49", modeltest.Eval(t, crate, "OBJ_crate", model.PathTranslation, 49), []float64{5, 20, 0}, 0)
	modeltest.Near(t, "crate alpha at 30", modeltest.Eval(t, crate, "OBJ_crate", "alpha", 30), []float64{1 - 10.0/29}, 1e-6)
	// Notes: one event per F_Note, at its frame, with its event and param.
	if len(crate.Events) != 2 {
		t.Fatalf("crate events %+v", crate.Events)
	}
	for i, w := range []struct {
		frame        float64
		event, param string
	}{{10, "1", "100"}, {30, "2", "200"}} {
		e := crate.Events[i]
		if e.Frame != w.frame || e.Name != "note" || e.Node != "OBJ_crate" || fmt.Sprint(e.Args["event"]) != w.event || fmt.Sprint(e.Args["param"]) != w.param {
			t.Errorf("event %d: %+v, want frame %v event %s param %s", i, e, w.frame, w.event, w.param)
		}
	}

	// F_Morpher: stepped weights over (smile, blink); a record sets the
	// whole list, so the smile drops to 0 when frame 20 names only blink.
	face := modeltest.Animation(t, f, "ANM_face")
	for _, c := range []struct {
		frame float64
		want  []float64
	}{{3, []float64{0, 0}}, {5, []float64{0.5, 0}}, {9, []float64{0.5, 0}}, {10, []float64{1, 0}}, {20, []float64{0, 1}}} {
		modeltest.Near(t, fmt.Sprintf("weights at %v", c.frame), modeltest.Eval(t, face, "MPH_face", model.PathWeights, c.frame), c.want, 0)
	}

	// F_Obj: frame 0's record is never read, so the rest pose holds until
	// frame 1; then each frame's record: 4.5° per frame about y, not
	// quantised (45° at frame 10).
	door := modeltest.Animation(t, f, "ANM_door")
	modeltest.Near(t, "door at 0", modeltest.Eval(t, door, "OBJ_door", model.PathTranslation, 0), []float64{0, 0, 0}, 0)
	modeltest.Near(t, "door at 1", modeltest.Eval(t, door, "OBJ_door", model.PathTranslation, 1), []float64{2, 0, 0}, 0)
	sameRotation(t, "door at 0", modeltest.Eval(t, door, "OBJ_door", model.PathRotation, 0), yQuat(0), 0)
	sameRotation(t, "door at 10", modeltest.Eval(t, door, "OBJ_door", model.PathRotation, 10), yQuat(45), 1e-12)
	sameRotation(t, "door at 10.5", modeltest.Eval(t, door, "OBJ_door", model.PathRotation, 10.5), yQuat(45), 1e-12)

	// Material controller: U 0 → 1 over 30 frames, 0.5 at 15 exactly.
	water := modeltest.Animation(t, f, "ANM_water")
	modeltest.Near(t, "water at 15", modeltest.Eval(t, water, "MAT_water", "uvOffset", 15), []float64{0.5, 0}, 0)
}

// DATA.BIN: three gzip members on 0x800-byte sectors, one file each,
// named from their CCSF headers; the later-generation member's
// quaternion keys (kind 4) are slerped.
func TestDemoDataBIN(t *testing.T) {
	files := decode(t, "DATA.BIN")
	if len(files) != 3 || files[0].Name != "demo" || files[1].Name != "lamp" || files[2].Name != "later" {
		t.Fatalf("%d members", len(files))
	}
	if len(files[0].Animations) != 5 {
		t.Errorf("demo member: %d animations", len(files[0].Animations))
	}
	bird := modeltest.Animation(t, files[2], "ANM_bird")
	s := math.Sqrt(0.5)
	sameRotation(t, "bird at 15", modeltest.Eval(t, bird, "OBJ_bird", model.PathRotation, 15), []float64{0, s, 0, s}, 1e-7)
	sameRotation(t, "bird at 30", modeltest.Eval(t, bird, "OBJ_bird", model.PathRotation, 30), []float64{0, 1, 0, 0}, 1e-7)
	modeltest.Near(t, "bird at 15", modeltest.Eval(t, bird, "OBJ_bird", model.PathTranslation, 15), []float64{0, 5, 0}, 0)
	lamp := modeltest.Animation(t, files[1], "ANM_lamp")
	z := func(deg float64) []float64 { s, c := math.Sincos(deg * math.Pi / 360); return []float64{0, 0, s, c} }
	sameRotation(t, "lamp at 20", modeltest.Eval(t, lamp, "OBJ_lamp", model.PathRotation, 20), z(30), 2e-9)
}
