package bfres

import (
	"math"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/import/sarc"
	"github.com/animbake/bake/internal/modeltest"
	"github.com/animbake/bake/internal/testfiles"
	"github.com/animbake/bake/model"
)

// Tests against the Super Mario Odyssey archives in
// ../shared/samples/bfres-switch (SOURCES.md §4b). They skip when the
// shared directory is absent.

// nxSampleBFRES returns the bytes of X.bfres inside bfres-switch/X.szs
// (Yaz0 around a SARC archive).
func nxSampleBFRES(t testing.TB, stem string) []byte {
	t.Helper()
	raw := testfiles.ReadSample(t, "bfres-switch", stem+".szs")
	data, err := binread.DecodeYaz0(raw, 64<<20)
	if err != nil {
		t.Fatal(err)
	}
	a, err := sarc.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range a.Members {
		if m.Name == stem+".bfres" {
			return m.Data
		}
	}
	t.Fatalf("%s.szs holds no %s.bfres", stem, stem)
	return nil
}

// decodeNXSample decodes X.bfres of bfres-switch/X.szs as the file
// X.szs/X.bfres.
func decodeNXSample(t testing.TB, stem string, opts *format.Options) *model.File {
	t.Helper()
	return decodeValid(t, format.BytesInput(filepath.Join(stem+".szs", stem+".bfres"), nxSampleBFRES(t, stem)), opts)
}

// SOURCES.md §4b: BombHei holds 10 FSKA (AttackSuccess … Walk); frame
// counts and loop flags as the FSKA headers give them (flags 0x1200, and
// 0x1204 on the looping clips), Euler XYZ and Maya scale; the skeleton's 9
// bones.
func TestSampleNXBombHeiSkeletal(t *testing.T) {
	f := decodeNXSample(t, "BombHei", nil)
	want := []struct {
		name   string
		frames float64
		loop   bool
	}{{"AttackSuccess", 49, false}, {"BlowDown", 32, false}, {"CapHit", 30, false}, {"Fall", 29, true},
		{"Find", 49, false}, {"Land", 13, false}, {"Run", 25, true}, {"Turn", 59, true}, {"Wait", 120, true}, {"Walk", 59, true}}
	if len(f.Animations) < len(want) {
		t.Fatalf("%d animations, want at least %d", len(f.Animations), len(want))
	}
	for i, w := range want {
		a := f.Animations[i]
		if a.Name != w.name || a.Frames != w.frames || a.FPS != NativeFPSSwitch || (a.Loop == model.LoopRepeat) != w.loop {
			t.Errorf("animation %d: %s %v frames at %v fps, loop %s; want %s %v frames at 60, loop %v", i, a.Name, a.Frames, a.FPS, a.Loop, w.name, w.frames, w.loop)
		}
		if a.Extras["rotationMode"] != "eulerXYZ" || a.Extras["scaleMode"] != "maya" {
			t.Errorf("%s: rotation %v, scale %v", a.Name, a.Extras["rotationMode"], a.Extras["scaleMode"])
		}
	}
	parents := map[string]string{"All_Root": "", "JointRoot": "All_Root", "LegL": "JointRoot", "FootL": "LegL",
		"ToeL": "FootL", "LegR": "JointRoot", "FootR": "LegR", "ToeR": "FootR", "Zenmai": "JointRoot"}
	for name, parent := range parents {
		n := modeltest.Node(t, f, name)
		got := ""
		if n.Parent >= 0 {
			got = f.Nodes[n.Parent].Name
		}
		if got != parent {
			t.Errorf("bone %s: parent %q, want %q", name, got, parent)
		}
	}
}

