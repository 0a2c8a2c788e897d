package sample

import (
	"fmt"
	"math"

	"github.com/animbake/bake/model"
)

func init() {
	RegisterCompiler("virtools-progression", compileVirtoolsProgression)
	RegisterCompiler("virtools-spin", compileVirtoolsSpin)
	RegisterCompiler("virtools-uv-scroll", compileVirtoolsUVScroll)
}

// vxProgressionEval plays an inner evaluator through a progression
// (model.VirtoolsProgression): p = clamp(f/frames, 0, 1),
// value = A + (B − A)·GetY(p), inner frame = value × innerFrames.
type vxProgressionEval struct {
	inner       Evaluator
	shape       *Virtools2dCurve // nil: GetY(p) = p
	frames      float64
	a, b        float64
	innerFrames float64
}

func compileVirtoolsProgression(c model.Curve) (Evaluator, error) {
	m := c.(*model.VirtoolsProgression)
	if err := m.Validate(); err != nil {
		return nil, err
	}
	inner, err := Compile(m.Inner)
	if err != nil {
		return nil, fmt.Errorf("progression: %w", err)
	}
	e := &vxProgressionEval{inner: inner, frames: m.Frames, a: m.A, b: m.B, innerFrames: m.InnerFrames}
	if m.Shape != nil && len(m.Shape.Points) > 0 {
		e.shape = NewVirtools2dCurve(m.Shape)
	}
	return e, nil
}

func (e *vxProgressionEval) Width() int { return e.inner.Width() }

// Stepped passes the inner curve's interpolation through.
func (e *vxProgressionEval) Stepped() bool { return IsStepped(e.inner) }

// Progression is the progression's value A + (B − A)·GetY(p) at frame.
func (e *vxProgressionEval) Progression(frame float64) float64 {
	p := clamp01(frame / e.frames)
	y := p
	if e.shape != nil {
		y = e.shape.GetY(p)
	}
	return e.a + (e.b-e.a)*y
}

// Eval writes the inner curve's value at the progressed frame.
func (e *vxProgressionEval) Eval(frame float64, out []float64) {
	e.inner.Eval(e.Progression(frame)*e.innerFrames, out)
}

// vxSpinEval is a constant angular velocity about a fixed own-frame axis:
// q(f) = rest ⊗ (sin(θ/2)·axis, cos(θ/2)), θ = rate·f.
type vxSpinEval struct {
	rest [4]float64
	axis [3]float64 // unit
	rate float64    // radians per frame
}

func compileVirtoolsSpin(c model.Curve) (Evaluator, error) {
	m := c.(*model.VirtoolsSpin)
	if err := m.Validate(); err != nil {
		return nil, err
	}
	n := math.Sqrt(m.Axis[0]*m.Axis[0] + m.Axis[1]*m.Axis[1] + m.Axis[2]*m.Axis[2])
	e := &vxSpinEval{rest: m.Rest, rate: m.RadiansPerFrame}
	for i := range e.axis {
		e.axis[i] = m.Axis[i] / n
	}
	return e, nil
}

func (e *vxSpinEval) Width() int { return 4 }

// Eval writes the rotation at frame.
func (e *vxSpinEval) Eval(frame float64, out []float64) {
	s, c := math.Sincos(e.rate * frame / 2)
	q := QuatMul(e.rest, [4]float64{s * e.axis[0], s * e.axis[1], s * e.axis[2], c})
	copy(out[:4], q[:])
}

// vxUVScrollEval is a texture offset growing at a constant rate, each
// component wrapped into [0, 1) (Texture Scroller removes the integer part).
type vxUVScrollEval struct{ rate [2]float64 }

func compileVirtoolsUVScroll(c model.Curve) (Evaluator, error) {
	m := c.(*model.VirtoolsUVScroll)
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return &vxUVScrollEval{rate: m.PerFrame}, nil
}

func (e *vxUVScrollEval) Width() int { return 2 }

// Eval writes the wrapped offset at frame.
func (e *vxUVScrollEval) Eval(frame float64, out []float64) {
	for i := range 2 {
		v := e.rate[i] * frame
		out[i] = v - math.Floor(v)
	}
}
