package fidelity

import (
	"math"
	"testing"

	"github.com/animbake/bake/model"
)

// A two-bone skin worked by hand: A at the origin, B one metre up (IBM a
// translation by −1 in y), C a bone without vertices, D a rigid mesh.
func TestNodeDistancesTwoBones(t *testing.T) {
	nodes := []model.Node{
		{Name: "A", Parent: -1},
		{Name: "B", Parent: 0},
		{Name: "C", Parent: 1},
		{Name: "skinned", Parent: -1, Mesh: "body", Skin: "skin"},
		{Name: "D", Parent: -1, Mesh: "rock"},
	}
	id := [16]float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}
	down := id
	down[13] = -1
	assets := &model.Assets{
		Skins: []model.Skin{{Name: "skin", Joints: []string{"A", "B", "C"}, InverseBind: [][16]float64{id, down, id}}},
		Meshes: []model.Mesh{
			{Name: "body", Primitives: []model.Primitive{{
				Positions: []float32{0.1, 0, 0, 0, 1.5, 0.2, 0.3, 0.4, 0},
				// v0: A alone; v1: A ¼, B ¾; v2: B alone, C with weight 0.
				Joints:  []uint16{0, 0, 0, 0, 0, 1, 0, 0, 1, 2, 0, 0},
				Weights: []float32{1, 0, 0, 0, 0.25, 0.75, 0, 0, 1, 0, 0, 0},
			}}},
			{Name: "rock", Primitives: []model.Primitive{{Positions: []float32{3, 4, 0, 1, 0, 0}}}},
		},
	}
	d := NodeDistances(nodes, assets, 0.03)
	// A: the farthest of v0 (0.1) and v1 (|(0, 1.5, 0.2)| = √2.29, whatever
	// its weight); B: v1 at |(0, 0.5, 0.2)| = √0.29 and v2 at
	// |(0.3, −0.6, 0)| = √0.45; C moves nothing (weight 0): the shell; the
	// skinned mesh's own node moves nothing; D: |(3, 4, 0)| = 5.
	want := []float64{math.Sqrt(2.29), math.Sqrt(0.45), 0.03, 0.03, 5}
	for i, w := range want {
		if math.Abs(d.Of[i]-w) > 1e-6 {
			t.Errorf("%s: distance %g, want %g", nodes[i].Name, d.Of[i], w)
		}
	}
	if d.Mesh != 3 || d.Source() != "mesh" {
		t.Errorf("mesh nodes %d (%s), want 3", d.Mesh, d.Source())
	}
	if s := NodeDistances(nodes, &model.Assets{}, 0); s.Mesh != 0 || s.Of[0] != DefaultShell {
		t.Errorf("without a mesh: %+v, want the 3 cm shell", s)
	}
}
