// Package sample owns every evaluation rule: it compiles model curves into
// evaluators and bakes animations at a frame rate. Compilation does the
// allocation; evaluation is a tight, allocation-free loop over plain arrays.
package sample

import (
	"fmt"
	"slices"
	"sync"

	"github.com/animbake/bake/model"
)

// Evaluator gives a compiled curve's value at any source frame.
type Evaluator interface {
	// Width is the number of components per value.
	Width() int
	// Eval writes the value at frame into out[:Width()]. It must not
	// allocate and must be safe to call with any finite frame.
	Eval(frame float64, out []float64)
}

// Stepper is implemented by evaluators whose values hold between keys; the
// glTF exporter writes their samplers as STEP.
type Stepper interface {
	Stepped() bool
}

// Keyer is implemented by evaluators that can list their source key frames
// (for plots and for bakes that must not miss a step).
type Keyer interface {
	KeyFrames() []float64
}

// Constanter is implemented by evaluators that can tell they give one
// value at every frame (a constant curve, or a vector or Euler rotation
// made only of constant parts): a consumer that samples densely needs one
// evaluation of them, not one per sample.
type Constanter interface {
	Constant() bool
}

// IsConstant reports whether ev is known to give the same value at every
// frame. False means unknown, not moving.
func IsConstant(ev Evaluator) bool {
	c, ok := ev.(Constanter)
	return ok && c.Constant()
}

// Jumper is implemented by evaluators that can tell, from their keys
// alone, at which key frames their value jumps (a segment ends elsewhere
// than the next one starts) by more than threshold·(1+|value|): a
// consumer that looks for discontinuities need not evaluate around every
// key. The frames are among KeyFrames, in increasing order; ok is false
// when the evaluator cannot tell.
type Jumper interface {
	JumpFrames(threshold float64) (frames []float64, ok bool)
}

// JumpFrames asks ev (see Jumper); ok is false when it cannot tell.
func JumpFrames(ev Evaluator, threshold float64) ([]float64, bool) {
	if j, ok := ev.(Jumper); ok {
		return j.JumpFrames(threshold)
	}
	return nil, false
}

// Compiler turns one kind of model curve into an evaluator.
type Compiler func(c model.Curve) (Evaluator, error)

var (
	compilersMu sync.RWMutex
	compilers   = map[string]Compiler{}
)

// RegisterCompiler installs the evaluator for a curve kind (the value of
// model.Curve.CurveKind). Each format's semantics file calls it from init.
func RegisterCompiler(kind string, c Compiler) {
	compilersMu.Lock()
	defer compilersMu.Unlock()
	if _, dup := compilers[kind]; dup {
		panic("sample: compiler for " + kind + " registered twice")
	}
	compilers[kind] = c
}

// Compile builds the evaluator of any model curve.
func Compile(c model.Curve) (Evaluator, error) {
	if c == nil {
		return nil, fmt.Errorf("no curve")
	}
	compilersMu.RLock()
	comp, ok := compilers[c.CurveKind()]
	compilersMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("no evaluator for curve kind %q", c.CurveKind())
	}
	return comp(c)
}

// UnionKeyFrames returns the sorted union of the key frames of the given
// evaluators that report them, for composite curves built from parts.
func UnionKeyFrames(parts ...Evaluator) []float64 {
	var all []float64
	for _, p := range parts {
		if k, ok := p.(Keyer); ok {
			all = append(all, k.KeyFrames()...)
		}
	}
	if len(all) == 0 {
		return nil
	}
	slices.Sort(all)
	return slices.Compact(all)
}

// IsStepped reports whether an evaluator holds values between keys.
func IsStepped(e Evaluator) bool {
	s, ok := e.(Stepper)
	return ok && s.Stepped()
}
