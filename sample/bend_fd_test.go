package sample

import (
	"math"
	"math/rand"
	"testing"
)

// FDCheck checks Bend(ev, f0, f1) against finite differences of ev itself
// at n random points of [f0, f1]: |v(x+h) − v(x)|/h ≤ d1 (the mean value
// theorem) and |v(x+h) − 2v(x) + v(x−h)|/h² ≤ d2, each with room for the
// evaluator's rounding, noise in value (2·noise/h and 4·noise/h²).
// Quaternions (width 4) are compared the short way (a sign flip of the
// same rotation is no motion). snap, when not nil, moves each x to a time
// the engine can show (ccAnm's whole ticks). It returns the largest ratio
// of a difference to its bound (how tight the bound is).
func FDCheck(t *testing.T, what string, ev Evaluator, f0, f1, h, noise float64, n int, rng *rand.Rand, snap func(float64) float64) float64 {
	t.Helper()
	d1, d2, ok := Bend(ev, f0, f1)
	if !ok {
		t.Errorf("%s: Bend(%g, %g) not derived", what, f0, f1)
		return 0
	}
	if f1-f0 < 2*h {
		return 0
	}
	w := ev.Width()
	v := make([]float64, 3*w)
	tight := 0.0
	for range n {
		x := f0 + h + rng.Float64()*(f1-f0-2*h)
		if snap != nil {
			x = snap(x)
			if x-h < f0 || x+h > f1 {
				continue
			}
		}
		ev.Eval(x-h, v[:w])
		ev.Eval(x, v[w:2*w])
		ev.Eval(x+h, v[2*w:])
		if w == 4 {
			for _, k := range []int{0, 2} {
				if v[k*w]*v[w]+v[k*w+1]*v[w+1]+v[k*w+2]*v[w+2]+v[k*w+3]*v[w+3] < 0 {
					for j := range w {
						v[k*w+j] = -v[k*w+j]
					}
				}
			}
		}
		var s1, s2 float64
		for j := range w {
			a, b, c := v[j], v[w+j], v[2*w+j]
			s1 += (c - b) * (c - b)
			s2 += (c - 2*b + a) * (c - 2*b + a)
		}
		g1, g2 := math.Sqrt(s1)/h, math.Sqrt(s2)/(h*h)
		if g1 > d1*(1+1e-9)+2*noise/h || g2 > d2*(1+1e-9)+4*noise/(h*h) {
			t.Errorf("%s: at frame %g (h %g) the differences %g, %g exceed the bounds %g, %g over [%g, %g]",
				what, x, h, g1, g2, d1, d2, f0, f1)
			return tight
		}
		if d1 > 0 {
			tight = max(tight, g1/d1)
		}
	}
	return tight
}

// ChordCheck checks what package fidelity takes from Bend(ev, f0, f1),
// also where the curve kinks inside (kinkBend): at n random points x the
// value stays within (f1 − f0)²/8·d2 (plus noise) of the chord between
// f0 and f1, and a first difference over h within d1. Rotations are
// compared the short way; noise is relative to the values' size. It
// returns the largest ratio of a chord miss to its bound.
func ChordCheck(t *testing.T, what string, ev Evaluator, f0, f1, h, noise float64, n int, rng *rand.Rand, snap func(float64) float64) float64 {
	t.Helper()
	d1, d2, ok := Bend(ev, f0, f1)
	if !ok {
		t.Errorf("%s: Bend(%g, %g) not derived", what, f0, f1)
		return 0
	}
	w := ev.Width()
	a, b, v, u := make([]float64, w), make([]float64, w), make([]float64, w), make([]float64, w)
	ev.Eval(f0, a)
	ev.Eval(f1, b)
	align := func(x []float64) {
		if w == 4 && x[0]*a[0]+x[1]*a[1]+x[2]*a[2]+x[3]*a[3] < 0 {
			for j := range x {
				x[j] = -x[j]
			}
		}
	}
	align(b)
	size := 1.0
	for j := range w {
		size = max(size, math.Abs(a[j]), math.Abs(b[j]))
	}
	noise *= size
	bound := (f1 - f0) * (f1 - f0) / 8 * d2
	tight := 0.0
	for range n {
		x := f0 + rng.Float64()*(f1-f0)
		if snap != nil {
			x = snap(x)
		}
		if x < f0 || x > f1 {
			continue
		}
		ev.Eval(x, v)
		align(v)
		r := (x - f0) / (f1 - f0)
		var miss float64
		for j := range w {
			c := a[j] + r*(b[j]-a[j])
			miss += (v[j] - c) * (v[j] - c)
		}
		miss = math.Sqrt(miss)
		if miss > bound*(1+1e-9)+2*noise {
			t.Errorf("%s: at frame %g the value is %g off the chord over [%g, %g], more than (h²/8)·d2 = %g", what, x, miss, f0, f1, bound)
			return tight
		}
		if bound > 0 {
			tight = max(tight, miss/bound)
		}
		if x+h <= f1 {
			ev.Eval(x+h, u)
			align(u)
			var s float64
			for j := range w {
				s += (u[j] - v[j]) * (u[j] - v[j])
			}
			if g := math.Sqrt(s) / h; g > d1*(1+1e-9)+2*noise/h {
				t.Errorf("%s: at frame %g the first difference %g exceeds d1 = %g over [%g, %g]", what, x, g, d1, f0, f1)
				return tight
			}
		}
	}
	return tight
}
