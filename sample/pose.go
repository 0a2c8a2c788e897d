package sample

import (
	"fmt"

	"github.com/animbake/bake/model"
)

// Clip is an animation with every channel compiled, for evaluation at
// arbitrary frames (bake eval, checks, plots).
type Clip struct {
	Anim  *model.Animation
	Evals []Evaluator // one per channel, in channel order
}

// CompileClip compiles every channel of a.
func CompileClip(a *model.Animation) (*Clip, error) {
	c := &Clip{Anim: a, Evals: make([]Evaluator, len(a.Channels))}
	for i, ch := range a.Channels {
		ev, err := Compile(ch.Curve)
		if err != nil {
			return nil, fmt.Errorf("channel %s of %q: %w", ch.Path, ch.Node+ch.Material, err)
		}
		c.Evals[i] = ev
	}
	return c, nil
}

// Values evaluates channel i at a source frame, converted by cv.
func (c *Clip) Values(i int, frame float64, cv *Converter) []float64 {
	v := make([]float64, c.Evals[i].Width())
	c.EvalInto(i, frame, cv, v)
	return v
}

// EvalInto is Values without allocating: it writes channel i's value at a
// source frame, converted by cv (rotations normalised), into
// out[:Evals[i].Width()]. Loops that probe many times use it.
func (c *Clip) EvalInto(i int, frame float64, cv *Converter, out []float64) {
	ev := c.Evals[i]
	v := out[:ev.Width()]
	ev.Eval(frame, v)
	cv.Value(c.Anim.Channels[i].Path, v)
	if c.Anim.Channels[i].Path == model.PathRotation && len(v) == 4 {
		normalize4(v)
	}
}

// WorldMatrices returns every node's world matrix (column-major 4×4) at a
// source frame: rest transforms overridden by the clip's TRS channels,
// composed down the hierarchy, all converted by cv.
func (c *Clip) WorldMatrices(f *model.File, frame float64, cv *Converter) [][16]float64 {
	nodes := make([]model.Node, len(f.Nodes))
	index := make(map[string]int, len(nodes))
	for i, n := range f.Nodes {
		NormalizeRest(&n)
		cv.Node(&n)
		nodes[i] = n
		index[n.Name] = i
	}
	if c != nil {
		for i, ch := range c.Anim.Channels {
			j, ok := index[ch.Node]
			if !ok || ch.Node == "" {
				continue
			}
			switch ch.Path {
			case model.PathTranslation:
				copy(nodes[j].Translation[:], c.Values(i, frame, cv))
			case model.PathRotation:
				copy(nodes[j].Rotation[:], c.Values(i, frame, cv))
			case model.PathScale:
				copy(nodes[j].Scale[:], c.Values(i, frame, cv))
			}
		}
	}
	world := make([][16]float64, len(nodes))
	for i, n := range nodes {
		local := LocalMatrix(&n)
		if n.Parent >= 0 {
			world[i] = MatMul(&world[n.Parent], &local)
		} else {
			world[i] = local
		}
	}
	return world
}

// LocalMatrix returns a node's local matrix: its Matrix, or T·R·S.
func LocalMatrix(n *model.Node) [16]float64 {
	if n.Matrix != nil {
		return *n.Matrix
	}
	return TRS(n.Translation, n.Rotation, n.Scale)
}

// TRS composes translation, rotation (x,y,z,w) and scale into a
// column-major matrix T·R·S.
func TRS(t [3]float64, q [4]float64, s [3]float64) [16]float64 {
	x, y, z, w := q[0], q[1], q[2], q[3]
	r := [9]float64{ // row-major rotation matrix
		1 - 2*(y*y+z*z), 2 * (x*y - z*w), 2 * (x*z + y*w),
		2 * (x*y + z*w), 1 - 2*(x*x+z*z), 2 * (y*z - x*w),
		2 * (x*z - y*w), 2 * (y*z + x*w), 1 - 2*(x*x+y*y),
	}
	var m [16]float64
	for col := range 3 {
		for row := range 3 {
			m[col*4+row] = r[row*3+col] * s[col]
		}
	}
	m[12], m[13], m[14], m[15] = t[0], t[1], t[2], 1
	return m
}

// MatMul returns a·b for column-major 4×4 matrices.
func MatMul(a, b *[16]float64) [16]float64 {
	var m [16]float64
	for col := range 4 {
		for row := range 4 {
			var s float64
			for k := range 4 {
				s += a[k*4+row] * b[col*4+k]
			}
			m[col*4+row] = s
		}
	}
	return m
}
