package virtools

import (
	"math"
	"reflect"
	"testing"

	"github.com/animbake/bake/internal/modeltest"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// TestSamplesConvert converts all six real files and checks what `bake
// list` must show (the acceptance list of the Virtools issue).
func TestSamplesConvert(t *testing.T) {
	arms := []string{"PE_UFO_Arm_A_01", "PE_UFO_Arm_A_02", "PE_UFO_Arm_A_03", "PE_UFO_Arm_A_04",
		"PE_UFO_Arm_B_01", "PE_UFO_Arm_B_02", "PE_UFO_Arm_B_03", "PE_UFO_Arm_B_04"}
	want := map[string][]string{
		menuLevel21:   {"Record Anim", "Kamera02", "I_MenuLevel_Curve"},
		menuLevel35:   {"Record Anim", "Kamera02", "I_MenuLevel_Curve"},
		peBalloon21:   append([]string{"UFO_Animation"}, arms...),
		peBalloon35:   arms,
		pBox21:        nil,
		trafoSticky25: nil,
	}
	for _, name := range allSamples {
		f, _ := decodeSampleFile(t, name)
		got := map[string]bool{}
		for _, a := range f.Animations {
			got[a.Name] = true
		}
		for _, w := range want[name] {
			if !got[w] {
				t.Errorf("%s: no animation %q", name, w)
			}
		}
		if len(f.Animations) != len(want[name]) {
			t.Errorf("%s: %d animations, want %d", name, len(f.Animations), len(want[name]))
		}
		if f.Axes != Axes || f.Source.Format != "virtools" || len(f.Source.SHA256) != 64 {
			t.Errorf("%s: axes %+v source %+v", name, f.Axes, f.Source)
		}
	}
}

// TestMenuLevelCurve checks the curve figures of the curves spec §3.3:
// point lengths 0, 149.06, 298.27, 447.34, total 595.27, and the start of
// the world path at (0.477, 40, −94.955), in both MenuLevel files.
func TestMenuLevelCurve(t *testing.T) {
	for _, name := range []string{menuLevel21, menuLevel35} {
		f, _ := decodeSampleFile(t, name)
		if len(f.Curves) != 1 {
			t.Fatalf("%s: %d curves", name, len(f.Curves))
		}
		c := f.Curves[0]
		if c.Name != "I_MenuLevel_Curve" || !c.Closed || c.Node != "I_MenuLevel_Curve" {
			t.Errorf("%s: curve %q closed %v node %q", name, c.Name, c.Closed, c.Node)
		}
		if math.Abs(c.Length-595.27) > 0.005 {
			t.Errorf("%s: total length %.4f, want 595.27", name, c.Length)
		}
		points := c.Extras["points"].([]map[string]any)
		for i, want := range []float64{0, 149.06, 298.27, 447.34} {
			if got := points[i]["length"].(float64); math.Abs(got-want) > 0.005 {
				t.Errorf("%s: point %d length %.4f, want %.2f", name, i, got, want)
			}
			if wantName := "I_MenuLevel_Curve_Point000" + string(rune('0'+i)); points[i]["name"] != wantName {
				t.Errorf("%s: point %d is %v", name, i, points[i]["name"])
			}
		}
		ev, err := sample.Compile(c.Curve)
		if err != nil {
			t.Fatal(err)
		}
		var v [6]float64
		ev.Eval(0, v[:])
		if math.Abs(v[0]-0.477) > 0.001 || math.Abs(v[1]-40) > 0.001 || math.Abs(v[2]+94.955) > 0.001 {
			t.Errorf("%s: start position %v, want (0.477, 40, -94.955)", name, v[:3])
		}
	}
}

// TestMenuLevelCurveTangentCache recomputes the TCB tangents of the four
// curve points by the formula of the curves spec §3.2 from the curve-local
// positions and compares them with the tangent cache saved in each point.
// The saved values agree only if the first of the three floats is the
// tension: with tension −0.6 and continuity = bias = 0, in = out =
// 0.8·(P[i+1] − P[i−1]); read as continuity or bias, −0.6 would make in
// and out differ, but the file stores them equal.
func TestMenuLevelCurveTangentCache(t *testing.T) {
	for _, name := range []string{menuLevel21, menuLevel35} {
		s, _ := decodeSampleScene(t, name)
		var cv *Curve
		for _, c := range s.Curves {
			cv = c
		}
		inv, ok := toAffine(s.Entities[cv.Index].World).inverse()
		if !ok {
			t.Fatal("curve matrix is singular")
		}
		n := len(cv.Points)
		local := make([][3]float64, n)
		for i, pi := range cv.Points {
			w := toAffine(s.Entities[pi].World)
			local[i] = affine{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, w[3]}.mul(inv)[3]
		}
		for i, pi := range cv.Points {
			p := s.CurvePoints[pi]
			if p.Tension != -0.6 || p.Continuity != 0 || p.Bias != 0 || p.UserTangents || p.Linear {
				t.Fatalf("%s: point %d TCB %v %v %v", name, i, p.Tension, p.Continuity, p.Bias)
			}
			prev, next := local[(i+n-1)%n], local[(i+1)%n]
			for j := range 3 {
				want := 0.8 * (next[j] - prev[j])
				if math.Abs(float64(p.Out[j])-want) > 1e-3*math.Max(1, math.Abs(want)) || p.In[j] != p.Out[j] {
					t.Errorf("%s: point %d tangent[%d] saved in %v out %v, recomputed %v", name, i, j, p.In[j], p.Out[j], want)
				}
			}
		}
	}
}

// recordAnim returns the model object animation behind Record Anim's
// translation channel.
func recordAnim(t *testing.T, f *model.File) (*model.Animation, *model.VirtoolsObjectAnimation) {
	t.Helper()
	for i := range f.Animations {
		a := &f.Animations[i]
		if a.Name != "Record Anim" {
			continue
		}
		if len(a.Channels) != 3 {
			t.Fatalf("Record Anim has %d channels", len(a.Channels))
		}
		return a, a.Channels[0].Curve.(*model.VirtoolsTransform).Anim
	}
	t.Fatal("no Record Anim")
	return nil, nil
}

// TestRecordAnimModel checks Record Anim's model data: 4445 keys per
// controller, key 0 at the stone's saved position (−19.664, 8.446,
// −39.114), 30 frames per second by default, length 4445, channels on
// I_Ball_Stone.
func TestRecordAnimModel(t *testing.T) {
	f, _ := decodeSampleFile(t, menuLevel35)
	a, m := recordAnim(t, f)
	if a.FPS != DefaultFrameRate || a.Frames != 4445 || a.End != 4445 || a.Loop != model.LoopOnce {
		t.Errorf("Record Anim timing: %+v", a)
	}
	paths := []string{model.PathTranslation, model.PathRotation, model.PathScale}
	for i, c := range a.Channels {
		if c.Node != "I_Ball_Stone" || c.Path != paths[i] {
			t.Errorf("channel %d: %s of %q", i, c.Path, c.Node)
		}
	}
	if len(m.Position.Keys) != 4445 || len(m.Rotation.Keys) != 4445 || len(m.Scale.Keys) != 4445 || m.ScaleAxis != nil {
		t.Fatalf("key counts")
	}
	k0 := m.Position.Keys[0].Value
	if math.Abs(k0[0]+19.664) > 5e-4 || math.Abs(k0[1]-8.446) > 5e-4 || math.Abs(k0[2]+39.114) > 5e-4 {
		t.Errorf("key 0 at %v", k0)
	}
	var stone *model.Node
	for i := range f.Nodes {
		if f.Nodes[i].Name == "I_Ball_Stone" {
			stone = &f.Nodes[i]
		}
	}
	if stone == nil || stone.Translation != k0 || stone.Parent != -1 {
		t.Errorf("I_Ball_Stone node %+v, key 0 %v", stone, k0)
	}
	if m.Rest == nil || m.Rest[12] != k0[0] || m.Rest[15] != 1 {
		t.Errorf("rest matrix %v", m.Rest)
	}
}

// TestRecordAnimSameInBothWriters: the 2.1 original and the 3.5 re-save
// of MenuLevel give the same Record Anim model data (keys, length, flags,
// rest matrix) and the same baked samples.
func TestRecordAnimSameInBothWriters(t *testing.T) {
	f21, _ := decodeSampleFile(t, menuLevel21)
	f35, _ := decodeSampleFile(t, menuLevel35)
	a21, m21 := recordAnim(t, f21)
	a35, m35 := recordAnim(t, f35)
	if !reflect.DeepEqual(m21, m35) {
		t.Errorf("Record Anim model data differs between the 2.1 and 3.5 files")
	}
	if a21.FPS != a35.FPS || a21.Frames != a35.Frames || a21.End != a35.End || a21.Loop != a35.Loop {
		t.Errorf("timing differs: %+v vs %+v", a21, a35)
	}
	b21, err := sample.BakeAnimation(a21, sample.NewConverter(f21.Axes), sample.Options{FPS: 30})
	if err != nil {
		t.Fatal(err)
	}
	b35, err := sample.BakeAnimation(a35, sample.NewConverter(f35.Axes), sample.Options{FPS: 30})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(b21.Times, b35.Times) || len(b21.Channels) != len(b35.Channels) {
		t.Fatal("bake times differ")
	}
	for i := range b21.Channels {
		if !reflect.DeepEqual(b21.Channels[i].Values, b35.Channels[i].Values) {
			t.Errorf("baked channel %s differs", b21.Channels[i].Path)
		}
	}
}

// TestUFOAnimationModel checks the keyed animation's model: 30 fps,
// length 100, 8 arms with rotation and scale channels, no root animation
// (the root entity PE_UFO_Body has no object animation), and the arm
// nodes parented as saved (B arms under A arms under the body).
func TestUFOAnimationModel(t *testing.T) {
	f, _ := decodeSampleFile(t, peBalloon21)
	ufo := f.Animations[0]
	if ufo.Name != "UFO_Animation" || ufo.FPS != 30 || ufo.Frames != 100 || len(ufo.Channels) != 16 {
		t.Fatalf("UFO_Animation: %s fps %v frames %v channels %d", ufo.Name, ufo.FPS, ufo.Frames, len(ufo.Channels))
	}
	if ufo.Extras["virtoolsRootEntity"] != "PE_UFO_Body" || ufo.Extras["virtoolsRootAnimation"] != nil {
		t.Errorf("root: %v", ufo.Extras)
	}
	parent := map[string]string{}
	for _, n := range f.Nodes {
		if n.Parent >= 0 {
			parent[n.Name] = f.Nodes[n.Parent].Name
		}
	}
	for _, arm := range []string{"01", "02", "03", "04"} {
		if parent["PE_UFO_Arm_A_"+arm] != "PE_UFO_Body" || parent["PE_UFO_Arm_B_"+arm] != "PE_UFO_Arm_A_"+arm {
			t.Errorf("arm %s parents: A under %q, B under %q", arm, parent["PE_UFO_Arm_A_"+arm], parent["PE_UFO_Arm_B_"+arm])
		}
	}
	for _, c := range ufo.Channels {
		m := c.Curve.(*model.VirtoolsTransform).Anim
		if m.Rotation == nil || m.Rotation.Interp != model.VirtoolsTCB || len(m.Rotation.Keys) != 6 || m.Offset != ([3]float64{}) {
			t.Errorf("%s: rotation %+v", m.Name, m.Rotation)
		}
	}
}

// TestSamplesBake bakes every animation of every real file at 30 fps
// through the sampler, in glTF axes, and checks the values are finite.
func TestSamplesBake(t *testing.T) {
	for _, name := range allSamples {
		f, _ := decodeSampleFile(t, name)
		modeltest.BakeFinite(t, name, f, sample.Options{FPS: 30, Axes: "gltf"})
	}
}
