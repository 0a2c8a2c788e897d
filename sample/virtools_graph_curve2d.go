package sample

import (
	"math"
	"sort"

	"github.com/animbake/bake/model"
)

func init() {
	RegisterCompiler("virtools-2d-curve", compileVirtools2dCurve)
}

// Constants of the CK2dCurve update and GetY (virtools-behaviours.md §6.2,
// §6.3).
const (
	vx2dFirstInX  = 1e-4 // the first point's in-tangent x
	vx2dLastOutX  = 1e-3 // the last point's out-tangent x
	vx2dZeroChord = 1e-4 // a zero chord counts as this
	vx2dXEpsilon  = 1e-5 // GetY's bisection tolerance on x
)

// Virtools2dCurve is a CK2dCurve after its update: points sorted by x,
// with the tangents GetY uses.
type Virtools2dCurve struct {
	x, y    []float64
	linear  []bool
	in, out [][2]float64
}

// NewVirtools2dCurve runs the CK2dCurve update (§6.2): sort the points by
// x, compute the Kochanek–Bartels tangents of points without user
// tangents, then rescale every tangent so that its x equals its chord.
func NewVirtools2dCurve(c *model.Virtools2dCurve) *Virtools2dCurve {
	pts := append([]model.Virtools2dPoint(nil), c.Points...)
	sort.SliceStable(pts, func(i, j int) bool { return pts[i].X < pts[j].X })
	n := len(pts)
	v := &Virtools2dCurve{x: make([]float64, n), y: make([]float64, n), linear: make([]bool, n),
		in: make([][2]float64, n), out: make([][2]float64, n)}
	for i, p := range pts {
		v.x[i], v.y[i], v.linear[i] = p.X, p.Y, p.Linear
		var dp, dn [2]float64
		if i > 0 {
			dp = [2]float64{p.X - pts[i-1].X, p.Y - pts[i-1].Y}
		}
		if i < n-1 {
			dn = [2]float64{pts[i+1].X - p.X, pts[i+1].Y - p.Y}
		}
		in, out := p.In, p.Out
		if !p.UserTangents {
			t, cc, b := p.Tension, p.Continuity, p.Bias
			for k := range 2 {
				out[k] = ((1+cc)*(1+b)*(1-t)*dp[k] + (1-t)*(1-cc)*(1-b)*dn[k]) / 2
				in[k] = ((1+b)*(1-t)*(1-cc)*dp[k] + (1+cc)*(1-t)*(1-b)*dn[k]) / 2
			}
		}
		inX, outX := dp[0], dn[0]
		if i == 0 {
			inX = vx2dFirstInX
		} else if inX == 0 {
			inX = vx2dZeroChord
		}
		if i == n-1 {
			outX = vx2dLastOutX
		} else if outX == 0 {
			outX = vx2dZeroChord
		}
		v.in[i], v.out[i] = rescaleTangent(in, inX), rescaleTangent(out, outX)
	}
	return v
}

// rescaleTangent scales a tangent uniformly so that its x becomes x; a
// tangent whose x is 0 is left as it is.
func rescaleTangent(t [2]float64, x float64) [2]float64 {
	if t[0] == 0 {
		return t
	}
	k := x / t[0]
	return [2]float64{x, t[1] * k}
}

// GetY is the curve's value at x (§6.3): x is clamped to [0, 1], the
// segment found, evaluated (linear or Hermite), and the result clamped to
// [0, 1]. It returns 0 when x lies past the last point.
func (v *Virtools2dCurve) GetY(x float64) float64 {
	x = clamp01(x)
	a, b, ok := v.segment(x)
	if !ok {
		return 0
	}
	var y float64
	switch {
	case v.x[a] == v.x[b]:
		y = v.y[a]
	case v.linear[a]:
		y = v.y[a] + (x-v.x[a])*(v.y[b]-v.y[a])/(v.x[b]-v.x[a])
	default:
		s := v.solveS(a, b, x)
		h00, h10, h01, h11 := hermiteBasis(s)
		y = h00*v.y[a] + h10*v.out[a][1] + h01*v.y[b] + h11*v.in[b][1]
	}
	return clamp01(y)
}

// segment is GetY's search: the points a and b around x (a = b at or
// before the first point); ok is false past the last point.
func (v *Virtools2dCurve) segment(x float64) (a, b int, ok bool) {
	for k, px := range v.x {
		if x <= px {
			return max(k-1, 0), k, true
		}
	}
	return 0, 0, false
}

// solveS finds the Hermite parameter whose x is x. After the update the
// segment's x is linear in s, so the first guess passes; otherwise (a
// tangent whose x was 0) it bisects, as the engine does, to within 1e-5.
func (v *Virtools2dCurve) solveS(a, b int, x float64) float64 {
	xs := func(s float64) float64 {
		h00, h10, h01, h11 := hermiteBasis(s)
		return h00*v.x[a] + h10*v.out[a][0] + h01*v.x[b] + h11*v.in[b][0]
	}
	s := (x - v.x[a]) / (v.x[b] - v.x[a])
	if math.Abs(xs(s)-x) <= vx2dXEpsilon {
		return s
	}
	lo, hi := 0.0, 1.0
	for range 64 {
		s = (lo + hi) / 2
		d := xs(s) - x
		if math.Abs(d) <= vx2dXEpsilon {
			break
		}
		if d < 0 {
			lo = s
		} else {
			hi = s
		}
	}
	return s
}

func clamp01(x float64) float64 {
	if x < 0 {
		return 0
	}
	if x > 1 {
		return 1
	}
	if x != x { // NaN
		return 0
	}
	return x
}

// vx2dCurveEval evaluates GetY at "frame" x.
type vx2dCurveEval struct{ c *Virtools2dCurve }

func compileVirtools2dCurve(c model.Curve) (Evaluator, error) {
	m := c.(*model.Virtools2dCurve)
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return &vx2dCurveEval{NewVirtools2dCurve(m)}, nil
}

func (e *vx2dCurveEval) Width() int { return 1 }

// Eval writes GetY(frame).
func (e *vx2dCurveEval) Eval(frame float64, out []float64) { out[0] = e.c.GetY(frame) }
