package sample

import (
	"math"
	"math/rand"
	"testing"

	"github.com/animbake/bake/model"
)

// vxBendEval compiles one part of an object animation made of the given
// controllers.
func vxBendEval(t *testing.T, part string, pos *model.VirtoolsVectorController, rot *model.VirtoolsQuatController) Evaluator {
	t.Helper()
	ev, err := Compile(&model.VirtoolsTransform{Part: part,
		Anim: &model.VirtoolsObjectAnimation{Name: "a", Length: 100, Position: pos, Rotation: rot}})
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

func vxWantBend(t *testing.T, what string, ev Evaluator, f0, f1, w1, w2 float64) {
	t.Helper()
	d1, d2, ok := Bend(ev, f0, f1)
	if !ok || math.Abs(d1-w1) > 1e-12*(1+w1) || math.Abs(d2-w2) > 1e-12*(1+w2) {
		t.Errorf("%s: Bend(%g, %g) = %g, %g, %v; want %g, %g", what, f0, f1, d1, d2, ok, w1, w2)
	}
}

// virtools-controllers.md §5 (TCB position) and §3 (ease), worked by
// hand. Two keys (0, 0, 0) at frame 0 and (3, 4, 0) at frame 4 with
// tension, continuity and bias 0: each end key reuses its only chord, the
// weights are ½ and the interval factors 1, so both tangents are the
// chord c and the Hermite curve is P(s) = c·s, a straight line. Key 0's
// EaseFrom ½ makes s = (4/3)u² over u < ½ (k = 1/(2 − ½) = 2/3, s = k/from·u²)
// and (4/3)(u − ¼) after: s' is at most 4/3 and s” = 8/3 on the first
// half. With |c| = 5 and 4 frames: d1 = 5·(4/3)/4 = 5/3, d2 = 5·(8/3)/16
// = 5/6 over the whole segment, and d2 = 0 past u = ½ (frames 2.5–4).
// LINEAR keys move at 5/4 a frame.
func TestBendVirtoolsTCBPosition(t *testing.T) {
	keys := []model.VirtoolsVectorKey{{Time: 0, EaseFrom: 0.5}, {Time: 4, Value: [3]float64{3, 4, 0}}}
	ev := vxBendEval(t, model.VirtoolsPartTranslation, &model.VirtoolsVectorController{Type: model.VirtoolsTCBPosition, Interp: model.VirtoolsTCB, Keys: keys}, nil)
	vxWantBend(t, "TCB", ev, 0, 4, 5.0/3, 5.0/6)
	vxWantBend(t, "TCB after the ease", ev, 2.5, 4, 5.0/3, 0)
	lin := vxBendEval(t, model.VirtoolsPartTranslation, &model.VirtoolsVectorController{Interp: model.VirtoolsLinear, Keys: keys}, nil)
	vxWantBend(t, "linear", lin, 1, 2, 1.25, 0)
	vxWantBend(t, "held after the last key", lin, 4, 9, 0, 0)
	if _, _, ok := Bend(lin, 3, 5); ok {
		t.Error("an interval across the key at frame 4 was bounded")
	}
	// No position controller: the rest position, which does not move.
	vxWantBend(t, "absent", vxBendEval(t, model.VirtoolsPartTranslation, nil, nil), 1, 2, 0, 0)
}

// virtools-controllers.md §6 (Bezier position), TANGENTS mode: x goes from
// 0 to 1 over 2 frames with control points 1 (key 0's Out = 1) and 1 (key
// 1's In = 0): B(u) = 3u(1−u)² + 3u²(1−u) + u³ = 3u − 3u² + u³,
// B' = 3(1 − u)² (largest, 3, at u = 0), B” = 6u − 6 (largest, 6, at
// u = 0): per frame 3/2 and 6/4.
func TestBendVirtoolsBezierPosition(t *testing.T) {
	tg := model.VirtoolsBezierTangents
	keys := []model.VirtoolsVectorKey{{Time: 0, OutMode: tg, InMode: tg, Out: [3]float64{1, 0, 0}},
		{Time: 2, Value: [3]float64{1, 0, 0}, OutMode: tg, InMode: tg}}
	ev := vxBendEval(t, model.VirtoolsPartTranslation, &model.VirtoolsVectorController{Interp: model.VirtoolsBezier, Keys: keys}, nil)
	vxWantBend(t, "Bezier", ev, 0, 2, 1.5, 1.5)
	// Over frames 1–2 (u in [½, 1]): B' = 3(1 − u)² is 3/4 at u = ½, B” is
	// 3 there: per frame 3/8 and 3/4.
	vxWantBend(t, "Bezier second half", ev, 1, 2, 3.0/8, 3.0/4)
}

// virtools-curves-and-object-animations.txt §5.3 (Slerp): unit keys a
// quarter turn about z apart (θ = π/4 as quaternions, 1 − cos θ > 0.01:
// the true slerp) over 8 frames turn at |q'| = θ/8 and bend at
// |q”| = (θ/8)².
func TestBendVirtoolsSlerp(t *testing.T) {
	s := math.Sqrt2 / 2
	keys := []model.VirtoolsQuatKey{{Time: 0, Value: [4]float64{0, 0, 0, 1}}, {Time: 8, Value: [4]float64{0, 0, s, s}}}
	ev := vxBendEval(t, model.VirtoolsPartRotation, nil, &model.VirtoolsQuatController{Interp: model.VirtoolsLinear, Keys: keys})
	w := math.Pi / 4 / 8
	d1, d2, ok := Bend(ev, 1, 3)
	if !ok || math.Abs(d1-w) > 1e-15 || math.Abs(d2-w*w) > 1e-15 {
		t.Errorf("Bend(1, 3) = %g, %g, %v; want %g, %g", d1, d2, ok, w, w*w)
	}
}

// The bound is never below the finite differences of the evaluator on
// random Virtools-like controllers: positions (LINEAR, TCB with random
// tension, continuity, bias and ease, Bezier with random modes and
// tangents) and LINEAR rotations of keys up to 120° apart and up to 2e-3
// off unit length (Record Anim's are 0.99935).
func TestBendVirtoolsProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(20))
	modes := []uint16{0, model.VirtoolsBezierLinear, model.VirtoolsBezierFast, model.VirtoolsBezierSlow, model.VirtoolsBezierTangents}
	for c := range 300 {
		n := 2 + rng.Intn(5)
		var times []float64
		f := 0.0
		for range n {
			times = append(times, f)
			f += 0.5 + rng.Float64()*20
		}
		var ev Evaluator
		if c%4 == 3 {
			ctl := &model.VirtoolsQuatController{Interp: model.VirtoolsLinear}
			q := randUnitQuat(rng)
			for i := range n {
				switch {
				case i > 0 && rng.Intn(4) == 0: // VxMath's linear blend: 1 − cos θ ≤ 0.01
					q = turnQuat(q, randUnitQuat(rng), rng.Float64()*0.14)
				case i > 0:
					q = turnQuat(q, randUnitQuat(rng), rng.Float64()*math.Pi/3)
				}
				l := 1 + (rng.Float64()*2-1)*2e-3
				ctl.Keys = append(ctl.Keys, model.VirtoolsQuatKey{Time: times[i], Value: [4]float64{q[0] * l, q[1] * l, q[2] * l, q[3] * l}})
			}
			ev = vxBendEval(t, model.VirtoolsPartRotation, nil, ctl)
		} else {
			ctl := &model.VirtoolsVectorController{Interp: []model.VirtoolsInterp{model.VirtoolsLinear, model.VirtoolsTCB, model.VirtoolsBezier}[c%3]}
			for i := range n {
				k := model.VirtoolsVectorKey{Time: times[i], Tension: rng.Float64()*2 - 1, Continuity: rng.Float64()*2 - 1,
					Bias: rng.Float64()*2 - 1, InMode: modes[rng.Intn(len(modes))], OutMode: modes[rng.Intn(len(modes))]}
				if rng.Intn(2) == 0 {
					k.EaseTo, k.EaseFrom = rng.Float64(), rng.Float64()
				}
				for j := range 3 {
					k.Value[j], k.In[j], k.Out[j] = rng.Float64()*10-5, rng.Float64()*4-2, rng.Float64()*4-2
				}
				ctl.Keys = append(ctl.Keys, k)
			}
			ev = vxBendEval(t, model.VirtoolsPartTranslation, ctl, nil)
		}
		for i := 0; i+1 < n; i++ {
			a, b := times[i], times[i+1]
			h := (b - a) / 200
			FDCheck(t, "virtools", ev, a, b, h, 1e-13, 60, rng, nil)
			FDCheck(t, "virtools part", ev, a+(b-a)*rng.Float64()/2, b-(b-a)*rng.Float64()/3, h, 1e-13, 60, rng, nil)
		}
	}
}

