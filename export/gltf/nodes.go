package gltf

import (
	"github.com/qmuntal/gltf"

	"github.com/animbake/bake/model"
)

// nodes writes every baked node, parents before children, and links it
// into the scene or its parent.
func (w *writer) nodes(scene *gltf.Scene) {
	doc := w.doc
	for i, n := range w.b.Nodes {
		gn := &gltf.Node{Name: n.Name, Extras: nodeExtras(n)}
		if n.Matrix != nil {
			gn.Matrix = *n.Matrix
		} else {
			gn.Translation = n.Translation
			gn.Rotation = n.Rotation
			gn.Scale = n.Scale
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
}

func nodeExtras(n model.Node) any {
	if n.Kind == "" && len(n.Extras) == 0 {
		return nil
	}
	ex := map[string]any{}
	for k, v := range n.Extras {
		ex[k] = v
	}
	if n.Kind != "" {
		ex["kind"] = n.Kind
	}
	return ex
}