// The independent check of the Switch curve layout: JointRoot's curves in
// BombHei's Walk, decoded by hand from the bytes with the layout of
// BfresLibrary (Shared/Common/AnimCurve.cs, Switch branch: u64 frame and
// key array offsets, then flags, key count, target, start, end, scale,
// offset, delta) and evaluated by hand in float32 per bfres-container.md
// §5.3, rounding each step to float32 (the arithmetic in the comments; a
// throwaway script did the rest): the importer must give the same float32
// values bit for bit.
//
// Translate Y (target 0x14): flags 0x0006 (u8 frames, s16 keys, cubic), 8
// keys at frames 0, 6, 11, 26, 29, 40, 56, 59; scale 0.0009870411595,
// offset 72.823738098. Key 0 = (4051, −6673, −2968, 2019). At f = 3,
// t = 0.5: c3·t = 1009.5, +c2 = −1958.5, ·t·t = −489.625; c1·t + c0 =
// 714.5; raw = 224.875 → 73.0457. At f = 6, key 1's c0 = −3571 → 69.29901.
//
// Rotate X (target 0x20): 25 keys from frames 0, 1, 3, …; scale
// 4.237987e-05, offset −1.55462. Key 1 = (16191, 5684, 1293, −393) over
// [1, 3]: at f = 2.5, t = 0.75 → raw 21015.515625 → −0.66398519.
// Rotate Y (0x24, s8 keys, 12 keys) and Z (0x28, 28 keys) at 2.5 give
// 1.34944773 and −0.69819409; the quaternion qz·qy·qx of the three
// (bfres-container.md §9) is (−0.0371541, 0.6420038, −0.0611943, 0.7633518).
func TestSampleNXHandDecodedCurves(t *testing.T) {
	f := decodeNXSample(t, "BombHei", nil)
	walk := modeltest.Animation(t, f, "Walk")
	tr := modeltest.Channel(t, walk, "JointRoot", model.PathTranslation).Curve.(*model.Vector)
	rot := modeltest.Channel(t, walk, "JointRoot", model.PathRotation).Curve.(*model.EulerRotation)
	for _, tc := range []struct {
		what  string
		curve model.Curve
		frame float64
		want  float64
	}{
		{"translate Y", tr.Components[1], 0, 76.8222427368164},
		{"translate Y", tr.Components[1], 3, 73.04570007324219},
		{"translate Y", tr.Components[1], 6, 69.29901123046875},
		{"translate Y", tr.Components[1], 12.5, 68.03990936279297},
		{"translate Y", tr.Components[1], 30.25, 75.51060485839844},
		{"translate Y", tr.Components[1], 58.5, 77.24421691894531},
		{"translate Y", tr.Components[1], 59, 76.8222427368164},
		{"rotate X", rot.X, 0, -0.9782537817955017},
		{"rotate X", rot.X, 1, -0.8684475421905518},
		{"rotate X", rot.X, 2, -0.7363865971565247},
		{"rotate X", rot.X, 2.5, -0.6639851927757263},
		{"rotate X", rot.X, 30.25, -2.1662120819091797},
		{"rotate X", rot.X, 58.5, -1.0239816904067993},
		{"rotate Y", rot.Y, 2.5, 1.3494477272033691},
		{"rotate Y", rot.Y, 30.25, 1.3313324451446533},
		{"rotate Z", rot.Z, 2.5, -0.6981940865516663},
		{"rotate Z", rot.Z, 30.25, -2.143556594848633},
	} {
		got := modeltest.EvalCurve(t, tc.curve, tc.frame)[0]
		if got != tc.want {
			t.Errorf("Walk JointRoot %s at frame %v: %v, want %v", tc.what, tc.frame, got, tc.want)
		}
	}
	q := modeltest.Eval(t, walk, "JointRoot", model.PathRotation, 2.5)
	modeltest.Near(t, "Walk JointRoot rotation at 2.5", q, []float64{-0.0371541, 0.6420038, -0.0611943, 0.7633518}, 2e-6)
}

