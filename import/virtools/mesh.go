package virtools

import (
	"encoding/binary"
	"math"
)

// Section identifiers of CKMesh (CK_STATESAVE_MESH*).
const (
	identMeshFlags     = 0x2000   // mesh flags (VXMESH_FLAGS)
	identMeshChannels  = 0x4000   // additional material channels with their UVs
	identMeshFaces     = 0x10000  // faces: 3 vertex indices and a material slot each
	identMeshVertices  = 0x20000  // vertex count, save flags, packed vertex data
	identMeshLines     = 0x40000  // line indices
	identMeshMaterials = 0x100000 // material slots
)

// dataVersionMeshChange is CHUNK_MESHCHANGE_VERSION: the packed vertex and
// face layout bake reads. Older meshes use per-element sections that no
// Ballance file holds.
const dataVersionMeshChange = 9

// maxMeshVertices bounds a mesh's vertex count: faces address vertices
// with 16-bit indices, so no more can be drawn (and a count read from a
// damaged file cannot make bake allocate more).
const maxMeshVertices = 1 << 16

// Mesh flags (VXMESH_FLAGS) that matter to rendering.
const (
	MeshVisible          = 0x2
	MeshRenderChannels   = 0x8
	MeshHasTransparency  = 0x10
	MeshPrelit           = 0x80     // vertex colours light the mesh, no lighting
	MeshWrapU            = 0x100    // cylindrical wrapping of u (not expressible in glTF)
	MeshWrapV            = 0x200    // cylindrical wrapping of v
	MeshForceTransparent = 0x1000   // drawn with the transparent objects
	MeshProceduralPos    = 0x200000 // positions are generated, not saved
)

// Vertex save flags: which parts of the 0x20000 section are a single value
// for every vertex or absent (CKMesh's VertexSaveFlags).
const (
	vertexSingleColor    = 0x01
	vertexSingleSpecular = 0x02
	vertexNoNormal       = 0x04
	vertexSingleUV       = 0x08
	vertexNoPosition     = 0x10
)

// Channel flags (VXCHANNEL_FLAGS).
const (
	ChannelActive = 0x1
	ChannelSameUV = 0x800000 // the channel uses the mesh's own UVs
	ChannelNotLit = 0x1000000
)

// Mesh is a decoded CKMesh: its vertices with every saved attribute, its
// triangles with the material slot each one uses, and its additional
// material channels. Everything is as on disk (Virtools' left-handed axes,
// D3D's texture space with v down, clockwise front faces).
type Mesh struct {
	Index     int
	Flags     uint32 // VXMESH_FLAGS as saved
	SaveFlags uint32 // vertex save flags of the 0x20000 section
	// Materials are the material slots (table indices, noRef for none).
	Materials []int
	Vertices  int
	Positions []float32 // 3 per vertex; nil when positions are procedural
	Normals   []float32 // 3 per vertex; nil when the file saved none
	UVs       []float32 // 2 per vertex (a single saved UV is repeated)
	Colors    []uint32  // diffuse ARGB per vertex (a single saved one is repeated)
	Speculars []uint32  // specular ARGB per vertex
	Faces     []uint16  // 3 vertex indices per triangle
	FaceSlots []uint16  // the material slot of each triangle
	Lines     []uint16  // 2 vertex indices per line
	Channels  []MeshChannel
}

// MeshChannel is an additional material channel: a second pass drawn with
// its own material, blend factors and, unless ChannelSameUV, its own UVs.
type MeshChannel struct {
	Material           int // table index or noRef
	Flags              uint32
	SrcBlend, DstBlend uint32    // VXBLEND_MODE
	UVs                []float32 // 2 per vertex, nil with ChannelSameUV
}

// FaceCount returns the number of triangles.
func (m *Mesh) FaceCount() int { return len(m.Faces) / 3 }