// virtools-controllers.md §4.1 worked by hand: two TCB rotation keys,
// identity and a turn of 1 rad about z (quaternion angle ½), tension,
// continuity and bias 0, no ease. Each end key reuses its only log
// difference L = (0, 0, ¼)… as both TS and TD (weights ½ + ½, factors
// 1), so in = q·exp((L − TS)/2) = q and out = q: Squad is
// Slerp(h, slerp(s), slerp(s)) = slerp(s), turning at ½/10 a frame over
// 10 frames, |q'| = 0.05 and |q”| = 0.0025 exactly. The jets bound it
// from above, within 3 % over a hundredth of a frame. (Over the whole
// segment the outer Slerp's keys, equal here, cannot be shown to stay on
// the linear blend's side of VxMath's switch: not derived there.)
func TestBendVirtoolsSquadCoaxial(t *testing.T) {
	keys := []model.VirtoolsQuatKey{{Time: 0, Value: [4]float64{0, 0, 0, 1}}, {Time: 10, Value: [4]float64{0, 0, math.Sin(0.5), math.Cos(0.5)}}}
	ev := vxBendEval(t, model.VirtoolsPartRotation, nil, &model.VirtoolsQuatController{Type: model.VirtoolsTCBRotation, Interp: model.VirtoolsTCB, Keys: keys})
	for _, iv := range [][2]float64{{4, 4.01}, {0, 0.25}, {2.5, 2.75}} {
		d1, d2, ok := Bend(ev, iv[0], iv[1])
		if !ok || d1 < 0.05*(1-1e-12) || d2 < 0.0025*(1-1e-12) {
			t.Errorf("Bend(%g, %g) = %g, %g, %v; want at least 0.05, 0.0025", iv[0], iv[1], d1, d2, ok)
		}
		if iv[1]-iv[0] <= 0.01 && (d1 > 0.05*1.03 || d2 > 0.0025*1.03) {
			t.Errorf("Bend(%g, %g) = %g, %g; want within 3 %% of 0.05, 0.0025", iv[0], iv[1], d1, d2)
		}
	}
}

