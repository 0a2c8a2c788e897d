package bfreswrite_test

import (
	"math"
	"testing"

	"github.com/animbake/bake/internal/modeltest"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// bounds returns the per-axis minimum and maximum of a primitive's positions.
func bounds(p *model.Primitive) (lo, hi []float64) {
	lo = []float64{math.Inf(1), math.Inf(1), math.Inf(1)}
	hi = []float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	for v := 0; v < len(p.Positions)/3; v++ {
		for k := range 3 {
			x := float64(p.Positions[3*v+k])
			lo[k], hi[k] = math.Min(lo[k], x), math.Max(hi[k], x)
		}
	}
	return lo, hi
}

func mesh(t *testing.T, f *model.File, name string) *model.Primitive {
	t.Helper()
	for i := range f.Meshes {
		if f.Meshes[i].Name == name {
			return &f.Meshes[i].Primitives[0]
		}
	}
	t.Fatalf("no mesh %q", name)
	return nil
}

// The demo model's shapes, each skinned one of BFRES's three ways, in
// model space with one skin (values from the bind pose in demo.go and the
// boxes in demomesh.go, worked out by hand).
func TestDemoModelMeshes(t *testing.T) {
	f := decodeDemo(t, "Demo.bfres")
	if len(f.Meshes) != 4 || len(f.Skins) != 1 || len(f.Materials) != 3 {
		t.Fatalf("%d meshes, %d skins, %d materials", len(f.Meshes), len(f.Skins), len(f.Materials))
	}
	skin := f.Skins[0]
	if skin.Name != "Demo" || len(skin.Joints) != 5 || skin.Joints[1] != "Spine" || skin.Skeleton != "Root" {
		t.Fatalf("skin %+v", skin)
	}
	// Spine's inverse bind matrix is the file's: a translation by −1 in y.
	modeltest.Near(t, "Spine inverse bind", skin.InverseBind[1][:],
		[]float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1}, 0)
	for _, n := range []string{"Body", "Helmet", "Sleeve_L", "Sleeve_R"} {
		node := modeltest.Node(t, f, n)
		if node.Mesh != n || node.Skin != "Demo" || node.Parent != -1 {
			t.Errorf("node %s: mesh %q skin %q parent %d", n, node.Mesh, node.Skin, node.Parent)
		}
	}

	// Body (skin count 2): already in model space; 6 faces × 4 vertices,
	// LOD 0 draws 12 triangles; bottom vertices weight 1 on Root, top ones
	// 204/255 on Spine and 51/255 on Root (largest first).
	body := mesh(t, f, "Body")
	if len(body.Positions) != 3*24 || len(body.Indices) != 36 || body.Mode != model.ModeTriangles {
		t.Fatalf("Body: %d vertices, %d indices, mode %d", len(body.Positions)/3, len(body.Indices), body.Mode)
	}
	lo, hi := bounds(body)
	modeltest.Near(t, "Body min", lo, []float64{-0.25, 0, -0.125}, 0)
	modeltest.Near(t, "Body max", hi, []float64{0.25, 1.5, 0.125}, 0)
	for v := range 24 {
		j, w := body.Joints[4*v:4*v+4], body.Weights[4*v:4*v+4]
		if body.Positions[3*v+1] == 0 {
			if j[0] != 0 || w[0] != 1 || w[1] != 0 {
				t.Errorf("Body vertex %d (bottom): joints %v weights %v", v, j, w)
			}
		} else {
			if j[0] != 1 || j[1] != 0 {
				t.Errorf("Body vertex %d (top): joints %v", v, j)
			}
			modeltest.Near(t, "Body top weights", []float64{float64(w[0]), float64(w[1])}, []float64{0.8, 0.2}, 1e-6)
		}
	}
	// The first face is +z: normal (0, 0, 1), tangent (1, 0, 0, +1), UVs
	// (0, 1) (1, 1) (1, 0) (0, 0) at its corners (v down, glTF's way).
	modeltest.Near(t, "Body normal", []float64{float64(body.Normals[0]), float64(body.Normals[1]), float64(body.Normals[2])}, []float64{0, 0, 1}, 0)
	modeltest.Near(t, "Body tangent", []float64{float64(body.Tangents[0]), float64(body.Tangents[1]), float64(body.Tangents[2]), float64(body.Tangents[3])}, []float64{1, 0, 0, 1}, 0)
	var uv []float64
	for _, x := range body.UVs[0][:8] {
		uv = append(uv, float64(x))
	}
	modeltest.Near(t, "Body UVs", uv, []float64{0, 1, 1, 1, 1, 0, 0, 0}, 0)

	// Helmet (skin count 1, rigid palette matrix of Head): stored in Head's
	// space, moved by Head's bind world matrix, a translation to (0, 1.6, 0).
	helmet := mesh(t, f, "Helmet")
	lo, hi = bounds(helmet)
	modeltest.Near(t, "Helmet min", lo, []float64{-0.2, 1.6, -0.2}, 1e-6)
	modeltest.Near(t, "Helmet max", hi, []float64{0.2, 2.0, 0.2}, 1e-6)
	if helmet.Joints[0] != 2 || helmet.Weights[0] != 1 {
		t.Errorf("Helmet vertex 0: joints %v weights %v", helmet.Joints[:4], helmet.Weights[:4])
	}

	// Sleeves (skin count 0) hang on Arm_L at (0.4, 1.5, 0) turned −π/2
	// about z, which maps the bone's (x, y) to (y, −x): the box x ±0.0625,
	// y 0…0.75 lands on x 0.4…1.15, y 1.5 ∓ 0.0625; Arm_R mirrors it.
	for _, c := range []struct {
		name   string
		joint  uint16
		lo, hi []float64
	}{
		{"Sleeve_L", 3, []float64{0.4, 1.4375, -0.0625}, []float64{1.15, 1.5625, 0.0625}},
		{"Sleeve_R", 4, []float64{-1.15, 1.4375, -0.0625}, []float64{-0.4, 1.5625, 0.0625}},
	} {
		p := mesh(t, f, c.name)
		lo, hi := bounds(p)
		modeltest.Near(t, c.name+" min", lo, c.lo, 1e-6)
		modeltest.Near(t, c.name+" max", hi, c.hi, 1e-6)
		if p.Joints[0] != c.joint || p.Weights[0] != 1 {
			t.Errorf("%s: joint %d weight %v", c.name, p.Joints[0], p.Weights[0])
		}
	}

	// Materials: Body opaque and culled, Head alpha-tested at 0.5 (≥),
	// Arm drawn on both sides (render info "both").
	for _, c := range []struct {
		name, alpha string
		cutoff      float64
		double      bool
	}{{"Body", model.AlphaOpaque, 0, false}, {"Head", model.AlphaMask, 0.5, false}, {"Arm", model.AlphaOpaque, 0, true}} {
		for _, m := range f.Materials {
			if m.Name == c.name && (m.AlphaMode != c.alpha || m.AlphaCutoff != c.cutoff || m.DoubleSided != c.double) {
				t.Errorf("material %s: alpha %s %v, double-sided %v", m.Name, m.AlphaMode, m.AlphaCutoff, m.DoubleSided)
			}
		}
	}
}

