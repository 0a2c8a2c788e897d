package ccswrite

import (
	"encoding/binary"
)

// Writers for the asset chunks: objects with models, CLUTs, textures,
// materials, clumps, models and morphers, in the layouts
// docs/formats/ccs.md §9 describes (version-dependent where the importer
// is).

// ObjectFull appends an Object chunk with its model and shadow model;
// files after version 0x120 get the fifth word later generations have.
func (b *Builder) ObjectFull(id, parent, model, shadow uint32) {
	w := []uint32{id, parent, model, shadow}
	if b.Version > 0x120 {
		w = append(w, 0)
	}
	b.Chunk(0x0100, w...)
}

// CLUT appends a CLUT chunk (0x0400) with colours as R, G, B, A bytes
// (A in 0..0x80).
func (b *Builder) CLUT(id uint32, colors [][4]byte) {
	body := []byte{}
	for _, c := range colors {
		body = append(body, c[:]...)
	}
	b.Chunk(0x0400, append([]uint32{id, 0, 1, 0x010003C0, uint32(len(colors))}, bytesWords(body)...)...)
}

// TextureData appends a Texture chunk of the given type (0x13 8-bit, 0x14
// 4-bit indexed, 0 RGBA32) and log2 size, with the +50 size trap; data
// holds the texels in stored order (bottom row first), padded to words.
func (b *Builder) TextureData(id, clut uint32, typ, log2w, log2h byte, data []byte) {
	words := bytesWords(data)
	head := []uint32{clut, 0, le32(1, typ, 0, 0x70), le32(log2w, log2h, 0xCD, 0xCD), 0, uint32(len(words))}
	b.Texture(id, append(head, words...)...)
}

// Material appends a Material chunk: texture, alpha, UV offset in 1/4096
// (and, from version 0x120, the UV scale 4096 = 1).
func (b *Builder) Material(id, texture uint32, alpha float32, offU, offV int16) {
	w := []uint32{id, texture, F(alpha), uint32(uint16(offU)) | uint32(uint16(offV))<<16}
	if b.Version >= 0x120 {
		w = append(w, 4096|4096<<16)
	}
	b.Chunk(0x0200, w...)
}

// Pose is a clump node's bind pose: position, Euler degrees, scale.
type Pose struct{ Pos, Rot, Scale [3]float32 }

// Clump appends a Clump chunk: its nodes and, after version 0x110, their
// bind poses (poses may be nil for identity).
func (b *Builder) Clump(id uint32, nodes []uint32, poses []Pose) {
	w := append([]uint32{id, uint32(len(nodes))}, nodes...)
	if b.Version > 0x110 {
		for i := range nodes {
			p := Pose{Scale: [3]float32{1, 1, 1}}
			if poses != nil {
				p = poses[i]
			}
			w = append(w, Fs(p.Pos[0], p.Pos[1], p.Pos[2], p.Rot[0], p.Rot[1], p.Rot[2], p.Scale[0], p.Scale[1], p.Scale[2])...)
		}
	}
	b.Chunk(0x0900, w...)
}

// Morpher appends a Morpher chunk (0x1900): the morpher and the model it
// deforms.
func (b *Builder) Morpher(id, model uint32) { b.Chunk(0x1900, id, model) }

// RigidMesh is one rigid sub-mesh as stored: positions in units of
// vertexScale/4096 cm, normals ×64 with the strip flag as 4th byte,
// colours (0x80 = 1.0) and UVs in 1/256 (nil when the model's flags leave
// them out).
type RigidMesh struct {
	Name, Material uint32
	Pos            [][3]int16
	Normal         [][4]int8
	Color          [][4]byte
	UV             [][2]int16
}

// Copy is one bone-local copy of a deformable vertex: position, clump
// node, weight in 1/256, normal ×64 and the strip flag.
type Copy struct {
	Pos    [3]int16
	Node   uint16
	Weight uint16
	Normal [3]int8
	Flag   int8
}

// DeformVertex is a deformable vertex: one or two copies (before version
// 0x125) and its UV in 1/256.
type DeformVertex struct {
	Copies []Copy
	UV     [2]int16
}

// DeformMesh is a deformable sub-mesh with per-vertex copies.
type DeformMesh struct {
	Material uint32
	Verts    []DeformVertex
}

