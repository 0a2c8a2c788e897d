package sample

import (
	"math"

	"github.com/animbake/bake/model"
)

// VirtoolsTangentMismatch reports a TCB curve point whose saved tangent
// cache differs from the tangents CKCurve::Update recomputes (§2, §3.2).
type VirtoolsTangentMismatch struct {
	Point          int
	Name           string
	SavedIn        [3]float64
	SavedOut       [3]float64
	RecomputedIn   [3]float64
	RecomputedOut  [3]float64
	MaxDifference  float64 // largest component difference
	RelativeToSize float64 // MaxDifference / max(1, largest saved component)
}

// VirtoolsCheckTangentCache recomputes the tangents of every TCB point
// (user-tangent points are skipped: their tangents are data, not a cache)
// and returns the points where a component differs from the saved one by
// more than tol·max(1, |largest saved component|). The saved values are
// float32, so a tol of 1e-4 suits real files.
func VirtoolsCheckTangentCache(c *model.VirtoolsCurve, tol float64) ([]VirtoolsTangentMismatch, error) {
	g, err := VirtoolsCurveUpdate(c)
	if err != nil {
		return nil, err
	}
	var bad []VirtoolsTangentMismatch
	for i, p := range c.Points {
		if p.UserTangents {
			continue
		}
		m := VirtoolsTangentMismatch{Point: i, Name: p.Name, SavedIn: p.In, SavedOut: p.Out,
			RecomputedIn: g.In[i], RecomputedOut: g.Out[i]}
		size := 1.0
		for j := range 3 {
			size = math.Max(size, math.Max(math.Abs(p.In[j]), math.Abs(p.Out[j])))
			m.MaxDifference = math.Max(m.MaxDifference, math.Abs(p.In[j]-g.In[i][j]))
			m.MaxDifference = math.Max(m.MaxDifference, math.Abs(p.Out[j]-g.Out[i][j]))
		}
		m.RelativeToSize = m.MaxDifference / size
		if !(m.RelativeToSize <= tol) {
			bad = append(bad, m)
		}
	}
	return bad, nil
}

// VirtoolsTCBOrders tries the six orders in which the three TCB floats of
// a curve point could be stored and returns those (as strings such as
// "TCB" or "BTC", naming what the first, second and third stored float
// would be) under which the saved tangent cache agrees with the
// recomputed tangents within tol. The importer stores the floats in
// Tension, Continuity, Bias order; a result of exactly ["TCB"] confirms it.
func VirtoolsTCBOrders(c *model.VirtoolsCurve, tol float64) ([]string, error) {
	orders := []string{"TCB", "TBC", "CTB", "CBT", "BTC", "BCT"}
	var ok []string
	for _, o := range orders {
		cp := *c
		cp.Points = make([]model.VirtoolsCurvePoint, len(c.Points))
		for i, p := range c.Points {
			stored := [3]float64{p.Tension, p.Continuity, p.Bias}
			for k, name := range o {
				switch name {
				case 'T':
					p.Tension = stored[k]
				case 'C':
					p.Continuity = stored[k]
				case 'B':
					p.Bias = stored[k]
				}
			}
			cp.Points[i] = p
		}
		bad, err := VirtoolsCheckTangentCache(&cp, tol)
		if err != nil {
			return nil, err
		}
		if len(bad) == 0 {
			ok = append(ok, o)
		}
	}
	return ok, nil
}
