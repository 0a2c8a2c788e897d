package bntx

import "github.com/animbake/bake/model"

// sheetGap is the space between two quads of a texture sheet, in metres.
const sheetGap = 0.1

// textureSheet lays a texture archive out as a scene a glTF client shows:
// for each texture, in order, a root node, a mesh of one quad and an unlit,
// double-sided material drawing the texture, all three named after it. A
// glTF of textures alone is valid, but Godot 3.2 refuses to import a scene
// without nodes, and Blender, three.js and Godot 4 import such a file as
// nothing at all (no image either); see docs/formats/bntx.md.
//
// Each quad is 1 m high and as wide as the texture's aspect ratio, in the
// node's XY plane facing +Z (glTF axes), with the texture upright: texture
// coordinate (0, 0), the image's top-left pixel, at the quad's top-left
// corner. The quads stand side by side along +X from the origin, sheetGap
// apart. A material blends when a pixel of its texture is not opaque.
func textureSheet(textures []model.Texture) ([]model.Node, []model.Mesh, []model.Material) {
	nodes := make([]model.Node, 0, len(textures))
	meshes := make([]model.Mesh, 0, len(textures))
	materials := make([]model.Material, 0, len(textures))
	x := 0.0
	for _, t := range textures {
		width := 1.0
		if t.Image.Width > 0 && t.Image.Height > 0 {
			width = float64(t.Image.Width) / float64(t.Image.Height)
		}
		w := float32(width)
		nodes = append(nodes, model.Node{
			Name: t.Name, Parent: -1, Mesh: t.Name,
			Translation: [3]float64{x, 0, 0}, Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1},
		})
		meshes = append(meshes, model.Mesh{Name: t.Name, Primitives: []model.Primitive{{
			// Bottom-left, bottom-right, top-right, top-left; both
			// triangles counter-clockwise seen from +Z.
			Positions: []float32{0, 0, 0, w, 0, 0, w, 1, 0, 0, 1, 0},
			Normals:   []float32{0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1},
			UVs:       [][]float32{{0, 1, 1, 1, 1, 0, 0, 0}},
			Indices:   []uint32{0, 1, 2, 0, 2, 3},
			Mode:      model.ModeTriangles,
			Material:  t.Name,
		}}})
		alpha := model.AlphaOpaque
		if translucent(t.Image) {
			alpha = model.AlphaBlend
		}
		materials = append(materials, model.Material{
			Name: t.Name, BaseColor: [4]float64{1, 1, 1, 1}, BaseColorTexture: model.TextureRef{Texture: t.Name},
			Metallic: 0, Roughness: 1, AlphaMode: alpha, DoubleSided: true, Unlit: true,
		})
		x += width + sheetGap
	}
	return nodes, meshes, materials
}

// translucent reports whether a decoded image has a pixel that is not
// fully opaque.
func translucent(img model.Image) bool {
	for i := 3; i < len(img.RGBA); i += 4 {
		if img.RGBA[i] != 255 {
			return true
		}
	}
	return false
}
