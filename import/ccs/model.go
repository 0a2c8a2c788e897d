package ccs

import (
	"math"

	"github.com/animbake/bake/import/binread"
)

// Model kinds: bits of the model header's type byte (blender_ccs_importer
// ccsModel.py ModelTypes; imoqReader blocks.nim KnownModelKind).
const (
	ModelRigid        = 0x00
	ModelTriangleList = 0x02 // later generations' sectioned lists: not read
	ModelDeformable   = 0x04
	ModelShadow       = 0x08
)

// Model flags (the byte after the type): parts a rigid sub-mesh leaves out.
// A morph target is a rigid model with both set (imoqReader's kind 0x600).
const (
	ModelNoColors = 0x02
	ModelNoUVs    = 0x04
)

// Model is a Model chunk (0x0800). Header after the id (imoqReader
// ModelHeader for generation 1; blender_ccs_importer ccsModel for later
// ones; checked on the 90 models of S01.CCS, version 0x123, whose sizes
// the layout below reproduces exactly):
//
//	f32 vertex scale, u8 type, u8 flags, u16 sub-mesh count,
//	u8 u8 i16 (material and draw flags), u8 lookup count, u8 ?,
//	u16 tangent/binormal flag,
//	version > 0x110: u8[4] outline colour, f32 outline width,
//	deformable (not rigid bit 0) and version > 0x111: lookup count ×
//	u8 clump-node indices, padded to 4 bytes,
//
// then the sub-meshes of its kind (see readRigidMesh, readDeformableMesh,
// readShadowMesh). Positions are signed 16-bit fixed point: a unit is
// vertexScale/4096 cm (blender_ccs_importer: (scale/256)/16, then ×0.01 to
// metres, which bake leaves to File.Axes).
type Model struct {
	Off    int64
	ID     uint32
	Scale  float32
	Type   uint8
	Flags  uint8
	TanBin uint16
	// DrawFlags are the header's material and draw flag bytes (u8, u8,
	// i16); blender_ccs_importer reads bit 0 of the first as emissive and
	// bit 1 as emissive with inverted colours. Kept as data.
	DrawFlags [4]byte
	Outline   [4]byte
	Lookup    []uint8
	Meshes    []SubMesh
	Unsupport string // why the model's kind is not read ("" when it is)
}

// SubMesh is one draw of a model: vertices in the space of their object
// (rigid), of their clump nodes (deformable, per influence) or the shadow
// caster's, with the strip flags that make triangles.
type SubMesh struct {
	Off int64
	// Name is the first word of a rigid sub-mesh (an object-table id
	// naming the sub-mesh, "MDL_x_2"; imoqReader calls it parent).
	Name     uint32
	Material uint32
	// Positions, Normals: 3 per vertex (rigid: object space; deformable:
	// see Influences). Normals as stored (length ≈ 1, stored ×64).
	Positions []float32
	Normals   []float32
	// Colors: RGBA bytes as stored (0x80 = 1.0), nil when absent.
	Colors []byte
	// UVs: 2 per vertex, nil when absent.
	UVs []float32
	// Strip: per vertex the strip flag (normal's 4th byte): 0 closes a
	// triangle with the two vertices before it, 1 and 2 restart the strip
	// with the winding of the next triangle (1 as stored, 2 reversed).
	Strip []int8
	// Indices: a shadow mesh's triangle list.
	Indices []uint32
	// Influences: per vertex of a deformable mesh, 1..4 bone-local
	// positions and normals with their clump-node index and weight.
	Influences [][]Influence
}

// Influence is one bone's share of a deformable vertex: the vertex in the
// bone's space, and the weight.
type Influence struct {
	Node     uint16 // index into the clump's nodes (through Model.Lookup when present)
	Weight   float32
	Position [3]float32
	Normal   [3]float32
}

// VertexCount is the number of vertices a sub-mesh draws.
func (m *SubMesh) VertexCount() int {
	if m.Influences != nil {
		return len(m.Influences)
	}
	return len(m.Positions) / 3
}

// Triangles returns the sub-mesh's triangles as index triples, following
// the strip flags (blender_ccs_importer's reading: a flag-0 vertex i draws
// (i−2, i−1, i) in the current winding, then the winding flips; flags 1
// and 2 draw nothing and set the winding to stored and reversed). A shadow
// mesh's indices are returned as they are.
func (m *SubMesh) Triangles() []uint32 {
	if m.Indices != nil {
		return m.Indices
	}
	var out []uint32
	forward := true
	for i, f := range m.Strip {
		switch f {
		case 1:
			forward = true
			continue
		case 2:
			forward = false
			continue
		}
		if i < 2 {
			continue
		}
		a, b, c := uint32(i-2), uint32(i-1), uint32(i)
		if forward {
			out = append(out, a, b, c)
		} else {
			out = append(out, c, b, a)
		}
		forward = !forward
	}
	return out
}

