package keys

import (
	"math"
	"math/rand"
	"testing"

	"github.com/animbake/bake/fidelity"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// keyedEverywhere is a channel keyed at each of n probes, the engine's
// values want and the played ones got.
func keyedEverywhere(node int, path string, want, got []float64) *channel {
	kind := map[string]int{model.PathTranslation: kindTranslation, model.PathRotation: kindRotation, model.PathScale: kindScale}[path]
	w := 3
	if path == model.PathRotation {
		w = 4
	}
	c := &channel{path: path, width: w, node: node, kind: kind, vals: want, v32: got}
	for k := range len(want) / w {
		c.keys = append(c.keys, k)
	}
	return c
}

func restHierarchy(parents []int, rests []fidelity.TRS) *fidelity.Hierarchy {
	nodes := make([]model.Node, len(parents))
	for i, p := range parents {
		nodes[i] = model.Node{Name: string(rune('a' + i)), Parent: p, Translation: rests[i].T, Rotation: rests[i].R, Scale: rests[i].S}
	}
	return fidelity.NewHierarchy(nodes)
}

var unit = fidelity.TRS{R: [4]float64{0, 0, 0, 1}, S: [3]float64{1, 1, 1}}

// A root turned by θ about z moves its child, 1 m along x, by 2·sin(θ/2)
// at the child's origin and by 2·sin(θ/2)·1.03 m at its vertex 3 cm
// farther out: the bound is that, and with ρ = 2·sin(θ/2) = 1e-4 it
// proves a tolerance of 1.04e-4 m (1.03e-4 ≤ 1.04e-4·(1−ρ)) but not one
// of 1.03e-4 m (1.03e-4 > 1.03e-4·(1−ρ)).
func TestBoundRotationOfAParent(t *testing.T) {
	child := unit
	child.T = [3]float64{1, 0, 0}
	h := restHierarchy([]int{-1, 0}, []fidelity.TRS{unit, child})
	half := math.Asin(0.5e-4) // sin(θ/2) = 0.5e-4
	c := keyedEverywhere(0, model.PathRotation, []float64{0, 0, 0, 1}, []float64{0, 0, math.Sin(half), math.Cos(half)})
	chans := []*channel{c}
	probes := []fidelity.Probe{{}}
	b := newBound(h, chans, shells(h))
	playedErrors(chans, probes, []float64{0}, nil)
	if got := c.errs[0]; math.Abs(got-1e-4) > 1e-15 {
		t.Fatalf("rotation error %g, want 2·sin(θ/2) = 1e-4", got)
	}
	if f := b.unproved(chans, probes, nil, nil, 1.04e-4); len(f) != 0 {
		t.Errorf("1.04e-4: unproved %v", f)
	}
	f := b.unproved(chans, probes, nil, nil, 1.03e-4)
	if len(f) != 1 || len(f[0].nodes) != 1 || f[0].nodes[0] != 1 {
		t.Errorf("1.03e-4: unproved %v, want the child only", f)
	}
	// The exact error there is the bound's first-order value.
	exact(h, chans, [][]*channel{{c}, nil}, f, probes, []float64{0}, shells(h), nil, 0, func(k, n int, e float64) {
		if n != 1 || math.Abs(e-1.03e-4) > 1e-9 {
			t.Errorf("exact error %g at node %d, want 1.03e-4 at node 1", e, n)
		}
	})
}

// A child's translation error counts at the parent's world scale: 5e-5 m
// under a parent scaled by 2 is 1e-4 m.
func TestBoundTranslationUnderAScaledParent(t *testing.T) {
	root := unit
	root.S = [3]float64{2, 2, 2}
	h := restHierarchy([]int{-1, 0}, []fidelity.TRS{root, unit})
	c := keyedEverywhere(1, model.PathTranslation, []float64{0, 0, 0}, []float64{0, 5e-5, 0})
	chans := []*channel{c}
	probes := []fidelity.Probe{{}}
	b := newBound(h, chans, shells(h))
	playedErrors(chans, probes, []float64{0}, nil)
	if f := b.unproved(chans, probes, nil, nil, 1.0001e-4); len(f) != 0 {
		t.Errorf("1.0001e-4: unproved %v", f)
	}
	if f := b.unproved(chans, probes, nil, nil, 0.9999e-4); len(f) != 1 {
		t.Errorf("0.9999e-4: proved, want unproved")
	}
}

// Whatever the hierarchy (random chains and branches, non-uniform scales,
// translations, rotations and scales all perturbed), a node the bound
// proves is within the tolerance when measured exactly.
func TestBoundNeverProvesAnError(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	randQuat := func(scale float64) [4]float64 {
		q := [4]float64{r.NormFloat64() * scale, r.NormFloat64() * scale, r.NormFloat64() * scale, 1}
		n := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
		return [4]float64{q[0] / n, q[1] / n, q[2] / n, q[3] / n}
	}
	checked := 0
	for trial := range 300 {
		n := 2 + r.Intn(8)
		h, rests := randomTree(r, n, 3, func() [4]float64 { return randQuat(1) })
		const probes = 4
		var chans []*channel
		mag := math.Pow(10, -1.5-3*r.Float64())
		for i := range n {
			for _, path := range []string{model.PathTranslation, model.PathRotation, model.PathScale} {
				if r.Intn(3) == 0 {
					continue
				}
				var want, got []float64
				for range probes {
					switch path {
					case model.PathRotation:
						q := randQuat(1)
						d := sample.QuatMul(randQuat(mag), q)
						want, got = append(want, q[:]...), append(got, d[:]...)
					default:
						for j := range 3 {
							v := rests[i].T[j]
							if path == model.PathScale {
								v = rests[i].S[j]
							}
							v += r.NormFloat64() * 0.1
							want, got = append(want, v), append(got, v+r.NormFloat64()*mag)
						}
					}
				}
				chans = append(chans, keyedEverywhere(i, path, want, got))
			}
		}
		pr := make([]fidelity.Probe, probes)
		t32 := make([]float64, probes)
		for k := range pr {
			pr[k] = fidelity.Probe{Index: k, Time: float64(k), Frame: float64(k)}
			t32[k] = float64(k)
		}
		byNode := channelsByNode(chans, n)
		b := newBound(h, chans, shells(h))
		playedErrors(chans, pr, t32, nil)
		// Every node at every probe, measured exactly.
		all := make([]failure, probes)
		for k := range all {
			all[k] = failure{k, allNodes(n)}
		}
		for k := range probes {
			e := make([]float64, n)
			exact(h, chans, byNode, all[k:k+1], pr, t32, shells(h), nil, 0, func(_, i int, err float64) { e[i] = err })
			for i := range n {
				// A tolerance just below the exact error must not be proved.
				f := b.unproved(chans, pr, []int{k}, nil, e[i]*0.999)
				bad := true
				for _, fl := range f {
					for _, j := range fl.nodes {
						if j == i {
							bad = false
						}
					}
				}
				if bad && e[i] > 0 {
					t.Fatalf("trial %d probe %d node %d: exact error %g, yet the bound proves %g", trial, k, i, e[i], e[i]*0.999)
				}
				checked++
			}
		}
	}
	t.Logf("%d node-probes checked", checked)
}

// The chord form of the nlerp error agrees with the quaternion-product form
// (fidelity.RotationDisplacement) from 1e-9 rad to 180°.
func TestNlerpDisplacementMatchesRotationDisplacement(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	var out [4]float64
	for i := range 100000 {
		a, b, w := randUnit(r), randUnit(r), randUnit(r)
		u := r.Float64()
		if i%2 == 0 { // w close to the blend: tiny angles
			fidelity.Rotate(fidelity.Nlerp, a, b, u, out[:])
			eps := math.Pow(10, -9*r.Float64())
			for j := range w {
				w[j] = out[j] + eps*w[j]
			}
			n := math.Sqrt(w[0]*w[0] + w[1]*w[1] + w[2]*w[2] + w[3]*w[3])
			for j := range w {
				w[j] /= n
			}
		}
		fidelity.Rotate(fidelity.Nlerp, a, b, u, out[:])
		want := fidelity.RotationDisplacement(out[:], w)
		got := nlerpDisplacement(a, b, u, w)
		if math.Abs(got-want) > 1e-12+1e-7*want {
			t.Fatalf("a %v b %v u %v w %v: %g, want %g", a, b, u, w, got, want)
		}
	}
}

// slerpGap bounds the distance between slerp and nlerp of the same keys
// at any fraction (measured here with fidelity's own blends on a fine
// grid), and is close to it: for small angles the gap is
// φ³·u(1−u)(1−2u)/6 in the quaternion's angle, twice that as a
// displacement.
func TestSlerpGapBoundsTheBlends(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	var s, n [4]float64
	for range 2000 {
		a := randUnit(r)
		b := towards(r, a)
		g := slerpGap(a, b)
		worstGap, worst := 0.0, 0.0
		for i := 1; i < 1000; i++ {
			u := float64(i) / 1000
			fidelity.Rotate(fidelity.Slerp, a, b, u, s[:])
			fidelity.Rotate(fidelity.Nlerp, a, b, u, n[:])
			d := fidelity.RotationDisplacement(s[:], n[:])
			if d > gapAt(g, u)*(1+1e-9)+1e-15 {
				t.Fatalf("a %v b %v u %v: gap %g, measured %g", a, b, u, gapAt(g, u), d)
			}
			worst, worstGap = max(worst, d), max(worstGap, gapAt(g, u))
		}
		if worst > 1e-9 && worstGap > 1.4*worst {
			t.Fatalf("a %v b %v: gap up to %g, measured up to %g", a, b, worstGap, worst)
		}
	}
	// Small angle, by hand: φ = 0.1 at u = 1/4 gives 0.001·(1/4)(3/4)(1/2)/6
	// = 1.5625e-5 in the quaternion's angle, 3.125e-5 as a displacement,
	// 3.34e-5 bounded with the factor 1.07.
	a := []float64{0, 0, 0, 1}
	b := []float64{0, 0, math.Sin(0.1), math.Cos(0.1)}
	if g := gapAt(slerpGap(a, b), 0.25); math.Abs(g-1.07*3.125e-5) > 1e-12 {
		t.Errorf("φ = 0.1, u = 1/4: gap %g, want %g", g, 1.07*3.125e-5)
	}
}

// towards is a random unit quaternion on a's side, brought closer to a by a
// random amount: angles from 0 to π/2.
func towards(r *rand.Rand, a []float64) []float64 {
	b := randUnit(r)
	if a[0]*b[0]+a[1]*b[1]+a[2]*b[2]+a[3]*b[3] < 0 {
		b = []float64{-b[0], -b[1], -b[2], -b[3]}
	}
	mix := r.Float64()
	for j := range b {
		b[j] = a[j] + (b[j]-a[j])*mix
	}
	norm(b)
	return b
}

// randomTree is a hierarchy of n nodes, parents before children, each
// child's parent one of the back nodes before it (mostly chains, some
// branches), with random translations, scales from 0.5 to 1.5 and
// rotations from rot; it returns the rests too.
func randomTree(r *rand.Rand, n, back int, rot func() [4]float64) (*fidelity.Hierarchy, []fidelity.TRS) {
	parents := make([]int, n)
	rests := make([]fidelity.TRS, n)
	for i := range n {
		parents[i] = -1
		if i > 0 {
			parents[i] = i - 1 - r.Intn(min(i, back))
		}
		rests[i] = fidelity.TRS{T: [3]float64{r.NormFloat64() * 0.3, r.NormFloat64() * 0.3, r.NormFloat64() * 0.3},
			R: rot(), S: [3]float64{0.5 + r.Float64(), 0.5 + r.Float64(), 0.5 + r.Float64()}}
	}
	return restHierarchy(parents, rests), rests
}

// channelsByNode lists each node's channels.
func channelsByNode(chans []*channel, n int) [][]*channel {
	byNode := make([][]*channel, n)
	for _, c := range chans {
		byNode[c.node] = append(byNode[c.node], c)
	}
	return byNode
}

// allNodes is 0 … n−1.
func allNodes(n int) []int {
	nodes := make([]int, n)
	for i := range nodes {
		nodes[i] = i
	}
	return nodes
}

func randUnit(r *rand.Rand) []float64 {
	v := []float64{r.NormFloat64(), r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
	norm(v)
	return v
}

func norm(v []float64) {
	n := math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2] + v[3]*v[3])
	for j := range v {
		v[j] /= n
	}
}

