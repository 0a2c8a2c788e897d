package ccsdemo_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/ccs"
	"github.com/animbake/bake/import/ccs/ccswrite/demogen/ccsdemo"
	"github.com/animbake/bake/internal/modeltest"
	"github.com/animbake/bake/internal/testfiles"
	"github.com/animbake/bake/model"
)

// The committed demo inputs are what `go generate ./import/ccs` writes
// today.
func TestDemoFilesAreUpToDate(t *testing.T) {
	testfiles.CheckDemoFiles(t, testfiles.DemoDir(t, "ccs"), ccsdemo.Files(), "go generate ./import/ccs")
}

// decode runs the importer on a demo file and fails on any notice.
func decode(t *testing.T, name string) []*model.File {
	t.Helper()
	for _, nf := range ccsdemo.Files() {
		if nf.Name != name {
			continue
		}
		files, err := ccs.Decode(format.BytesInput(name, nf.Data), &format.Options{Warn: func(s string) { t.Errorf("notice: %s", s) }})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if err := f.Validate(); err != nil {
				t.Fatal(err)
			}
		}
		return files
	}
	t.Fatalf("no demo file %s", name)
	return nil
}

// sameRotation compares quaternions up to sign: |q·w| = cos(half the
// angle between them), so 1 − |q·w| ≤ tol bounds that angle.
func sameRotation(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	dot := 0.0
	for i := range want {
		dot += got[i] * want[i]
	}
	if 1-math.Abs(dot) > tol {
		t.Errorf("%s: %v, want ±%v", what, got, want)
	}
}

func yQuat(deg float64) []float64 {
	s, c := math.Sincos(deg * math.Pi / 360)
	return []float64{0, s, 0, c}
}

// Timing (ccs.md §5): N frames, End = N − 1; a loop (end Top −2) repeats
// with Period N − 1. demo.cmp is the same file gzipped.
func TestDemoTiming(t *testing.T) {
	for _, name := range []string{"demo.ccs", "demo.cmp"} {
		files := decode(t, name)
		if len(files) != 1 {
			t.Fatalf("%s: %d files", name, len(files))
		}
		for _, w := range []struct {
			name   string
			frames float64
			loop   string
		}{
			{"ANM_spinner", ccsdemo.SpinnerFrames, model.LoopRepeat},
			{"ANM_crate", ccsdemo.CrateFrames, model.LoopOnce},
			{"ANM_face", ccsdemo.FaceFrames, model.LoopOnce},
			{"ANM_door", ccsdemo.DoorFrames, model.LoopOnce},
			{"ANM_water", ccsdemo.WaterFrames, model.LoopRepeat},
		} {
			a := modeltest.Animation(t, files[0], w.name)
			if a.FPS != 30 || a.Frames != w.frames || a.End != w.frames-1 || a.Loop != w.loop ||
				(w.loop == model.LoopRepeat && a.Period != w.frames-1) {
				t.Errorf("%s %s: fps %v frames %v end %v loop %s period %v", name, w.name, a.FPS, a.Frames, a.End, a.Loop, a.Period)
			}
		}
	}
}

