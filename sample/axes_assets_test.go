package sample

import (
	"slices"
	"testing"

	"github.com/animbake/bake/model"
)

// A mirroring basis (Z flipped, axes.md §0.1 for left-handed engines) must
// reverse every triangle, or faces turn inside out. Worked by hand: the
// strip 0 1 2 3 4 draws (0,1,2), (2,1,3), (2,3,4); reversed that is
// (0,2,1), (2,3,1), (2,4,3). A fan 0 1 2 3 draws (0,1,2), (0,2,3).
func TestFlipWinding(t *testing.T) {
	for _, c := range []struct {
		name string
		in   []uint32
		mode int
		n    int
		want []uint32
	}{
		{"list", []uint32{0, 1, 2, 2, 1, 3}, model.ModeTriangles, 4, []uint32{0, 2, 1, 2, 3, 1}},
		{"unindexed list", nil, model.ModeTriangles, 3, []uint32{0, 2, 1}},
		{"strip", []uint32{0, 1, 2, 3, 4}, model.ModeTriangleStrip, 5, []uint32{0, 2, 1, 2, 3, 1, 2, 4, 3}},
		{"strip with a degenerate join", []uint32{0, 1, 2, 2, 3, 4}, model.ModeTriangleStrip, 5, []uint32{0, 2, 1, 3, 4, 2}},
		{"fan", []uint32{0, 1, 2, 3}, model.ModeTriangleFan, 4, []uint32{0, 2, 1, 0, 3, 2}},
	} {
		got, mode := flipWinding(c.in, c.mode, c.n)
		if mode != model.ModeTriangles || !slices.Equal(got, c.want) {
			t.Errorf("%s: got %v mode %d, want %v triangles", c.name, got, mode, c.want)
		}
	}
}

// Positions take k·C, normals C only, and a tangent's w flips with a
// mirror: with C = diag(1,1,-1) and k = 0.5, (2,4,6) → (1,2,-3).
func TestConvertAssets(t *testing.T) {
	cv := NewConverter(model.Axes{Basis: [9]float64{1, 0, 0, 0, 1, 0, 0, 0, -1}, Scale: 0.5})
	in := model.Assets{Meshes: []model.Mesh{{Name: "m", Primitives: []model.Primitive{{
		Positions: []float32{2, 4, 6, 0, 0, 0, 1, 1, 1},
		Normals:   []float32{0, 0, 1, 0, 1, 0, 1, 0, 0},
		Tangents:  []float32{0, 0, 1, 1, 1, 0, 0, 1, 1, 0, 0, -1},
		Mode:      model.ModeTriangles,
	}}}}}
	out := cv.Assets(&in)
	p := out.Meshes[0].Primitives[0]
	if !slices.Equal(p.Positions, []float32{1, 2, -3, 0, 0, 0, 0.5, 0.5, -0.5}) {
		t.Errorf("positions %v", p.Positions)
	}
	if !slices.Equal(p.Normals, []float32{0, 0, -1, 0, 1, 0, 1, 0, 0}) {
		t.Errorf("normals %v", p.Normals)
	}
	if !slices.Equal(p.Tangents, []float32{0, 0, -1, -1, 1, 0, 0, -1, 1, 0, 0, 1}) {
		t.Errorf("tangents %v", p.Tangents)
	}
	if !slices.Equal(p.Indices, []uint32{0, 2, 1}) {
		t.Errorf("indices %v", p.Indices)
	}
	if in.Meshes[0].Primitives[0].Positions[2] != 6 {
		t.Error("the input was changed")
	}
}