// With keys apart, slerp and nlerp differ between them; the gap bound that
// spares composing slerp's pose holds: the nlerp error plus the chain's gap
// term is at least the worse of the two blends measured exactly, also with
// keys rounded to 16-bit integers (slerp's blend is then not unit length).
func TestSlerpGapBoundHoldsThroughTheHierarchy(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	for trial := range 300 {
		n := 2 + r.Intn(6)
		h, _ := randomTree(r, n, 2, func() [4]float64 { return [4]float64{0, 0, 0, 1} })
		var chans []*channel
		for i := range n {
			// A rotation keyed at probes 0 and 2 (up to 90° apart), the
			// engine's value at probe 1 near their blend.
			a := randUnit(r)
			b := towards(r, a)
			var mid [4]float64
			fidelity.Rotate(fidelity.Slerp, a, b, 0.3, mid[:])
			m := randUnit(r)
			for j := range mid {
				mid[j] += 1e-3 * m[j]
			}
			norm(mid[:])
			vals := append(append(append([]float64{}, a...), mid[:]...), b...)
			keys := vals
			if trial%2 == 1 { // keys as 16-bit integers: not unit length
				keys = make([]float64, len(vals))
				for j, v := range vals {
					keys[j] = math.Round(v*32767) / 32767
				}
			}
			c := &channel{path: model.PathRotation, width: 4, node: i, kind: kindRotation, vals: vals, v32: keys, keys: []int{0, 2}}
			chans = append(chans, c)
		}
		pr := []fidelity.Probe{{Index: 0, Time: 0}, {Index: 1, Time: 0.3}, {Index: 2, Time: 1}}
		t32 := []float64{0, 0.3, 1}
		byNode := channelsByNode(chans, n)
		bnd := newBound(h, chans, shells(h))
		playedErrors(chans, pr, t32, nil)
		f := []failure{{1, allNodes(n)}}
		want := make([]float64, n)
		exact(h, chans, byNode, f, pr, t32, shells(h), nil, 0, func(_, i int, e float64) { want[i] = e })
		exact(h, chans, byNode, f, pr, t32, shells(h), bnd, math.Inf(1), func(_, i int, e float64) {
			if e < want[i]*(1-1e-9) {
				t.Fatalf("trial %d node %d: nlerp error plus gap %g, below the exact %g", trial, i, e, want[i])
			}
		})
	}
}

// shells is every node of h at the 3 cm shell.
func shells(h *fidelity.Hierarchy) []float64 { return fidelity.Shells(len(h.Parent), 0.03).Of }
