package bfres

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/internal/testfiles"
	"github.com/animbake/bake/model"
)

// Animal_Bass.bfres holds the fish model "Bass" (6 bones, 2 shapes skinned
// with 2 weights) and "Bass_Boneless"; converted with its sibling
// Animal_Bass_Animation.bfres it gives the skinned fish and every clip.
func TestSampleBassModel(t *testing.T) {
	var notices []string
	f := decodeSample(t, "Animal_Bass.bfres", &format.Options{Warn: func(s string) { notices = append(notices, s) }})
	if len(f.Meshes) != 2 || len(f.Skins) != 1 || len(f.Materials) != 2 {
		t.Fatalf("%d meshes, %d skins, %d materials", len(f.Meshes), len(f.Skins), len(f.Materials))
	}
	if got := f.Extras["animationFiles"]; !equalStrings(got, []string{"Animal_Bass_Animation.bfres"}) {
		t.Errorf("animation files %v", got)
	}
	names := map[string]bool{}
	for _, a := range f.Animations {
		names[a.Name] = true
	}
	// The 7 FSKA of the animation file, and the model file's own FTXP.
	for _, n := range []string{"Dead", "Jump", "Move", "Peck", "Put_Down", "Wait", "Wait_Ground", "Bass_Color"} {
		if !names[n] {
			t.Errorf("no clip %s", n)
		}
	}
	if len(f.Animations) != 8 {
		t.Errorf("%d clips, want 8", len(f.Animations))
	}
	skin := f.Skins[0]
	if skin.Name != "Bass" || len(skin.Joints) != 6 || skin.Joints[2] != "Head" {
		t.Fatalf("skin %s joints %v", skin.Name, skin.Joints)
	}
	// Vertex and index counts of LOD 0 as the FVTX and FSHP give them.
	for _, c := range []struct {
		name            string
		vertices, index int
	}{{"Model__Mt_Body", 479, 1230}, {"Model__Mt_Eye", 36, 48}} {
		p := meshPrimitive(t, f, c.name)
		if len(p.Positions) != 3*c.vertices || len(p.Indices) != c.index || p.Mode != model.ModeTriangles {
			t.Errorf("%s: %d vertices, %d indices, mode %d", c.name, len(p.Positions)/3, len(p.Indices), p.Mode)
		}
		for v := 0; v < len(p.Weights); v += 4 {
			if s := p.Weights[v] + p.Weights[v+1] + p.Weights[v+2] + p.Weights[v+3]; math.Abs(float64(s)-1) > 1e-6 {
				t.Fatalf("%s vertex %d: weights sum to %v", c.name, v/4, s)
			}
		}
	}
	// Independent check of the decoded positions: the FSHP stores a
	// bounding box (centre, half extent; f32 ×6 at the offset at +0x30) in
	// the space of the shape's first skin bone, here Head for the eyes.
	// Taken through Head's inverse bind matrix (the file's inverse model
	// matrix), the decoded vertices span exactly that box, to the half-float
	// precision of _p0.
	data, err := os.ReadFile(filepath.Join(testfiles.Samples(t, "bfres"), "Animal_Bass.bfres"))
	if err != nil {
		t.Fatal(err)
	}
	rf, err := readHeader(data)
	if err != nil {
		t.Fatal(err)
	}
	models, err := rf.readModelsFull()
	if err != nil {
		t.Fatal(err)
	}
	eye := models[0].Shapes[1]
	if eye.Name != "Model__Mt_Eye" || eye.SkinBones[0] != 2 {
		t.Fatalf("shape %s skin bones %v", eye.Name, eye.SkinBones)
	}
	bp, _, err := rf.offsetAt(eye.Off+0x30, "bounding")
	if err != nil {
		t.Fatal(err)
	}
	var box [6]float64
	for i := range box {
		box[i] = float64(math.Float32frombits(binary.BigEndian.Uint32(data[bp+4*i:])))
	}
	p := meshPrimitive(t, f, "Model__Mt_Eye")
	ib := skin.InverseBind[2]
	lo := [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}
	hi := [3]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	for v := 0; v < len(p.Positions)/3; v++ {
		q := transformPoint(&ib, vec3(p.Positions[3*v:]))
		for k := range 3 {
			lo[k], hi[k] = math.Min(lo[k], q[k]), math.Max(hi[k], q[k])
		}
	}
	for k := range 3 {
		center, half := (lo[k]+hi[k])/2, (hi[k]-lo[k])/2
		if math.Abs(center-box[k]) > 2e-4 || math.Abs(half-box[3+k]) > 2e-4 {
			t.Errorf("eye box axis %d: centre %.5f half %.5f, the file says %.5f %.5f", k, center, half, box[k], box[3+k])
		}
	}
	// Mt_Body is alpha-tested (render state mode 2, test ≥ 0.5), Mt_Eye
	// opaque; both cull back faces.
	for _, m := range f.Materials {
		want := model.AlphaOpaque
		if m.Name == "Mt_Body" {
			want = model.AlphaMask
		}
		if m.AlphaMode != want || m.DoubleSided {
			t.Errorf("material %s: alpha %s, double-sided %v", m.Name, m.AlphaMode, m.DoubleSided)
		}
	}

	// --lod 1 draws the coarser index buffer (270 indices from vertex 358).
	f1 := decodeSample(t, "Animal_Bass.bfres", &format.Options{LOD: 1})
	if p := meshPrimitive(t, f1, "Model__Mt_Body"); len(p.Indices) != 270 || p.Indices[0] < 358 {
		t.Errorf("LOD 1: %d indices, first %d", len(p.Indices), p.Indices[0])
	}
}

func meshPrimitive(t *testing.T, f *model.File, name string) *model.Primitive {
	t.Helper()
	for i := range f.Meshes {
		if f.Meshes[i].Name == name {
			return &f.Meshes[i].Primitives[0]
		}
	}
	t.Fatalf("no mesh %s", name)
	return nil
}

func equalStrings(got any, want []string) bool {
	g, ok := got.([]string)
	if !ok || len(g) != len(want) {
		return false
	}
	for i := range g {
		if g[i] != want[i] {
			return false
		}
	}
	return true
}
