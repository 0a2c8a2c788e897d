package vtwrite

import "encoding/binary"

// Class ids of the scene classes the writer builds.
const (
	ClassGroup        = 23
	ClassMaterial     = 30
	ClassTexture      = 31
	ClassMesh         = 32
	ClassCamera       = 34
	ClassTargetCamera = 35
	ClassLight        = 38
	ClassTargetLight  = 39
)

// Section identifiers of the scene classes (CK_STATESAVE_*).
const (
	IdentHidden          = 0x4        // CKObject: hidden
	IdentEntityMeshes    = 0x4000     // CK3dEntity: current mesh, mesh list
	IdentMeshFlags       = 0x2000     // CKMesh: VXMESH_FLAGS
	IdentMeshChannels    = 0x4000     // CKMesh: material channels
	IdentMeshFaces       = 0x10000    // CKMesh: faces
	IdentMeshLines       = 0x40000    // CKMesh: lines
	IdentMeshVertices    = 0x20000    // CKMesh: packed vertices
	IdentMeshMaterials   = 0x100000   // CKMesh: material slots
	IdentMaterialData    = 0x1000     // CKMaterial: colours, texture, modes
	IdentTexFileNames    = 0x10000    // CKTexture: file name per slot
	IdentTexRaw          = 0x20000    // CKTexture: raw pixels per slot
	IdentTexReader       = 0x100000   // CKTexture: image file per slot
	IdentTexOptions      = 0x2ff000   // CKTexture: options dword and colour key...
	IdentCameraData      = 0xfc00000  // CKCamera: projection, fov, zoom, aspect, planes
	IdentCameraTarget    = 0x10000000 // CKTargetCamera: target
	IdentLightData       = 0x400000   // CKLight: type, colour, attenuation, range, cone
	IdentLightPower      = 0x800000   // CKLight: power
	IdentGroupMembers    = 0xfffff    // CKGroup: members
	VertexSingleColor    = 0x01       // vertex save flags
	VertexSingleSpecular = 0x02
	VertexNoNormal       = 0x04
	VertexSingleUV       = 0x08
	MeshFlagsDefault     = 0x2 | 0x8 // visible, render channels
	MeshPrelit           = 0x80
)

// MeshData is a mesh to write. Colors (ARGB per vertex) and Normals may be
// nil: the writer then saves a single white colour or no normals. UVs nil
// saves a single (0, 0).
type MeshData struct {
	Flags     uint32
	Materials []uint32 // slot table indices; 0xFFFFFFFF for an empty slot
	Positions []float32
	Normals   []float32
	UVs       []float32
	Colors    []uint32
	Faces     []uint16 // 3 per face
	FaceSlots []uint16 // 1 per face
	Lines     []uint16 // 2 per line
	Channels  []ChannelData
}

// ChannelData is an additional material channel.
type ChannelData struct {
	Material, Flags, SrcBlend, DstBlend uint32
	UVs                                 []float32
}

// MeshSections are a CKMesh's sections as the engine saves them: flags,
// material slots (reference, reserved 0), the packed vertex block (count,
// save flags, its size in dwords counting itself, positions, colours,
// speculars, normals, UVs), faces (two dwords of 16-bit words each:
// index 0, index 1, index 2, slot), lines (count, then a buffer of 16-bit
// index pairs) and channels.
func MeshSections(m MeshData) []Section {
	n := len(m.Positions) / 3
	out := []Section{{IdentMeshFlags, []uint32{m.Flags}}}
	slots := []uint32{uint32(len(m.Materials))}
	for _, s := range m.Materials {
		slots = append(slots, s, 0)
	}
	out = append(out, Section{IdentMeshMaterials, slots})
	flags := uint32(VertexSingleSpecular)
	block := F32s(m.Positions...)
	if m.Colors == nil {
		flags |= VertexSingleColor
		block = append(block, 0xffffffff)
	} else {
		block = append(block, m.Colors...)
	}
	block = append(block, 0) // one black specular
	if m.Normals == nil {
		flags |= VertexNoNormal
	} else {
		block = append(block, F32s(m.Normals...)...)
	}
	if m.UVs == nil {
		flags |= VertexSingleUV
		block = append(block, 0, 0)
	} else {
		block = append(block, F32s(m.UVs...)...)
	}
	v := append([]uint32{uint32(n), flags, uint32(len(block) + 1)}, block...)
	out = append(out, Section{IdentMeshVertices, v})
	f := []uint32{uint32(len(m.FaceSlots))}
	for i := range m.FaceSlots {
		f = append(f, uint32(m.Faces[3*i])|uint32(m.Faces[3*i+1])<<16, uint32(m.Faces[3*i+2])|uint32(m.FaceSlots[i])<<16)
	}
	out = append(out, Section{IdentMeshFaces, f})
	if len(m.Lines) > 0 {
		b := make([]byte, 0, 2*len(m.Lines))
		for _, v := range m.Lines {
			b = binary.LittleEndian.AppendUint16(b, v)
		}
		out = append(out, Section{IdentMeshLines, append([]uint32{uint32(len(m.Lines) / 2)}, Buffer(b)...)})
	}
	if len(m.Channels) > 0 {
		c := []uint32{uint32(len(m.Channels))}
		for _, ch := range m.Channels {
			c = append(c, ch.Material, ch.Flags, ch.SrcBlend, ch.DstBlend, uint32(len(ch.UVs)/2))
			c = append(c, F32s(ch.UVs...)...)
		}
		out = append(out, Section{IdentMeshChannels, c})
	}
	return out
}

