package sample

import (
	"fmt"
	"math"

	"github.com/animbake/bake/model"
)

func init() {
	RegisterCompiler("virtools-curve", compileVirtoolsCurve)
}

// VirtoolsCurveGeometry is what CKCurve::Update computes
// (virtools-curves-and-object-animations.txt §3.3), in the curve's frame.
type VirtoolsCurveGeometry struct {
	// Raw holds each point's position in the curve's frame (the inverse of
	// the curve's world matrix applied to the point's world position).
	Raw [][3]float64
	// Pos holds the positions the segments run through: Raw, moved by the
	// fitting coefficient when it is > 0.
	Pos [][3]float64
	// In and Out are the tangents used: recomputed for TCB points (from
	// Raw), the saved ones for points with user tangents.
	In, Out [][3]float64
	// Linear marks points whose outgoing segment is a straight line.
	Linear []bool
	// Lengths holds each point's arc length from the first point.
	Lengths []float64
	// Total is the curve's length (closing segment included when closed).
	Total float64
	// Closed and World are copied from the curve.
	Closed bool
	World  [16]float64
}

// vxCurveSamples is the number of chords per Hermite segment in the arc
// length table (§3.3 step 4: s = k/100, k = 1..100).
const vxCurveSamples = 100

// vxWrap is the curve's index wrap (§3.1): modulo n when closed, clamped
// to [0, n−1] when open.
func vxWrap(i, n int, closed bool) int {
	if closed {
		return ((i % n) + n) % n
	}
	return min(max(i, 0), n-1)
}

// VirtoolsTCBTangents is the Kochanek–Bartels tangent formula of §3.2 for
// a point p with neighbours prev and next (equal to p at an open end) and
// tension t, continuity c, bias b. The tangents are not rescaled.
func VirtoolsTCBTangents(prev, p, next [3]float64, t, c, b float64) (in, out [3]float64) {
	for j := range 3 {
		dp := p[j] - prev[j]
		dn := next[j] - p[j]
		out[j] = ((1-t)*(1-c)*(1-b)*dn + (1-t)*(1+c)*(1+b)*dp) / 2
		in[j] = ((1-t)*(1+c)*(1-b)*dn + (1-t)*(1-c)*(1+b)*dp) / 2
	}
	return in, out
}

// vxHermite3 is H(P0, T0, P1, T1, s) of §3.3.
func vxHermite3(p0, t0, p1, t1 [3]float64, s float64) [3]float64 {
	h00, h10, h01, h11 := hermiteBasis(s)
	var r [3]float64
	for j := range 3 {
		r[j] = h00*p0[j] + h01*p1[j] + h10*t0[j] + h11*t1[j]
	}
	return r
}

func vxDist3(a, b [3]float64) float64 {
	x, y, z := b[0]-a[0], b[1]-a[1], b[2]-a[2]
	return math.Sqrt(x*x + y*y + z*z)
}

// vxInverseAffineRows returns the inverse of the 3×3 part of a Virtools
// row-major matrix, or false when it is singular.
func vxInverseAffineRows(m *[16]float64) ([9]float64, bool) {
	a, b, c := m[0], m[1], m[2]
	d, e, f := m[4], m[5], m[6]
	g, h, i := m[8], m[9], m[10]
	det := a*(e*i-f*h) - b*(d*i-f*g) + c*(d*h-e*g)
	if det == 0 || math.IsNaN(det) || math.IsInf(det, 0) {
		return [9]float64{}, false
	}
	k := 1 / det
	return [9]float64{
		(e*i - f*h) * k, (c*h - b*i) * k, (b*f - c*e) * k,
		(f*g - d*i) * k, (a*i - c*g) * k, (c*d - a*f) * k,
		(d*h - e*g) * k, (b*g - a*h) * k, (a*e - b*d) * k,
	}, true
}

// VirtoolsCurveUpdate runs CKCurve::Update (§3.3): points into the curve's
// frame, tangents (§3.2), fitting, and the arc-length table.
func VirtoolsCurveUpdate(c *model.VirtoolsCurve) (*VirtoolsCurveGeometry, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	inv, ok := vxInverseAffineRows(&c.World)
	if !ok {
		return nil, fmt.Errorf("virtools curve: world matrix is singular")
	}
	n := len(c.Points)
	g := &VirtoolsCurveGeometry{Raw: make([][3]float64, n), Pos: make([][3]float64, n),
		In: make([][3]float64, n), Out: make([][3]float64, n), Linear: make([]bool, n),
		Lengths: make([]float64, n), Closed: c.Closed, World: c.World}
	for i, p := range c.Points {
		var d [3]float64
		for j := range 3 {
			d[j] = p.World[j] - c.World[12+j]
		}
		for j := range 3 {
			g.Raw[i][j] = d[0]*inv[j] + d[1]*inv[3+j] + d[2]*inv[6+j]
		}
		g.Linear[i] = p.Linear
	}
	for i, p := range c.Points {
		if p.UserTangents {
			g.In[i], g.Out[i] = p.In, p.Out
			continue
		}
		prev, next := g.Raw[vxWrap(i-1, n, c.Closed)], g.Raw[vxWrap(i+1, n, c.Closed)]
		g.In[i], g.Out[i] = VirtoolsTCBTangents(prev, g.Raw[i], next, p.Tension, p.Continuity, p.Bias)
	}
	copy(g.Pos, g.Raw)
	if c.Fitting > 0 {
		for i := range n {
			prev, next := g.Raw[vxWrap(i-1, n, c.Closed)], g.Raw[vxWrap(i+1, n, c.Closed)]
			for j := range 3 {
				r := g.Raw[i][j]
				g.Pos[i][j] = r + ((prev[j]+next[j])/2-r)*c.Fitting
			}
		}
	}
	g.arcLengths()
	return g, nil
}

