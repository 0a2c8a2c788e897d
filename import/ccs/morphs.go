package ccs

// morphBinding is what a morpher's weights animate: the object whose
// model the morpher deforms (its Morpher chunk's model, blender_ccs_importer
// ccsMorph.py) and the targets any record of the file names, in file order
// (the mesh's TargetNames).
type morphBinding struct {
	object  uint32 // 0 when no object draws the morpher's model
	model   uint32
	targets []uint32
}

// bindMorphs works out every morpher's binding before the animations
// convert, so that each weights channel lands on the node that shows the
// morphed mesh, with one weight per mesh target in TargetNames order.
func (ns *nodeSet) bindMorphs(a *Assets) {
	ns.morphs = map[uint32]*morphBinding{}
	for id, mdl := range a.Morphers {
		b := &morphBinding{model: mdl}
		for _, o := range a.Objects {
			if mdl != 0 && o.Model == mdl {
				b.object = o.ID
				break
			}
		}
		ns.morphs[id] = b
	}
	add := func(morpher uint32, targets []uint32) {
		b := ns.morphs[morpher]
		if b == nil {
			return
		}
		for _, t := range targets {
			known := false
			for _, k := range b.targets {
				known = known || k == t
			}
			if !known && t != 0 {
				b.targets = append(b.targets, t)
			}
		}
	}
	for _, an := range ns.s.Animes {
		for _, m := range an.MorphFrames {
			add(m.Morpher, m.Targets)
		}
		for _, c := range an.MorphCtrls {
			add(c.Morpher, c.Targets)
		}
	}
}

// morphTargets returns the targets of a morpher bound to a drawn model
// (nil otherwise).
func (ns *nodeSet) morphTargets(morpher uint32) []uint32 {
	if b := ns.morphs[morpher]; b != nil && b.object != 0 {
		return b.targets
	}
	return nil
}

// morphNode names the node a morpher's weights channel goes on: the node
// of the object drawing its model, or else the morpher's own node.
func (ns *nodeSet) morphNode(morpher uint32, off int64, what string) (string, error) {
	if b := ns.morphs[morpher]; b != nil && b.object != 0 {
		return ns.node(b.object, off, what, "")
	}
	return ns.node(morpher, off, what, "")
}