// The Squad bound (jets) is never below the finite differences of the
// evaluator on random TCB rotations: keys up to 90° apart (as rotations)
// and up to 1e-3 off unit length, random tension, continuity, bias and
// ease; quarter-frame intervals, as the consumer asks. Most are derived.
func TestBendVirtoolsSquadProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	var tried, derived int
	for range 100 {
		n := 2 + rng.Intn(4)
		ctl := &model.VirtoolsQuatController{Type: model.VirtoolsTCBRotation, Interp: model.VirtoolsTCB}
		q, f := randUnitQuat(rng), 0.0
		for i := range n {
			if i > 0 {
				q = turnQuat(q, randUnitQuat(rng), rng.Float64()*math.Pi/4)
			}
			l := 1 + (rng.Float64()*2-1)*1e-3
			k := model.VirtoolsQuatKey{Time: f, Value: [4]float64{q[0] * l, q[1] * l, q[2] * l, q[3] * l},
				Tension: rng.Float64()*2 - 1, Continuity: rng.Float64()*2 - 1, Bias: rng.Float64()*2 - 1}
			if rng.Intn(2) == 0 {
				k.EaseTo, k.EaseFrom = rng.Float64(), rng.Float64()
			}
			ctl.Keys = append(ctl.Keys, k)
			f += float64(2 + rng.Intn(30))
		}
		ev := vxBendEval(t, model.VirtoolsPartRotation, nil, ctl)
		for range 20 {
			f0 := math.Floor(rng.Float64()*ctl.Keys[n-1].Time*4) / 4
			tried++
			if _, _, ok := Bend(ev, f0, f0+0.25); ok {
				derived++
				FDCheck(t, "squad", ev, f0, f0+0.25, 1e-3, 1e-13, 20, rng, nil)
			}
		}
	}
	if derived < tried*9/10 {
		t.Errorf("%d of %d quarter-frame intervals derived, want 90 %%", derived, tried)
	}
	t.Logf("%d of %d quarter-frame intervals derived", derived, tried)
}
