package ccs

import (
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// setSkeletonRoots names each clump skin's skeleton root: the deepest node
// that is an ancestor of (or one of) all its joints, the node under which
// Blender builds the armature and which glTF's `skeleton` asks for. A
// clump's nodes share their root object in the files seen (S01, the
// demo); a skin whose joints have no common root keeps none.
func setSkeletonRoots(f *model.File) {
	index := make(map[string]int, len(f.Nodes))
	for i, n := range f.Nodes {
		index[n.Name] = i
	}
	for k := range f.Skins {
		s := &f.Skins[k]
		if s.Skeleton != "" {
			continue
		}
		joints := make([]int, 0, len(s.Joints))
		for _, j := range s.Joints {
			if i, ok := index[j]; ok {
				joints = append(joints, i)
			}
		}
		if len(joints) != len(s.Joints) {
			continue // Validate reports the missing joint
		}
		if r := sample.CommonRoot(f.Nodes, joints); r >= 0 {
			s.Skeleton = f.Nodes[r].Name
		}
	}
}
