package keys

import (
	"math"
	"math/cmplx"
	"math/rand"
	"slices"
	"testing"

	"github.com/animbake/bake/fidelity"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

func near(a, b, eps float64) bool { return math.Abs(a-b) <= eps }

// The largest singular value of matrices whose singular values are known by
// hand: a diagonal one (its largest absolute entry), a rank-one u·vᵀ
// (|u|·|v| = 3·2), and R − I for a 60° turn about z (its singular values
// are 2·sin(30°) = 1 twice and 0).
func TestSpectralNormByHand(t *testing.T) {
	diag := [9]float64{3, 0, 0, 0, -2, 0, 0, 0, 1}
	if got := spectralNorm(&diag); !near(got, 3, 1e-12) {
		t.Errorf("diag(3, −2, 1): %g, want 3", got)
	}
	u, v := [3]float64{1, 2, 2}, [3]float64{0, 2, 0}
	var uv [9]float64
	for i := range 3 {
		for j := range 3 {
			uv[i*3+j] = u[i] * v[j]
		}
	}
	if got := spectralNorm(&uv); !near(got, 6, 1e-12) {
		t.Errorf("rank one: %g, want 6", got)
	}
	c, s := 0.5, math.Sqrt(3)/2
	turn := [9]float64{c - 1, -s, 0, s, c - 1, 0, 0, 0, 0}
	// Two equal singular values are where the closed form is least exact
	// (the arccosine at its end): a few parts in a billion.
	if got := spectralNorm(&turn); !near(got, 1, 1e-8) {
		t.Errorf("R(60°) − I: %g, want 1", got)
	}
	var zero [9]float64
	if got := spectralNorm(&zero); got != 0 {
		t.Errorf("zero: %g", got)
	}
}

// i·j = k and j·i = −k; a quarter turn about z twice is a half turn.
func TestQuatMulByHand(t *testing.T) {
	if got := sample.QuatMul([4]float64{1, 0, 0, 0}, [4]float64{0, 1, 0, 0}); got != [4]float64{0, 0, 1, 0} {
		t.Errorf("i·j = %v, want k", got)
	}
	if got := sample.QuatMul([4]float64{0, 1, 0, 0}, [4]float64{1, 0, 0, 0}); got != [4]float64{0, 0, -1, 0} {
		t.Errorf("j·i = %v, want −k", got)
	}
	h := math.Sqrt2 / 2
	got := sample.QuatMul([4]float64{0, 0, h, h}, [4]float64{0, 0, h, h})
	if !near(got[2], 1, 1e-15) || !near(got[3], 0, 1e-15) || got[0] != 0 || got[1] != 0 {
		t.Errorf("quarter turn squared = %v, want (0, 0, 1, 0)", got)
	}
}

// A stored quaternion of length s about z by θ builds s²·R + (1 − s²)·I:
// with s² = 0.9 and θ = 60°, 1 − 0.9·(1 − cos 60°) = 0.55 on the first two
// diagonal entries, ∓0.9·sin 60° off them, 1 on the axis.
func TestStoredMatrixOfAShortQuaternion(t *testing.T) {
	s := math.Sqrt(0.9)
	q := []float64{0, 0, s * 0.5, s * math.Sqrt(3) / 2}
	m := sample.TRS([3]float64{}, [4]float64(q), [3]float64{1, 1, 1})                              // column-major
	want := [9]float64{0.55, -0.9 * math.Sqrt(3) / 2, 0, 0.9 * math.Sqrt(3) / 2, 0.55, 0, 0, 0, 1} // rows
	for row := range 3 {
		for col := range 3 {
			if !near(m[col*4+row], want[row*3+col], 1e-15) {
				t.Fatalf("stored matrix %v, want rows %v", m, want)
			}
		}
	}
}

// About z a stored quaternion (0, 0, z, w) acts on the xy-plane, in a
// client that builds its matrix as stored, as the complex number
// (w + iz)² + 1 − |q|² (the axis keeps length 1), and in one that
// normalises as a turn by 2·arg(w + iz). productError must agree with that
// independent reckoning for pairs of 16-bit values about z.
func TestProductErrorInThePlane(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for range 500 {
		a, b := r.Float64()*math.Pi, r.Float64()*math.Pi
		stored := func(h float64) []float64 { // a rounding of the turn by 2h, one step off at random
			z := math.Round(math.Sin(h)*32767) + float64(r.Intn(3)-1)
			w := math.Round(math.Cos(h)*32767) + float64(r.Intn(3)-1)
			return []float64{0, 0, z / 32767, w / 32767}
		}
		p, c := stored(a/2), stored(b/2)
		target := a + b + (r.Float64()-0.5)*1e-4
		rq := []float64{0, 0, math.Sin(target / 2), math.Cos(target / 2)}
		act := func(q []float64) complex128 {
			zw := complex(q[3], q[2])
			return zw*zw + complex(1-(q[2]*q[2]+q[3]*q[3]), 0)
		}
		three := cmplx.Abs(act(p)*act(c) - cmplx.Exp(complex(0, target)))
		turn := 2*cmplx.Phase(complex(p[3], p[2])) + 2*cmplx.Phase(complex(c[3], c[2])) - target
		normalised := 2 * math.Abs(math.Sin(turn/2))
		want := max(three, normalised)
		if got := productError(p, c, rq); !near(got, want, 1e-12) {
			t.Fatalf("p %v c %v target %g: productError %g, in the plane %g (three.js %g, normalised %g)",
				scaled(p), scaled(c), target, got, want, three, normalised)
		}
	}
}

// Rounded together, a parent and a child at its origin turn the child's
// subtree closer to the engine's product than rounded apart, at the reach
// where that matters (the Bass's 0.63 m under Skl_Root, whose own rounding
// moves only 4.5 cm of its subtree): over random rotations the largest
// product error is well below rounding apart's, and the parent's own
// error stays within what rounding it alone would allow at its reach.
func TestPairRoundsBetterThanApart(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	const child, rest = 0.63, 0.045
	var worstPair, worstApart, sumPair, sumApart float64
	const n = 2000
	for range n {
		p, c := randUnit(r), randUnit(r)
		rq := sample.QuatMul([4]float64(p), [4]float64(c))
		normalize(rq[:])
		var ap, ac [4]float64
		shortQuat(p, ap[:], 2)
		shortQuat(c, ac[:], 2)
		for j := range 4 {
			ap[j], ac[j] = float64(float32(ap[j])), float64(float32(ac[j]))
		}
		apart := productError(ap[:], ac[:], rq[:])
		var qp, qc [4]float64
		prod, own := bestPair(p, c, qp[:], qc[:], rest, child)
		if again := productError(qp[:], qc[:], rq[:]); again != prod {
			t.Fatalf("bestPair reports %g for the pair it wrote, which errs %g", prod, again)
		}
		if e, _ := keyError(p, qp[:]); e != own {
			t.Fatalf("bestPair reports the parent's error %g, keyError %g", own, e)
		}
		for _, q := range [][4]float64{qp, qc} {
			for _, x := range q {
				if k := float64(float32(math.Round(x*32767) / 32767)); k != x {
					t.Fatalf("%v is not the float32 of a multiple of 1/32767", x)
				}
			}
		}
		worstPair, worstApart = max(worstPair, prod), max(worstApart, apart)
		sumPair, sumApart = sumPair+prod, sumApart+apart
	}
	t.Logf("product error at %g m: together max %.3g mean %.3g, apart max %.3g mean %.3g",
		child, worstPair*child, sumPair/n*child, worstApart*child, sumApart/n*child)
	if !(worstPair < 0.75*worstApart) || !(sumPair < 0.7*sumApart) {
		t.Errorf("rounded together: max %g, mean %g; apart: max %g, mean %g", worstPair, sumPair/n, worstApart, sumApart/n)
	}
}

// pairFile is a root turning about z and a child at its origin turning
// about y, whose own child sits 0.6 m away (with the 3 cm shell, 0.63 m:
// the Bass's Skl_Root, Spine_1 and tail), each keyed at every one of 30
// frames with a wobble no fewer keys follow; parentTurns false holds the
// root still at one turn.
func pairFile(parentTurns bool) *model.File {
	var frames, root, spine []float64
	for k := range 31 {
		x := float64(k)
		a := 0.3*math.Sin(1.3*x) + 0.02*x
		if !parentTurns {
			a = 0.3
		}
		b := 0.25*math.Sin(0.9*x+1) - 0.01*x + 0.01*float64(k%2) // a zigzag: a key at every frame
		frames = append(frames, x)
		root = append(root, 0, 0, math.Sin(a/2), math.Cos(a/2))
		spine = append(spine, 0, math.Sin(b/2), 0, math.Cos(b/2))
	}
	var rootCurve model.Curve = &model.Keyed{Interp: model.InterpSlerp, Width: 4, Frames: frames, Values: root}
	if !parentTurns {
		rootCurve = &model.Constant{Value: root[:4]}
	}
	return &model.File{Axes: model.GLTFAxes,
		Nodes: []model.Node{
			{Name: "root", Parent: -1, Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}},
			{Name: "spine", Parent: 0, Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}},
			{Name: "tail", Parent: 1, Translation: [3]float64{0.6, 0, 0}, Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}}},
		Animations: []model.Animation{{Name: "a", FPS: 30, Frames: 31, End: 30, Loop: model.LoopOnce,
			Channels: []model.Channel{
				{Node: "root", Path: model.PathRotation, Curve: rootCurve},
				{Node: "spine", Path: model.PathRotation, Curve: &model.Keyed{Interp: model.InterpSlerp, Width: 4, Frames: frames, Values: spine}},
			}}}}
}