// modelReader carries the per-model facts the sub-mesh readers need.
type modelReader struct {
	r       *binread.Reader
	m       *Model
	version uint32
	unit    float64 // cm per position unit
}

// readModel decodes a Model chunk body for a file of the given version.
func readModel(c *RawChunk, version uint32) (*Model, error) {
	r := c.reader()
	m := &Model{Off: c.Off, ID: c.ID}
	var err error
	if m.Scale, err = r.F32("model vertex scale"); err != nil {
		return nil, err
	}
	head, err := r.Bytes(12, "model header")
	if err != nil {
		return nil, err
	}
	m.Type, m.Flags = head[0], head[1]
	count := int(order.Uint16(head[2:]))
	lookupCount := int(head[8])
	m.TanBin = order.Uint16(head[10:])
	copy(m.DrawFlags[:], head[4:8])
	if version > VersionGen1 {
		o, err := r.Bytes(4, "model outline colour")
		if err != nil {
			return nil, err
		}
		copy(m.Outline[:], o)
		if _, err := r.F32("model outline width"); err != nil {
			return nil, err
		}
	}
	if m.Type&1 == 0 && m.Type&ModelDeformable != 0 && version > 0x111 && lookupCount > 0 {
		l, err := r.Bytes(lookupCount, "model lookup list")
		if err != nil {
			return nil, err
		}
		m.Lookup = append([]uint8(nil), l...)
		if err := align4(r); err != nil {
			return nil, err
		}
	}
	if math.IsNaN(float64(m.Scale)) || math.IsInf(float64(m.Scale), 0) {
		return nil, binread.Errorf(c.BodyOff(), "model %d: vertex scale is %v", c.ID, m.Scale)
	}
	mr := &modelReader{r: r, m: m, version: version, unit: float64(m.Scale) / 4096}
	var read func() (SubMesh, error)
	switch {
	case m.Type&ModelTriangleList != 0:
		m.Unsupport = "sectioned triangle-list model (type bit 0x02, later generations) is not read"
		return m, nil
	case m.Type&ModelDeformable != 0:
		read = mr.deformable
	case m.Type == ModelShadow:
		read = mr.shadow
	case m.Type&^1 == ModelRigid:
		read = mr.rigid
	default:
		m.Unsupport = "unknown model type"
		return m, nil
	}
	// Each sub-mesh needs at least 12 bytes, which bounds the allocation.
	n, err := r.Count(uint64(count), 12, "model sub-meshes")
	if err != nil {
		return nil, err
	}
	m.Meshes = make([]SubMesh, 0, n)
	for range n {
		sm, err := read()
		if err != nil {
			return nil, err
		}
		m.Meshes = append(m.Meshes, sm)
	}
	return m, nil
}

func align4(r *binread.Reader) error {
	if pad := (4 - r.Pos%4) % 4; pad > 0 {
		return r.Skip(pad, "alignment padding")
	}
	return nil
}

// vertexCount reads a vertex count and checks that per bytes a vertex fit
// in what is left of the chunk, so that no allocation exceeds the input.
func (mr *modelReader) vertexCount(what string, per int) (int, error) {
	off := mr.r.Off()
	n, err := mr.r.U32(what)
	if err != nil {
		return 0, err
	}
	if uint64(n)*uint64(per) > uint64(mr.r.Remaining()) {
		return 0, binread.Errorf(off, "model %d: %s %d needs at least %d bytes, the chunk has %d left", mr.m.ID, what, n, uint64(n)*uint64(per), mr.r.Remaining())
	}
	return int(n), nil
}

// positions reads n signed 16-bit triples scaled to cm, then pads to 4.
func (mr *modelReader) positions(n int) ([]float32, error) {
	b, err := mr.r.Bytes(6*n, "positions")
	if err != nil {
		return nil, err
	}
	out := make([]float32, 3*n)
	for i := range out {
		out[i] = float32(float64(int16(order.Uint16(b[2*i:]))) * mr.unit)
	}
	return out, align4(mr.r)
}

