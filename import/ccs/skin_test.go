package ccs

import (
	"testing"

	"github.com/animbake/bake/model"
)

func TestSetSkeletonRoots(t *testing.T) {
	f := &model.File{
		Nodes: []model.Node{{Name: "a", Parent: -1}, {Name: "b", Parent: 0}, {Name: "c", Parent: 1}, {Name: "d", Parent: -1}},
		Assets: model.Assets{Skins: []model.Skin{
			{Name: "arm", Joints: []string{"c", "b"}},   // b is the ancestor of both
			{Name: "apart", Joints: []string{"c", "d"}}, // two roots: none
			{Name: "set", Joints: []string{"c"}, Skeleton: "a"},
		}},
	}
	setSkeletonRoots(f)
	for i, want := range []string{"b", "", "a"} {
		if got := f.Skins[i].Skeleton; got != want {
			t.Errorf("skin %s: skeleton %q, want %q", f.Skins[i].Name, got, want)
		}
	}
}