// modelHead writes the model header for the builder's version.
func (b *Builder) modelHead(id uint32, scale float32, typ, flags byte, meshes int) []uint32 {
	w := []uint32{id, F(scale), le32(typ, flags, byte(meshes), byte(meshes>>8)), 0, 0}
	if b.Version > 0x110 {
		w = append(w, 0, F(1))
	}
	return w
}

// RigidModel appends a rigid Model chunk; flags 0x02 / 0x04 leave out
// colours / UVs (both set: a morph target).
func (b *Builder) RigidModel(id uint32, scale float32, flags byte, meshes ...RigidMesh) {
	b.Chunk(0x0800, b.RigidModelWords(id, scale, flags, meshes...)...)
}

// RigidModelWords returns a rigid Model chunk's body, for chunks written
// with a wrong size word (generation 1's size trap).
func (b *Builder) RigidModelWords(id uint32, scale float32, flags byte, meshes ...RigidMesh) []uint32 {
	w := b.modelHead(id, scale, 0, flags, len(meshes))
	for _, m := range meshes {
		n := len(m.Pos)
		w = append(w, m.Name, m.Material, uint32(n))
		var p []byte
		for _, v := range m.Pos {
			p = i16(p, v[:]...)
		}
		w = append(w, bytesWords(p)...)
		p = nil
		for _, v := range m.Normal {
			p = append(p, byte(v[0]), byte(v[1]), byte(v[2]), byte(v[3]))
		}
		w = append(w, bytesWords(p)...)
		if flags&2 == 0 {
			p = nil
			for _, c := range m.Color {
				p = append(p, c[:]...)
			}
			w = append(w, bytesWords(p)...)
		}
		if flags&4 == 0 {
			p = nil
			for _, uv := range m.UV {
				p = i16(p, uv[:]...)
			}
			w = append(w, bytesWords(p)...)
		}
	}
	return w
}

// DeformableModel appends a deformable Model chunk in the layout before
// version 0x125: per copy (i16 x, y, z, u16 node<<10 | last<<9 | weight),
// then the copies' normals, then one UV per vertex.
func (b *Builder) DeformableModel(id uint32, scale float32, meshes ...DeformMesh) {
	w := b.modelHead(id, scale, 0x04, 0, len(meshes))
	for _, m := range meshes {
		var vp, vn, uv []byte
		copies := 0
		for _, v := range m.Verts {
			for k, c := range v.Copies {
				param := c.Node<<10 | c.Weight&0x1FF
				if k == len(v.Copies)-1 {
					param |= 0x200
				}
				vp = i16(vp, c.Pos[:]...)
				vp = binary.LittleEndian.AppendUint16(vp, param)
				vn = append(vn, byte(c.Normal[0]), byte(c.Normal[1]), byte(c.Normal[2]), byte(c.Flag))
				copies++
			}
			uv = i16(uv, v.UV[:]...)
		}
		w = append(w, m.Material, uint32(len(m.Verts)), uint32(copies))
		w = append(w, bytesWords(vp)...)
		w = append(w, bytesWords(vn)...)
		w = append(w, bytesWords(uv)...)
	}
	b.Chunk(0x0800, w...)
}

// ShadowModel appends a shadow Model chunk: positions and a triangle list.
func (b *Builder) ShadowModel(id uint32, scale float32, pos [][3]int16, tris []uint32) {
	w := b.modelHead(id, scale, 0x08, 0, 1)
	w = append(w, uint32(len(pos)), uint32(len(tris)))
	var p []byte
	for _, v := range pos {
		p = i16(p, v[:]...)
	}
	w = append(w, bytesWords(p)...)
	w = append(w, tris...)
	b.Chunk(0x0800, w...)
}

func i16(b []byte, vs ...int16) []byte {
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint16(b, uint16(v))
	}
	return b
}

func le32(a, b, c, d byte) uint32 {
	return uint32(a) | uint32(b)<<8 | uint32(c)<<16 | uint32(d)<<24
}

// bytesWords pads p with zeros to whole words.
func bytesWords(p []byte) []uint32 {
	out := make([]uint32, (len(p)+3)/4)
	for i := range out {
		var q [4]byte
		copy(q[:], p[4*i:])
		out[i] = binary.LittleEndian.Uint32(q[:])
	}
	return out
}
