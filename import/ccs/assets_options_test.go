package ccs

import (
	"math"
	"strings"
	"testing"

	"github.com/animbake/bake/format"
	w "github.com/animbake/bake/import/ccs/ccswrite"
	"github.com/animbake/bake/import/ccs/ccswrite/demogen/ccsdemo"
	"github.com/animbake/bake/internal/modeltest"
	"github.com/animbake/bake/model"
)

func decodeWith(t *testing.T, data []byte, opts format.Options) *model.File {
	t.Helper()
	opts.Warn = func(m string) {
		if !strings.Contains(m, "bone-local copies lie") { // the seed's vertex 2, on purpose
			t.Errorf("notice: %s", m)
		}
	}
	files, err := Decode(format.BytesInput("a.ccs", data), &opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := files[0].Validate(); err != nil {
		t.Fatal(err)
	}
	return files[0]
}

// Shadow models stay out by default; --shadows hangs them on a child node
// "<object>:shadow" with their triangle list. --no-meshes keeps the skins
// and nothing else of the assets.
func TestShadowsAndNoMeshes(t *testing.T) {
	data := assetSeed()
	plain := decodeWith(t, data, format.Options{})
	for _, m := range plain.Meshes {
		if m.Name == "MDL_box_s" {
			t.Errorf("shadow mesh without --shadows")
		}
	}
	f := decodeWith(t, data, format.Options{Shadows: true})
	var shadow *model.Node
	for i := range f.Nodes {
		if f.Nodes[i].Name == "OBJ_box:shadow" {
			shadow = &f.Nodes[i]
		}
	}
	if shadow == nil || shadow.Mesh != "MDL_box_s" || shadow.Parent < 0 || f.Nodes[shadow.Parent].Name != "OBJ_box" {
		t.Fatalf("shadow node %+v", shadow)
	}
	for _, m := range f.Meshes {
		if m.Name == "MDL_box_s" && (len(m.Primitives) != 1 || !equalU32(m.Primitives[0].Indices, []uint32{0, 1, 2, 2, 1, 3})) {
			t.Errorf("shadow mesh %+v", m.Primitives)
		}
	}
	bare := decodeWith(t, data, format.Options{NoMeshes: true})
	if len(bare.Meshes)+len(bare.Materials)+len(bare.Textures)+len(bare.Cameras)+len(bare.Lights) != 0 || len(bare.Skins) != 1 {
		t.Errorf("--no-meshes: %d meshes, %d materials, %d textures, %d skins", len(bare.Meshes), len(bare.Materials), len(bare.Textures), len(bare.Skins))
	}
	for _, n := range bare.Nodes {
		if n.Mesh != "" {
			t.Errorf("--no-meshes: node %s has mesh %s", n.Name, n.Mesh)
		}
	}
}

// The glTF skin reproduces the engine's blend in every pose when each
// joint's inverse bind takes the stored bind-pose vertex back to that
// joint's bone-local copy: InverseBindᵢ·v = pᵢ for every copy of every
// vertex of the demo arm, whose copies name one point (the asset seed's
// vertex 2 does not, on purpose: there glTF's blend and the engine's
// differ away from the bind pose, docs/formats/ccs.md §9.1).
func TestSkinMatchesCopies(t *testing.T) {
	later := ccsdemo.Files()[2].Data // DATA.BIN; its third member is "later"
	members, err := SplitMembers(later, 1<<24, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, data := range [][]byte{members[2].Data} {
		s, err := ReadScene(data, nil)
		if err != nil {
			t.Fatal(err)
		}
		a, err := s.ReadAssets()
		if err != nil {
			t.Fatal(err)
		}
		f, err := Convert(s, nil)
		if err != nil {
			t.Fatal(err)
		}
		sk := f.Skins[0]
		var raw *Model
		for _, m := range a.Models {
			if m.Type&ModelDeformable != 0 {
				raw = m
			}
		}
		var prim *model.Primitive
		for i := range f.Meshes {
			if f.Meshes[i].Name == s.Index.ObjectName(raw.ID) {
				prim = &f.Meshes[i].Primitives[0]
			}
		}
		checked := 0
		for v, infs := range raw.Meshes[0].Influences {
			pos := [3]float32{prim.Positions[3*v], prim.Positions[3*v+1], prim.Positions[3*v+2]}
			for _, inf := range infs {
				got := transformPoint(&sk.InverseBind[inf.Node], pos)
				for k := range 3 {
					if math.Abs(got[k]-float64(inf.Position[k])) > 1e-4 {
						t.Errorf("vertex %d joint %d: InverseBind·v = %v, copy %v", v, inf.Node, got, inf.Position)
						break
					}
				}
				checked++
			}
		}
		if checked < 4 {
			t.Errorf("only %d copies checked", checked)
		}
	}
}

// Two objects draw one model and material; a clip fades only OBJ_b (1 →
// 0 over 10 frames). OBJ_b gets its own copies (MDL_q@OBJ_b with
// MAT_q@OBJ_b) whose alpha the clip drives; OBJ_a keeps MDL_q and MAT_q,
// which stays opaque and unanimated. A clip of constant transparency 1
// (F_Obj's default) isolates nothing.
func TestFadeIsolatesSharedMaterials(t *testing.T) {
	b := w.New("fade", 0x110)
	oa := b.Object("OBJ_a", "a.max")
	ob := b.Object("OBJ_b", "a.max")
	mdl := b.Object("MDL_q", "a.max")
	mat := b.Object("MAT_q", "a.max")
	anm := b.Object("ANM_fade", "a.max")
	b.ObjectFull(oa, 0, mdl, 0)
	b.ObjectFull(ob, 0, mdl, 0)
	b.Material(mat, 0, 1, 0, 0)
	b.RigidModel(mdl, 4096, 0, w.RigidMesh{Material: mat, Pos: [][3]int16{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}},
		Normal: [][4]int8{{0, 0, 64, 1}, {0, 0, 64, 1}, {0, 0, 64, 0}}, Color: make([][4]byte, 3), UV: make([][2]int16, 3)})
	b.Anime(anm, 11, false, []w.Record{
		w.ObjCtrl(ob, w.Absent, w.Absent, w.Absent, w.Keyed(w.K(0, 1), w.K(10, 0))),
		w.ObjCtrl(oa, w.Absent, w.Absent, w.Absent, w.Const(1)),
	})
	f := mustDecode(t, b.Bytes())
	nodes := map[string]string{}
	for _, n := range f.Nodes {
		nodes[n.Name] = n.Mesh
	}
	if nodes["OBJ_a"] != "MDL_q" || nodes["OBJ_b"] != "MDL_q@OBJ_b" {
		t.Fatalf("meshes on nodes %v", nodes)
	}
	mats := map[string]model.Material{}
	for _, m := range f.Materials {
		mats[m.Name] = m
	}
	if mats["MAT_q"].AlphaMode != "" || mats["MAT_q@OBJ_b"].AlphaMode != model.AlphaBlend {
		t.Errorf("alpha modes %q, %q", mats["MAT_q"].AlphaMode, mats["MAT_q@OBJ_b"].AlphaMode)
	}
	a := modeltest.Animation(t, f, "ANM_fade")
	for _, c := range a.Channels {
		if c.Material == "MAT_q" {
			t.Errorf("the shared material is animated: %+v", c)
		}
	}
	modeltest.Near(t, "copy's alpha at 5", modeltest.Eval(t, a, "MAT_q@OBJ_b", model.PathAlpha, 5), []float64{0.5}, 1e-7)
}
