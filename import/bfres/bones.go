package bfres

import (
	"math"
	"slices"

	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// nodeSet builds the file's node list: the chosen skeleton's bones under
// their parents; without a skeleton, flat root nodes for the animated names.
type nodeSet struct {
	nodes []model.Node
	index map[string]int
	bind  map[string]*Bone // bind pose by bone name (skeleton bones only)
	// skeleton is set when a skeleton was chosen: animated names it lacks
	// are then unbound instead of flat.
	skeleton bool
	// flat lists names added without a skeleton bone, for one warning.
	flat []string
	// unbound lists, sorted, the animated names the skeleton lacks, for one
	// warning.
	unbound []string
}

// newNodeSet turns a skeleton (nil for none) into nodes, parents first.
func newNodeSet(s *Skeleton) (*nodeSet, error) {
	ns := &nodeSet{index: map[string]int{}, bind: map[string]*Bone{}}
	if s == nil {
		return ns, nil
	}
	ns.skeleton = true
	order, err := parentsFirst(s)
	if err != nil {
		return nil, err
	}
	euler := s.RotationMode() == RotateEulerXYZ
	newIndex := make([]int, len(s.Bones))
	for _, i := range order {
		b := &s.Bones[i]
		if _, dup := ns.index[b.Name]; dup {
			return nil, binread.Errorf(0, "skeleton of model %s has two bones named %q", s.Model, b.Name)
		}
		parent := -1
		if b.Parent >= 0 {
			parent = newIndex[b.Parent]
		}
		n := model.Node{
			Name:        b.Name,
			Parent:      parent,
			Translation: widen3(b.Translate),
			Scale:       widen3(b.Scale),
			Rotation:    restRotation(b.Rotate, euler),
			Kind:        "bone",
		}
		if b.Flags&boneSegmentScaleCompensate != 0 {
			n.Extras = map[string]any{"segmentScaleCompensate": true}
		}
		newIndex[i] = len(ns.nodes)
		ns.index[b.Name] = len(ns.nodes)
		ns.bind[b.Name] = b
		ns.nodes = append(ns.nodes, n)
	}
	return ns, nil
}

// parentsFirst orders bone indices so that every parent precedes its
// children, rejecting parent cycles.
func parentsFirst(s *Skeleton) ([]int, error) {
	const (
		unvisited = iota
		visiting
		done
	)
	state := make([]int, len(s.Bones))
	order := make([]int, 0, len(s.Bones))
	for i := range s.Bones {
		// Walk up to the first placed ancestor, then place the chain top-down.
		var chain []int
		for j := i; j >= 0 && state[j] != done; j = int(s.Bones[j].Parent) {
			if state[j] == visiting {
				return nil, binread.Errorf(0, "skeleton of model %s: bone %q is its own ancestor", s.Model, s.Bones[j].Name)
			}
			state[j] = visiting
			chain = append(chain, j)
		}
		for k := len(chain) - 1; k >= 0; k-- {
			state[chain[k]] = done
			order = append(order, chain[k])
		}
	}
	return order, nil
}

// bound reports whether an animated bone named name drives a node. With a
// skeleton, only its bones do: the runtime binds each bone anim by name to
// the same-named bone of the model's skeleton (bfres-container.md §6.1), and
// an anim that finds none drives nothing, so such a name is recorded in
// ns.unbound and its channels are dropped rather than invented as nodes. Without a skeleton every name
// becomes a flat root bone with the identity rest pose (the runtime's
// no-bone default), the best stand-in when the skeleton is unknown.
func (ns *nodeSet) bound(name string) bool {
	if _, ok := ns.index[name]; ok {
		return true
	}
	if ns.skeleton {
		if i, found := slices.BinarySearch(ns.unbound, name); !found {
			ns.unbound = slices.Insert(ns.unbound, i, name)
		}
		return false
	}
	ns.index[name] = len(ns.nodes)
	ns.nodes = append(ns.nodes, model.Node{
		Name: name, Parent: -1, Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}, Kind: "bone",
	})
	ns.flat = append(ns.flat, name)
	return true
}

// addUnbound records names among the unbound bones of a clip, in extras
// "unboundBones" (sorted, each once), so that dropped tracks stay visible.
func addUnbound(extras map[string]any, names ...string) {
	if len(names) == 0 {
		return
	}
	list, _ := extras["unboundBones"].([]string)
	list = slices.Clone(list)
	for _, n := range names {
		if i, found := slices.BinarySearch(list, n); !found {
			list = slices.Insert(list, i, n)
		}
	}
	extras["unboundBones"] = list
}

// restRotation converts a stored bind rotation to a unit quaternion: Euler
// XYZ angles compose as R = Rz·Ry·Rx (§9); quaternions are normalised.
func restRotation(r [4]float32, euler bool) [4]float64 {
	if euler {
		return sample.EulerToQuat(float64(r[0]), float64(r[1]), float64(r[2]), "ZYX")
	}
	q := [4]float64{float64(r[0]), float64(r[1]), float64(r[2]), float64(r[3])}
	l := q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3]
	if l == 0 {
		return [4]float64{0, 0, 0, 1}
	}
	l = 1 / math.Sqrt(l)
	return [4]float64{q[0] * l, q[1] * l, q[2] * l, q[3] * l}
}

func widen3(v [3]float32) [3]float64 {
	return [3]float64{float64(v[0]), float64(v[1]), float64(v[2])}
}
