package bfres

import (
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/bfres/bfreswrite"
	"github.com/animbake/bake/internal/testfiles"
	"github.com/animbake/bake/model"
)

// demoModel returns the demo's model file description at a version, for
// tests that break one part of it.
func demoModel(version uint32) *bfreswrite.File {
	f := bfreswrite.DemoModel()
	f.Version = version
	return f
}

// TestModelV3MatchesV4: the demo model written in the 3.x layout (inverse
// model matrices inside the 0x70-byte bones, shorter shader parameters)
// decodes to the same meshes, skin and materials as the 4.5 layout.
func TestModelV3MatchesV4(t *testing.T) {
	decode := func(v uint32) ([]any, error) {
		files, err := Decode(format.BytesInput("Demo.bfres", demoModel(v).Bytes()), nil)
		if err != nil {
			return nil, err
		}
		f := files[0]
		if err := f.Validate(); err != nil {
			return nil, err
		}
		return []any{f.Meshes, f.Skins, f.Nodes}, nil
	}
	a, err := decode(v3)
	if err != nil {
		t.Fatal(err)
	}
	b, err := decode(v4)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Error("the 3.x and 4.5 layouts of the demo model decode differently")
	}
}

// TestBadModel: hostile vertex buffers, shapes, skin tables and materials
// are FormatErrors that name what is wrong, before anything is allocated
// for them.
func TestBadModel(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(m *bfreswrite.Model)
		words  []string
	}{
		{"attribute past its stride", func(m *bfreswrite.Model) { m.VertexBuffers[0].Attribs[3].Offset = 10 }, []string{"_n0", "stride"}},
		{"attribute past its buffer", func(m *bfreswrite.Model) { m.VertexBuffers[0].Sizes = []int{8 * 24, 4 * 24, 12 * 10} }, []string{"_n0", "needs"}},
		{"vertex count past the buffers", func(m *bfreswrite.Model) {
			m.VertexBuffers[2].Count, m.VertexBuffers[2].Sizes = math.MaxInt32, []int{480}
		}, []string{"vertex buffer 2", "vertices"}},
		{"attribute of a missing buffer", func(m *bfreswrite.Model) { m.VertexBuffers[2].Attribs[2].Buffer = 5 }, []string{"_u0", "buffer 5"}},
		{"unknown attribute format", func(m *bfreswrite.Model) { m.VertexBuffers[2].Attribs[1].Format = 0x809 }, []string{"_n0", "10_11_11"}},
		{"index past the vertices", func(m *bfreswrite.Model) { m.Shapes[2].Meshes[0].Indices[5] = 24 }, []string{"Sleeve_L", "index 24"}},
		{"first vertex past the vertices", func(m *bfreswrite.Model) { m.Shapes[3].Meshes[0].FirstVertex = 1 << 30 }, []string{"Sleeve_R", "first vertex"}},
		{"sub-mesh past the index buffer", func(m *bfreswrite.Model) { m.Shapes[0].Meshes[0].SubMeshes = [][2]uint32{{0, 1000}} }, []string{"Body", "sub-mesh"}},
		{"skin index past the palette", func(m *bfreswrite.Model) { m.VertexBuffers[1].Attribs[3].Values[7] = []float64{3} }, []string{"Helmet", "vertex 7", "palette"}},
		{"palette bone past the skeleton", func(m *bfreswrite.Model) { m.RigidMatrices = []uint16{9} }, []string{"matrix 2", "bone 9"}},
		{"shape with a missing material", func(m *bfreswrite.Model) { m.Shapes[1].Material = 7 }, []string{"Helmet", "material 7"}},
		{"shape with a missing vertex buffer", func(m *bfreswrite.Model) { m.Shapes[1].VertexBuffer = 4 }, []string{"Helmet", "vertex buffer 4"}},
		{"primitive type glTF cannot draw", func(m *bfreswrite.Model) { m.Shapes[0].Meshes[1].Primitive = 0x0C }, []string{"Body", "primitive type 0xc"}},
		{"skin count without weights", func(m *bfreswrite.Model) {
			a := m.VertexBuffers[0].Attribs
			m.VertexBuffers[0].Attribs = append(a[:1:1], a[2:]...) // drop _w0
		}, []string{"Body", "_w0"}},
		{"no positions", func(m *bfreswrite.Model) { m.VertexBuffers[2].Attribs = m.VertexBuffers[2].Attribs[1:] }, []string{"Sleeve_L", "_p0"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := demoModel(v4)
			c.mutate(&f.Models[0])
			fe := decodeErr(t, f.Bytes(), nil)
			for _, w := range c.words {
				if !strings.Contains(fe.Error(), w) {
					t.Errorf("error %q does not mention %q", fe, w)
				}
			}
		})
	}
}

