package bfres

import (
	"reflect"
	"testing"

	"github.com/animbake/bake/model"
)

// Quads split into two triangles sharing the first corner; a quad strip
// gives two triangles per quad (0 1 3, 0 3 2 for the quad 0 1 3 2); an
// incomplete trailing quad is dropped.
func TestDrawIndicesQuads(t *testing.T) {
	q := ShapeMesh{Primitive: primQuads, Indices: []uint32{0, 1, 2, 3, 4, 5, 6, 7, 8}}
	idx, mode := q.drawIndices()
	if want := []uint32{0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7}; !reflect.DeepEqual(idx, want) || mode != model.ModeTriangles {
		t.Errorf("quads: %v mode %d", idx, mode)
	}
	s := ShapeMesh{Primitive: primQuadStrip, Indices: []uint32{0, 1, 2, 3, 4, 5}}
	idx, _ = s.drawIndices()
	if want := []uint32{0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4}; !reflect.DeepEqual(idx, want) {
		t.Errorf("quad strip: %v", idx)
	}
}

// Reversing the winding: a list swaps each triangle's last two indices;
// a strip 0 1 2 3 (triangles 0 1 2 and 2 1 3, the odd one reordered by
// the strip rule) becomes the list 0 2 1, 2 3 1; a fan 0 1 2 3 becomes
// 0 2 1, 0 3 2.
func TestFlipIndices(t *testing.T) {
	for _, c := range []struct {
		mode int
		in   []uint32
		want []uint32
	}{
		{model.ModeTriangles, []uint32{0, 1, 2, 3, 4, 5}, []uint32{0, 2, 1, 3, 5, 4}},
		{model.ModeTriangleStrip, []uint32{0, 1, 2, 3}, []uint32{0, 2, 1, 2, 3, 1}},
		{model.ModeTriangleFan, []uint32{0, 1, 2, 3}, []uint32{0, 2, 1, 0, 3, 2}},
		{model.ModeLines, []uint32{0, 1}, []uint32{0, 1}},
	} {
		got, mode := flipIndices(c.in, c.mode)
		if !reflect.DeepEqual(got, c.want) || (c.mode != model.ModeLines && mode != model.ModeTriangles) {
			t.Errorf("mode %d: %v (mode %d), want %v", c.mode, got, mode, c.want)
		}
	}
}

// invertAffine of a rotation by 90° about z with a translation (1, 2, 3):
// the inverse rotates by −90° and translates by −Rᵀt = (−2, 1, −3); the
// 3×4 row-major file matrix widens column by column.
func TestSkinMatrices(t *testing.T) {
	m := [16]float64{0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1}
	want := [16]float64{0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, -2, 1, -3, 1}
	if got := invertAffine(m); got != want {
		t.Errorf("inverse %v, want %v", got, want)
	}
	if got := rowMajor34([12]float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}); got != [16]float64{1, 5, 9, 0, 2, 6, 10, 0, 3, 7, 11, 0, 4, 8, 12, 1} {
		t.Errorf("rowMajor34 %v", got)
	}
}

// rebuildTangents: a zero tangent with binormal (0, 1, 0) and normal
// (0, 0, 1) becomes b × n = (1·1 − 0·0, 0·0 − 0·1, 0·0 − 1·0) = (1, 0, 0);
// without a binormal, normal (0, 0, 1) takes the axis of its smallest
// component, X (ties go to X): X × n = (0·1 − 0·0, 0·0 − 1·1, 1·0 − 0·0)
// = (0, −1, 0); a non-zero tangent and a vertex without a normal are kept.
func TestRebuildTangents(t *testing.T) {
	tan := []float32{0, 0, 0, -1, 0, 0, 0, 1, 0.5, 0, 0, -1, 0, 0, 0, 1}
	nrm := []float32{0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0}
	bin := []float32{0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 1, 0}
	if n := rebuildTangents(tan, nrm, bin); n != 2 {
		t.Errorf("%d rebuilt, want 2", n)
	}
	want := []float32{1, 0, 0, 1, 0, -1, 0, 1, 0.5, 0, 0, -1, 0, 0, 0, 1}
	for i := range want {
		if tan[i] != want[i] {
			t.Fatalf("tangents %v, want %v", tan, want)
		}
	}
}
