package gltf

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/qmuntal/gltf"

	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// skinFile has a two-bone chain under a plain root, one skinned mesh on a
// root node and a second, mesh-less skin over the same bones.
func skinFile() *model.File {
	id := [4]float64{0, 0, 0, 1}
	one := [3]float64{1, 1, 1}
	ibm := func(tx, ty, tz float64) [16]float64 {
		// A computed inverse whose last row is a rounding hair off 0 0 0 1.
		return [16]float64{1, 0, 0, 1e-17, 0, 1, 0, 0, 0, 0, 1, 0, tx, ty, tz, 1 + 1e-16}
	}
	return &model.File{
		Axes: model.GLTFAxes,
		Nodes: []model.Node{
			{Name: "rig", Parent: -1, Rotation: id, Scale: one},
			{Name: "hip", Parent: 0, Rotation: id, Scale: one, Translation: [3]float64{0, 1, 0}, Kind: "bone"},
			{Name: "knee", Parent: 1, Rotation: id, Scale: one, Translation: [3]float64{0, -0.5, 0}, Kind: "bone"},
			{Name: "body", Parent: -1, Rotation: id, Scale: one, Mesh: "leg", Skin: "legSkin"},
			{Name: "plain", Parent: -1, Rotation: id, Scale: one, Mesh: "rigid"},
		},
		Assets: model.Assets{
			Meshes: []model.Mesh{
				{Name: "leg", Primitives: []model.Primitive{{Mode: model.ModeTriangles,
					Positions: []float32{0, 1, 0, 0, 0.5, 0, 1, 0.5, 0},
					Joints:    []uint16{0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0},
					Weights:   []float32{1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}}}},
				{Name: "rigid", Primitives: []model.Primitive{{Mode: model.ModeTriangles,
					Positions: []float32{0, 0, 0, 1, 0, 0, 0, 1, 0}}}},
			},
			Skins: []model.Skin{
				{Name: "legSkin", Joints: []string{"hip", "knee"}, InverseBind: [][16]float64{ibm(0, -1, 0), ibm(0, -0.5, 0)}, Skeleton: "rig"},
				{Name: "bones", Joints: []string{"knee", "hip"}, InverseBind: [][16]float64{ibm(0, -0.5, 0), ibm(0, -1, 0)}},
			},
		},
	}
}

func TestSkins(t *testing.T) {
	b, err := sample.Bake(skinFile(), sample.Options{})
	if err != nil {
		t.Fatal(err)
	}
	data, _, err := Encode(b, Options{Binary: true})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Skins) != 2 {
		t.Fatalf("%d skins, want 2", len(doc.Skins))
	}
	leg, bones := doc.Skins[0], doc.Skins[1]
	// Joints are node indices in the skin's own order.
	if leg.Name != "legSkin" || len(leg.Joints) != 2 || leg.Joints[0] != 1 || leg.Joints[1] != 2 {
		t.Errorf("legSkin joints %v", leg.Joints)
	}
	if leg.Skeleton == nil || *leg.Skeleton != 0 {
		t.Errorf("legSkin skeleton %v, want node 0 (rig)", leg.Skeleton)
	}
	if bones.Joints[0] != 2 || bones.Joints[1] != 1 || bones.Skeleton != nil {
		t.Errorf("mesh-less skin %+v", bones)
	}
	// Only the node with a skinned mesh refers to a skin.
	for i, n := range doc.Nodes {
		want := i == 3
		if (n.Skin != nil) != want || want && *n.Skin != 0 {
			t.Errorf("node %d %q skin %v", i, n.Name, n.Skin)
		}
	}
	acc := doc.Accessors[*bones.InverseBindMatrices]
	if acc.Type != gltf.AccessorMat4 || acc.ComponentType != gltf.ComponentFloat || acc.Count != 2 {
		t.Fatalf("inverse bind accessor %+v", acc)
	}
	bv := doc.BufferViews[*acc.BufferView]
	if bv.ByteStride != 0 || bv.ByteLength != 2*64 {
		t.Fatalf("inverse bind view %+v", bv)
	}
	raw := doc.Buffers[0].Data[bv.ByteOffset+acc.ByteOffset:]
	var got [32]float32
	for i := range got {
		got[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
	}
	// knee first: translate (0,−0.5,0), the last row exactly 0 0 0 1.
	want := [32]float32{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -0.5, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1}
	if got != want {
		t.Errorf("inverse binds %v\nwant %v", got, want)
	}
}

// A skin's joint is a bone by default: skinFile's joints hip and knee
// (kind bone) have no extras; made a camera, knee writes its kind, and
// with no kind an empty one; the root rig, a bone outside every skin,
// keeps kind bone.
func TestJointKindDefault(t *testing.T) {
	f := skinFile()
	f.Nodes[0].Kind = "bone"
	kinds := func(f *model.File) map[string]any {
		doc := encode(t, f, Options{Binary: true})
		out := map[string]any{}
		for _, n := range doc.Nodes {
			if ex, ok := n.Extras.(map[string]any); ok {
				out[n.Name] = ex["kind"]
			}
		}
		return out
	}
	if got := kinds(f); len(got) != 1 || got["rig"] != "bone" {
		t.Errorf("kinds %v, want only rig: bone", got)
	}
	f.Nodes[2].Kind = "camera"
	if got := kinds(f); got["knee"] != "camera" {
		t.Errorf("kinds %v, want knee: camera", got)
	}
	f.Nodes[2].Kind = ""
	if got, ok := kinds(f)["knee"]; !ok || got != "" {
		t.Errorf("knee kind %v (written %v), want \"\"", got, ok)
	}
}
