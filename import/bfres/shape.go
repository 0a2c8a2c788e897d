package bfres

import (
	"encoding/binary"

	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/model"
)

// Shape is a decoded FSHP: a drawable part of a model, one material, one
// vertex buffer and its index buffers per level of detail.
type Shape struct {
	Name         string
	Flags        uint32
	Material     int // index into Model.Materials
	Bone         int // bone index the shape hangs on (skin count 0)
	VertexBuffer int // index into Model.VertexBuffers
	SkinCount    int
	SkinBones    []uint16 // bone indices the shape's vertices use
	KeyShapes    int      // morph targets (not converted)
	LODs         []ShapeMesh
	Off          int
	BoneAt       int // file offset of the bone index, for messages
}

// ShapeMesh is one level of detail of a shape: a primitive type and the
// vertex indices of its sub-meshes (the first vertex already added).
type ShapeMesh struct {
	Primitive   uint32 // GX2PrimitiveType
	IndexFormat uint32 // GX2IndexFormat (Wii U), or the Switch index format (0 u8, 1 u16, 2 u32)
	FirstVertex uint32
	SubMeshes   []SubMesh
	Indices     []uint32
}

// SubMesh is a range of a mesh's index buffer: a byte offset and an index count.
type SubMesh struct {
	Offset uint32
	Count  uint32
}

// Record sizes of FSHP parts (Wii U).
const (
	fshpHeaderSize = 0x34
	meshSize       = 0x1C
	subMeshSize    = 8
)

// GX2 index formats (GX2IndexFormat).
const (
	indexU16LE = 0
	indexU32LE = 1
	indexU16   = 4
	indexU32   = 9
)

// GX2 primitive types (GX2PrimitiveType) and the glTF modes they map to.
// Quads and quad strips are split into triangles; types glTF cannot draw
// (rects, adjacency, tessellation) are refused.
var primitiveModes = map[uint32]int{
	0x01: model.ModePoints,
	0x02: model.ModeLines,
	0x03: model.ModeLineStrip,
	0x04: model.ModeTriangles,
	0x05: model.ModeTriangleFan,
	0x06: model.ModeTriangleStrip,
	0x12: model.ModeLineLoop,
	0x13: model.ModeTriangles, // quads
	0x14: model.ModeTriangles, // quad strip
}

const (
	primQuads     = 0x13
	primQuadStrip = 0x14
)

// readFSHP reads the FSHP at off. Layout (Wii U): magic, name (0x04), u32
// flags (0x08), u16 index, material index, bone index, vertex-buffer index,
// skin-bone-index count (0x0C–0x14), u8 vertex skin count, mesh (LOD) count,
// key-shape count, target attribute count (0x16–0x19), u16 bounding-node
// count, radius (or radius-array offset from 4.5), then offsets to the
// FVTX (0x20), the mesh array (0x24), the skin bone indices (0x28) and the
// key-shape dict (0x2C).
func (f *resFile) readFSHP(off int, name string, m *Model) (*Shape, error) {
	what := "shape " + name
	if err := f.expectMagic(off, "FSHP", what); err != nil {
		return nil, err
	}
	r, err := f.at(off, fshpHeaderSize, what+" header")
	if err != nil {
		return nil, err
	}
	s := &Shape{Name: name, Off: off, BoneAt: off + 0x10}
	r.Seek(8, "flags")
	numSkinBone, numMesh := s.readFields(r)
	fields := shapeFields{material: off + 0x0E, vertexBuffer: off + 0x12, skinCount: off + 0x16, meshCount: off + 0x17,
		vbOffset: off + 0x20, meshArray: off + 0x24, skinBones: off + 0x28}
	return s, f.shapeBody(s, m, numSkinBone, numMesh, fields, meshSize, f.readMesh, what)
}

// readFields reads the FSHP fields both platforms store in the same order
// from r's position on: u32 flags, u16 index, material, bone and
// vertex-buffer indices and skin-bone count, u8 vertex skin count, mesh
// count and key-shape count. It returns the skin-bone and mesh counts.
func (s *Shape) readFields(r *binread.Reader) (numSkinBone, numMesh int) {
	s.Flags, _ = r.U32("flags")
	r.Skip(2, "index")
	mat, _ := r.U16("material index")
	bone, _ := r.U16("bone index")
	vbi, _ := r.U16("vertex buffer index")
	nsb, _ := r.U16("skin bone index count")
	skin, _ := r.U8("vertex skin count")
	nm, _ := r.U8("mesh count")
	numKey, _ := r.U8("key shape count")
	s.Material, s.Bone, s.VertexBuffer, s.SkinCount, s.KeyShapes = int(mat), int(bone), int(vbi), int(skin), int(numKey)
	return int(nsb), int(nm)
}

