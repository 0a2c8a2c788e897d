package fidelity

import (
	"math"
	"testing"

	"github.com/animbake/bake/model"
)

// Keys that are not unit (16-bit rotations): Slerp plays them as three.js
// does, the slerp formula on the stored keys, not normalised; Nlerp
// normalises, as Blender does.
func TestRotateKeepsTheLengthOfStoredKeysWithSlerp(t *testing.T) {
	// a = s·identity, b = s·(90° about z), s² = 1.00003. The slerp weights
	// at u = ½ for cos θ' = a·b = s²·cos45° are both 1/(2cos(θ'/2)), so
	// |r|² = (a+b)²/(4cos²(θ'/2)) = 2s²(1 + cos45°)/(2(1 + s²cos45°)), that is
	// 1 + (s² − 1)/(1 + s²·cos45°) = 1 + 3e-5/1.70712799 = 1 + 1.757337e-5,
	// and the direction is 45° about z: (0, 0, sin 22.5°, cos 22.5°).
	s := math.Sqrt(1.00003)
	c := math.Sqrt2 / 2
	a := []float64{0, 0, 0, s}
	b := []float64{0, 0, s * c, s * c}
	out := make([]float64, 4)
	Rotate(Slerp, a, b, 0.5, out)
	n2 := out[2]*out[2] + out[3]*out[3]
	near(t, "slerp |r|² − 1", n2-1, 3e-5/(1+1.00003*c), 1e-15)
	near(t, "slerp |r|² − 1 (by hand)", n2-1, 1.757337e-5, 1e-11)
	n := math.Sqrt(n2)
	near(t, "slerp direction z", out[2]/n, math.Sin(math.Pi/8), 1e-15)
	near(t, "slerp direction w", out[3]/n, math.Cos(math.Pi/8), 1e-15)
	Rotate(Nlerp, a, b, 0.5, out)
	near(t, "nlerp |r|²", out[2]*out[2]+out[3]*out[3], 1, 1e-15)
	near(t, "nlerp direction z", out[2], math.Sin(math.Pi/8), 1e-15)
	// At a key (u = 0) slerp gives the key as stored.
	Rotate(Slerp, a, b, 0, out)
	near(t, "slerp at the key", out[3], s, 0)
}

func TestKeyChannelHeldRotations(t *testing.T) {
	// (0, 0, 0.75, 0.75) is 90° about z at length² 1.125 (float32 exact).
	c := math.Sqrt2 / 2
	for _, step := range []bool{false, true} {
		k := NewKeyChannel(model.PathRotation, step, 4, []float64{0, 1}, []float64{0, 0, 0.75, 0.75, 0, 0, 0.75, 0.75})
		out := make([]float64, 4)
		for _, tm := range []float64{-1, 0.5, 2} {
			k.At(tm, Slerp, out)
			near(t, "stored z", out[2], 0.75, 0)
			near(t, "stored w", out[3], 0.75, 0)
			k.At(tm, Nlerp, out)
			near(t, "normalised z", out[2], c, 1e-15)
			near(t, "normalised w", out[3], c, 1e-15)
		}
	}
}
