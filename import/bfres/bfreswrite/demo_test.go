package bfreswrite_test

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/bfres"
	"github.com/animbake/bake/import/bfres/bfreswrite"
	"github.com/animbake/bake/internal/modeltest"
	"github.com/animbake/bake/internal/testfiles"
	"github.com/animbake/bake/model"
)

// The committed demo inputs are what `go generate ./import/bfres` writes
// today, and the .sbfres is the .bfres compressed.
func TestDemoFilesAreUpToDate(t *testing.T) {
	testfiles.CheckDemoFiles(t, testfiles.DemoDir(t, "bfres"), bfreswrite.Demo(), "go generate ./import/bfres")
}

// decodeDemo decodes a committed demo file through the importer, with its
// sibling model file reachable, and fails on any notice.
func decodeDemo(t *testing.T, name string) *model.File {
	t.Helper()
	in, closer, err := format.OpenFile(filepath.Join(testfiles.DemoDir(t, "bfres"), name))
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	files, err := bfres.Decode(in, &format.Options{Warn: func(s string) { t.Errorf("notice: %s", s) }})
	if err != nil {
		t.Fatal(err)
	}
	if err := files[0].Validate(); err != nil {
		t.Fatal(err)
	}
	return files[0]
}

// zQuat is the quaternion of a rotation by angle radians about z.
func zQuat(angle float64) []float64 {
	s, c := math.Sincos(angle / 2)
	return []float64{0, 0, s, c}
}

// The demo skeleton comes from the sibling Demo.bfres (docs/formats/bfres.md
// "Which skeleton"); the .sbfres copy decodes to the same clips.
func TestDemoSkeletonAndClips(t *testing.T) {
	for _, name := range []string{"Demo_Animation.bfres", "Demo_Animation.sbfres", "Demo.bfres"} {
		f := decodeDemo(t, name)
		want := []struct {
			name   string
			frames float64
			loop   string
		}{{"Wave", 60, model.LoopRepeat}, {"Nod", 40, model.LoopOnce}, {"Scroll", 60, model.LoopRepeat},
			{"Blink", 30, model.LoopRepeat}, {"Hide", 30, model.LoopRepeat}}
		// The model file is converted with its animation file: its 5 bones
		// and one node per shape (Body, Helmet, Sleeve_L, Sleeve_R).
		nodes := 5
		if name == "Demo.bfres" {
			nodes = 9
		}
		if len(f.Animations) != len(want) || len(f.Nodes) != nodes {
			t.Fatalf("%s: %d animations, %d nodes", name, len(f.Animations), len(f.Nodes))
		}
		for _, w := range want {
			// §6.2 / decision 1: End = frameCount; a loop repeats with Period = frameCount.
			a := modeltest.Animation(t, f, w.name)
			if a.FPS != 30 || a.Frames != w.frames || a.End != w.frames || a.Loop != w.loop {
				t.Errorf("%s %s: fps %v frames %v end %v loop %s", name, w.name, a.FPS, a.Frames, a.End, a.Loop)
			}
		}
		// Arm_L's bind pose: Euler (0, 0, −π/2) → Rz (§9).
		for _, n := range f.Nodes {
			if n.Name == "Arm_L" {
				modeltest.Near(t, "Arm_L rest", n.Rotation[:], zQuat(-math.Pi/2), 1e-7)
			}
		}
	}
}

// Hand-worked values of the demo clips.
func TestDemoValues(t *testing.T) {
	f := decodeDemo(t, "Demo_Animation.bfres")
	half := float64(float32(math.Pi / 2))
	wave := modeltest.Animation(t, f, "Wave")
	// §5.3 cubic: at a key the value is c0 exactly; halfway along a segment
	// with zero slopes the Hermite gives (p0 + p1)/2.
	modeltest.Near(t, "Arm_L frame 15", modeltest.Eval(t, wave, "Arm_L", model.PathRotation, 15), zQuat(-0.3), 1e-7)
	modeltest.Near(t, "Arm_L frame 7.5", modeltest.Eval(t, wave, "Arm_L", model.PathRotation, 7.5), zQuat(-(half+0.3)/2), 1e-6)
	modeltest.Near(t, "Arm_L frame 60", modeltest.Eval(t, wave, "Arm_L", model.PathRotation, 60), zQuat(-half), 1e-7)
	// §5.4 linear: c0 + c1·t, t = 0.5 between π/2 and 0.3.
	modeltest.Near(t, "Arm_R frame 15", modeltest.Eval(t, wave, "Arm_R", model.PathRotation, 15), zQuat((half+0.3)/2), 1e-6)
	// §5.6 baked: one sample per frame; 0.05·sin(2π·15/60) = 0.05 at frame 15.
	modeltest.Near(t, "Root frame 15", modeltest.Eval(t, wave, "Root", model.PathTranslation, 15), []float64{0, 0.05, 0}, 1e-8)

	nod := modeltest.Animation(t, f, "Nod")
	// §4.5: s16 keys ×0.001 + 1: raw 0 → −50 → 0 gives 1, 0.975 (t = 0.5), 0.95.
	modeltest.Near(t, "Spine frame 10", modeltest.Eval(t, nod, "Spine", model.PathTranslation, 10), []float64{0, 0.975, 0}, 1e-6)
	modeltest.Near(t, "Spine frame 20", modeltest.Eval(t, nod, "Spine", model.PathTranslation, 20), []float64{0, 0.95, 0}, 1e-6)
	// Quaternion mode: x and w linear from (0, 1) to (sin π/8, cos π/8),
	// normalised; halfway this is exactly the rotation by π/8 about x.
	s8, c8 := math.Sincos(math.Pi / 8)
	s16, c16 := math.Sincos(math.Pi / 16)
	modeltest.Near(t, "Head frame 20", modeltest.Eval(t, nod, "Head", model.PathRotation, 20), []float64{s8, 0, 0, c8}, 1e-7)
	modeltest.Near(t, "Head frame 10", modeltest.Eval(t, nod, "Head", model.PathRotation, 10), []float64{s16, 0, 0, c16}, 1e-7)

	// §10.3: Head starts visible, the step bool curve hides it from 10 to 20;
	// Arm_L keeps its base bit.
	blink := modeltest.Animation(t, f, "Blink")
	for _, c := range []struct{ frame, want float64 }{{0, 1}, {9.5, 1}, {10, 0}, {19.5, 0}, {20, 1}} {
		modeltest.Near(t, "Head visibility", modeltest.Eval(t, blink, "Head", model.PathVisibility, c.frame), []float64{c.want}, 0)
	}
	modeltest.Near(t, "Arm_L visibility", modeltest.Eval(t, blink, "Arm_L", model.PathVisibility, 15), []float64{1}, 0)

	// §10.1: translate X linear 0 → 1 over 60 frames, rotate a zero-slope
	// Hermite 0 → π/2 → 0, scale constants (2, 1).
	scroll := modeltest.Animation(t, f, "Scroll")
	modeltest.Near(t, "uvOffset frame 30", modeltest.Eval(t, scroll, "Body", "uvOffset", 30), []float64{0.5, 0}, 1e-7)
	modeltest.Near(t, "uvRotation frame 15", modeltest.Eval(t, scroll, "Body", "uvRotation", 15), []float64{half / 2}, 1e-7)
	modeltest.Near(t, "uvRotation frame 30", modeltest.Eval(t, scroll, "Body", "uvRotation", 30), []float64{half}, 1e-7)
	modeltest.Near(t, "uvScale", modeltest.Eval(t, scroll, "Body", "uvScale", 40), []float64{2, 1}, 0)
}
