package bfres

import (
	"math"
	"testing"

	"github.com/animbake/bake/import/bfres/bfreswrite"
	"github.com/animbake/bake/internal/testfiles"
	"github.com/animbake/bake/sample"
)

// A skeleton with one smooth-skinning bone: the stored inverse model matrix
// is used for it (3.0: inside the 0x70-byte bone; 4.5: the FSKL's matrix
// array), the inverse rest world matrix for the other bone. The stored
// matrix is deliberately not the true inverse, to show which one is used.
func TestSkinInverseBinds(t *testing.T) {
	stored := [12]float32{1, 0, 0, -7, 0, 1, 0, 0, 0, 0, 1, 0} // row-major: translate (−7, 0, 0)
	for _, version := range []uint32{v3, v4} {
		file := &bfreswrite.File{Version: version, Name: "Two", Models: []bfreswrite.Model{{Name: "Skel", SkelFlags: 0x1000,
			Bones: []bfreswrite.Bone{
				{Name: "Root", Parent: -1, S: [3]float32{1, 1, 1}, R: [4]float32{0, 0, 0, 1}, T: [3]float32{1, 2, 3}},
				{Name: "Arm", Parent: 0, S: [3]float32{2, 2, 2}, R: [4]float32{0, 0, 0, 1}, T: [3]float32{0, 4, 0}, InverseModel: &stored},
			}}}}
		f := decodeBytes(t, "Two.bfres", file.Bytes(), nil)
		if len(f.Skins) != 1 {
			t.Fatalf("version %x: %d skins", version, len(f.Skins))
		}
		s := f.Skins[0]
		if len(f.Nodes) != 2 || s.Skeleton != "Root" || len(s.Joints) != 2 || s.Joints[0] != "Root" || s.Joints[1] != "Arm" {
			t.Fatalf("version %x: skin %+v over %d nodes", version, s, len(f.Nodes))
		}
		// Root: world = translate (1,2,3), inverse translate (−1,−2,−3).
		if want := [16]float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -1, -2, -3, 1}; s.InverseBind[0] != want {
			t.Errorf("version %x: Root inverse bind %v, want %v", version, s.InverseBind[0], want)
		}
		// Arm: the stored matrix, column-major.
		if want := [16]float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -7, 0, 0, 1}; s.InverseBind[1] != want {
			t.Errorf("version %x: Arm inverse bind %v, want the stored %v", version, s.InverseBind[1], want)
		}
		// Its rest world is translate (1,6,3)·scale 2, inverse scale ½ and
		// translate (−0.5,−3,−1.5): the stored one differs by 6.5 at most.
		ib := f.Extras["inverseBinds"].(map[string]any)
		if ib["stored"] != 1 || ib["fromRest"] != 1 || ib["largestDifference"] != 6.5 {
			t.Errorf("version %x: extras %v", version, ib)
		}
	}
}

// On the real files the stored inverse model matrices equal the inverse
// rest world matrices to float32 precision, and every skeleton bone is a
// joint of one skin (a mesh skin for the model file, a mesh-less one for
// the animation files).
func TestSampleSkins(t *testing.T) {
	testfiles.Samples(t, "bfres")
	for _, c := range []struct {
		name           string
		joints, stored int
	}{
		{"Animal_Bass.bfres", 6, 4},
		{"Animal_Bass_Animation.bfres", 6, 4}, // Chin, Arm_1_L, Arm_1_R, Tail are not in its skeleton
		{"Animal_Bear_Animation.bfres", 32, 29},
		{"Npc_Gerudo_Queen_Animation.bfres", 135, 126},
	} {
		f := decodeSample(t, c.name, nil)
		if len(f.Skins) != 1 || len(f.Skins[0].Joints) != c.joints {
			t.Errorf("%s: skins %d, want one of %d joints", c.name, len(f.Skins), c.joints)
			continue
		}
		s := f.Skins[0]
		rest, err := sample.RestInverseBinds(f.Nodes, s.Joints)
		if err != nil {
			t.Fatal(err)
		}
		worst := 0.0
		for k := range rest {
			for j := range rest[k] {
				worst = math.Max(worst, math.Abs(rest[k][j]-s.InverseBind[k][j]))
			}
		}
		if worst > 1e-6 {
			t.Errorf("%s: inverse binds differ from the rest pose's by %g", c.name, worst)
		}
		if ib, ok := f.Extras["inverseBinds"].(map[string]any); ok && ib["stored"] != c.stored {
			t.Errorf("%s: inverse binds %v, want %d stored", c.name, ib, c.stored)
		}
		t.Logf("%s: %d joints, largest difference from the rest-pose inverse %.2g", c.name, len(s.Joints), worst)
	}
}