// ccs-anime-playback.txt, worked by hand on the demo's keys.
func TestDemoValues(t *testing.T) {
	f := decode(t, "demo.ccs")[0]

	// Keyed rotation in 120° steps: each step is the short way between
	// key matrices, so the spinner passes 60° at frame 10 (half a step),
	// 120° at 20, 240° at 40 and is back round at 60. Quantisation
	// (182.044 per degree) and the VU0 polynomial keep it within 1.1e-4
	// rad of the exact turn (ccs-semantics.md §4); 1 − cos(1.1e-4/2) ≈ 1.5e-9.
	spin := modeltest.Animation(t, f, "ANM_spinner")
	for _, c := range []struct{ frame, deg float64 }{{0, 0}, {10, 60}, {20, 120}, {30, 180}, {40, 240}, {60, 360}} {
		sameRotation(t, fmt.Sprintf("spinner at %v", c.frame), modeltest.Eval(t, spin, "OBJ_spinner", model.PathRotation, c.frame), yQuat(c.deg), 2e-9)
	}

	// Floats (§"_SetCtrl"): the first key (frame 10) is held before it;
	// then start + δ·(rem/dur): position 0 + 20·(2560/5120) = 10 at
	// frame 20, scale 1 + 0.5·0.5 = 1.25, both exact in EE arithmetic;
	// transparency 1 − 10/29 at frame 30 (up to the EE's rounding).
	crate := modeltest.Animation(t, f, "ANM_crate")
	modeltest.Near(t, "crate at 5", modeltest.Eval(t, crate, "OBJ_crate", model.PathTranslation, 5), []float64{0, 0, 0}, 0)
	modeltest.Near(t, "crate at 20", modeltest.Eval(t, crate, "OBJ_crate", model.PathTranslation, 20), []float64{0, 10, 0}, 0)
	modeltest.Near(t, "crate scale at 20", modeltest.Eval(t, crate, "OBJ_crate", model.PathScale, 20), []float64{1.25, 1.25, 1.25}, 0)
	modeltest.Near(t, "crate at 49", modeltest.Eval(t, crate, "OBJ_crate", model.PathTranslation, 49), []float64{5, 20, 0}, 0)
	modeltest.Near(t, "crate alpha at 30", modeltest.Eval(t, crate, "OBJ_crate", "alpha", 30), []float64{1 - 10.0/29}, 1e-6)
	// Notes: one event per F_Note, at its frame, with its event and param.
	if len(crate.Events) != 2 {
		t.Fatalf("crate events %+v", crate.Events)
	}
	for i, w := range []struct {
		frame        float64
		event, param string
	}{{10, "1", "100"}, {30, "2", "200"}} {
		e := crate.Events[i]
		if e.Frame != w.frame || e.Name != "note" || e.Node != "OBJ_crate" || fmt.Sprint(e.Args["event"]) != w.event || fmt.Sprint(e.Args["param"]) != w.param {
			t.Errorf("event %d: %+v, want frame %v event %s param %s", i, e, w.frame, w.event, w.param)
		}
	}

	// F_Morpher: stepped weights over (smile, blink); a record sets the
	// whole list, so the smile drops to 0 when frame 20 names only blink.
	// MPH_face deforms MDL_face, which OBJ_face draws: the weights go on
	// OBJ_face, whose mesh has the two targets.
	face := modeltest.Animation(t, f, "ANM_face")
	for _, c := range []struct {
		frame float64
		want  []float64
	}{{3, []float64{0, 0}}, {5, []float64{0.5, 0}}, {9, []float64{0.5, 0}}, {10, []float64{1, 0}}, {20, []float64{0, 1}}} {
		modeltest.Near(t, fmt.Sprintf("weights at %v", c.frame), modeltest.Eval(t, face, "OBJ_face", model.PathWeights, c.frame), c.want, 0)
	}

	// F_Obj: frame 0's record is never read, so the rest pose holds until
	// frame 1; then each frame's record: 4.5° per frame about y, not
	// quantised (45° at frame 10).
	door := modeltest.Animation(t, f, "ANM_door")
	modeltest.Near(t, "door at 0", modeltest.Eval(t, door, "OBJ_door", model.PathTranslation, 0), []float64{0, 0, 0}, 0)
	modeltest.Near(t, "door at 1", modeltest.Eval(t, door, "OBJ_door", model.PathTranslation, 1), []float64{2, 0, 0}, 0)
	sameRotation(t, "door at 0", modeltest.Eval(t, door, "OBJ_door", model.PathRotation, 0), yQuat(0), 0)
	sameRotation(t, "door at 10", modeltest.Eval(t, door, "OBJ_door", model.PathRotation, 10), yQuat(45), 1e-12)
	sameRotation(t, "door at 10.5", modeltest.Eval(t, door, "OBJ_door", model.PathRotation, 10.5), yQuat(45), 1e-12)

	// Material controller: U 0 → 1 over 30 frames, 0.5 at 15 exactly.
	water := modeltest.Animation(t, f, "ANM_water")
	modeltest.Near(t, "water at 15", modeltest.Eval(t, water, "MAT_water", "uvOffset", 15), []float64{0.5, 0}, 0)
}