// --animations names the animation files of a model file explicitly: the
// Yaz0 copy gives the same clips as the sibling found by name; a file that
// is not there is an error naming it (a sibling found by name is optional).
func TestModelAnimationFiles(t *testing.T) {
	path := filepath.Join(testfiles.DemoDir(t, "bfres"), "Demo.bfres")
	decode := func(opts *format.Options) ([]*model.File, error) {
		in, closer, err := format.OpenFile(path)
		if err != nil {
			t.Fatal(err)
		}
		defer closer.Close()
		return Decode(in, opts)
	}
	files, err := decode(&format.Options{Animations: []string{"Demo_Animation.sbfres"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := files[0].Extras["animationFiles"]; !equalStrings(got, []string{"Demo_Animation.sbfres"}) || len(files[0].Animations) != 5 {
		t.Errorf("animation files %v, %d clips", got, len(files[0].Animations))
	}
	if _, err := decode(&format.Options{Animations: []string{"Nope_Animation.bfres"}}); err == nil || !strings.Contains(err.Error(), "Nope_Animation.bfres") {
		t.Errorf("missing animation file: %v", err)
	}
}

// A skeleton with two root bones still gives glTF a skin whose joints
// share a root: a plain node named after the file goes above both.
func TestModelTwoRoots(t *testing.T) {
	f := demoModel(v4)
	f.Models[0].Bones[3].Parent = -1 // Arm_L becomes a second root
	files, err := Decode(format.BytesInput("Two.bfres", f.Bytes()), nil)
	if err != nil {
		t.Fatal(err)
	}
	m := files[0]
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	if m.Skins[0].Skeleton != "Two" || m.Nodes[0].Name != "Two" || m.Nodes[0].Parent != -1 {
		t.Errorf("skeleton root %q, first node %q", m.Skins[0].Skeleton, m.Nodes[0].Name)
	}
	for _, n := range m.Nodes {
		if (n.Name == "Root" || n.Name == "Arm_L") && n.Parent != 0 {
			t.Errorf("%s has parent %d, want the added root", n.Name, n.Parent)
		}
	}
}

// A shape that draws nothing (no vertices, or no indices at the level of
// detail drawn) is left out with a warning: glTF would read a primitive
// without indices as "draw every vertex".
func TestModelEmptyShape(t *testing.T) {
	f := demoModel(v4)
	f.Models[0].Shapes[1].Meshes[0].Indices = nil
	var notices []string
	files, err := Decode(format.BytesInput("Demo.bfres", f.Bytes()), &format.Options{Warn: func(s string) { notices = append(notices, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if err := files[0].Validate(); err != nil {
		t.Fatal(err)
	}
	if len(files[0].Meshes) != 3 || len(notices) != 1 || !strings.Contains(notices[0], "Helmet draws nothing") {
		t.Errorf("%d meshes, notices %q", len(files[0].Meshes), notices)
	}
}

// Animated bones the skeleton lacks bind to nothing in the game (§6.1: the
// runtime binds by name), so whether the skeleton is the model file's own
// (a bundle) or a model given with --skeleton, their tracks are dropped
// rather than turned into nodes: no node, no channel, one warning per input
// naming them, and each clip lists the ones it animated.
func TestUnboundBonesDropped(t *testing.T) {
	anim := bfreswrite.DemoAnimation()
	// "Wave" gains a skeletal track on Tail and "Blink" (a bone FVIS) a
	// visibility track on Tail and Fin; "Nod" animates only skeleton bones.
	anim.FSKA[0].Bones = append(anim.FSKA[0].Bones, bfreswrite.BoneAnim{Name: "Tail", Flags: bfreswrite.BaseTranslate, Base: []float32{1, 2, 3}})
	anim.FVIS[0].Names = append(anim.FVIS[0].Names, "Tail", "Fin")
	anim.FVIS[0].Base = append(anim.FVIS[0].Base, true, false)
	modelData, animData, baseData := bfreswrite.DemoModel().Bytes(), anim.Bytes(), bfreswrite.DemoAnimation().Bytes()
	for _, c := range []struct {
		name     string
		in, base *format.Input
		opts     func(warn func(string)) *format.Options
	}{
		{"bundle", siblingInput("dir/Demo.bfres", modelData, map[string][]byte{"Demo_Animation.bfres": animData}),
			siblingInput("dir/Demo.bfres", modelData, map[string][]byte{"Demo_Animation.bfres": baseData}),
			func(warn func(string)) *format.Options { return &format.Options{Warn: warn} }},
		{"--skeleton", siblingInput("dir/Other_Animation.bfres", animData, map[string][]byte{"Demo.bfres": modelData}),
			siblingInput("dir/Other_Animation.bfres", baseData, map[string][]byte{"Demo.bfres": modelData}),
			func(warn func(string)) *format.Options { return &format.Options{Warn: warn, Skeleton: "Demo.bfres"} }},
	} {
		t.Run(c.name, func(t *testing.T) {
			var warns []string
			files, err := Decode(c.in, c.opts(func(s string) { warns = append(warns, s) }))
			if err != nil {
				t.Fatal(err)
			}
			f := files[0]
			if err := f.Validate(); err != nil {
				t.Fatal(err)
			}
			for _, n := range f.Nodes {
				if n.Name == "Tail" || n.Name == "Fin" {
					t.Errorf("node %s invented for an unbound bone", n.Name)
				}
			}
			want := map[string][]string{"Wave": {"Tail"}, "Blink": {"Fin", "Tail"}}
			for _, a := range f.Animations {
				got, _ := a.Extras["unboundBones"].([]string)
				if !reflect.DeepEqual(got, want[a.Name]) {
					t.Errorf("%s unboundBones %v, want %v", a.Name, got, want[a.Name])
				}
				for _, ch := range a.Channels {
					if ch.Node == "Tail" || ch.Node == "Fin" {
						t.Errorf("%s: %s channel on unbound %s", a.Name, ch.Path, ch.Node)
					}
				}
			}
			// Apart from the lists, the output is the one the animation
			// without the unbound tracks gives.
			base, err := Decode(c.base, c.opts(func(string) {}))
			if err != nil {
				t.Fatal(err)
			}
			for i := range f.Animations {
				delete(f.Animations[i].Extras, "unboundBones")
			}
			if !reflect.DeepEqual(f.Nodes, base[0].Nodes) || !reflect.DeepEqual(f.Animations, base[0].Animations) {
				t.Error("nodes or clips differ from those of the animation without the unbound tracks")
			}
			n := 0
			for _, w := range warns {
				if strings.Contains(w, "not in the skeleton") {
					n++
					if !strings.Contains(w, "2 animated bones") || !strings.Contains(w, "model Demo") || !strings.Contains(w, "Fin, Tail") {
						t.Errorf("warning %q does not name the 2 unbound bones Fin, Tail of model Demo", w)
					}
				}
			}
			if n != 1 {
				t.Errorf("%d warnings about unbound bones, want 1: %q", n, warns)
			}
		})
	}
}
