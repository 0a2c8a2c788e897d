package gltf

import (
	"slices"

	"github.com/qmuntal/gltf"
)

// assetIndex maps asset names to their glTF indices, filled as the assets
// are written, for nodes and animation channels to refer to.
type assetIndex struct {
	meshIndex, materialIndex, textureIndex, cameraIndex, lightIndex map[string]int
	// animatedSlots ("material\x00slot") and animatedAlpha say which
	// material properties channels animate (see animatedAssets).
	animatedSlots, animatedAlpha map[string]bool
	// visibleNodes are the nodes a visibility channel targets; they carry
	// the KHR_node_visibility object the pointer needs.
	visibleNodes map[int]bool
	used         map[string]bool // extensionsUsed
}

func newAssetIndex() assetIndex {
	return assetIndex{meshIndex: map[string]int{}, materialIndex: map[string]int{}, textureIndex: map[string]int{},
		cameraIndex: map[string]int{}, lightIndex: map[string]int{}, visibleNodes: map[int]bool{}, used: map[string]bool{}}
}

func (w *writer) use(ext string) { w.used[ext] = true }

// assets writes textures, materials, meshes and cameras, before the nodes
// that refer to them.
func (w *writer) assets() error {
	w.animatedSlots, w.animatedAlpha = animatedAssets(w.b)
	if err := w.textures(); err != nil {
		return err
	}
	w.materials()
	if err := w.meshes(); err != nil {
		return err
	}
	w.cameras()
	if lights := w.lights(); len(lights) > 0 {
		w.doc.Extensions = gltf.Extensions{extLights: map[string]any{"lights": lights}}
		w.use(extLights)
	}
	return nil
}

// attachAssets puts meshes, cameras and lights on their nodes.
func (w *writer) attachAssets() {
	for i, n := range w.b.Nodes {
		gn := w.doc.Nodes[i]
		if mi, ok := w.meshIndex[n.Mesh]; ok && n.Mesh != "" {
			gn.Mesh = gltf.Index(mi)
		}
		if ci, ok := w.cameraIndex[n.Camera]; ok && n.Camera != "" {
			gn.Camera = gltf.Index(ci)
		}
		if li, ok := w.lightIndex[n.Light]; ok && n.Light != "" {
			setExtension(gn, extLights, map[string]any{"light": li})
		}
	}
}

// finishAssets adds what the animations asked for: the visibility object
// on animated nodes (empty: visible by default, as KHR_node_visibility
// defines), and the extensionsUsed list (sorted, never required).
func (w *writer) finishAssets() {
	for ni := range w.visibleNodes {
		// {}: "visible" defaults to true, the rest state bake writes.
		setExtension(w.doc.Nodes[ni], extVisibility, map[string]any{})
		w.use(extVisibility)
	}
	w.doc.ExtensionsUsed = nil
	for ext := range w.used {
		w.doc.ExtensionsUsed = append(w.doc.ExtensionsUsed, ext)
	}
	slices.Sort(w.doc.ExtensionsUsed)
}

func setExtension(n *gltf.Node, name string, v any) {
	if n.Extensions == nil {
		n.Extensions = gltf.Extensions{}
	}
	n.Extensions[name] = v
}