// DATA.BIN: three gzip members on 0x800-byte sectors, one file each,
// named from their CCSF headers; the later-generation member's
// quaternion keys (kind 4) are slerped.
func TestDemoDataBIN(t *testing.T) {
	files := decode(t, "DATA.BIN")
	if len(files) != 3 || files[0].Name != "demo" || files[1].Name != "lamp" || files[2].Name != "later" {
		t.Fatalf("%d members", len(files))
	}
	if len(files[0].Animations) != 5 {
		t.Errorf("demo member: %d animations", len(files[0].Animations))
	}
	bird := modeltest.Animation(t, files[2], "ANM_bird")
	s := math.Sqrt(0.5)
	sameRotation(t, "bird at 15", modeltest.Eval(t, bird, "OBJ_bird", model.PathRotation, 15), []float64{0, s, 0, s}, 1e-7)
	sameRotation(t, "bird at 30", modeltest.Eval(t, bird, "OBJ_bird", model.PathRotation, 30), []float64{0, 1, 0, 0}, 1e-7)
	modeltest.Near(t, "bird at 15", modeltest.Eval(t, bird, "OBJ_bird", model.PathTranslation, 15), []float64{0, 5, 0}, 0)
	lamp := modeltest.Animation(t, files[1], "ANM_lamp")
	z := func(deg float64) []float64 { s, c := math.Sincos(deg * math.Pi / 360); return []float64{0, 0, s, c} }
	sameRotation(t, "lamp at 20", modeltest.Eval(t, lamp, "OBJ_lamp", model.PathRotation, 20), z(30), 2e-9)
}

