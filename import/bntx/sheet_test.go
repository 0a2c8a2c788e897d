package bntx_test

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/bntx/bntxwrite"
	"github.com/animbake/bake/internal/modeltest"
	"github.com/animbake/bake/model"
)

// TestTextureSheet converts a standalone BNTX of two RGBA8 textures and
// checks the texture sheet worked out by hand (docs/formats/bntx.md):
// "wide", 4×2 and opaque, is a quad 4/2 = 2 m wide and 1 m high at the
// origin, drawn opaque; "mask", 2×2 with one pixel of alpha 0, is a 1 m
// square at x = 2 + 0.1 (the gap), drawn blended. Each quad's corners
// run bottom-left, bottom-right, top-right, top-left, so the top-left
// corner (0, 1, 0) takes texture coordinate (0, 0), the image's first
// pixel, and the triangles 0 1 2 and 0 2 3 turn counter-clockwise seen
// from +Z, where the normal points.
func TestTextureSheet(t *testing.T) {
	opaque := bytes.Repeat([]byte{255}, 4*2*4)
	mask := []byte{9, 9, 9, 255, 9, 9, 9, 0, 9, 9, 9, 255, 9, 9, 9, 255}
	data := write(t, bntxwrite.File{Name: "sheet", Textures: []bntxwrite.Texture{
		{Name: "wide", Format: 0x0B01, Width: 4, Height: 2, Packed: opaque},
		{Name: "mask", Format: 0x0B01, Width: 2, Height: 2, Packed: mask},
	}})
	_, files, err := format.Decode(format.BytesInput("sheet.bntx", data), &format.Options{})
	if err != nil {
		t.Fatal(err)
	}
	modeltest.CheckDecoded(t, files, func(*model.Animation) []float64 { return nil })
	f := files[0]
	if len(f.Nodes) != 2 || len(f.Assets.Meshes) != 2 || len(f.Assets.Materials) != 2 || len(f.Assets.Textures) != 2 {
		t.Fatalf("%d nodes, %d meshes, %d materials, %d textures; want 2 of each",
			len(f.Nodes), len(f.Assets.Meshes), len(f.Assets.Materials), len(f.Assets.Textures))
	}
	for i, want := range []struct {
		name  string
		x     float64
		w     float32
		alpha string
	}{{"wide", 0, 2, model.AlphaOpaque}, {"mask", 2.1, 1, model.AlphaBlend}} {
		n := f.Nodes[i]
		if n.Name != want.name || n.Mesh != want.name || n.Parent != -1 || n.Translation != [3]float64{want.x, 0, 0} ||
			n.Rotation != [4]float64{0, 0, 0, 1} || n.Scale != [3]float64{1, 1, 1} {
			t.Errorf("node %d = %+v, want %s at x = %g", i, n, want.name, want.x)
		}
		m := f.Assets.Meshes[i]
		if m.Name != want.name || len(m.Primitives) != 1 {
			t.Fatalf("mesh %d = %+v", i, m)
		}
		p := m.Primitives[0]
		w := want.w
		if !reflect.DeepEqual(p.Positions, []float32{0, 0, 0, w, 0, 0, w, 1, 0, 0, 1, 0}) ||
			!reflect.DeepEqual(p.Normals, []float32{0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1}) ||
			!reflect.DeepEqual(p.UVs, [][]float32{{0, 1, 1, 1, 1, 0, 0, 0}}) ||
			!reflect.DeepEqual(p.Indices, []uint32{0, 1, 2, 0, 2, 3}) || p.Mode != model.ModeTriangles || p.Material != want.name {
			t.Errorf("mesh %s primitive = %+v", want.name, p)
		}
		mat := f.Assets.Materials[i]
		if mat.Name != want.name || mat.BaseColorTexture != (model.TextureRef{Texture: want.name}) ||
			mat.BaseColor != [4]float64{1, 1, 1, 1} || mat.Metallic != 0 || mat.Roughness != 1 ||
			mat.AlphaMode != want.alpha || !mat.DoubleSided || !mat.Unlit {
			t.Errorf("material %d = %+v, want %s drawing its texture, %s", i, mat, want.name, want.alpha)
		}
	}
}