// shapeFields are the positions of the FSHP fields the shared shape
// reading follows or names in its errors.
type shapeFields struct {
	material, vertexBuffer, skinCount, meshCount int // where the values lie, for messages
	vbOffset, meshArray, skinBones               int // where the offsets lie
}

// shapeBody checks a shape's indices against its model (material, vertex
// buffer, skin count) and reads its skin bone indices and its meshes
// (numMesh records of meshSize bytes, decoded by readMesh), the same on
// both platforms.
func (f *resFile) shapeBody(s *Shape, m *Model, numSkinBone, numMesh int, at shapeFields, meshSize int,
	readMesh func(pos int, what string, vertexCount int) (ShapeMesh, error), what string) error {
	if s.Material >= len(m.Materials) {
		return binread.Errorf(int64(at.material), "%s uses material %d of %d", what, s.Material, len(m.Materials))
	}
	if s.VertexBuffer >= len(m.VertexBuffers) {
		return binread.Errorf(int64(at.vertexBuffer), "%s uses vertex buffer %d of %d", what, s.VertexBuffer, len(m.VertexBuffers))
	}
	vb := m.VertexBuffers[s.VertexBuffer]
	if vbOff, err := f.requiredOffsetAt(at.vbOffset, what+" vertex buffer"); err != nil {
		return err
	} else if vbOff != vb.Off {
		return binread.Errorf(int64(at.vbOffset), "%s: vertex buffer offset 0x%x is not that of vertex buffer %d (0x%x)", what, vbOff, s.VertexBuffer, vb.Off)
	}
	if s.SkinCount != vb.SkinCount {
		return binread.Errorf(int64(at.skinCount), "%s has vertex skin count %d, its vertex buffer %d", what, s.SkinCount, vb.SkinCount)
	}
	if numSkinBone > 0 {
		p, err := f.requiredOffsetAt(at.skinBones, what+" skin bone indices")
		if err != nil {
			return err
		}
		br, err := f.at(p, 2*numSkinBone, what+" skin bone indices")
		if err != nil {
			return err
		}
		s.SkinBones = make([]uint16, numSkinBone)
		for i := range s.SkinBones {
			s.SkinBones[i], _ = br.U16("skin bone index")
		}
	}
	if numMesh == 0 {
		return binread.Errorf(int64(at.meshCount), "%s has no mesh", what)
	}
	arr, err := f.requiredOffsetAt(at.meshArray, what+" mesh array")
	if err != nil {
		return err
	}
	if _, err := f.arrayFits(arr, numMesh, meshSize, what+" meshes"); err != nil {
		return err
	}
	for i := range numMesh {
		sm, err := readMesh(arr+i*meshSize, what, vb.Count)
		if err != nil {
			return err
		}
		s.LODs = append(s.LODs, sm)
	}
	return nil
}

// readMesh reads one mesh (LOD) record: u32 primitive type, u32 index
// format, u32 index count, u16 sub-mesh count, then offsets to the
// sub-mesh array (0x10) and the index buffer record (0x14), and the u32
// first vertex (0x18). The indices drawn are those of the sub-meshes, in
// order; each must name one of the vertexCount vertices.
func (f *resFile) readMesh(pos int, what string, vertexCount int) (ShapeMesh, error) {
	var sm ShapeMesh
	r, _ := f.at(pos, meshSize, what+" mesh")
	sm.Primitive, _ = r.U32("primitive type")
	sm.IndexFormat, _ = r.U32("index format")
	indexCount, _ := r.U32("index count")
	numSub, _ := r.U16("sub-mesh count")
	r.Seek(0x18, "first vertex")
	sm.FirstVertex, _ = r.U32("first vertex")
	if _, ok := primitiveModes[sm.Primitive]; !ok {
		return sm, binread.Errorf(int64(pos), "%s: GX2 primitive type 0x%x cannot be drawn in glTF (points, lines, line strips and loops, triangles, fans, strips, quads and quad strips can)", what, sm.Primitive)
	}
	var isize int
	switch sm.IndexFormat {
	case indexU16, indexU16LE:
		isize = 2
	case indexU32, indexU32LE:
		isize = 4
	default:
		return sm, binread.Errorf(int64(pos+4), "%s: unknown GX2 index format %d", what, sm.IndexFormat)
	}
	ib, err := f.requiredOffsetAt(pos+0x14, what+" index buffer")
	if err != nil {
		return sm, err
	}
	buf, err := f.readGX2Buffer(ib, what+" index buffer")
	if err != nil {
		return sm, err
	}
	order := byteOrder
	if sm.IndexFormat == indexU16LE || sm.IndexFormat == indexU32LE {
		order = littleEndian
	}
	return sm, f.readMeshIndices(&sm, buf, indexCount, isize, int(numSub), pos+8, pos+0x10, order, what, vertexCount)
}