// The samples' models (counts read from their FSHP, FVTX and mesh records;
// SOURCES.md §4b): BombHei's two shapes, skinned with one and two weights;
// the cap's three-weight shape; BlockShine's and the cube's rigid ones.
// Every index names a vertex (the reader checks it), every weight sums to
// one, and the cube's 24 vertices span 0…200 on each axis (as stored; the
// rigid shape goes through its bone's bind matrix and back, within 1e-4).
func TestSampleNXModels(t *testing.T) {
	type shape struct {
		name            string
		vertices, index int
		skin            int
		material        string
	}
	for _, tc := range []struct {
		stem   string
		shapes []shape
	}{
		{"BombHei", []shape{{"BombHei__BombHeiMat00", 859, 2862, 1, "BombHeiMat00"}, {"BombHei__BombHeiMat01", 462, 1830, 2, "BombHeiMat01"}}},
		{"BlockShine", []shape{{"", 2289, -1, 0, "AllColors"}}},
		{"MarioShadowChaseCap", []shape{{"", 577, -1, 3, "CapMT"}}},
		{"DevGenericCube2U", []shape{{"", 24, -1, 0, "Basic"}}},
	} {
		f := decodeNXSample(t, tc.stem, nil)
		if len(f.Meshes) != len(tc.shapes) || len(f.Skins) != 1 {
			t.Errorf("%s: %d meshes and %d skins, want %d and 1", tc.stem, len(f.Meshes), len(f.Skins), len(tc.shapes))
			continue
		}
		for i, w := range tc.shapes {
			m := f.Meshes[i]
			p := &m.Primitives[0]
			if w.name != "" && m.Name != w.name || len(p.Positions) != 3*w.vertices || w.index >= 0 && len(p.Indices) != w.index ||
				m.Extras["vertexSkinCount"] != w.skin || p.Material != w.material {
				t.Errorf("%s shape %d: %s, %d vertices, %d indices, skin count %v, material %s; want %+v", tc.stem, i, m.Name,
					len(p.Positions)/3, len(p.Indices), m.Extras["vertexSkinCount"], p.Material, w)
			}
			for v := 0; v < len(p.Weights); v += 4 {
				if s := p.Weights[v] + p.Weights[v+1] + p.Weights[v+2] + p.Weights[v+3]; math.Abs(float64(s)-1) > 1e-6 {
					t.Fatalf("%s shape %d vertex %d: weights sum to %v", tc.stem, i, v/4, s)
				}
			}
		}
	}
	cube := decodeNXSample(t, "DevGenericCube2U", nil)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range cube.Meshes[0].Primitives[0].Positions {
		lo, hi = min(lo, float64(v)), max(hi, float64(v))
	}
	if math.Abs(lo) > 1e-4 || math.Abs(hi-200) > 1e-4 {
		t.Errorf("the cube spans %v…%v, want 0…200", lo, hi)
	}
}

// BombHei's and BlockShine's materials take their textures from the BNTX
// the FRES embeds (SOURCES.md §4b: 6 and 4 textures): sampler _a0 is the
// base colour, _n0 the normal map (texture names from the FMAT records).
func TestSampleNXTextures(t *testing.T) {
	for _, tc := range []struct {
		stem, material, albedo, normal string
		textures                       int
	}{
		{"BombHei", "BombHeiMat00", "BombHei_alb", "Basic_Nrm", 6},
		{"BlockShine", "AllColors", "Block_alb", "Block_nrm", 4},
	} {
		f := decodeNXSample(t, tc.stem, nil)
		if len(f.Textures) != tc.textures {
			t.Errorf("%s: %d textures, want %d", tc.stem, len(f.Textures), tc.textures)
		}
		for _, m := range f.Materials {
			if m.Name != tc.material {
				continue
			}
			if m.BaseColorTexture.Texture != tc.albedo || m.Normal.Texture != tc.normal {
				t.Errorf("%s %s: base colour %q, normal %q; want %q, %q", tc.stem, m.Name, m.BaseColorTexture.Texture, m.Normal.Texture, tc.albedo, tc.normal)
			}
		}
		for _, tex := range f.Textures {
			if len(tex.Image.RGBA) != 4*tex.Image.Width*tex.Image.Height || tex.Image.Width == 0 {
				t.Errorf("%s texture %s: %d×%d with %d bytes", tc.stem, tex.Name, tex.Image.Width, tex.Image.Height, len(tex.Image.RGBA))
			}
		}
	}
}

