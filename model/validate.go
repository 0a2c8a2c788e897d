package model

import (
	"fmt"
	"math"
)

// Validate checks the structural rules every importer must satisfy:
// unique node names, parents that exist and come first, channels that name
// existing nodes, finite key data with strictly increasing frames, and
// animation spans that make sense. It does not evaluate anything.
func (f *File) Validate() error {
	names := make(map[string]int, len(f.Nodes))
	for i, n := range f.Nodes {
		if n.Name == "" {
			return fmt.Errorf("node %d has no name", i)
		}
		if j, dup := names[n.Name]; dup {
			return fmt.Errorf("nodes %d and %d share the name %q", j, i, n.Name)
		}
		names[n.Name] = i
		if n.Parent < -1 || n.Parent >= i {
			return fmt.Errorf("node %q: parent %d must be -1 or an earlier node", n.Name, n.Parent)
		}
		if !finite(n.Translation[:]) || !finite(n.Rotation[:]) || !finite(n.Scale[:]) {
			return fmt.Errorf("node %q: rest transform is not finite", n.Name)
		}
		if n.Matrix != nil && !finite(n.Matrix[:]) {
			return fmt.Errorf("node %q: matrix is not finite", n.Name)
		}
	}
	if err := f.Assets.validate(f.Nodes); err != nil {
		return err
	}
	for _, a := range f.Animations {
		if err := a.validate(names); err != nil {
			return fmt.Errorf("animation %q: %w", a.Name, err)
		}
	}
	return nil
}

func (a *Animation) validate(nodes map[string]int) error {
	switch a.Loop {
	case LoopOnce, LoopRepeat, LoopPingPong:
	default:
		return fmt.Errorf("loop mode %q is not once, repeat or pingpong", a.Loop)
	}
	if !(a.FPS > 0) || math.IsInf(a.FPS, 0) {
		return fmt.Errorf("frame rate %v is not positive", a.FPS)
	}
	if !(a.End >= 0) || math.IsInf(a.End, 0) {
		return fmt.Errorf("end frame %v is not a finite frame >= 0", a.End)
	}
	if a.Loop == LoopRepeat && !(a.Period > 0) {
		return fmt.Errorf("repeating animation needs a period > 0, has %v", a.Period)
	}
	if a.Loop == LoopPingPong && !(a.End > 0) {
		return fmt.Errorf("ping-pong animation needs an end frame > 0")
	}
	for _, c := range a.Channels {
		if c.Node != "" {
			if _, ok := nodes[c.Node]; !ok {
				return fmt.Errorf("channel %s targets unknown node %q", c.Path, c.Node)
			}
		} else if c.Material == "" {
			return fmt.Errorf("channel %s has no target", c.Path)
		}
		if c.Curve == nil {
			return fmt.Errorf("channel %s of %q has no curve", c.Path, c.Node+c.Material)
		}
		if err := validateCurve(c.Curve); err != nil {
			return fmt.Errorf("channel %s of %q: %w", c.Path, c.Node+c.Material, err)
		}
	}
	return nil
}

// CurveValidator is implemented by format-specific curve types that can
// check their own data.
type CurveValidator interface {
	Validate() error
}

func validateCurve(c Curve) error {
	switch c := c.(type) {
	case *Keyed:
		return c.Validate()
	case *EulerRotation:
		for _, s := range []Curve{c.X, c.Y, c.Z} {
			if s == nil {
				return fmt.Errorf("euler rotation is missing a component")
			}
			if err := validateCurve(s); err != nil {
				return err
			}
		}
	case *Vector:
		for _, s := range c.Components {
			if err := validateCurve(s); err != nil {
				return err
			}
		}
	case CurveValidator:
		return c.Validate()
	}
	return nil
}

// Validate checks a Keyed curve's sizes, finiteness and key order.
func (k *Keyed) Validate() error {
	if k.Width <= 0 {
		return fmt.Errorf("keyed curve has width %d", k.Width)
	}
	if len(k.Frames) == 0 {
		return fmt.Errorf("keyed curve has no keys")
	}
	if len(k.Values) != len(k.Frames)*k.Width {
		return fmt.Errorf("keyed curve has %d values for %d keys of width %d", len(k.Values), len(k.Frames), k.Width)
	}
	if k.Interp == InterpHermite && (len(k.InTangents) != len(k.Values) || len(k.OutTangents) != len(k.Values)) {
		return fmt.Errorf("hermite curve needs one in and one out tangent per value")
	}
	if !finite(k.Frames) || !finite(k.Values) || !finite(k.InTangents) || !finite(k.OutTangents) {
		return fmt.Errorf("keyed curve holds a NaN or infinite value")
	}
	for i := 1; i < len(k.Frames); i++ {
		if !(k.Frames[i] > k.Frames[i-1]) {
			return fmt.Errorf("key %d at frame %v does not come after key %d at frame %v", i, k.Frames[i], i-1, k.Frames[i-1])
		}
	}
	switch k.Interp {
	case InterpStep, InterpLinear, InterpHermite:
	case InterpSlerp, InterpNlerp:
		if k.Width != 4 {
			return fmt.Errorf("%s curve must have width 4", k.Interp)
		}
	default:
		return fmt.Errorf("unknown interpolation %q", k.Interp)
	}
	return nil
}

func finite(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
