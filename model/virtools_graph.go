package model

import (
	"fmt"
	"math"
)

// Virtools2dPoint is one CK2dCurvePoint as saved (virtools-behaviours.md
// §6.1): position, flags, Kochanek–Bartels parameters and the tangents the
// engine last computed.
type Virtools2dPoint struct {
	X, Y float64
	// UserTangents (flag 1) keeps In and Out as given; otherwise they are
	// recomputed from the neighbours (§6.2 step 2).
	UserTangents bool
	// Linear (flag 2) makes the segment leaving this point a straight line.
	Linear                    bool
	Tension, Continuity, Bias float64
	In, Out                   [2]float64
}

// Virtools2dCurve is a CK2dCurve, the progression curve of the timing
// building blocks. Compiled, it evaluates at "frame" x to GetY(x) (one
// component): the curve value for x clamped to [0, 1], itself clamped to
// [0, 1] (§6.3).
type Virtools2dCurve struct {
	Points  []Virtools2dPoint
	Fitting float64 // saved fitting coefficient (0 in every sample; not used by GetY)
}

// CurveKind implements Curve.
func (*Virtools2dCurve) CurveKind() string { return "virtools-2d-curve" }

// Validate checks that every number is finite.
func (c *Virtools2dCurve) Validate() error {
	for i, p := range c.Points {
		if !finite([]float64{p.X, p.Y, p.Tension, p.Continuity, p.Bias, p.In[0], p.In[1], p.Out[0], p.Out[1]}) {
			return fmt.Errorf("2D curve point %d is not finite", i)
		}
	}
	return nil
}

// VirtoolsProgression plays an inner curve through a progression, the way
// the timing building blocks do (Play Animation 3D Entity, Play Global
// Animation, Bezier Progression feeding Position On Curve;
// virtools-behaviours.md §5, §7 step 4). At clip frame f:
//
//	p     = clamp(f / Frames, 0, 1)            (the progression)
//	value = A + (B − A) · GetY(p)              (Shape nil: GetY(p) = p)
//	inner = Inner evaluated at value · InnerFrames
//
// Looping is the animation's (Loop repeat with Period = Frames), which is
// how the BBs wrap p.
type VirtoolsProgression struct {
	Inner       Curve
	Frames      float64
	Shape       *Virtools2dCurve
	A, B        float64
	InnerFrames float64
}

// CurveKind implements Curve.
func (*VirtoolsProgression) CurveKind() string { return "virtools-progression" }

// Validate checks the lengths and the parts.
func (p *VirtoolsProgression) Validate() error {
	if !(p.Frames > 0) || math.IsInf(p.Frames, 0) {
		return fmt.Errorf("progression over %v frames", p.Frames)
	}
	if !finite([]float64{p.A, p.B, p.InnerFrames}) {
		return fmt.Errorf("progression: A, B or inner length not finite")
	}
	if p.Inner == nil {
		return fmt.Errorf("progression: no inner curve")
	}
	if p.Shape != nil {
		if err := p.Shape.Validate(); err != nil {
			return err
		}
	}
	if v, ok := p.Inner.(interface{ Validate() error }); ok {
		return v.Validate()
	}
	return nil
}

// VirtoolsSpin is a constant angular velocity, as Rotate fed by Per Second
// produces (virtools-behaviours.md §5.6): at frame f the rotation is
// Rest ⊗ R(Axis, RadiansPerFrame · f), the axis taken in the entity's own
// frame. Rest and the result are Hamilton quaternions (x, y, z, w) in the
// source axes; Axis is normalised by the evaluator.
type VirtoolsSpin struct {
	Rest            [4]float64
	Axis            [3]float64
	RadiansPerFrame float64
}

// CurveKind implements Curve.
func (*VirtoolsSpin) CurveKind() string { return "virtools-spin" }

// Validate checks that the axis is usable and the numbers finite.
func (s *VirtoolsSpin) Validate() error {
	if !finite(append(append(s.Rest[:0:0], s.Rest[:]...), s.Axis[0], s.Axis[1], s.Axis[2], s.RadiansPerFrame)) {
		return fmt.Errorf("spin: not finite")
	}
	if s.Axis == [3]float64{} {
		return fmt.Errorf("spin: zero axis")
	}
	return nil
}

// VirtoolsUVScroll is the texture offset Texture Scroller fed by Per Second
// produces (virtools-gameplay-building-blocks.txt, Texture Scroller): at
// frame f the offset is PerFrame · f, each component wrapped into [0, 1)
// the way the BB removes the integer part of vertex 0's coordinate. Two
// components (u, v).
type VirtoolsUVScroll struct {
	PerFrame [2]float64
}

// CurveKind implements Curve.
func (*VirtoolsUVScroll) CurveKind() string { return "virtools-uv-scroll" }

// Validate checks that the rate is finite.
func (s *VirtoolsUVScroll) Validate() error {
	if !finite(s.PerFrame[:]) {
		return fmt.Errorf("uv scroll: rate not finite")
	}
	return nil
}