// BombHei's material animation SignExplosion_fcl (FMAA, flags 0x4: loop,
// 30 frames) animates BombHeiMat00's const_color0: R and A by linear
// curves with f32 frames 0, 15, 30 (R keys (40, −40), (0, 41), (41, 0); A
// keys (0, 0.98), (0.98, −0.98), (0, 0)), G and B by constants 0. By hand
// (§5.4): at 7.5, R = 40 − 40·0.5 = 20, A = 0.98·0.5 = 0.49; at 22.5,
// R = 0 + 41·0.5 = 20.5, A = 0.98 − 0.98·0.5 = 0.49.
//
// Its bone visibility animation EyeBlink (FBVS, 245 frames, loop) names
// Eye, EyeClose and EyeHarfClose, base bits 0b001; Eye's curve is a step
// bool with u8 frames 0, 21, 30, 130, 138, 142, 150 and key word 0x55
// (bits 1 0 1 0 1 0 1): visible until 21, hidden 21–30, visible 30–130,
// hidden from 130 to 138. BombHei's skeleton has no such bones, so, as the
// game binds visibility by bone name (§10.3), the three are unbound:
// listed in the clip's extras.unboundBones, no channel.
func TestSampleNXMaterialAndVisibility(t *testing.T) {
	f := decodeNXSample(t, "BombHei", nil)
	fcl := modeltest.Animation(t, f, "SignExplosion_fcl")
	if fcl.Frames != 30 || fcl.Loop != model.LoopRepeat {
		t.Errorf("SignExplosion_fcl: %v frames, %s", fcl.Frames, fcl.Loop)
	}
	var color *model.Channel
	for i := range fcl.Channels {
		if ch := &fcl.Channels[i]; ch.Material == "BombHeiMat00" && ch.Path == "const_color0" {
			color = ch
		}
	}
	if color == nil {
		t.Fatalf("no const_color0 channel on BombHeiMat00: %+v", fcl.Channels)
	}
	for _, tc := range []struct {
		frame float64
		want  []float64
	}{{7.5, []float64{20, 0, 0, 0.49}}, {22.5, []float64{20.5, 0, 0, 0.49}}, {0, []float64{40, 0, 0, 0}}, {30, []float64{41, 0, 0, 0}}} {
		modeltest.Near(t, "const_color0", modeltest.EvalCurve(t, color.Curve, tc.frame), tc.want, 1e-6)
	}
	blink := modeltest.Animation(t, f, "EyeBlink")
	if blink.Frames != 245 || blink.Loop != model.LoopRepeat || !equalStrings(blink.Extras["unboundBones"], []string{"Eye", "EyeClose", "EyeHarfClose"}) {
		t.Errorf("EyeBlink: %v frames, %s, unbound %v", blink.Frames, blink.Loop, blink.Extras["unboundBones"])
	}
	res, err := readNXHeader(nxSampleBFRES(t, "BombHei"))
	if err != nil {
		t.Fatal(err)
	}
	es, err := res.nxListEntries(nxBoneVisAnims, nxFBVSSize)
	if err != nil {
		t.Fatal(err)
	}
	v, err := res.readNXFBVS(es[0].Data)
	if err != nil {
		t.Fatal(err)
	}
	if v.Name != "EyeBlink" || !equalStrings(v.Names, []string{"Eye", "EyeClose", "EyeHarfClose"}) || !reflect.DeepEqual(v.Base, []bool{true, false, false}) {
		t.Fatalf("FBVS %s: %v base %v", v.Name, v.Names, v.Base)
	}
	eye := v.Curves[0]
	for frame, want := range map[float64]float64{0: 1, 20.5: 1, 21: 0, 29.9: 0, 30: 1, 129.5: 1, 130: 0, 137: 0} {
		if got := modeltest.EvalCurve(t, eye, frame)[0]; got != want {
			t.Errorf("EyeBlink Eye at %v: %v, want %v", frame, got, want)
		}
	}
}

// BenchmarkDecodeSwitchBombHei decodes BombHei.bfres (300,240 bytes: the
// skinned model, its 6 textures from the embedded BNTX, 14 clips).
func BenchmarkDecodeSwitchBombHei(b *testing.B) {
	data := nxSampleBFRES(b, "BombHei")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(format.BytesInput("BombHei.bfres", data), nil); err != nil {
			b.Fatal(err)
		}
	}
}
