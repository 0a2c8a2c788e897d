// Package modeltest holds the look-ups and comparisons the importers' tests
// make on a decoded model.File: an animation or node by name, a channel by
// target and path, a curve's value at a frame, and an element-wise
// tolerance check. Each fails the test with a message naming what is
// missing, so the tests read as their assertions. It is an ordinary
// package so that every importer's tests can share it (the sample
// package's own tests cannot: it imports sample).
package modeltest

import (
	"math"
	"strings"
	"testing"

	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// Animation returns f's animation called name, failing the test (and
// listing the names f has) when there is none.
func Animation(t testing.TB, f *model.File, name string) *model.Animation {
	t.Helper()
	for i := range f.Animations {
		if f.Animations[i].Name == name {
			return &f.Animations[i]
		}
	}
	var have []string
	for _, a := range f.Animations {
		have = append(have, a.Name)
	}
	t.Fatalf("no animation %q; have %s", name, strings.Join(have, ", "))
	return nil
}

// Node returns f's node called name, failing the test when there is none.
func Node(t testing.TB, f *model.File, name string) *model.Node {
	t.Helper()
	for i := range f.Nodes {
		if f.Nodes[i].Name == name {
			return &f.Nodes[i]
		}
	}
	t.Fatalf("no node %q", name)
	return nil
}

// FindChannel returns a's channel of path on target (a node or a
// material name), or nil.
func FindChannel(a *model.Animation, target, path string) *model.Channel {
	for i := range a.Channels {
		c := &a.Channels[i]
		if (c.Node == target || c.Material == target) && c.Path == path {
			return c
		}
	}
	return nil
}

// Channel is FindChannel failing the test when a has no such channel.
func Channel(t testing.TB, a *model.Animation, target, path string) *model.Channel {
	t.Helper()
	c := FindChannel(a, target, path)
	if c == nil {
		t.Fatalf("animation %s has no %s channel on %s", a.Name, path, target)
	}
	return c
}

// EvalCurve compiles c with sample.Compile and returns its value at frame.
func EvalCurve(t testing.TB, c model.Curve, frame float64) []float64 {
	t.Helper()
	e, err := sample.Compile(c)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, e.Width())
	e.Eval(frame, out)
	return out
}

// Eval returns the value at frame of a's channel of path on target.
func Eval(t testing.TB, a *model.Animation, target, path string, frame float64) []float64 {
	t.Helper()
	return EvalCurve(t, Channel(t, a, target, path).Curve, frame)
}

// Near checks got against want element by element within tol, failing
// the test (fatally when the lengths differ) and naming what.
func Near(t testing.TB, what string, got, want []float64, tol float64) {
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

// CheckDecoded is the fuzz targets' check of what an importer accepted:
// every file validates, and the curve of every channel, and every
// free-standing curve of model.File.Curves, compiles and evaluates
// (without panicking) at each frame that frames gives for its animation
// (free curves at frame 0.5).
func CheckDecoded(t testing.TB, files []*model.File, frames func(a *model.Animation) []float64) {
	t.Helper()
	for _, f := range files {
		if err := f.Validate(); err != nil {
			t.Fatalf("decoded model does not validate: %v", err)
		}
		for i := range f.Animations {
			a := &f.Animations[i]
			at := frames(a)
			for _, c := range a.Channels {
				evalAll(t, a.Name+" "+c.Node+c.Material+"/"+c.Path, c.Curve, at)
			}
		}
		for _, c := range f.Curves {
			evalAll(t, "curve "+c.Name, c.Curve, []float64{0.5})
		}
	}
}

// evalAll compiles c and evaluates it at each frame, failing the test
// when it does not compile.
func evalAll(t testing.TB, what string, c model.Curve, frames []float64) {
	t.Helper()
	e, err := sample.Compile(c)
	if err != nil {
		t.Fatalf("%s does not compile: %v", what, err)
	}
	out := make([]float64, e.Width())
	for _, fr := range frames {
		e.Eval(fr, out)
	}
}

// BakeFinite bakes f with opts, failing the test (named by what) when
// baking fails or any baked value is NaN or infinite.
func BakeFinite(t testing.TB, what string, f *model.File, opts sample.Options) *sample.Baked {
	t.Helper()
	b, err := sample.Bake(f, opts)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	for _, a := range b.Animations {
		for _, c := range a.Channels {
			for _, v := range c.Values {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("%s: %s %s %s: non-finite value", what, a.Name, c.Node, c.Path)
				}
			}
		}
	}
	return b
}
