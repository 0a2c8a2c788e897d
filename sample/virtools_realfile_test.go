package sample_test

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/animbake/bake/format"
	_ "github.com/animbake/bake/import/virtools"
	"github.com/animbake/bake/internal/testfiles"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

func vxDecode(t *testing.T, rel string) *model.File {
	t.Helper()
	path := filepath.Join(testfiles.Samples(t, "virtools"), rel)
	in, closer, err := format.OpenFile(path)
	if err != nil {
		t.Skipf("%s: %v", rel, err)
	}
	defer closer.Close()
	_, files, err := format.Decode(in, &format.Options{Timing: "frames"}) // the object animations as stored, not graph-timed
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	if len(files) != 1 {
		t.Fatalf("%s: %d files", rel, len(files))
	}
	return files[0]
}

// vxObjectAnim finds the object animation named name behind any channel.
func vxObjectAnim(t *testing.T, f *model.File, name string) *model.VirtoolsObjectAnimation {
	t.Helper()
	for _, a := range f.Animations {
		for _, c := range a.Channels {
			if vt, ok := c.Curve.(*model.VirtoolsTransform); ok && vt.Anim.Name == name {
				return vt.Anim
			}
		}
	}
	t.Fatalf("no object animation %q", name)
	return nil
}

func vxClose(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	for i := range want {
		if !(math.Abs(got[i]-want[i]) <= tol) {
			t.Errorf("%s: got %v, want %v (±%g)", what, got, want, tol)
			return
		}
	}
}

// controllers §2 worked example on the real keys: Record Anim (MenuLevel
// 2.1 and 3.5) at frame 1000.25 is pos (−134.45464, −4.20756, −44.28076)
// and, by the linear fallback of the slerp, q = (0.2243701, 0.9340075,
// 0.2205881, −0.1653100) with |q| = 0.999349.
func TestVirtoolsRealRecordAnimFrame1000_Controllers2(t *testing.T) {
	for _, file := range []string{"Ballance.Three.js/menulevel.nmo", "BallanceModding/MenuLevel.nmo"} {
		a := vxObjectAnim(t, vxDecode(t, file), "Record Anim")
		p, err := sample.VirtoolsSetStep(a, 1000.25)
		if err != nil {
			t.Fatal(err)
		}
		vxClose(t, file+" pos", p.Position[:], []float64{-134.45464, -4.20756, -44.28076}, 5e-6)
		vxClose(t, file+" rot", p.Rotation[:], []float64{0.2243701, 0.9340075, 0.2205881, -0.1653100}, 5e-7)
		q := p.Rotation
		vxClose(t, file+" |q|", []float64{math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])}, []float64{0.999349}, 5e-7)
	}
}

// controllers §4.5: the eight UFO arms (PE_Balloon 2.1 and 3.5) at frames
// 47 and 72.5, TCB rotation in the Virtools convention, not normalised.
// Components the spec prints as tiny (≤ 2e-7) are compared at 1e-6.
func TestVirtoolsRealUFOArms_Controllers4_5(t *testing.T) {
	want := map[string][2][]float64{
		"PE_UFO_Arm_A_03": {{-0.099098165, -0.994990180, 4.4e-8, -1.3e-9}, {0.453687997, -0.890379661, 3.7e-8, 2.2e-8}},
		"PE_UFO_Arm_A_01": {{0, 0, 0.099098164, -0.994990180}, {0, 0, -0.453687997, -0.890379661}},
		"PE_UFO_Arm_A_02": {{-0.070072977, -0.703564313, 0.070072977, -0.703564314}, {0.320805860, -0.629593489, -0.320805860, -0.629593489}},
		"PE_UFO_Arm_A_04": {{-0.070072945, -0.703564314, -0.070072945, 0.703564315}, {0.320805890, -0.629593489, 0.320805890, 0.629593489}},
	}
	for _, arm := range []string{"01", "02", "03", "04"} {
		want["PE_UFO_Arm_B_"+arm] = [2][]float64{{6e-9, 1.6e-7, 0.890576498, -0.454595505}, {-1.7e-7, 1.7e-7, -0.120895872, -0.991573689}}
	}
	for _, file := range []string{"Ballance.Three.js/pe_balloon.nmo", "BallanceModding/PE_Balloon.nmo"} {
		f := vxDecode(t, file)
		for name, w := range want {
			a := vxObjectAnim(t, f, name)
			for i, frame := range []float64{47, 72.5} {
				p, err := sample.VirtoolsSetStep(a, frame)
				if err != nil {
					t.Fatal(err)
				}
				vxClose(t, file+" "+name, p.Rotation[:], w[i], 1e-6)
			}
		}
	}
}