// decodeMesh reads the CKMesh sections of an object's chunk
// (virtools.md, "Scene: meshes").
func decodeMesh(o *Object, refs refResolver, warn func(string, ...any)) (*Mesh, error) {
	m := &Mesh{Index: o.Index, Flags: MeshVisible | MeshRenderChannels}
	c := o.Chunk
	if c == nil {
		return m, nil
	}
	if c.DataVersion < dataVersionMeshChange {
		warn("mesh %q: data version %d predates the packed mesh layout (%d); its geometry is not read", o.Name, c.DataVersion, dataVersionMeshChange)
		return m, nil
	}
	// Vertices before faces and channels: both are checked against the
	// vertex count.
	for _, sec := range []struct {
		ident uint32
		read  func(*sectionReader) error
	}{
		{identMeshFlags, func(s *sectionReader) (err error) { m.Flags, err = s.U32("mesh flags"); return }},
		{identMeshMaterials, m.readMaterials},
		{identMeshVertices, m.readVertices},
		{identMeshFaces, m.readFaces},
		{identMeshLines, m.readLines},
		{identMeshChannels, m.readChannels},
	} {
		s, err := c.section(sec.ident, refs)
		if err != nil {
			return nil, err
		}
		if s != nil {
			if err := sec.read(s); err != nil {
				return nil, err
			}
		}
	}
	return m, nil
}

// readMaterials reads the slot list: a count, then per slot a material
// reference and a reserved dword. References that do not resolve are
// empty slots, as the engine leaves them.
func (m *Mesh) readMaterials(s *sectionReader) error {
	n, err := s.U32("material slot count")
	if err != nil {
		return err
	}
	if uint64(n)*2 > uint64(s.Left()) {
		return s.errorf("%d material slots need %d dwords, the section has %d left", n, uint64(n)*2, s.Left())
	}
	m.Materials = make([]int, n)
	for i := range m.Materials {
		if m.Materials[i], err = s.LenientRef("material slot"); err != nil {
			return err
		}
		_ = s.Skip(1, "material slot reserved dword")
	}
	return nil
}

// readVertices reads the packed vertex block: count, save flags, the
// block's size in dwords (counting itself), then positions (3 floats per
// vertex unless vertexNoPosition), diffuse colours (one ARGB dword per
// vertex, or one for all), specular colours (likewise), normals (3 floats
// per vertex unless vertexNoNormal) and UVs (2 floats per vertex, or one
// pair for all). Sizes are checked against the section before anything is
// allocated.
func (m *Mesh) readVertices(s *sectionReader) error {
	n, err := s.U32("vertex count")
	if err != nil || n == 0 {
		return err
	}
	if n > maxMeshVertices {
		return s.errorf("%d vertices: faces use 16-bit indices, so a mesh has at most %d", n, maxMeshVertices)
	}
	if m.SaveFlags, err = s.U32("vertex save flags"); err != nil {
		return err
	}
	blockOff := s.Off()
	size, err := s.U32("vertex block size")
	if err != nil {
		return err
	}
	if size == 0 || uint64(size)-1 > uint64(s.Left()) {
		return s.errorf("vertex block of %d dwords does not fit the %d dwords left", size, s.Left()+1)
	}
	f := m.SaveFlags
	per := func(flag uint32, each uint64) uint64 { // dwords of one attribute
		if f&flag != 0 {
			return each
		}
		return each * uint64(n)
	}
	var need uint64
	if f&vertexNoPosition == 0 {
		need += 3 * uint64(n)
	}
	need += per(vertexSingleColor, 1) + per(vertexSingleSpecular, 1)
	if f&vertexNoNormal == 0 {
		need += 3 * uint64(n)
	}
	need += per(vertexSingleUV, 2)
	if need > uint64(size)-1 {
		e := s.errorf("%d vertices with save flags 0x%x need %d dwords, the block holds %d", n, f, need, size-1)
		e.Off = blockOff
		return e
	}
	m.Vertices = int(n)
	if f&vertexNoPosition == 0 {
		b, _ := s.Words(3*int(n), "positions")
		m.Positions = floats(b)
	}
	m.Colors = m.readColors(s, f&vertexSingleColor != 0)
	m.Speculars = m.readColors(s, f&vertexSingleSpecular != 0)
	if f&vertexNoNormal == 0 {
		b, _ := s.Words(3*int(n), "normals")
		m.Normals = floats(b)
	}
	if f&vertexSingleUV != 0 {
		b, _ := s.Words(2, "uv")
		uv := floats(b)
		m.UVs = make([]float32, 2*n)
		for i := 0; i < len(m.UVs); i += 2 {
			copy(m.UVs[i:], uv)
		}
	} else {
		b, _ := s.Words(2*int(n), "uvs")
		m.UVs = floats(b)
	}
	for _, a := range [][]float32{m.Positions, m.Normals, m.UVs} {
		for _, x := range a {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				e := s.errorf("vertex data holds a NaN or infinite number")
				e.Off = blockOff
				return e
			}
		}
	}
	return nil
}

