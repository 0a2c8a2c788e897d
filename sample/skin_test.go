package sample

import (
	"math"
	"testing"

	"github.com/animbake/bake/model"
)

func TestInvertAffine(t *testing.T) {
	// M = translate (1,2,3) · rotate 90° about Z · scale (2,2,2):
	// columns (0,2,0), (−2,0,0), (0,0,2), translation (1,2,3).
	m := [16]float64{0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1}
	// M⁻¹ = scale ½ · rotate −90° · translate (−1,−2,−3): columns (0,−½,0),
	// (½,0,0), (0,0,½); translation −A⁻¹·t = (−1, ½, −1.5).
	want := [16]float64{0, -0.5, 0, 0, 0.5, 0, 0, 0, 0, 0, 0.5, 0, -1, 0.5, -1.5, 1}
	got, ok := InvertAffine(&m)
	if !ok {
		t.Fatal("not invertible")
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-15 {
			t.Fatalf("got %v\nwant %v", got, want)
		}
	}
	zero := [16]float64{15: 1}
	if _, ok := InvertAffine(&zero); ok {
		t.Error("a zero 3×3 part inverted")
	}
}

func TestCommonRoot(t *testing.T) {
	nodes := []model.Node{
		{Name: "a", Parent: -1}, {Name: "b", Parent: 0}, {Name: "c", Parent: 1}, {Name: "d", Parent: 1}, {Name: "e", Parent: -1},
	}
	for _, c := range []struct {
		members []int
		want    int
	}{{[]int{2, 3}, 1}, {[]int{1, 2, 3}, 1}, {[]int{0, 3}, 0}, {[]int{2}, 2}, {[]int{2, 4}, -1}, {nil, -1}} {
		if got := CommonRoot(nodes, c.members); got != c.want {
			t.Errorf("CommonRoot(%v) = %d, want %d", c.members, got, c.want)
		}
	}
}

func TestRestInverseBinds(t *testing.T) {
	nodes := []model.Node{
		{Name: "root", Parent: -1, Translation: [3]float64{0, 1, 0}},
		// Hidden by scale 0 in x: bound as if the scale were 1 there.
		{Name: "tip", Parent: 0, Translation: [3]float64{0, 0, 2}, Scale: [3]float64{0, 1, 1}},
	}
	inv, err := RestInverseBinds(nodes, []string{"tip", "root"})
	if err != nil {
		t.Fatal(err)
	}
	if want := [16]float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, -2, 1}; inv[0] != want {
		t.Errorf("tip %v, want %v", inv[0], want)
	}
	if want := [16]float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1}; inv[1] != want {
		t.Errorf("root %v, want %v", inv[1], want)
	}
	if _, err := RestInverseBinds(nodes, []string{"nobody"}); err == nil {
		t.Error("an unknown joint was accepted")
	}
}