// MaterialData is a material to write.
type MaterialData struct {
	Diffuse, Ambient, Specular, Emissive uint32 // ARGB
	Power                                float32
	Texture                              uint32 // table index, 0xFFFFFFFF none
	// Modes are the eight 4-bit modes from the low bits up: texture
	// blend, min filter, mag filter, source blend, destination blend,
	// shade, fill, address.
	Modes [8]uint8
	// States: two-sided 0x1, z-write 0x2, perspective 0x4, alpha blend
	// 0x8, alpha test 0x10; z function, alpha function and reference in
	// bytes 1, 2, 3.
	States uint32
}

// MaterialSection is a CKMaterial's 0x1000 section.
func MaterialSection(m MaterialData) Section {
	var modes uint32
	for i, v := range m.Modes {
		modes |= uint32(v&0xf) << (4 * i)
	}
	return Section{IdentMaterialData, []uint32{m.Diffuse, m.Ambient, m.Specular, m.Emissive, F32(m.Power),
		m.Texture, 0, modes, m.States}}
}

// Buffer is a length-prefixed buffer (WriteBuffer): byte count, then the
// bytes padded to dwords.
func Buffer(b []byte) []uint32 {
	out := []uint32{uint32(len(b))}
	padded := make([]byte, (len(b)+3)/4*4)
	copy(padded, b)
	for i := 0; i < len(padded); i += 4 {
		out = append(out, binary.LittleEndian.Uint32(padded[i:]))
	}
	return out
}

// String is a saved string: its length with the NUL, then the bytes.
func String(s string) []uint32 { return Buffer(append([]byte(s), 0)) }

// RawTextureSection is a CKTexture's 0x20000 section with one slot of
// straight RGBA pixels (rows top to bottom, as bake reads them): 32 bits
// per pixel, width, height, the ARGB masks, compression 0, then the blue,
// green, red and alpha planes with rows bottom to top, as the engine saves
// them.
func RawTextureSection(w, h int, rgba []byte) Section {
	planes := make([][]byte, 4)
	for k := range planes {
		planes[k] = make([]byte, w*h)
	}
	for y := range h {
		for x := range w {
			src := 4 * (y*w + x)
			dst := (h-1-y)*w + x
			planes[0][dst], planes[1][dst], planes[2][dst], planes[3][dst] = rgba[src+2], rgba[src+1], rgba[src], rgba[src+3]
		}
	}
	words := []uint32{1, 32, uint32(w), uint32(h), 0xff000000, 0xff0000, 0xff00, 0xff, 0}
	for _, p := range planes {
		words = append(words, Buffer(p)...)
	}
	return Section{IdentTexRaw, words}
}

// FileNameSection names one file per slot.
func FileNameSection(names ...string) Section {
	w := []uint32{uint32(len(names))}
	for _, n := range names {
		w = append(w, String(n)...)
	}
	return Section{IdentTexFileNames, w}
}

// TextureOptionsSection is the options section of a single-slot texture
// with a colour key (transparent when key is nonzero) and no video format.
func TextureOptionsSection(transparent bool, key uint32) Section {
	v := uint32(0)
	if transparent {
		v |= 1 << 8
	}
	return Section{IdentTexOptions, []uint32{v, key}}
}

// CameraSection is a CKCamera's data: projection (1 perspective, 2
// orthographic), horizontal fov in radians, orthographic zoom, aspect
// width and height, near and far planes.
func CameraSection(projection uint32, fov, zoom float32, w, h uint16, near, far float32) Section {
	return Section{IdentCameraData, []uint32{projection, F32(fov), F32(zoom), uint32(w) | uint32(h)<<16, F32(near), F32(far)}}
}

// LightSection is a CKLight's data: type (1 point, 2 spot, 3 directional)
// with flags, ARGB colour, three attenuation factors, range and, for
// spots, outer and inner cone (full angles) and falloff.
func LightSection(typ, flags, color uint32, att [3]float32, rng float32, cone ...float32) Section {
	w := []uint32{typ | flags, color, F32(att[0]), F32(att[1]), F32(att[2]), F32(rng)}
	return Section{IdentLightData, append(w, F32s(cone...)...)}
}