// arcLengths is §3.3 step 4: point lengths and the total, with straight
// segments measured directly and Hermite segments by 100 chords.
func (g *VirtoolsCurveGeometry) arcLengths() {
	n := len(g.Pos)
	segs := n - 1
	if g.Closed {
		segs = n
	}
	total := 0.0
	for i := 0; i < segs; i++ {
		j := i + 1
		if j == n {
			j = 0
		}
		g.Lengths[i] = total
		if g.Linear[i] {
			total += vxDist3(g.Pos[i], g.Pos[j])
		} else {
			prev := g.Pos[i]
			for k := 1; k <= vxCurveSamples; k++ {
				p := vxHermite3(g.Pos[i], g.Out[i], g.Pos[j], g.In[j], float64(k)/vxCurveSamples)
				total += vxDist3(prev, p)
				prev = p
			}
		}
		if i != n-1 {
			g.Lengths[j] = total
		}
	}
	g.Total = total
}

// segmentAt is GetPos's segment search (§3.4) for arc length l (at least
// 2 points): the points prev and next around it and their arc lengths.
func (g *VirtoolsCurveGeometry) segmentAt(l float64) (prev, next int, l0, l1 float64) {
	n := len(g.Pos)
	next = -1
	for k := range n {
		if g.Lengths[k] > l {
			next = k
			break
		}
	}
	if next < 0 {
		if g.Closed {
			next = 0
		} else {
			next = n - 1
		}
	}
	prev = next - 1
	if prev < 0 {
		if g.Closed {
			prev = n - 1
		} else {
			prev = 0
		}
	}
	l0, l1 = g.Lengths[prev], g.Total
	if next != 0 {
		l1 = g.Lengths[next]
	}
	return prev, next, l0, l1
}

// LocalPos is GetPos (§3.4) before the world transform: the curve-local
// position and the (unnormalised) local direction at progression step.
// With fewer than 2 points it gives the only point (or the origin) and
// no direction.
func (g *VirtoolsCurveGeometry) LocalPos(step float64) (p, d [3]float64) {
	n := len(g.Pos)
	if n < 2 {
		if n == 1 {
			p = g.Pos[0]
		}
		return p, d
	}
	if g.Closed {
		if step > 1 {
			step -= math.Trunc(step)
		}
		if step < 0 {
			step += math.Ceil(-step)
			for step < 0 {
				step++
			}
		}
	} else {
		step = math.Min(math.Max(step, 0), 1)
	}
	l := step * g.Total
	prev, next, l0, l1 := g.segmentAt(l)
	s := 0.0
	if l1 != l0 {
		s = (l - l0) / (l1 - l0)
	}
	a, b := g.Pos[prev], g.Pos[next]
	if g.Linear[prev] {
		for j := range 3 {
			d[j] = b[j] - a[j]
			p[j] = a[j] + d[j]*s
		}
		return p, d
	}
	p = vxHermite3(a, g.Out[prev], b, g.In[next], s)
	q := vxHermite3(a, g.Out[prev], b, g.In[next], s+0.01)
	for j := range 3 {
		d[j] = q[j] - p[j]
	}
	return p, d
}

// GetPos is CKCurve::GetPos (§3.4): the world position and the unit world
// direction at progression step. With fewer than 2 points the engine
// fails and leaves its output alone; here the position is the only point
// (or the curve's origin) and the direction is zero.
func (g *VirtoolsCurveGeometry) GetPos(step float64) (pos, dir [3]float64) {
	p, d := g.LocalPos(step)
	w := &g.World
	var dl float64
	for j := range 3 {
		pos[j] = p[0]*w[j] + p[1]*w[4+j] + p[2]*w[8+j] + w[12+j]
		dir[j] = d[0]*w[j] + d[1]*w[4+j] + d[2]*w[8+j]
		dl += dir[j] * dir[j]
	}
	if dl > 0 {
		dl = math.Sqrt(dl)
		for j := range 3 {
			dir[j] /= dl
		}
	}
	return pos, dir
}

// vxCurveEval is a compiled CKCurve: 6 components per progression.
type vxCurveEval struct{ g *VirtoolsCurveGeometry }

func compileVirtoolsCurve(c model.Curve) (Evaluator, error) {
	g, err := VirtoolsCurveUpdate(c.(*model.VirtoolsCurve))
	if err != nil {
		return nil, err
	}
	return &vxCurveEval{g: g}, nil
}

func (e *vxCurveEval) Width() int { return 6 }

// Eval writes the world position and unit direction at progression frame.
func (e *vxCurveEval) Eval(frame float64, out []float64) {
	p, d := e.g.GetPos(frame)
	copy(out[:3], p[:])
	copy(out[3:6], d[:])
}
