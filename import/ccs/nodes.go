package ccs

import (
	"fmt"

	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/model"
)

// nodeSet builds File.Nodes from the objects the animations refer to:
// each record's object id, followed through External redirects to the
// object it copies (ccGetExternalIndex), with the object's parents from
// its Object chunk, parents first.
type nodeSet struct {
	s      *Scene
	nodes  []model.Node
	byID   map[uint32]int // resolved object id → node index
	names  map[string]bool
	active map[uint32]bool // ids being added, to catch parent cycles
	// morphs maps a morpher id to what its weights animate (see morphs.go).
	morphs map[uint32]*morphBinding
}

func newNodeSet(s *Scene) *nodeSet {
	return &nodeSet{s: s, byID: map[uint32]int{}, names: map[string]bool{}, active: map[uint32]bool{}}
}

// resolve checks an object id read at off and follows External redirects.
func (ns *nodeSet) resolve(id uint32, off int64, what string) (uint32, error) {
	n := len(ns.s.Index.Objects)
	for hops := 0; ; hops++ {
		if id == 0 || uint64(id) >= uint64(n) {
			return 0, binread.Errorf(off, "%s: object id %d is outside the object table (1..%d)", what, id, n-1)
		}
		ext, ok := ns.s.Externals[id]
		if !ok {
			return id, nil
		}
		if hops > len(ns.s.Externals) {
			return 0, binread.Errorf(ext.Off, "%s: External redirects from object %d form a cycle", what, id)
		}
		if ext.Object == id {
			return id, nil // a self-reference names the object itself
		}
		id = ext.Object
		off = ext.Off
		what = "External chunk"
	}
}

// node returns the name of the node for a record's object id, adding it
// (and its parents) when new. kind is the node kind the record implies
// ("camera", "light" or "").
func (ns *nodeSet) node(id uint32, off int64, what, kind string) (string, error) {
	target, err := ns.resolve(id, off, what)
	if err != nil {
		return "", err
	}
	i, err := ns.add(target, off)
	if err != nil {
		return "", err
	}
	if kind != "" && ns.nodes[i].Kind == "" {
		ns.nodes[i].Kind = kind
	}
	return ns.nodes[i].Name, nil
}

func (ns *nodeSet) add(id uint32, off int64) (int, error) {
	if i, ok := ns.byID[id]; ok {
		return i, nil
	}
	if ns.active[id] {
		return 0, binread.Errorf(off, "object %d (%s) is its own ancestor: the Object chunks' parents form a cycle", id, ns.s.Index.ObjectName(id))
	}
	ns.active[id] = true
	defer delete(ns.active, id)
	parent := -1
	if p, ok := ns.s.Parents[id]; ok {
		pid, err := ns.resolve(p, off, "object parent")
		if err != nil {
			return 0, err
		}
		if pid != id {
			if parent, err = ns.add(pid, off); err != nil {
				return 0, err
			}
		}
	}
	name := ns.s.Index.ObjectName(id)
	if name == "" || ns.names[name] {
		name = fmt.Sprintf("%s#%d", name, id)
	}
	ns.names[name] = true
	n := model.Node{Name: name, Parent: parent, Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1},
		Kind:   kindOf(ns.s.Kinds[id]),
		Extras: map[string]any{"ccsObject": int64(id), "ccsSourceFile": ns.s.Index.FileOf(id)}}
	ns.nodes = append(ns.nodes, n)
	ns.byID[id] = len(ns.nodes) - 1
	return len(ns.nodes) - 1, nil
}

// kindOf maps a top-level chunk code to a node kind.
func kindOf(code uint16) string {
	switch code {
	case CodeCamera:
		return "camera"
	case CodeLight:
		return "light"
	}
	return ""
}

// material names a material record's target (External redirects
// followed) as the model's material of that chunk is named (MaterialName).
// Materials are channel targets, not nodes.
func (ns *nodeSet) material(id uint32, off int64) (string, error) {
	target, err := ns.resolve(id, off, "material record")
	if err != nil {
		return "", err
	}
	return ns.s.MaterialName(target), nil
}

// MaterialName is the name of material id in the model: its object name,
// or name#id when an earlier Material chunk has the same name (S01.CCS
// has several "MAT_/#8402" from different scenes), or material#id for an
// id without a name.
func (s *Scene) MaterialName(id uint32) string {
	if s.matNames == nil {
		s.matNames = map[uint32]string{}
		taken := map[string]bool{}
		for _, c := range s.Raw[CodeMaterial] {
			if _, done := s.matNames[c.ID]; done {
				continue
			}
			name := s.Index.ObjectName(c.ID)
			if name == "" || taken[name] {
				name = fmt.Sprintf("%s#%d", name, c.ID)
			}
			taken[name] = true
			s.matNames[c.ID] = name
		}
	}
	if name, ok := s.matNames[id]; ok {
		return name
	}
	if name := s.Index.ObjectName(id); name != "" {
		return name
	}
	return fmt.Sprintf("material#%d", id)
}

// pseudo returns a node that stands for no object (the ambient light of
// ambient frames without an object word), adding it when new.
func (ns *nodeSet) pseudo(name, kind string) string {
	if !ns.names[name] {
		ns.names[name] = true
		ns.nodes = append(ns.nodes, model.Node{Name: name, Parent: -1, Rotation: [4]float64{0, 0, 0, 1},
			Scale: [3]float64{1, 1, 1}, Kind: kind})
	}
	return name
}