// Bundled with the model, the visibility animations hide shape nodes: the
// bone visibility of Head hides the Helmet (the shape on bone Head), the
// material visibility of Arm hides both sleeves; the texture-SRT channel
// names the material Body and its base-colour texture.
func TestDemoModelAnimationTargets(t *testing.T) {
	f := decodeDemo(t, "Demo.bfres")
	// _a0 samplers bind the FTEX of the model file as base colour; the
	// texture takes the first material's sampler: Body's wraps and filters
	// bilinear, Head's clamps (GX2 clamp 2) with point filtering.
	for _, c := range []struct{ mat, tex string }{{"Body", "demo_alb"}, {"Head", "demo_mask"}, {"Arm", "demo_alb"}} {
		for _, m := range f.Materials {
			if m.Name == c.mat && m.BaseColorTexture.Texture != c.tex {
				t.Errorf("material %s: base colour texture %q, want %q", m.Name, m.BaseColorTexture.Texture, c.tex)
			}
			// Scroll animates Body's tex_srt0, stored at scale (2, 1): that
			// is the texture's rest transform.
			if r := m.BaseColorTexture; m.Name == "Body" && (!r.Transform || r.Scale != [2]float64{2, 1} || r.Offset != [2]float64{} || r.Rotation != 0) {
				t.Errorf("Body's base colour texture transform %+v, want scale (2, 1), animated", r)
			}
		}
	}
	for _, tex := range f.Textures {
		want := [4]int{model.WrapRepeat, model.WrapRepeat, model.FilterLinear, model.FilterLinear}
		if tex.Name == "demo_mask" {
			want = [4]int{model.WrapClampToEdge, model.WrapClampToEdge, model.FilterNearest, model.FilterNearest}
		}
		if got := [4]int{tex.WrapS, tex.WrapT, tex.MinFilter, tex.MagFilter}; got != want {
			t.Errorf("texture %s sampler %v, want %v", tex.Name, got, want)
		}
	}
	blink := modeltest.Animation(t, f, "Blink")
	for _, c := range []struct{ frame, want float64 }{{0, 1}, {10, 0}, {20, 1}} {
		modeltest.Near(t, "Helmet visibility", modeltest.Eval(t, blink, "Helmet", model.PathVisibility, c.frame), []float64{c.want}, 0)
	}
	hide := modeltest.Animation(t, f, "Hide")
	for _, n := range []string{"Sleeve_L", "Sleeve_R"} {
		modeltest.Near(t, n+" visibility 14", modeltest.Eval(t, hide, n, model.PathVisibility, 14), []float64{1}, 0)
		modeltest.Near(t, n+" visibility 15", modeltest.Eval(t, hide, n, model.PathVisibility, 15), []float64{0}, 0)
	}
	scroll := modeltest.Animation(t, f, "Scroll")
	ch := modeltest.Channel(t, scroll, "Body", model.PathUVOffset)
	if ch.Material != "Body" || ch.TextureSlot != "" {
		t.Errorf("Scroll uvOffset targets material %q slot %q", ch.Material, ch.TextureSlot)
	}
}