// TestPairGoesToSixteenBits bakes pairFile at a tolerance (3e-5 m) that
// neither rotation's rounding alone fits at the tail (checked here from
// the engine's values), and expects both written in 16 bits with the
// error measured at the frames within the tolerance; with the root held
// still, the root keeps one rounding and the spine absorbs it.
func TestPairGoesToSixteenBits(t *testing.T) {
	const tol = 3e-5
	for _, turns := range []bool{true, false} {
		f := pairFile(turns)
		b, err := sample.Bake(f, sample.Options{})
		if err != nil {
			t.Fatal(err)
		}
		// Alone, the spine's rounding at some frame moves the tail
		// (0.63 m: 0.6 m and the 3 cm shell) by more than half the
		// tolerance, which quantize asks of a rounding alone.
		var alone float64
		for _, ch := range b.Animations[0].Channels {
			if ch.Node != "spine" || ch.Path != model.PathRotation {
				continue
			}
			for k := 0; k+4 <= len(ch.Values); k += 4 {
				var q [4]float64
				shortQuat(ch.Values[k:k+4], q[:], quantSweep(ch.Values))
				for j := range q {
					q[j] = float64(float32(q[j]))
				}
				e, _ := keyError(ch.Values[k:k+4], q[:])
				alone = max(alone, e*0.63)
			}
		}
		if !(alone > tol/2) {
			t.Fatalf("the spine's rounding alone is %g m at the tail: the test needs more than %g", alone, tol/2)
		}
		if err := Reduce(f, b, Options{Tolerance: tol, ShortRotations: true}); err != nil {
			t.Fatal(err)
		}
		for _, ch := range b.Animations[0].Channels {
			if ch.Path == model.PathRotation && !ch.Short {
				t.Errorf("root turns %v: %s's rotation is not 16-bit", turns, ch.Node)
			}
		}
		res, err := fidelity.MeasureBaked(f, b, fidelity.MeasureOptions{AtFrames: true})
		if err != nil {
			t.Fatal(err)
		}
		if res[0].Max > tol {
			t.Errorf("root turns %v: measured %g m at the frames, above %g", turns, res[0].Max, tol)
		}
		t.Logf("root turns %v: spine alone %.3g m; together, measured %.3g m at the frames", turns, alone, res[0].Max)
	}
}

