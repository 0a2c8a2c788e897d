package sample

import (
	"math"
	"math/rand"
	"testing"

	"github.com/animbake/bake/model"
)

// Oni positions lerp (MUrPoint3D_Lerp): keys (0, 0, 0) at frame 0 and
// (3, 4, 0) at frame 4 move at |(3, 4, 0)|/4 = 1.25 a frame, without
// bending.
func TestBendOniPosition(t *testing.T) {
	ev, err := Compile(&model.OniKeys{Width: 3, Frames: []float64{0, 4}, Values: []float64{0, 0, 0, 3, 4, 0}})
	if err != nil {
		t.Fatal(err)
	}
	d1, d2, ok := Bend(ev, 1, 2)
	if !ok || !nearRel(d1, 1.25) || d2 != 0 {
		t.Errorf("Bend(1, 2) = %g, %g, %v; want 1.25, 0", d1, d2, ok)
	}
	if d1, d2, ok := Bend(ev, 4, 9); !ok || d1 != 0 || d2 != 0 {
		t.Errorf("after the last key: %g, %g, %v; want held", d1, d2, ok)
	}
}

// Oni rotations are MUrQuat_Lerp's normalised lerp. Keys identity and a
// quarter turn about z, (0, 0, √½, √½), 45° apart as quaternions, over
// frames 0..2: v = b − a has |v| = 2·sin(22.5°), |p| is least at u = ½,
// cos(22.5°), so |n'| ≤ |v|/m = 2·tan(22.5°) per unit of u (the nlerp's
// speed at its middle); p·v = (√½ − 1) + u·(2 − √2) is ±(1 − √½) at the
// ends, so |n”| ≤ 4·tan²(22.5°) + 2·(1 − √½)·2·tan(22.5°)/cos²(22.5°).
// Per frame: divided by 2 and 4.
func TestBendOniRotation(t *testing.T) {
	s := float64(float32(math.Sqrt2 / 2))
	ev, err := Compile(&model.OniKeys{Width: 4, Frames: []float64{0, 2}, Values: []float64{0, 0, 0, 1, 0, 0, s, s}})
	if err != nil {
		t.Fatal(err)
	}
	d1, d2, ok := Bend(ev, 0, 2)
	tan, cos := math.Tan(math.Pi/8), math.Cos(math.Pi/8)
	w1 := 2 * tan / 2
	w2 := (4*tan*tan + 2*(1-math.Sqrt2/2)*2*tan/(cos*cos)) / 4
	if !ok || math.Abs(d1-w1) > 1e-6 || math.Abs(d2-w2) > 1e-6 {
		t.Errorf("Bend(0, 2) = %g, %g, %v; want %g, %g", d1, d2, ok, w1, w2)
	}
	if _, _, ok := Bend(ev, -1, 1); ok {
		t.Error("an interval across the key at frame 0 was bounded")
	}
}

// The bound is never below the finite differences of the evaluator on
// random Oni-like curves: float32 keys a few frames apart, positions in
// metres, rotations up to 120° apart and up to 1e-3 off unit length.
func TestBendOniProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(20))
	for c := range 200 {
		w := 3 + c%2
		n := 2 + rng.Intn(6)
		k := &model.OniKeys{Width: w}
		f := 0.0
		var q [4]float64
		for i := range n {
			f += float64(1 + rng.Intn(12))
			k.Frames = append(k.Frames, f)
			if w == 3 {
				for range 3 {
					k.Values = append(k.Values, float64(float32(rng.Float64()*10-5)))
				}
				continue
			}
			if i == 0 {
				q = randUnitQuat(rng)
			} else {
				q = turnQuat(q, randUnitQuat(rng), rng.Float64()*math.Pi/3)
			}
			l := 1 + (rng.Float64()*2-1)*1e-3
			for j := range 4 {
				k.Values = append(k.Values, float64(float32(q[j]*l)))
			}
		}
		ev, err := Compile(k)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i+1 < n; i++ {
			a, b := k.Frames[i], k.Frames[i+1]
			x0 := a + rng.Float64()*(b-a)/2
			FDCheck(t, "oni", ev, x0, b, 0.01, 1e-6, 50, rng, nil)
			FDCheck(t, "oni whole", ev, a, b, 0.01, 1e-6, 50, rng, nil)
		}
	}
}

// randUnitQuat is a random unit quaternion (uniform on the sphere).
func randUnitQuat(rng *rand.Rand) [4]float64 {
	var q [4]float64
	var l float64
	for l < 1e-3 {
		l = 0
		for j := range 4 {
			q[j] = rng.NormFloat64()
			l += q[j] * q[j]
		}
	}
	l = math.Sqrt(l)
	for j := range 4 {
		q[j] /= l
	}
	return q
}

// turnQuat is a unit quaternion at angle phi from a (as quaternions),
// towards r.
func turnQuat(a, r [4]float64, phi float64) [4]float64 {
	d := a[0]*r[0] + a[1]*r[1] + a[2]*r[2] + a[3]*r[3]
	var p [4]float64
	var l float64
	for j := range 4 {
		p[j] = r[j] - d*a[j]
		l += p[j] * p[j]
	}
	l = math.Sqrt(l)
	var q [4]float64
	for j := range 4 {
		q[j] = math.Cos(phi)*a[j] + math.Sin(phi)*p[j]/l
	}
	return q
}
