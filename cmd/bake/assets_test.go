package main

import (
	"testing"

	"github.com/animbake/bake/model"
)

// A strip of 5 indices draws 3 triangles, a fan of 4 draws 2, a list of 6
// draws 2, lines none; describeAssets adds them per mesh.
func TestDescribeAssets(t *testing.T) {
	pos := make([]float32, 3*6)
	f := &model.File{
		Nodes: []model.Node{{Name: "a", Parent: -1, Mesh: "m"}, {Name: "b", Parent: -1, Mesh: "m"}},
		Assets: model.Assets{
			Meshes: []model.Mesh{{Name: "m", Primitives: []model.Primitive{
				{Positions: pos, Indices: []uint32{0, 1, 2, 3, 4}, Mode: model.ModeTriangleStrip},
				{Positions: pos, Indices: []uint32{0, 1, 2, 3}, Mode: model.ModeTriangleFan},
				{Positions: pos, Mode: model.ModeTriangles},
				{Positions: pos, Mode: model.ModeLines},
			}}},
			Materials: []model.Material{{Name: "mat", BaseColorTexture: model.TextureRef{Texture: "t"}}},
			Textures:  []model.Texture{{Name: "t", Image: model.Image{URI: "Textures/t.bmp"}}},
		},
	}
	var lf listFile
	describeAssets(&lf, f)
	m := lf.Meshes[0]
	if m.Vertices != 24 || m.Triangles != 3+2+2 || len(m.Nodes) != 2 {
		t.Errorf("mesh %+v", m)
	}
	if lf.Textures[0].Image != "missing Textures/t.bmp" || lf.Materials[0].Textures[0] != "t" {
		t.Errorf("texture %+v material %+v", lf.Textures[0], lf.Materials[0])
	}
}

func TestDropMeshes(t *testing.T) {
	f := &model.File{
		Nodes: []model.Node{{Name: "a", Parent: -1, Mesh: "m", Skin: "s", Camera: "c"}},
		Assets: model.Assets{Meshes: []model.Mesh{{Name: "m"}}, Skins: []model.Skin{{Name: "s"}},
			Cameras: []model.Camera{{Name: "c"}}},
	}
	dropMeshes(f)
	if len(f.Meshes) != 0 || len(f.Cameras) != 0 || len(f.Skins) != 1 || f.Nodes[0].Mesh != "" || f.Nodes[0].Camera != "" {
		t.Errorf("after --no-meshes: %+v %+v", f.Assets, f.Nodes[0])
	}
}
