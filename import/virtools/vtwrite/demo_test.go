package vtwrite_test

import (
	"math"
	"strings"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/virtools"
	"github.com/animbake/bake/import/virtools/vtwrite"
	"github.com/animbake/bake/internal/testfiles"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
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

func anim(t *testing.T, f *model.File, name string) *model.Animation {
	t.Helper()
	for i := range f.Animations {
		if f.Animations[i].Name == name {
			return &f.Animations[i]
		}
	}
	t.Fatalf("no animation %s", name)
	return nil
}

func eval(t *testing.T, a *model.Animation, node, path string, frame float64) []float64 {
	t.Helper()
	for _, c := range a.Channels {
		if c.Node == node && c.Path == path {
			e, err := sample.Compile(c.Curve)
			if err != nil {
				t.Fatal(err)
			}
			out := make([]float64, e.Width())
			e.Eval(frame, out)
			return out
		}
	}
	t.Fatalf("%s has no %s channel on %s", a.Name, path, node)
	return nil
}

func near(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %v, want %v", what, got, want)
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > tol {
			t.Errorf("%s: %v, want %v (±%g)", what, got, want, tol)
			return
		}
	}
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
		a := anim(t, f, w.name)
		if a.FPS != w.fps || a.Frames != w.frames || a.End != w.frames || a.Loop != w.loop {
			t.Errorf("%s: fps %v frames %v end %v loop %s", w.name, a.FPS, a.Frames, a.End, a.Loop)
		}
	}
	if len(f.Curves) != 1 || !f.Curves[0].Closed || f.Curves[0].Name != "Track" {
		t.Fatalf("curves %+v", f.Curves)
	}

	// TCB keys are passed through at their times, whatever the tension,
	// continuity, bias and easing (OA §5: the Hermite's end points).
	spin := anim(t, f, "Spinner_Anim")
	near(t, "Spinner at 25", eval(t, spin, "Spinner", model.PathTranslation, 25), []float64{4, 3, 0}, 1e-5)
	near(t, "Spinner at 50", eval(t, spin, "Spinner", model.PathTranslation, 50), []float64{4, 2, 4}, 1e-5)
	// The stored rotation keys are conjugates: the model's Hamilton
	// rotation at frame 30 is +60° about y, at 70 −60°.
	sameRotation(t, "Spinner at 30", eval(t, spin, "Spinner", model.PathRotation, 30), yQuat(60), 1e-6)
	sameRotation(t, "Spinner at 70", eval(t, spin, "Spinner", model.PathRotation, 70), yQuat(-60), 1e-6)

	// The keyed two-part crane: the base turns 90° about y by frame 25
	// (slerp: 45° at 12.5); the arm, a child 3 above the base, slides
	// from x 0 to 2 by frame 20 (1 at 10) and stretches x to 2 (1.5 at 10).
	crane := anim(t, f, "Crane")
	sameRotation(t, "base at 25", eval(t, crane, "Crane_Base", model.PathRotation, 25), yQuat(90), 1e-6)
	sameRotation(t, "base at 12.5", eval(t, crane, "Crane_Base", model.PathRotation, 12.5), yQuat(45), 1e-6)
	near(t, "arm at 10", eval(t, crane, "Crane_Arm", model.PathTranslation, 10), []float64{1, 3, 0}, 1e-6)
	near(t, "arm scale at 10", eval(t, crane, "Crane_Arm", model.PathScale, 10), []float64{1.5, 1, 1}, 1e-6)
	for _, n := range f.Nodes {
		if n.Name == "Crane_Arm" && (f.Nodes[n.Parent].Name != "Crane_Base" || n.Translation != [3]float64{0, 3, 0}) {
			t.Errorf("Crane_Arm: parent %d, local %v; want Crane_Base, (0, 3, 0)", n.Parent, n.Translation)
		}
	}

	// The follower starts at the first point (the curve's world matrix is
	// the identity, so curve-local = world).
	track := anim(t, f, "Track")
	near(t, "follower at 0", eval(t, track, "Track follower", model.PathTranslation, 0), []float64{-20, 0, -20}, 1e-4)
}