// The demo's assets, with values worked from the writer's description
// (ccsdemo.Demo and Later): meshes, textures texel by texel, the morph
// targets, the water scroll's texture transform and the arm's skin.
func TestDemoAssets(t *testing.T) {
	f := decode(t, "demo.ccs")[0]
	meshes := map[string]*model.Mesh{}
	for i := range f.Meshes {
		meshes[f.Meshes[i].Name] = &f.Meshes[i]
	}
	counts := func(name string) (v, tri int) {
		for _, p := range meshes[name].Primitives {
			v += len(p.Positions) / 3
			tri += len(p.Indices) / 3
		}
		return
	}
	for name, want := range map[string][2]int{"MDL_crate": {24, 12}, "MDL_face": {4, 2}, "MDL_pool": {4, 2}} {
		if meshes[name] == nil {
			t.Fatalf("no mesh %s", name)
		}
		if v, tri := counts(name); v != want[0] || tri != want[1] {
			t.Errorf("%s: %d vertices %d triangles, want %v", name, v, tri, want)
		}
	}
	nodeMesh := map[string]string{}
	for _, n := range f.Nodes {
		nodeMesh[n.Name] = n.Mesh
	}
	if nodeMesh["OBJ_crate"] != "MDL_crate" || nodeMesh["OBJ_face"] != "MDL_face" || nodeMesh["OBJ_pool"] != "MDL_pool" {
		t.Errorf("meshes on nodes: %v", nodeMesh)
	}
	// The +X face of the cube: c − u − v = (5, −5, −5) first.
	crate := meshes["MDL_crate"].Primitives[0]
	if got := crate.Positions[:3]; got[0] != 5 || got[1] != -5 || got[2] != -5 {
		t.Errorf("crate vertex 0 %v", got)
	}
	if crate.Material != "MAT_crate" {
		t.Errorf("crate material %q", crate.Material)
	}

	tex := map[string]*model.Texture{}
	for i := range f.Textures {
		tex[f.Textures[i].Name] = &f.Textures[i]
	}
	texel := func(name string, x, y int) []byte {
		im := tex[name].Image
		return im.RGBA[4*(y*im.Width+x) : 4*(y*im.Width+x)+4]
	}
	// TEX_crate: the picture's top row is stored row 7; stored texel
	// (x, y) is colour (x/2 + y/2) mod 2; 0x80 alpha → 255.
	modeltest.Near(t, "crate (0,0)", bytesF(texel("TEX_crate", 0, 0)), []float64{0x60, 0x30, 0x10, 255}, 0)
	modeltest.Near(t, "crate (2,0)", bytesF(texel("TEX_crate", 2, 0)), []float64{0xC0, 0x80, 0x40, 255}, 0)
	modeltest.Near(t, "crate (2,1)", bytesF(texel("TEX_crate", 2, 1)), []float64{0xC0, 0x80, 0x40, 255}, 0)
	modeltest.Near(t, "crate (2,2)", bytesF(texel("TEX_crate", 2, 2)), []float64{0x60, 0x30, 0x10, 255}, 0)
	// TEX_water: stored texel (x, y) is index 16x + y, entry i of the ramp
	// (0, i/2, 128 + i/2, 0x80); picture (1, 0) is stored (1, 15): index 31.
	modeltest.Near(t, "water (1,0)", bytesF(texel("TEX_water", 1, 0)), []float64{0, 15, 143, 255}, 0)
	modeltest.Near(t, "water (0,15)", bytesF(texel("TEX_water", 0, 15)), []float64{0, 0, 128, 255}, 0)

	// Morph targets: smile lifts the lower corners 2 cm, blink lowers the
	// upper ones 3 cm; TargetNames in the weights channel's order.
	face := meshes["MDL_face"]
	if len(face.TargetNames) != 2 || face.TargetNames[0] != "MDL_face_smile" || face.TargetNames[1] != "MDL_face_blink" {
		t.Fatalf("face targets %v", face.TargetNames)
	}
	tg := face.Primitives[0].Targets
	modeltest.Near(t, "smile", f32s(tg[0].Positions), []float64{0, 0, 2, 0, 0, 2, 0, 0, 0, 0, 0, 0}, 0)
	modeltest.Near(t, "blink", f32s(tg[1].Positions), []float64{0, 0, 0, 0, 0, 0, 0, 0, -3, 0, 0, -3}, 0)

	// The water scroll animates MAT_water's texture offset: the reference
	// carries a transform.
	for _, m := range f.Materials {
		if m.Name == "MAT_water" && (m.BaseColorTexture.Texture != "TEX_water" || !m.BaseColorTexture.Transform) {
			t.Errorf("MAT_water texture %+v", m.BaseColorTexture)
		}
	}

	// OBJ_crate's transparency (1 at 20 → 0 at 49) also drives its
	// mesh's material alpha, which blends.
	crateAnm := modeltest.Animation(t, f, "ANM_crate")
	modeltest.Near(t, "crate alpha at 34.5", modeltest.Eval(t, crateAnm, "MAT_crate", model.PathAlpha, 34.5), []float64{0.5}, 1e-7)
	for _, m := range f.Materials {
		if m.Name == "MAT_crate" && m.AlphaMode != model.AlphaBlend {
			t.Errorf("MAT_crate alpha mode %q", m.AlphaMode)
		}
	}

	later := decode(t, "DATA.BIN")[2]
	if len(later.Skins) != 1 || later.Skins[0].Name != "CMP_arm" {
		t.Fatalf("skins %+v", later.Skins)
	}
	sk := later.Skins[0]
	if len(sk.Joints) != 2 || sk.Joints[0] != "OBJ_arm_root" || sk.Joints[1] != "OBJ_arm_tip" {
		t.Fatalf("joints %v", sk.Joints)
	}
	// The tip rests 10 cm up z: its inverse bind is a translation by −10.
	ib := sk.InverseBind[1]
	modeltest.Near(t, "tip inverse bind", ib[:], []float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, -10, 1}, 1e-12)
	var armNode *model.Node
	for i := range later.Nodes {
		if later.Nodes[i].Mesh == "MDL_arm" {
			armNode = &later.Nodes[i]
		}
	}
	// The skinned mesh hangs on a root node of its own, named after it (a
	// joint is a bone to clients, not a mesh object).
	if armNode == nil || armNode.Name != "MDL_arm" || armNode.Parent != -1 || armNode.Skin != "CMP_arm" {
		t.Fatalf("arm node %+v", armNode)
	}
	arm := later.Meshes[len(later.Meshes)-1].Primitives[0]
	if len(arm.Positions) != 3*24 || len(arm.Indices) != 3*16 {
		t.Fatalf("arm: %d vertices %d triangles", len(arm.Positions)/3, len(arm.Indices)/3)
	}
	// Side 0's strip: rings at z 0, 10, 20; the middle ring is (x, y, 10),
	// half root and half tip.
	modeltest.Near(t, "arm vertex 2", f32s(arm.Positions[6:9]), []float64{-2, -2, 10}, 0)
	modeltest.Near(t, "arm vertex 2 joints", []float64{float64(arm.Joints[8]), float64(arm.Joints[9])}, []float64{0, 1}, 0)
	modeltest.Near(t, "arm vertex 2 weights", f32s(arm.Weights[8:12]), []float64{0.5, 0.5, 0, 0}, 0)
	modeltest.Near(t, "arm vertex 4", f32s(arm.Positions[12:15]), []float64{-2, -2, 20}, 0)
}

func bytesF(b []byte) []float64 {
	out := make([]float64, len(b))
	for i, v := range b {
		out[i] = float64(v)
	}
	return out
}

func f32s(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}
