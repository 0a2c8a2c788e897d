package vtwrite_test

import (
	"math"
	"strings"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/virtools"
	"github.com/animbake/bake/import/virtools/vtwrite"
	"github.com/animbake/bake/internal/modeltest"
	"github.com/animbake/bake/internal/testfiles"
	"github.com/animbake/bake/model"
)

// The committed demo inputs are what `go generate ./import/virtools`
// writes today.
func TestDemoFilesAreUpToDate(t *testing.T) {
	testfiles.CheckDemoFiles(t, testfiles.DemoDir(t, "virtools"), vtwrite.Demo(), "go generate ./import/virtools")
}

// decode runs the importer and fails on any notice.
func decode(t *testing.T, data []byte) *model.File {
	t.Helper()
	f, err := virtools.DecodeBytes(data, &format.Options{Warn: func(s string) { t.Errorf("notice: %s", s) }})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Validate(); err != nil {
		t.Fatal(err)
	}
	return f
}

// sameRotation compares quaternions up to sign.
func sameRotation(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	dot := 0.0
	for i := range want {
		dot += got[i] * want[i]
	}
	if math.Abs(math.Abs(dot)-1) > tol {
		t.Errorf("%s: %v, want ±%v", what, got, want)
	}
}

// yQuat is the Hamilton quaternion of a rotation by deg degrees about y.
func yQuat(deg float64) []float64 {
	s, c := math.Sincos(deg * math.Pi / 360)
	return []float64{0, s, 0, c}
}

// SampleScene, the importer tests' scene, decodes to the nodes
// TestConvertNodes expects.
func TestSampleSceneDecodes(t *testing.T) {
	f := decode(t, vtwrite.SampleScene().Bytes())
	var names []string
	for _, n := range f.Nodes {
		names = append(names, n.Name)
	}
	if got := strings.Join(names, ","); got != "Parent,Child,Arm,Path,Path follower" {
		t.Errorf("nodes %s", got)
	}
}

// The demo scene (docs/formats/virtools.md §4): one animation per object
// animation and per keyed animation, and one per curve.
func TestDemoScene(t *testing.T) {
	f := decode(t, vtwrite.Demo()[0].Data)
	for _, w := range []struct {
		name        string
		fps, frames float64
		loop        string
	}{
		{"Spinner_Anim", 30, 100, model.LoopOnce},   // standalone: 30 fps, Frames = End = length
		{"Crane", 25, 50, model.LoopOnce},           // the keyed animation's own rate
		{"Crane_Base_Anim", 25, 50, model.LoopOnce}, // owned: the owner's rate
		{"Crane_Arm_Anim", 25, 50, model.LoopOnce},
		{"Track", 30, 300, model.LoopRepeat}, // 10 s follower of a closed curve
	} {
		a := modeltest.Animation(t, f, w.name)
		if a.FPS != w.fps || a.Frames != w.frames || a.End != w.frames || a.Loop != w.loop {
			t.Errorf("%s: fps %v frames %v end %v loop %s", w.name, a.FPS, a.Frames, a.End, a.Loop)
		}
	}
	if len(f.Curves) != 1 || !f.Curves[0].Closed || f.Curves[0].Name != "Track" {
		t.Fatalf("curves %+v", f.Curves)
	}

	// TCB keys are passed through at their times, whatever the tension,
	// continuity, bias and easing (OA §5: the Hermite's end points).
	spin := modeltest.Animation(t, f, "Spinner_Anim")
	modeltest.Near(t, "Spinner at 25", modeltest.Eval(t, spin, "Spinner", model.PathTranslation, 25), []float64{4, 3, 0}, 1e-5)
	modeltest.Near(t, "Spinner at 50", modeltest.Eval(t, spin, "Spinner", model.PathTranslation, 50), []float64{4, 2, 4}, 1e-5)
	// The stored rotation keys are conjugates: the model's Hamilton
	// rotation at frame 30 is +60° about y, at 70 −60°.
	sameRotation(t, "Spinner at 30", modeltest.Eval(t, spin, "Spinner", model.PathRotation, 30), yQuat(60), 1e-6)
	sameRotation(t, "Spinner at 70", modeltest.Eval(t, spin, "Spinner", model.PathRotation, 70), yQuat(-60), 1e-6)

	// The keyed two-part crane: the base turns 90° about y by frame 25
	// (slerp: 45° at 12.5); the arm, a child 3 above the base, slides
	// from x 0 to 2 by frame 20 (1 at 10) and stretches x to 2 (1.5 at 10).
	crane := modeltest.Animation(t, f, "Crane")
	sameRotation(t, "base at 25", modeltest.Eval(t, crane, "Crane_Base", model.PathRotation, 25), yQuat(90), 1e-6)
	sameRotation(t, "base at 12.5", modeltest.Eval(t, crane, "Crane_Base", model.PathRotation, 12.5), yQuat(45), 1e-6)
	modeltest.Near(t, "arm at 10", modeltest.Eval(t, crane, "Crane_Arm", model.PathTranslation, 10), []float64{1, 3, 0}, 1e-6)
	modeltest.Near(t, "arm scale at 10", modeltest.Eval(t, crane, "Crane_Arm", model.PathScale, 10), []float64{1.5, 1, 1}, 1e-6)
	for _, n := range f.Nodes {
		if n.Name == "Crane_Arm" && (f.Nodes[n.Parent].Name != "Crane_Base" || n.Translation != [3]float64{0, 3, 0}) {
			t.Errorf("Crane_Arm: parent %d, local %v; want Crane_Base, (0, 3, 0)", n.Parent, n.Translation)
		}
	}

	// The follower starts at the first point (the curve's world matrix is
	// the identity, so curve-local = world).
	track := modeltest.Animation(t, f, "Track")
	modeltest.Near(t, "follower at 0", modeltest.Eval(t, track, "Track follower", model.PathTranslation, 0), []float64{-20, 0, -20}, 1e-4)
}
