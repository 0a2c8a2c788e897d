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
	b := newBound(h, chans, 0.03)
	errs := playedErrors(chans, probes, []float64{0}, nil)
	if got := errs[0][0]; math.Abs(got-1e-4) > 1e-15 {
		t.Fatalf("rotation error %g, want 2·sin(θ/2) = 1e-4", got)
	}
	if f := b.unproved(chans, errs, probes, 1.04e-4); len(f) != 0 {
		t.Errorf("1.04e-4: unproved %v", f)
	}
	f := b.unproved(chans, errs, probes, 1.03e-4)
	if len(f) != 1 || len(f[0].nodes) != 1 || f[0].nodes[0] != 1 {
		t.Errorf("1.03e-4: unproved %v, want the child only", f)
	}
	// The exact error there is the bound's first-order value.
	if e := exact(h, chans, [][]*channel{{c}, nil}, f, probes, []float64{0}, 0.03); math.Abs(e[1]-1.03e-4) > 1e-9 {
		t.Errorf("exact error %g, want 1.03e-4", e[1])
	}
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
	b := newBound(h, chans, 0.03)
	errs := playedErrors(chans, probes, []float64{0}, nil)
	if f := b.unproved(chans, errs, probes, 1.0001e-4); len(f) != 0 {
		t.Errorf("1.0001e-4: unproved %v", f)
	}
	if f := b.unproved(chans, errs, probes, 0.9999e-4); len(f) != 1 {
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
		parents := make([]int, n)
		rests := make([]fidelity.TRS, n)
		for i := range n {
			parents[i] = -1
			if i > 0 {
				parents[i] = i - 1 - r.Intn(min(i, 3)) // mostly chains, some branches
			}
			rests[i] = fidelity.TRS{T: [3]float64{r.NormFloat64() * 0.3, r.NormFloat64() * 0.3, r.NormFloat64() * 0.3},
				R: randQuat(1), S: [3]float64{0.5 + r.Float64(), 0.5 + r.Float64(), 0.5 + r.Float64()}}
		}
		h := restHierarchy(parents, rests)
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
		byNode := make([][]*channel, n)
		for _, c := range chans {
			byNode[c.node] = append(byNode[c.node], c)
		}
		b := newBound(h, chans, 0.03)
		errs := playedErrors(chans, pr, t32, nil)
		// Every node at every probe, measured exactly.
		all := make([]failure, probes)
		for k := range all {
			all[k].probe = k
			for i := range n {
				all[k].nodes = append(all[k].nodes, i)
			}
		}
		for k := range probes {
			e := exact(h, chans, byNode, all[k:k+1], pr, t32, 0.03)
			for i := range n {
				// A tolerance just below the exact error must not be proved.
				errsK := make([][]float64, len(errs))
				for ci := range errs {
					if errs[ci] != nil {
						errsK[ci] = errs[ci][k : k+1]
					}
				}
				f := b.unproved(chans, errsK, pr[k:k+1], e[i]*0.999)
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
		q := func() []float64 {
			v := []float64{r.NormFloat64(), r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
			n := math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2] + v[3]*v[3])
			for j := range v {
				v[j] /= n
			}
			return v
		}
		a, b, w := q(), q(), q()
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
