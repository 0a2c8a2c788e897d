package bfres

import (
	"math"
	"path/filepath"
	"strings"

	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// addBoneSkin gives the file's bones a skin when the model's meshes did not
// (an animation file, or a model without shapes), so that clients build one
// armature (Blender) or Skeleton (Godot) instead of loose nodes: the
// skeleton's skin (skeletonSkin: stored inverse model matrices where the
// FSKL has them, else inverse rest world matrices) with no mesh. Animated
// bones the skeleton lacks are not bound by the runtime and stay plain
// nodes. With no skeleton at all every animated bone is a joint, at the
// identity rest pose.
//
// glTF needs a skin's joints to share a root. When they do not (no
// skeleton, or an FSKL with several root bones), a plain node named after
// the file (X_Animation.bfres → X) is added above the joints' roots with
// the identity transform, and it is the skin's skeleton root; no world
// transform changes. extras.inverseBinds counts the inverse bind matrices
// taken from the file and from the rest pose, and gives the largest
// difference between a stored matrix and the rest-pose inverse.
func addBoneSkin(file *model.File, skel *Skeleton, path string) error {
	if len(file.Skins) > 0 {
		return nil
	}
	var skin model.Skin
	if skel != nil && len(skel.Bones) > 0 {
		skin = skeletonSkin(skel, file.Nodes)
	} else {
		skin.Name = "skeleton"
		for _, n := range file.Nodes {
			if n.Kind == "bone" {
				skin.Joints = append(skin.Joints, n.Name)
			}
		}
		if len(skin.Joints) == 0 {
			return nil
		}
	}
	index := make(map[string]int, len(file.Nodes))
	for i, n := range file.Nodes {
		index[n.Name] = i
	}
	joints := make([]int, len(skin.Joints))
	for k, name := range skin.Joints {
		joints[k] = index[name]
	}
	if sample.CommonRoot(file.Nodes, joints) < 0 {
		addRootAbove(file, joints, rootName(path, file.Nodes))
		for k := range joints {
			joints[k]++
		}
	}
	rest, err := sample.RestInverseBinds(file.Nodes, skin.Joints)
	if err != nil {
		return err
	}
	fromFile := map[string]bool{}
	if skel != nil && skel.Tables != nil {
		for _, b := range skel.Tables.MatrixToBone[:min(skel.Tables.NumSmooth, len(skel.Tables.MatrixToBone))] {
			fromFile[skel.Bones[b].Name] = true
		}
	}
	if len(skin.InverseBind) != len(skin.Joints) {
		skin.InverseBind = rest
	}
	stored, worst := 0, 0.0
	for k, name := range skin.Joints {
		if fromFile[name] {
			stored++
			for c := range rest[k] {
				worst = math.Max(worst, math.Abs(skin.InverseBind[k][c]-rest[k][c]))
			}
		}
	}
	skin.Skeleton = file.Nodes[sample.CommonRoot(file.Nodes, joints)].Name
	file.Skins = append(file.Skins, skin)
	file.Extras["inverseBinds"] = map[string]any{"stored": stored, "fromRest": len(skin.Joints) - stored,
		"largestDifference": worst}
	return nil
}

// addRootAbove puts a new identity node named name at the top and makes it
// the parent of every root node among joints (other roots stay roots).
func addRootAbove(file *model.File, joints []int, name string) {
	adopt := make(map[int]bool)
	for _, j := range joints {
		r := j
		for file.Nodes[r].Parent >= 0 {
			r = file.Nodes[r].Parent
		}
		adopt[r] = true
	}
	nodes := make([]model.Node, 0, len(file.Nodes)+1)
	nodes = append(nodes, model.Node{Name: name, Parent: -1, Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1},
		Extras: map[string]any{"addedRoot": true}})
	for i, n := range file.Nodes {
		switch {
		case n.Parent >= 0:
			n.Parent++
		case adopt[i]:
			n.Parent = 0
		}
		nodes = append(nodes, n)
	}
	file.Nodes = nodes
}

// rootName is the added root's name: the file's base name without its
// extension and an "_Animation" suffix (the character's name in BotW's
// X_Animation.bfres), with "_Root" added while a node already has it.
func rootName(path string, nodes []model.Node) string {
	base := filepath.Base(filepath.ToSlash(path))
	for _, ext := range []string{".sbfres", ".bfres"} {
		base = strings.TrimSuffix(base, ext)
	}
	base = strings.TrimSuffix(base, "_Animation")
	if base == "" || base == "." || base == "/" {
		base = "Skeleton"
	}
	taken := make(map[string]bool, len(nodes))
	for _, n := range nodes {
		taken[n.Name] = true
	}
	for taken[base] {
		base += "_Root"
	}
	return base
}
