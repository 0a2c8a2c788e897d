package virtools

import (
	"math"
	"testing"

	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// channelOf finds an animation's channel by node and path.
func channelOf(t *testing.T, f *model.File, anim, node, path string) sample.Evaluator {
	t.Helper()
	for _, a := range f.Animations {
		if a.Name != anim {
			continue
		}
		for _, c := range a.Channels {
			if c.Node == node && c.Path == path {
				ev, err := sample.Compile(c.Curve)
				if err != nil {
					t.Fatal(err)
				}
				return ev
			}
		}
	}
	t.Fatalf("no channel %s of %q in %q", path, node, anim)
	return nil
}

// sameRotation compares quaternions up to sign and length.
func sameRotation(a, b []float64, tol float64) bool {
	na := math.Sqrt(a[0]*a[0] + a[1]*a[1] + a[2]*a[2] + a[3]*a[3])
	nb := math.Sqrt(b[0]*b[0] + b[1]*b[1] + b[2]*b[2] + b[3]*b[3])
	d := (a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3]) / (na * nb)
	return math.Abs(math.Abs(d)-1) < tol
}

// TestRecordAnimFrame1000_25 runs the worked example of
// virtools-controllers.md §2 through the importer and the evaluator:
// Record Anim (2.1 file) at frame 1000.25 is at (−134.45464, −4.20756,
// −44.28076), rotation 0.75·q₁₀₀₀ + 0.25·q₁₀₀₁ = (0.2243701, 0.9340075,
// 0.2205881, −0.1653100) in the stored convention, so its conjugate as a
// Hamilton rotation.
func TestRecordAnimFrame1000_25(t *testing.T) {
	f, _ := decodeSampleFile(t, menuLevel21)
	var v [4]float64
	channelOf(t, f, "Record Anim", "I_Ball_Stone", model.PathTranslation).Eval(1000.25, v[:])
	if !near64(v[:3], []float64{-134.45464, -4.20756, -44.28076}, 1e-4) {
		t.Errorf("position %v", v[:3])
	}
	channelOf(t, f, "Record Anim", "I_Ball_Stone", model.PathRotation).Eval(1000.25, v[:])
	if !sameRotation(v[:], []float64{-0.2243701, -0.9340075, -0.2205881, -0.1653100}, 1e-9) {
		t.Errorf("rotation %v", v)
	}
}

// TestKamera02GLTF bakes Kamera02 in glTF axes: key 0 is translation
// (95, 40, 0) and rotation (−0.1399684, 0.69311529, 0.1399684,
// 0.69311529), axes.md §2.3 example 1 (Z mirrored, the Hamilton
// conversion done once).
func TestKamera02GLTF(t *testing.T) {
	f, _ := decodeSampleFile(t, menuLevel21)
	b, err := sample.Bake(f, sample.Options{FPS: 30, Axes: "gltf"})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range b.Animations {
		if a.Name != "Kamera02" {
			continue
		}
		for _, c := range a.Channels {
			switch c.Path {
			case model.PathTranslation:
				if !near64(c.Values[:3], []float64{95, 40, 0}, 1e-5) {
					t.Errorf("translation %v", c.Values[:3])
				}
			case model.PathRotation:
				if !sameRotation(c.Values[:4], []float64{-0.13996840, 0.69311529, 0.13996840, 0.69311529}, 1e-9) {
					t.Errorf("rotation %v", c.Values[:4])
				}
			}
		}
		return
	}
	t.Fatal("no Kamera02")
}

// TestUFOArmFrame47 evaluates PE_UFO_Arm_A_03's TCB rotation in the keyed
// animation at frame 47 (virtools-controllers.md §4.5): the stored-
// convention value (−0.099098165, −0.994990180, 4.4e-8, −1.3e-9), i.e. the
// Hamilton rotation (0.099098165, 0.994990180, …) up to sign and length.
func TestUFOArmFrame47(t *testing.T) {
	f, _ := decodeSampleFile(t, peBalloon21)
	var v [4]float64
	for _, anim := range []string{"UFO_Animation", "PE_UFO_Arm_A_03"} {
		channelOf(t, f, anim, "PE_UFO_Arm_A_03", model.PathRotation).Eval(47, v[:])
		if !sameRotation(v[:], []float64{0.099098165, 0.994990180, -4.4e-8, -1.3e-9}, 1e-8) {
			t.Errorf("%s: rotation at 47 = %v", anim, v)
		}
	}
}