// axes.md §2.1 data check: every key of Kamera02 (MenuLevel), composed by
// SetStep, has its row 2 (the camera's +Z axis, rows = R(q)) pointing from
// the key's position at the origin.
func TestVirtoolsRealKamera02LooksAtOrigin_Axes2_1(t *testing.T) {
	for _, file := range []string{"Ballance.Three.js/menulevel.nmo", "BallanceModding/MenuLevel.nmo"} {
		a := vxObjectAnim(t, vxDecode(t, file), "Kamera02")
		if a.Rotation == nil || len(a.Rotation.Keys) != 67 {
			t.Fatalf("%s: Kamera02 rotation keys", file)
		}
		worst := 0.0
		for _, k := range a.Rotation.Keys {
			p, err := sample.VirtoolsSetStep(a, k.Time)
			if err != nil {
				t.Fatal(err)
			}
			fwd := p.Rows[8:11]
			var dot, nf, nt float64
			for j := range 3 {
				to := -p.Rows[12+j]
				dot += fwd[j] * to
				nf += fwd[j] * fwd[j]
				nt += to * to
			}
			worst = math.Max(worst, math.Acos(math.Min(1, dot/math.Sqrt(nf*nt))))
		}
		t.Logf("%s: Kamera02 worst forward-ray error %.2e rad", file, worst)
		if worst > 1e-5 {
			t.Errorf("%s: worst forward-ray error %.4f rad", file, worst)
		}
	}
}

// OA §2 / §3.2: the saved tangent cache of I_MenuLevel_Curve agrees with
// the recomputed tangents, and only the orders with tension first do
// (continuity and bias are both 0, so their order stays open).
func TestVirtoolsRealCurveTangentOrder_OA3_2(t *testing.T) {
	for _, file := range []string{"Ballance.Three.js/menulevel.nmo", "BallanceModding/MenuLevel.nmo"} {
		f := vxDecode(t, file)
		var path *model.VirtoolsCurve
		for _, c := range f.Curves {
			if c.Name == "I_MenuLevel_Curve" {
				path, _ = c.Curve.(*model.VirtoolsCurve)
			}
		}
		if path == nil {
			t.Fatalf("%s: no I_MenuLevel_Curve", file)
		}
		bad, err := sample.VirtoolsCheckTangentCache(path, 1e-4)
		if err != nil || len(bad) != 0 {
			t.Fatalf("%s: cache mismatches %+v %v", file, bad, err)
		}
		orders, err := sample.VirtoolsTCBOrders(path, 1e-4)
		if err != nil || len(orders) != 2 || orders[0] != "TCB" || orders[1] != "TBC" {
			t.Errorf("%s: matching orders %v %v", file, orders, err)
		}
		g, err := sample.VirtoolsCurveUpdate(path)
		if err != nil {
			t.Fatal(err)
		}
		vxClose(t, file+" lengths", append(g.Lengths, g.Total), []float64{0, 149.06, 298.27, 447.34, 595.27}, 0.005)
		pos, _ := g.GetPos(0)
		vxClose(t, file+" start", pos[:], []float64{0.477, 40, -94.955}, 5e-4)
	}
}
