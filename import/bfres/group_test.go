package bfres

import (
	"testing"

	"github.com/animbake/bake/format"
)

func TestGroup(t *testing.T) {
	for name, want := range map[string]string{
		"Animal_Bass_Animation.bfres":  "Animal_Bass",
		"Animal_Bass_Animation.sbfres": "Animal_Bass",
		"Animal_Bass.bfres":            "Animal_Bass",
		"Link.Tex1.sbfres":             "Link",
		"Link.Tex2.sbfres":             "Link",
		"Link.Tex.sbfres":              "Link",
		"Link.SBFRES":                  "Link",
		"_Animation.bfres":             "_Animation",
		".Tex1.sbfres":                 ".Tex1",
		"level1_Final.dat":             "",
		"Link_Animation.bfres.bak":     "",
	} {
		if got := Group(name); got != want {
			t.Errorf("Group(%q) = %q, want %q", name, got, want)
		}
	}
}

// Every sibling an animation file may read is in its group, so the CI
// shard that converts the animation file also converts the model.
func TestSiblingsShareTheGroup(t *testing.T) {
	for _, anim := range []string{"Npc_Gerudo_Queen_Animation.sbfres", "Demo_Animation.bfres"} {
		for _, sib := range siblingNames(anim) {
			if Group(sib) != Group(anim) {
				t.Errorf("%s reads %s but their groups are %q and %q", anim, sib, Group(anim), Group(sib))
			}
		}
	}
	if a, b := format.GroupKey("in/bfres/Demo_Animation.sbfres"), format.GroupKey(`in/bfres/Demo.bfres`); a != b || a != "bfres:in/bfres/Demo" {
		t.Errorf("GroupKey: %q and %q, want both bfres:in/bfres/Demo", a, b)
	}
	if a, b := format.GroupKey("a/Demo.bfres"), format.GroupKey("b/Demo.bfres"); a == b {
		t.Errorf("files in different folders share group %q", a)
	}
	if k := format.GroupKey("in/level1_Final.dat"); k != "in/level1_Final.dat" {
		t.Errorf("GroupKey of a file without group = %q, want its path", k)
	}
}