// readMeshIndices reads a mesh's sub-meshes (numSub of them from the
// array whose offset is stored at subPos; none means the whole index
// buffer, indexCount indices) and decodes the indices they draw from buf
// (isize bytes each, in order), the first vertex added; each must name one
// of the vertexCount vertices. countPos is where the index count lies, for
// messages. Both platforms' meshes end here.
func (f *resFile) readMeshIndices(sm *ShapeMesh, buf VertexBufferData, indexCount uint32, isize, numSub, countPos, subPos int,
	order binary.ByteOrder, what string, vertexCount int) error {
	if int64(indexCount)*int64(isize) > int64(len(buf.Data)) {
		return binread.Errorf(int64(countPos), "%s: %d indices of %d bytes do not fit in the %d-byte index buffer", what, indexCount, isize, len(buf.Data))
	}
	if numSub == 0 {
		// No sub-mesh: the whole index buffer is drawn.
		sm.SubMeshes = []SubMesh{{0, indexCount}}
	} else {
		sa, err := f.requiredOffsetAt(subPos, what+" sub-mesh array")
		if err != nil {
			return err
		}
		sr, err := f.at(sa, subMeshSize*numSub, what+" sub-meshes")
		if err != nil {
			return err
		}
		sm.SubMeshes = make([]SubMesh, numSub)
		total := uint64(0)
		for i := range sm.SubMeshes {
			s := &sm.SubMeshes[i]
			s.Offset, _ = sr.U32("sub-mesh offset")
			s.Count, _ = sr.U32("sub-mesh count")
			if s.Offset%uint32(isize) != 0 || uint64(s.Offset)+uint64(s.Count)*uint64(isize) > uint64(len(buf.Data)) {
				return binread.Errorf(int64(sa+subMeshSize*i), "%s: sub-mesh %d (byte %d, %d indices) lies outside the %d-byte index buffer", what, i, s.Offset, s.Count, len(buf.Data))
			}
			total += uint64(s.Count)
		}
		if total > uint64(len(buf.Data)) {
			return binread.Errorf(int64(sa), "%s: the sub-meshes draw %d indices, more than the index buffer holds", what, total)
		}
	}
	for _, s := range sm.SubMeshes {
		p := int(s.Offset)
		for range s.Count {
			var v uint64
			switch isize {
			case 1:
				v = uint64(buf.Data[p])
			case 2:
				v = uint64(order.Uint16(buf.Data[p:]))
			default:
				v = uint64(order.Uint32(buf.Data[p:]))
			}
			p += isize
			v += uint64(sm.FirstVertex)
			if v >= uint64(vertexCount) {
				return binread.Errorf(int64(buf.Off+p-isize), "%s: index %d (first vertex %d added) is past the %d vertices", what, v, sm.FirstVertex, vertexCount)
			}
			sm.Indices = append(sm.Indices, uint32(v))
		}
	}
	return nil
}

// drawIndices returns the indices and glTF mode of a mesh, splitting quads
// (0 1 2 3 → 0 1 2, 0 2 3) and quad strips (pairs of triangles per quad,
// 0 1 3 2 order) into triangles; incomplete trailing primitives are dropped.
func (sm *ShapeMesh) drawIndices() ([]uint32, int) {
	mode := primitiveModes[sm.Primitive]
	switch sm.Primitive {
	case primQuads:
		var out []uint32
		for i := 0; i+4 <= len(sm.Indices); i += 4 {
			q := sm.Indices[i : i+4]
			out = append(out, q[0], q[1], q[2], q[0], q[2], q[3])
		}
		return out, mode
	case primQuadStrip:
		var out []uint32
		for i := 0; i+4 <= len(sm.Indices); i += 2 {
			q := sm.Indices[i : i+4]
			out = append(out, q[0], q[1], q[3], q[0], q[3], q[2])
		}
		return out, mode
	}
	return sm.Indices, mode
}