// normals reads n × (i8 x, y, z, flag): normals stored ×64 (S01: lengths
// 62..64), returned divided by 64, and the strip flags.
func (mr *modelReader) normals(n int) ([]float32, []int8, error) {
	b, err := mr.r.Bytes(4*n, "normals")
	if err != nil {
		return nil, nil, err
	}
	nrm := make([]float32, 3*n)
	flags := make([]int8, n)
	for i := range n {
		for k := range 3 {
			nrm[3*i+k] = float32(int8(b[4*i+k])) / 64
		}
		flags[i] = int8(b[4*i+3])
	}
	return nrm, flags, nil
}

// uvs reads n texture coordinates: signed 16-bit /256 before version
// 0x125, 16.16 fixed point from it (blender_ccs_importer; S01 is 0x123).
func (mr *modelReader) uvs(n int, wide bool) ([]float32, error) {
	if wide {
		b, err := mr.r.Bytes(8*n, "UVs")
		if err != nil {
			return nil, err
		}
		out := make([]float32, 2*n)
		for i := range out {
			out[i] = float32(float64(int32(order.Uint32(b[4*i:]))) / 65536)
		}
		return out, nil
	}
	b, err := mr.r.Bytes(4*n, "UVs")
	if err != nil {
		return nil, err
	}
	out := make([]float32, 2*n)
	for i := range out {
		out[i] = float32(int16(order.Uint16(b[2*i:]))) / 256
	}
	return out, nil
}

// skipTanBin passes over per-vertex tangents and binormals (4 + 4 bytes a
// vertex) when the model has them; bake does not use them.
func (mr *modelReader) skipTanBin(n int) error {
	if mr.m.TanBin == 0 {
		return nil
	}
	return mr.r.Skip(8*n, "tangents and binormals")
}

// rigid reads a rigid sub-mesh: u32 name id, u32 material, u32 count,
// positions, normals with strip flags, colours (RGBA bytes) unless flag
// 0x02, UVs unless flag 0x04, tangents when the model has them.
func (mr *modelReader) rigid() (SubMesh, error) {
	sm := SubMesh{Off: mr.r.Off()}
	var err error
	if sm.Name, err = mr.r.U32("sub-mesh name"); err != nil {
		return sm, err
	}
	if sm.Material, err = mr.r.U32("sub-mesh material"); err != nil {
		return sm, err
	}
	n, err := mr.vertexCount("vertex count", 10)
	if err != nil {
		return sm, err
	}
	if sm.Positions, err = mr.positions(n); err != nil {
		return sm, err
	}
	if sm.Normals, sm.Strip, err = mr.normals(n); err != nil {
		return sm, err
	}
	if mr.m.Flags&ModelNoColors == 0 {
		b, err := mr.r.Bytes(4*n, "vertex colours")
		if err != nil {
			return sm, err
		}
		sm.Colors = append([]byte(nil), b...)
	}
	if mr.m.Flags&ModelNoUVs == 0 {
		if sm.UVs, err = mr.uvs(n, mr.version >= 0x125); err != nil {
			return sm, err
		}
	}
	return sm, mr.skipTanBin(n)
}

// shadow reads a shadow sub-mesh: u32 vertex count, u32 index count,
// positions, then index count × u32 (a triangle list; imoqReader
// ShadowPrimitive, blender_ccs_importer ShadowMesh).
func (mr *modelReader) shadow() (SubMesh, error) {
	sm := SubMesh{Off: mr.r.Off()}
	n, err := mr.vertexCount("shadow vertex count", 6)
	if err != nil {
		return sm, err
	}
	ni, err := mr.vertexCount("shadow index count", 4)
	if err != nil {
		return sm, err
	}
	if ni%3 != 0 {
		return sm, binread.Errorf(sm.Off+4, "model %d: shadow index count %d is not a multiple of 3", mr.m.ID, ni)
	}
	if sm.Positions, err = mr.positions(n); err != nil {
		return sm, err
	}
	b, err := mr.r.Bytes(4*ni, "shadow indices")
	if err != nil {
		return sm, err
	}
	sm.Indices = make([]uint32, ni)
	for i := range sm.Indices {
		v := order.Uint32(b[4*i:])
		if uint64(v) >= uint64(n) {
			return sm, binread.Errorf(mr.r.Off()-int64(len(b))+int64(4*i), "model %d: shadow index %d ≥ vertex count %d", mr.m.ID, v, n)
		}
		sm.Indices[i] = v
	}
	return sm, nil
}

