package gltf

import (
	"github.com/qmuntal/gltf"

	"github.com/animbake/bake/model"
)

// nodes writes every baked node, parents before children, and links it
// into the scene or its parent; then the skins, which name nodes, and the
// skin reference of each node that draws a skinned mesh (a node's skin
// only counts with a mesh, so one without its mesh written gets none).
func (w *writer) nodes(scene *gltf.Scene) {
	doc := w.doc
	joints := map[string]bool{}
	for _, s := range w.b.Assets.Skins {
		for _, j := range s.Joints {
			joints[j] = true
		}
	}
	for i, n := range w.b.Nodes {
		gn := &gltf.Node{Name: n.Name, Extras: nodeExtras(n, joints[n.Name])}
		// Rest transforms in float32's shortest form (Short32).
		if n.Matrix != nil {
			gn.Matrix = *n.Matrix
			short32In(gn.Matrix[:])
		} else {
			gn.Translation, gn.Rotation, gn.Scale = n.Translation, n.Rotation, n.Scale
			short32In(gn.Translation[:])
			short32In(gn.Rotation[:])
			short32In(gn.Scale[:])
		}
		doc.Nodes = append(doc.Nodes, gn)
		w.index[n.Name] = i
		if n.Parent < 0 {
			scene.Nodes = append(scene.Nodes, i)
		} else {
			p := doc.Nodes[n.Parent]
			p.Children = append(p.Children, i)
		}
	}
	skins := w.skins()
	for i, n := range w.b.Nodes {
		si, ok := skins[n.Skin]
		if _, drawn := w.meshIndex[n.Mesh]; ok && n.Skin != "" && n.Mesh != "" && drawn && w.skinnedMesh(n.Mesh) {
			doc.Nodes[i].Skin = gltf.Index(si)
		}
	}
}

// skinnedMesh reports whether every primitive of the named mesh has joints
// and weights: glTF rejects a skin on a node whose mesh has none.
func (w *writer) skinnedMesh(name string) bool {
	for _, m := range w.b.Assets.Meshes {
		if m.Name == name {
			for _, p := range m.Primitives {
				if p.Joints == nil {
					return false
				}
			}
			return len(m.Primitives) > 0
		}
	}
	return false
}

// kindBone is model.Node.Kind for a skeleton's bone.
const kindBone = "bone"

// nodeExtras are the node's format facts and its kind (model.Node.Kind).
// A skin's joint is a bone unless its extras say otherwise, so "kind" is
// left out for a joint of kind "bone" and written, even empty, for a
// joint of another kind; other nodes have it when they have a kind.
func nodeExtras(n model.Node, joint bool) any {
	writeKind := n.Kind != ""
	if joint {
		writeKind = n.Kind != kindBone
	}
	if !writeKind && len(n.Extras) == 0 {
		return nil
	}
	ex := map[string]any{}
	for k, v := range n.Extras {
		ex[k] = v
	}
	if writeKind {
		ex["kind"] = n.Kind
	}
	return ex
}