// readColors reads one colour per vertex, or a single one repeated.
func (m *Mesh) readColors(s *sectionReader, single bool) []uint32 {
	out := make([]uint32, m.Vertices)
	if single {
		c, _ := s.U32("colour")
		for i := range out {
			out[i] = c
		}
		return out
	}
	b, _ := s.Words(m.Vertices, "colours")
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out
}

// readFaces reads the triangles: a count, then per face two dwords holding
// the 16-bit words index 0, index 1, index 2 and material slot.
func (m *Mesh) readFaces(s *sectionReader) error {
	n, err := s.U32("face count")
	if err != nil {
		return err
	}
	if uint64(n)*2 > uint64(s.Left()) {
		return s.errorf("%d faces need %d dwords, the section has %d left", n, uint64(n)*2, s.Left())
	}
	m.Faces = make([]uint16, 3*n)
	m.FaceSlots = make([]uint16, n)
	for i := range int(n) {
		off := s.Off()
		b, _ := s.Words(2, "face")
		for k := range 3 {
			v := binary.LittleEndian.Uint16(b[2*k:])
			if int(v) >= m.Vertices {
				e := s.errorf("face %d uses vertex %d of %d", i, v, m.Vertices)
				e.Off = off
				return e
			}
			m.Faces[3*i+k] = v
		}
		m.FaceSlots[i] = binary.LittleEndian.Uint16(b[6:])
	}
	return nil
}

// readLines reads the line list: a count, then a buffer of 16-bit index
// pairs.
func (m *Mesh) readLines(s *sectionReader) error {
	n, err := s.U32("line count")
	if err != nil || n == 0 {
		return err
	}
	b, err := s.Buffer("lines")
	if err != nil {
		return err
	}
	if uint64(len(b)) < 4*uint64(n) {
		return s.errorf("%d lines need %d bytes, the buffer has %d", n, 4*uint64(n), len(b))
	}
	m.Lines = make([]uint16, 2*n)
	for i := range m.Lines {
		v := binary.LittleEndian.Uint16(b[2*i:])
		if int(v) >= m.Vertices {
			return s.errorf("line %d uses vertex %d of %d", i/2, v, m.Vertices)
		}
		m.Lines[i] = v
	}
	return nil
}

// readChannels reads the additional material channels: a count, then per
// channel a material reference, flags, source and destination blend, a UV
// count (0 or the vertex count) and that many float pairs.
func (m *Mesh) readChannels(s *sectionReader) error {
	n, err := s.U32("channel count")
	if err != nil {
		return err
	}
	if uint64(n)*5 > uint64(s.Left()) {
		return s.errorf("%d channels need at least %d dwords, the section has %d left", n, uint64(n)*5, s.Left())
	}
	m.Channels = make([]MeshChannel, 0, n)
	for range n {
		var ch MeshChannel
		if ch.Material, err = s.LenientRef("channel material"); err != nil {
			return err
		}
		if ch.Flags, err = s.U32("channel flags"); err != nil {
			return err
		}
		if ch.SrcBlend, err = s.U32("channel source blend"); err != nil {
			return err
		}
		if ch.DstBlend, err = s.U32("channel destination blend"); err != nil {
			return err
		}
		cnt, err := s.U32("channel uv count")
		if err != nil {
			return err
		}
		if cnt != 0 && int64(cnt) != int64(m.Vertices) {
			return s.errorf("channel has %d UVs for %d vertices", cnt, m.Vertices)
		}
		if uint64(cnt)*2 > uint64(s.Left()) {
			return s.errorf("%d channel UVs need %d dwords, the section has %d left", cnt, uint64(cnt)*2, s.Left())
		}
		if cnt > 0 {
			b, _ := s.Words(2*int(cnt), "channel uvs")
			ch.UVs = floats(b)
			for _, x := range ch.UVs {
				if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
					return s.errorf("channel UVs hold a NaN or infinite number")
				}
			}
		}
		m.Channels = append(m.Channels, ch)
	}
	return nil
}

// floats decodes little-endian float32s.
func floats(b []byte) []float32 {
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}