// deformable reads a deformable sub-mesh: u32 material, u32 vertex count,
// u32 influence count. With no influences, the sub-mesh is rigidly bound
// to one clump node: u32 node, positions, normals with flags, UVs (32-bit
// after version 0x125). Otherwise every vertex has one or more bone-local
// copies (see influences).
func (mr *modelReader) deformable() (SubMesh, error) {
	sm := SubMesh{Off: mr.r.Off()}
	var err error
	if sm.Material, err = mr.r.U32("sub-mesh material"); err != nil {
		return sm, err
	}
	n, err := mr.vertexCount("vertex count", 8)
	if err != nil {
		return sm, err
	}
	dc, err := mr.vertexCount("influence count", 12)
	if err != nil {
		return sm, err
	}
	if dc == 0 {
		node, err := mr.r.U32("sub-mesh clump node")
		if err != nil {
			return sm, err
		}
		pos, err := mr.positions(n)
		if err != nil {
			return sm, err
		}
		nrm, flags, err := mr.normals(n)
		if err != nil {
			return sm, err
		}
		if sm.UVs, err = mr.uvs(n, mr.version > 0x125); err != nil {
			return sm, err
		}
		sm.Strip = flags
		sm.Influences = make([][]Influence, n)
		for i := range n {
			inf := Influence{Node: uint16(node), Weight: 1}
			copy(inf.Position[:], pos[3*i:])
			copy(inf.Normal[:], nrm[3*i:])
			sm.Influences[i] = []Influence{inf}
		}
		if node > math.MaxUint16 {
			return sm, binread.Errorf(sm.Off+12, "model %d: clump node %d out of range", mr.m.ID, node)
		}
		return sm, mr.skipTanBin(n)
	}
	if dc < n {
		return sm, binread.Errorf(sm.Off+8, "model %d: %d influences for %d vertices", mr.m.ID, dc, n)
	}
	return sm, mr.influences(&sm, n, dc)
}

// influences reads a multi-bone sub-mesh's dc bone-local vertex copies
// and assigns them to its n vertices.
//
// Before version 0x125 (blender_ccs_importer; imoqReader's
// DeformableVertex): dc × (i16 x, y, z, u16 p) where p>>10 is the node,
// p&0x1FF the weight in 1/256, and bit 9 set on a vertex's last copy (so a
// vertex has one or two); then dc × normal (i8 ×3, flag); then n × UV.
// From 0x125: dc × (i16 x, y, z, weight/256, stop, node), dc normals,
// n × 16.16 UVs, tangents; copies run until one has stop ≠ 0 (at most 4).
func (mr *modelReader) influences(sm *SubMesh, n, dc int) error {
	wide := mr.version >= 0x125
	per := 8
	if wide {
		per = 12
	}
	vp, err := mr.r.Bytes(per*dc, "deformable vertices")
	if err != nil {
		return err
	}
	vpOff := mr.r.Off() - int64(len(vp))
	vn, err := mr.r.Bytes(4*dc, "deformable normals")
	if err != nil {
		return err
	}
	if sm.UVs, err = mr.uvs(n, wide); err != nil {
		return err
	}
	sm.Strip = make([]int8, n)
	sm.Influences = make([][]Influence, n)
	j := 0
	for v := range n {
		for slot := 0; ; slot++ {
			if j >= dc {
				return binread.Errorf(vpOff, "model %d: vertex %d's influences run past the %d stored", mr.m.ID, v, dc)
			}
			e := vp[per*j:]
			var inf Influence
			for k := range 3 {
				inf.Position[k] = float32(float64(int16(order.Uint16(e[2*k:]))) * mr.unit)
				inf.Normal[k] = float32(int8(vn[4*j+k])) / 64
			}
			last := false
			if wide {
				inf.Weight = float32(int16(order.Uint16(e[6:]))) / 256
				last = order.Uint16(e[8:]) != 0 || slot == 3
				inf.Node = order.Uint16(e[10:])
			} else {
				p := order.Uint16(e[6:])
				inf.Node = p >> 10
				inf.Weight = float32(p&0x1FF) / 256
				last = p&0x200 != 0 || slot == 1
			}
			if slot == 0 || wide {
				sm.Strip[v] = int8(vn[4*j+3]) // blender: the first copy's flag, the last's from 0x125
			}
			sm.Influences[v] = append(sm.Influences[v], inf)
			j++
			if last {
				break
			}
		}
	}
	if j != dc {
		return binread.Errorf(vpOff, "model %d: %d vertices use %d influences, the sub-mesh stores %d", mr.m.ID, n, j, dc)
	}
	if wide {
		return mr.r.Skip(8*dc*boolInt(mr.m.TanBin != 0), "tangents and binormals")
	}
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
