package sample

import (
	"math"
	"testing"

	"github.com/animbake/bake/model"
)

var vxIdentityRows = [16]float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}

// vxCurve builds a curve through world points with the identity matrix.
func vxCurve(closed, linear bool, pts ...[3]float64) *model.VirtoolsCurve {
	c := &model.VirtoolsCurve{Closed: closed, World: vxIdentityRows}
	for _, p := range pts {
		c.Points = append(c.Points, model.VirtoolsCurvePoint{World: p, Linear: linear})
	}
	return c
}

func vxUpdate(t *testing.T, c *model.VirtoolsCurve) *VirtoolsCurveGeometry {
	t.Helper()
	g, err := VirtoolsCurveUpdate(c)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// OA §3.1: closed curves wrap modulo n, open curves clamp.
func TestVirtoolsCurveWrap_OA3_1(t *testing.T) {
	for _, c := range []struct {
		i, n   int
		closed bool
		want   int
	}{
		{-1, 4, true, 3}, {4, 4, true, 0}, {-5, 4, true, 3}, {2, 4, true, 2},
		{-1, 4, false, 0}, {4, 4, false, 3}, {2, 4, false, 2},
	} {
		if got := vxWrap(c.i, c.n, c.closed); got != c.want {
			t.Errorf("wrap(%d, n=%d, closed=%v) = %d, want %d", c.i, c.n, c.closed, got, c.want)
		}
	}
}

// OA §3.2 by hand: prev (0,0,0), p (1,0,0), next (1,1,0), t = 0.5,
// c = 0.2, b = −0.4: dp = (1,0,0), dn = (0,1,0);
// out = (0.5·0.8·1.4·dn + 0.5·1.2·0.6·dp)/2 = (0.18, 0.28, 0);
// in  = (0.5·1.2·1.4·dn + 0.5·0.8·0.6·dp)/2 = (0.12, 0.42, 0).
func TestVirtoolsTCBTangentFormula_OA3_2(t *testing.T) {
	in, out := VirtoolsTCBTangents([3]float64{0, 0, 0}, [3]float64{1, 0, 0}, [3]float64{1, 1, 0}, 0.5, 0.2, -0.4)
	vxNear(t, "out", out[:], []float64{0.18, 0.28, 0}, 1e-15)
	vxNear(t, "in", in[:], []float64{0.12, 0.42, 0}, 1e-15)
	// Open ends: the missing neighbour is the point itself, so one
	// difference is 0. Two points (0,0,0), (2,0,0), T = C = B = 0: every
	// tangent is half the chord, (1, 0, 0).
	g := vxUpdate(t, vxCurve(false, false, [3]float64{0, 0, 0}, [3]float64{2, 0, 0}))
	for i := range 2 {
		vxNear(t, "open end in", g.In[i][:], []float64{1, 0, 0}, 0)
		vxNear(t, "open end out", g.Out[i][:], []float64{1, 0, 0}, 0)
	}
}

// OA §3.2/§3.3 on the game curve: the spec's curve-local points (rounded
// to 0.01), closed, all TCB with tension −0.6. Point 0's recomputed out
// tangent is 0.8·(P1 − P3) = (−1.904, 0, 152.352), the saved cache being
// (−1.909, 0.0003, 152.347) (virtools-container.md §11); the point lengths
// are 0, 149.06, 298.27, 447.34 and the total 595.27 (to the rounding of
// the inputs).
func TestVirtoolsCurveGameFigures_OA3_3(t *testing.T) {
	local := [][3]float64{{94.98, 0, 0.48}, {-0.95, 0, 95.46}, {-95.46, 0, -0.95}, {1.43, 0, -94.98}}
	// The curve's frame: rows (0,0,−1), (0,1,0), (1,0,0), origin (0,40,0)
	// maps local point 0 to the world start (0.48, 40, −94.98).
	world := [16]float64{0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 40, 0, 1}
	c := &model.VirtoolsCurve{Closed: true, World: world}
	for _, l := range local {
		w := [3]float64{l[2], 40 + l[1], -l[0]}
		c.Points = append(c.Points, model.VirtoolsCurvePoint{World: w, Tension: -0.6})
	}
	g := vxUpdate(t, c)
	for i := range local {
		vxNear(t, "raw", g.Raw[i][:], local[i][:], 1e-12)
	}
	vxNear(t, "out_0", g.Out[0][:], []float64{-1.904, 0, 152.352}, 1e-9)
	vxNear(t, "saved cache", g.Out[0][:], []float64{-1.909, 0.0003, 152.347}, 0.01)
	vxNear(t, "lengths", g.Lengths, []float64{0, 149.06, 298.27, 447.34}, 0.05)
	vxNear(t, "total", []float64{g.Total}, []float64{595.27}, 0.05)
	p, d := g.GetPos(0)
	vxNear(t, "start", p[:], []float64{0.48, 40, -94.98}, 1e-12)
	// Direction at the start (§3.4 step 6): H(0.01) − H(0) with the basis
	// at s = 0.01 (h00 − 1 = −0.000298, h01 = 0.000298, h10 = 0.009801,
	// h11 = −0.000099), mapped by the world rows and normalised.
	var dl [3]float64
	for j := range 3 {
		dl[j] = 0.000298*(g.Pos[1][j]-g.Pos[0][j]) + 0.009801*g.Out[0][j] - 0.000099*g.In[1][j]
	}
	n := math.Hypot(dl[0], dl[2])
	vxNear(t, "start direction", d[:], []float64{dl[2] / n, 0, -dl[0] / n}, 1e-12)
}

// OA §3.3 step 4 and §3.4 on straight segments: points (0,0,0), (3,0,0),
// (3,4,0), all linear. Open: lengths 0, 3, 7, total 7; p = 0.5 is L = 3.5
// on segment 1 at s = 0.125, (3, 0.5, 0), direction (0, 1, 0); p > 1
// clamps. Closed: the closing segment adds 5 (total 12); p = 0.5 → L = 6 →
// (3, 3, 0); p = 0.75 → L = 9 lies on the closing segment at s = 0.4 →
// (1.8, 2.4, 0); p = 1.25 wraps to 0.25 → (3, 0, 0); p = −0.25 wraps to
// 0.75.
func TestVirtoolsCurveOpenClosedLinear_OA3_4(t *testing.T) {
	pts := [][3]float64{{0, 0, 0}, {3, 0, 0}, {3, 4, 0}}
	open := vxUpdate(t, vxCurve(false, true, pts...))
	vxNear(t, "open lengths", open.Lengths, []float64{0, 3, 7}, 0)
	vxNear(t, "open total", []float64{open.Total}, []float64{7}, 0)
	for _, c := range []struct {
		step      float64
		pos, dir  []float64
		closedPos []float64
	}{
		{0, []float64{0, 0, 0}, []float64{1, 0, 0}, []float64{0, 0, 0}},
		{0.5, []float64{3, 0.5, 0}, []float64{0, 1, 0}, []float64{3, 3, 0}},
		{1, []float64{3, 4, 0}, []float64{0, 1, 0}, []float64{0, 0, 0}},
		{1.5, []float64{3, 4, 0}, []float64{0, 1, 0}, []float64{0, 0, 0}},
		{-0.5, []float64{0, 0, 0}, []float64{1, 0, 0}, []float64{3, 3, 0}},
		{0.75, []float64{3, 2.25, 0}, []float64{0, 1, 0}, []float64{1.8, 2.4, 0}},
		{1.25, []float64{3, 4, 0}, []float64{0, 1, 0}, []float64{3, 0, 0}},
		{-0.25, []float64{0, 0, 0}, []float64{1, 0, 0}, []float64{1.8, 2.4, 0}},
	} {
		p, d := open.GetPos(c.step)
		vxNear(t, "open pos", p[:], c.pos, 1e-15)
		vxNear(t, "open dir", d[:], c.dir, 1e-15)
	}
	closed := vxUpdate(t, vxCurve(true, true, pts...))
	vxNear(t, "closed lengths", closed.Lengths, []float64{0, 3, 7}, 0)
	vxNear(t, "closed total", []float64{closed.Total}, []float64{12}, 0)
	for _, c := range []struct {
		step float64
		pos  []float64
	}{
		{0, []float64{0, 0, 0}}, {0.5, []float64{3, 3, 0}}, {0.75, []float64{1.8, 2.4, 0}},
		{1, []float64{0, 0, 0}}, {1.25, []float64{3, 0, 0}}, {-0.25, []float64{1.8, 2.4, 0}},
		{2, []float64{0, 0, 0}}, {-1, []float64{0, 0, 0}},
	} {
		p, _ := closed.GetPos(c.step)
		vxNear(t, "closed pos", p[:], c.pos, 1e-12)
	}
	_, d := closed.GetPos(0.75)
	vxNear(t, "closing direction", d[:], []float64{-0.6, -0.8, 0}, 1e-15)
}

// OA §3.2 (user tangents) and §3.4 step 6: a Hermite segment from (0,0,0)
// to (1,0,0) with user tangents (2,0,0) at both ends is
// x(s) = 2s³ − 3s² + 2s, monotonic, so its 100-chord length is exactly 1.
// Progress is the segment parameter, not arc length inside the segment:
// p = 0.25 gives x = 2/64 − 3/16 + 1/2 = 0.34375. The direction is the
// forward difference H(s + 0.01) − H(s), normalised: (1, 0, 0).
func TestVirtoolsCurveUserTangents_OA3_4(t *testing.T) {
	c := vxCurve(false, false, [3]float64{0, 0, 0}, [3]float64{1, 0, 0})
	for i := range c.Points {
		c.Points[i].UserTangents = true
		c.Points[i].In, c.Points[i].Out = [3]float64{2, 0, 0}, [3]float64{2, 0, 0}
		c.Points[i].Tension = 0.9 // ignored for user tangents
	}
	g := vxUpdate(t, c)
	vxNear(t, "total", []float64{g.Total}, []float64{1}, 1e-14)
	p, d := g.GetPos(0.25)
	vxNear(t, "pos", p[:], []float64{0.34375, 0, 0}, 1e-15)
	vxNear(t, "dir", d[:], []float64{1, 0, 0}, 1e-15)
	p, _ = g.GetPos(0.5)
	vxNear(t, "middle", p[:], []float64{0.5, 0, 0}, 1e-15)
	// At the end the direction extrapolates past s = 1 (still +x here).
	_, d = g.GetPos(1)
	vxNear(t, "end dir", d[:], []float64{1, 0, 0}, 1e-15)
}

// OA §3.3 step 3: fitting moves each point towards the mean of its
// neighbours; lengths use the fitted points. Closed triangle (0,0,0),
// (4,0,0), (0,4,0), linear, fitting 0.5 → (1,1,0), (2,1,0), (1,2,0); the
// lengths are 0, 1, 1 + √2 and the total 2 + √2. The tangents (TCB, from
// the raw points) are unchanged by fitting.
func TestVirtoolsCurveFitting_OA3_3(t *testing.T) {
	c := vxCurve(true, true, [3]float64{0, 0, 0}, [3]float64{4, 0, 0}, [3]float64{0, 4, 0})
	plain := vxUpdate(t, c)
	c.Fitting = 0.5
	g := vxUpdate(t, c)
	for i, want := range [][]float64{{1, 1, 0}, {2, 1, 0}, {1, 2, 0}} {
		vxNear(t, "fitted", g.Pos[i][:], want, 1e-15)
		vxNear(t, "raw kept", g.Raw[i][:], plain.Raw[i][:], 0)
		vxNear(t, "tangent from raw", g.Out[i][:], plain.Out[i][:], 0)
	}
	vxNear(t, "lengths", g.Lengths, []float64{0, 1, 1 + math.Sqrt2}, 1e-15)
	vxNear(t, "total", []float64{g.Total}, []float64{2 + math.Sqrt2}, 1e-15)
}

// OA §3.3 step 1 and §3.4 step 7: points are taken into the curve's frame
// with the inverse world matrix, evaluated there, and put back with the
// world matrix; directions are rotated and normalised. A curve scaled by 2
// and moved by (10, 0, 0) with world points (10,0,0), (16,0,0): local
// (0,0,0), (3,0,0); total local length 3; p = 0.5 is world (13, 0, 0).
func TestVirtoolsCurveWorldFrame_OA3_4(t *testing.T) {
	c := vxCurve(false, true, [3]float64{10, 0, 0}, [3]float64{16, 0, 0})
	c.World = [16]float64{2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 10, 0, 0, 1}
	g := vxUpdate(t, c)
	vxNear(t, "local", g.Raw[1][:], []float64{3, 0, 0}, 0)
	vxNear(t, "total", []float64{g.Total}, []float64{3}, 0)
	p, d := g.GetPos(0.5)
	vxNear(t, "world", p[:], []float64{13, 0, 0}, 0)
	vxNear(t, "dir", d[:], []float64{1, 0, 0}, 0)
	c.World = [16]float64{}
	if _, err := VirtoolsCurveUpdate(c); err == nil {
		t.Error("singular curve matrix accepted")
	}
}

// OA §3.4 step 3: with fewer than two points the engine's GetPos fails;
// the evaluator then gives the point (or the origin) with no direction.
func TestVirtoolsCurveDegenerate_OA3_4(t *testing.T) {
	e := vxCompile(t, vxCurve(true, false))
	out := make([]float64, 6)
	e.Eval(0.5, out)
	vxNear(t, "empty", out, []float64{0, 0, 0, 0, 0, 0}, 0)
	e = vxCompile(t, vxCurve(true, false, [3]float64{1, 2, 3}))
	e.Eval(0.5, out)
	vxNear(t, "one point", out, []float64{1, 2, 3, 0, 0, 0}, 0)
	// Coincident points: zero length, s = 0, no NaN.
	e = vxCompile(t, vxCurve(true, false, [3]float64{1, 2, 3}, [3]float64{1, 2, 3}))
	e.Eval(0.3, out)
	vxNear(t, "coincident", out, []float64{1, 2, 3, 0, 0, 0}, 0)
	for _, step := range []float64{math.Inf(1), math.Inf(-1), -1e300, 1e300} {
		e.Eval(step, out) // must return
	}
}

// The saved tangent cache agrees with the recomputed tangents (OA §2) and
// a perturbed cache is reported. With tension −0.6 and continuity = bias =
// 0, only the orders putting tension first match: the stored order starts
// with tension (the order of continuity and bias cannot be told when both
// are 0).
func TestVirtoolsTangentCache_OA2(t *testing.T) {
	pts := [][3]float64{{94.98, 0, 0.48}, {-0.95, 0, 95.46}, {-95.46, 0, -0.95}, {1.43, 0, -94.98}}
	c := vxCurve(true, false, pts...)
	for i := range c.Points {
		c.Points[i].Tension = -0.6
	}
	g := vxUpdate(t, c)
	for i := range c.Points {
		c.Points[i].In, c.Points[i].Out = g.In[i], g.Out[i]
	}
	bad, err := VirtoolsCheckTangentCache(c, 1e-4)
	if err != nil || len(bad) != 0 {
		t.Fatalf("consistent cache reported: %v %v", bad, err)
	}
	orders, err := VirtoolsTCBOrders(c, 1e-4)
	if err != nil {
		t.Fatal(err)
	}
	vxNearStrings(t, orders, []string{"TCB", "TBC"})
	c.Points[2].Out[0] += 0.5
	bad, _ = VirtoolsCheckTangentCache(c, 1e-4)
	if len(bad) != 1 || bad[0].Point != 2 {
		t.Fatalf("perturbed point not reported: %+v", bad)
	}
	// User-tangent points are data, not a cache.
	c.Points[2].UserTangents = true
	if bad, _ = VirtoolsCheckTangentCache(c, 1e-4); len(bad) != 0 {
		t.Fatalf("user tangents checked: %+v", bad)
	}
}

func vxNearStrings(t *testing.T, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

// The path follower maps frame f to progression f/Frames: a closed square
// of side 1 (linear) travelled in 40 frames is at (1, 0, 0) at frame 10,
// back at the start at 40, and wraps at 50; Local skips the curve matrix.
func TestVirtoolsPathFollow(t *testing.T) {
	c := vxCurve(true, true, [3]float64{0, 0, 0}, [3]float64{1, 0, 0}, [3]float64{1, 1, 0}, [3]float64{0, 1, 0})
	c.World = [16]float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 0, 0, 1}
	for i := range c.Points {
		c.Points[i].World[0] += 5
	}
	world := vxCompile(t, &model.VirtoolsPathFollow{Path: c, Frames: 40})
	local := vxCompile(t, &model.VirtoolsPathFollow{Path: c, Frames: 40, Local: true})
	out := make([]float64, 3)
	for _, s := range []struct {
		f    float64
		want []float64
	}{{0, []float64{0, 0, 0}}, {10, []float64{1, 0, 0}}, {15, []float64{1, 0.5, 0}}, {40, []float64{0, 0, 0}}, {50, []float64{1, 0, 0}}} {
		local.Eval(s.f, out)
		vxNear(t, "local", out, s.want, 1e-15)
		world.Eval(s.f, out)
		vxNear(t, "world", out, []float64{s.want[0] + 5, s.want[1], s.want[2]}, 1e-15)
	}
	if _, err := Compile(&model.VirtoolsPathFollow{Path: c}); err == nil {
		t.Error("zero-frame traversal accepted")
	}
	if n := testing.AllocsPerRun(100, func() { world.Eval(12.5, out) }); n != 0 {
		t.Errorf("Eval allocates %v times", n)
	}
}