// unpair puts a pair back: the child in floats (the engine's values in
// float32), the parent too, except a parent whose own 16-bit rounding the
// pair replaced, which gets that rounding back and stays 16-bit.
func TestUnpairRestoresTheParentsOwnRounding(t *testing.T) {
	vals := []float64{0, 0, 0.6, 0.8, 0, 0, 0.6, 0.8}
	own := []float64{0, 0, 19660.0 / 32767, 26214.0 / 32767, 0, 0, 19660.0 / 32767, 26214.0 / 32767}
	pairVals := []float64{0, 0, 19661.0 / 32767, 26213.0 / 32767, 0, 0, 19661.0 / 32767, 26213.0 / 32767}
	newPair := func(withOwn bool) (p, c *channel) {
		p = &channel{kind: kindRotation, width: 4, node: 0, constant: true, short: true, vals: vals, v32: slices.Clone(pairVals)}
		c = &channel{kind: kindRotation, width: 4, node: 1, short: true, vals: vals, v32: slices.Clone(pairVals), pairErr: []float64{0, 0}}
		if withOwn {
			p.own = slices.Clone(own)
		}
		p.partner, c.partner = c, p
		return p, c
	}
	for _, withOwn := range []bool{true, false} {
		p, c := newPair(withOwn)
		c.unpair()
		if c.short || c.partner != nil || p.partner != nil {
			t.Fatalf("own %v: the child is still 16-bit or paired", withOwn)
		}
		for j, v := range c.v32 {
			if v != float64(float32(vals[j])) {
				t.Fatalf("own %v: child value %v, want the engine's in float32", withOwn, c.v32)
			}
		}
		want := own
		if !withOwn {
			want = []float64{float64(float32(0)), 0, float64(float32(0.6)), float64(float32(0.8)), 0, 0, float64(float32(0.6)), float64(float32(0.8))}
		}
		if p.short != withOwn || !slices.Equal(p.v32, want) {
			t.Errorf("own %v: parent short %v values %v, want short %v values %v", withOwn, p.short, p.v32, withOwn, want)
		}
	}
}