// Skinning the Helmet with the skin's joints posed by Nod at frame 20
// (Head turned π/4 about x, Spine lowered to 0.95) puts each vertex where
// Head's world matrix puts the cube's corner in Head's space: the rigid
// vertices reach the runtime's world × vertex through the one skin.
func TestDemoRigidSkinning(t *testing.T) {
	f := decodeDemo(t, "Demo.bfres")
	clip, err := sample.CompileClip(modeltest.Animation(t, f, "Nod"))
	if err != nil {
		t.Fatal(err)
	}
	world := clip.WorldMatrices(f, 20, sample.NewConverter(f.Axes))
	index := map[string]int{}
	for i, n := range f.Nodes {
		index[n.Name] = i
	}
	skin := f.Skins[0]
	head := world[index["Head"]]
	p := mesh(t, f, "Helmet")
	// The cube in Head's space, as demomesh.go builds it: face +z first,
	// corners (−0.2, 0, 0.2), (0.2, 0, 0.2), (0.2, 0.4, 0.2), (−0.2, 0.4, 0.2).
	local := [][3]float64{{-0.2, 0, 0.2}, {0.2, 0, 0.2}, {0.2, 0.4, 0.2}, {-0.2, 0.4, 0.2}}
	for v, l := range local {
		var got [3]float64
		for k := range 4 {
			w := float64(p.Weights[4*v+k])
			if w == 0 {
				continue
			}
			j := p.Joints[4*v+k]
			m := sample.MatMul(&world[index[skin.Joints[j]]], &skin.InverseBind[j])
			q := [3]float64{float64(p.Positions[3*v]), float64(p.Positions[3*v+1]), float64(p.Positions[3*v+2])}
			for r := range 3 {
				got[r] += w * (m[r]*q[0] + m[4+r]*q[1] + m[8+r]*q[2] + m[12+r])
			}
		}
		var want [3]float64
		for r := range 3 {
			want[r] = head[r]*l[0] + head[4+r]*l[1] + head[8+r]*l[2] + head[12+r]
		}
		modeltest.Near(t, "Helmet vertex", got[:], want[:], 1e-6)
	}
}
