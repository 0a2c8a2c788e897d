package virtools

import (
	"github.com/animbake/bake/model"
)

// neededEntities lists the entities that become nodes before their
// ancestors are added: every animated entity, every curve and, with
// assets, every entity that shows something.
func (cv *converter) neededEntities() []int {
	var need []int
	for _, i := range sortedKeys(cv.s.ObjectAnimations) {
		if e := cv.s.ObjectAnimations[i].Entity; e != noRef {
			need = append(need, e)
		}
	}
	need = append(need, cv.graphTargets()...)
	need = append(need, sortedKeys(cv.s.Curves)...)
	return append(need, cv.assetEntities()...)
}

// buildNodes adds the needed entities and their ancestors, parents before
// children, each with its local transform (world · inverse(parent world)).
func (cv *converter) buildNodes() error {
	used := map[string]bool{}
	active := map[int]bool{}
	var add func(e int) error
	add = func(e int) error {
		if _, done := cv.nodeOf[e]; done {
			return nil
		}
		ent := cv.s.Entities[e]
		if ent == nil {
			return nil // not a 3D entity: the caller reports it where it matters
		}
		if active[e] {
			return cv.objectError(e, "its parent chain loops back to itself")
		}
		active[e] = true
		defer delete(active, e)
		parent := -1
		if ent.Parent != noRef {
			if cv.s.Entities[ent.Parent] == nil {
				return cv.objectError(e, "its parent, object #%d, is not a 3D entity", ent.Parent)
			}
			if err := add(ent.Parent); err != nil {
				return err
			}
			parent = cv.nodeOf[ent.Parent]
		}
		local := cv.localMatrix(ent)
		cv.local[e] = local
		cv.nodeOf[e] = len(cv.file.Nodes)
		cv.file.Nodes = append(cv.file.Nodes, cv.node(e, parent, local, used))
		return nil
	}
	for _, e := range cv.neededEntities() {
		if err := add(e); err != nil {
			return err
		}
	}
	return nil
}

// localMatrix is the entity's transform relative to its parent, from the
// saved world matrices (Virtools row vectors: world = local · parentWorld).
func (cv *converter) localMatrix(e *Entity) affine {
	w := identityAffine
	if e.HasWorld {
		w = toAffine(e.World)
	}
	if e.Parent == noRef {
		return w
	}
	p := cv.s.Entities[e.Parent]
	if !p.HasWorld {
		return w
	}
	inv, ok := toAffine(p.World).inverse()
	if !ok {
		cv.opts.Warnf("entity %q: parent %q has a singular world matrix; its world matrix is used as local", cv.s.Objects[e.Index].Name, cv.s.Objects[p.Index].Name)
		return w
	}
	return w.mul(inv)
}

// node builds the model node of an entity with a unique name.
func (cv *converter) node(e, parent int, local affine, used map[string]bool) model.Node {
	o := &cv.s.Objects[e]
	name := o.Name
	if name == "" {
		name = "entity"
	}
	if used[name] {
		name += "#" + itoa(e)
	}
	used[name] = true
	n := model.Node{Name: name, Parent: parent, Kind: kindOf(o.ClassID),
		Extras: map[string]any{"virtoolsClass": o.ClassID, "virtoolsIndex": e}}
	t, q, s, exact := local.trs()
	n.Translation, n.Rotation, n.Scale = t, q, s
	if !exact {
		if cv.animated(e) {
			cv.opts.Warnf("entity %q: local matrix has shear; its rest pose is approximated by TRS", name)
		} else {
			m := local.columnMajor()
			n.Matrix = &m
		}
	}
	return n
}

// animated reports whether some object animation targets entity e.
func (cv *converter) animated(e int) bool {
	for _, a := range cv.s.ObjectAnimations {
		if a.Entity == e {
			return true
		}
	}
	return false
}

// kindOf names what an entity class stands for in the model.
func kindOf(cls int32) string {
	switch {
	case isA(cls, 34):
		return "camera"
	case isA(cls, 38):
		return "light"
	case cls == ClassCurve:
		return "curve"
	}
	return ""
}
