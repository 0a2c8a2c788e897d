package ccs

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/animbake/bake/import/ccs/ccswrite"
)

// i16s packs signed 16-bit values little-endian.
func i16s(vs ...int) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint16(b, uint16(int16(v)))
	}
	return b
}

// modelHead123 is a version-0x123 model header after the id: vertex
// scale, type, flags, sub-mesh count, two zero words, outline colour and
// width (7 words in all with the id).
func modelHead123(scale float32, typ, flags byte, meshes int) []byte {
	return le(math.Float32bits(scale), []byte{typ, flags, byte(meshes), 0}, 0, 0, 0, math.Float32bits(1))
}

// A rigid sub-mesh worked by hand from its raw words (version 0x123,
// vertex scale 8192 = 2 cm a unit).
func TestRigidModelByHand(t *testing.T) {
	body := append(modelHead123(8192, ModelRigid, 0, 1),
		le(5, 6, 5, // name id 5, material 6, 5 vertices
			i16s(0, 0, 0, 10, 0, 0, 0, 10, 0, 10, 10, 0, -1, -32768, 32767, 0),        // 30 bytes + 2 padding
			[]byte{0, 0, 64, 1, 0, 0, 64, 1, 0, 0, 64, 0, 0, 0, 64, 0, 0, 0, 0xC0, 2}, // normals, strip flags 1 1 0 0 2
			[]byte{0x80, 0x40, 0, 0x80, 0x80, 0x80, 0x80, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF},
			i16s(256, 512, 128, -256, 0, 0, 0, 0, 0, 0))...)
	m, err := readModel(&RawChunk{ID: 4, Body: body}, 0x123)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Meshes) != 1 || m.Scale != 8192 {
		t.Fatalf("%d meshes, scale %v", len(m.Meshes), m.Scale)
	}
	sm := &m.Meshes[0]
	if sm.Name != 5 || sm.Material != 6 || sm.VertexCount() != 5 {
		t.Fatalf("sub-mesh %+v", sm)
	}
	wantPos := []float32{0, 0, 0, 20, 0, 0, 0, 20, 0, 20, 20, 0, -2, -65536, 65534}
	for i, w := range wantPos {
		if sm.Positions[i] != w {
			t.Errorf("position[%d] = %v, want %v", i, sm.Positions[i], w)
		}
	}
	if sm.Normals[2] != 1 || sm.Normals[14] != -1 {
		t.Errorf("normals %v (stored ×64)", sm.Normals)
	}
	// Strip: 1, 1 restart forward; vertex 2 draws (0,1,2), vertex 3 the
	// reversed (3,2,1); flag 2 at vertex 4 draws nothing. Both triangles
	// face +Z like the normals.
	tris := sm.Triangles()
	if want := []uint32{0, 1, 2, 3, 2, 1}; !equalU32(tris, want) {
		t.Errorf("triangles %v, want %v", tris, want)
	}
	ac := &assetConverter{matName: map[uint32]string{6: "MAT"}}
	p, err := ac.rigidPrimitive(sm)
	if err != nil {
		t.Fatal(err)
	}
	if p.Material != "MAT" {
		t.Errorf("material %q", p.Material)
	}
	// UVs: 256/256 = 1, 512/256 = 2 → glTF v' = 1 − 2 = −1; (0.5, −1) → (0.5, 2).
	if uv := p.UVs[0][:4]; uv[0] != 1 || uv[1] != -1 || uv[2] != 0.5 || uv[3] != 2 {
		t.Errorf("UVs %v", uv)
	}
	// Colour (0x80, 0x40, 0, 0x80): 1, sRGB-decoded 0.5 = 0.21404, 0, alpha 1;
	// 0xFF saturates at 1.
	want := []float64{1, 0.2140411, 0, 1}
	for k, w := range want {
		if math.Abs(float64(p.Colors[k])-w) > 1e-6 {
			t.Errorf("colour[%d] = %v, want %v", k, p.Colors[k], w)
		}
	}
	if p.Colors[16] != 1 || p.Colors[19] != 1 {
		t.Errorf("saturated colour %v", p.Colors[16:20])
	}
}

func equalU32(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A deformable sub-mesh before version 0x125, by hand: vertex 0 has two
// copies (node 0 weight 128/256 with bit 9 clear, node 1 weight 128/256),
// vertices 1 and 2 one each (bit 9 set, weight 256/256).
func TestDeformableModelByHand(t *testing.T) {
	body := append(modelHead123(4096, ModelDeformable, 0, 1),
		le(6, 3, 4, // material 6, 3 vertices, 4 copies
			i16s(-90, 0, 0, 0x0080, 10, -50, 0, 0x0480, 0, -50, 0, 0x0700, -100, 10, 0, 0x0300),
			[]byte{0, 0, 64, 1, 0, 0, 64, 1, 0, 0, 64, 1, 0, 0, 64, 0},
			i16s(0, 0, 0, 0, 0, 0))...)
	m, err := readModel(&RawChunk{ID: 4, Body: body}, 0x123)
	if err != nil {
		t.Fatal(err)
	}
	sm := &m.Meshes[0]
	if sm.VertexCount() != 3 || len(sm.Influences[0]) != 2 || len(sm.Influences[1]) != 1 {
		t.Fatalf("influences %+v", sm.Influences)
	}
	a, b := sm.Influences[0][0], sm.Influences[0][1]
	if a.Node != 0 || a.Weight != 0.5 || a.Position != [3]float32{-90, 0, 0} || b.Node != 1 || b.Weight != 0.5 || b.Position != [3]float32{10, -50, 0} {
		t.Errorf("vertex 0: %+v %+v", a, b)
	}
	if c := sm.Influences[2][0]; c.Node != 0 || c.Weight != 1 || c.Position != [3]float32{-100, 10, 0} {
		t.Errorf("vertex 2: %+v", c)
	}
	if tris := sm.Triangles(); !equalU32(tris, []uint32{0, 1, 2}) {
		t.Errorf("triangles %v", tris)
	}
}

// Hostile models: counts beyond the chunk, copies that do not add up.
func TestModelHostile(t *testing.T) {
	for _, c := range []struct {
		name, want string
		body       []byte
	}{
		{"vertex count beyond the chunk", "vertex count 1000000 needs at least", append(modelHead123(64, 0, 0, 1), le(5, 6, 1000000)...)},
		{"sub-mesh count beyond the chunk", "model sub-meshes", modelHead123(64, 0, 0, 200)},
		{"influence count beyond the chunk", "influence count", append(modelHead123(64, ModelDeformable, 0, 1), le(6, 2, 0x7FFFFFFF, make([]byte, 32))...)},
		{"fewer copies than vertices", "2 influences for 3 vertices", append(modelHead123(64, ModelDeformable, 0, 1), le(6, 3, 2, make([]byte, 64))...)},
		{"copies that run past the count", "run past the 2 stored", append(modelHead123(64, ModelDeformable, 0, 1),
			le(6, 2, 2, i16s(0, 0, 0, 0x0000, 0, 0, 0, 0x0000), make([]byte, 8), make([]byte, 8))...)},
		{"shadow index beyond the vertices", "shadow index 9 ≥ vertex count 3", append(modelHead123(64, ModelShadow, 0, 1),
			le(3, 3, i16s(0, 0, 0, 1, 1, 1, 2, 2, 2, 0), 0, 1, 9)...)},
		{"truncated normals", "normals", append(modelHead123(64, 0, 0, 1), le(5, 6, 1, i16s(0, 0, 0, 0), []byte{0, 0, 64})...)},
	} {
		_, err := readModel(&RawChunk{ID: 4, Body: c.body}, 0x123)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to mention %q", c.name, err, c.want)
		}
	}
}

// From version 0x125 UVs are 16.16 fixed point and a deformable copy is
// six i16 (x, y, z, weight/256, stop, node), worked by hand: vertex 0 has
// copies (node 2, 0.25, stop 0) and (node 0, 0.75, stop 1); vertex 1 one
// copy (node 1, 1.0, stop 1). UVs 0x00018000 = 1.5 and 0xFFFF0000 = −1.
func TestWideLayoutsByHand(t *testing.T) {
	body := append(modelHead123(4096, ModelDeformable, 0, 1),
		le(6, 2, 3,
			i16s(1, 2, 3, 64, 0, 2, 4, 5, 6, 192, 1, 0, 7, 8, 9, 256, 1, 1),
			[]byte{0, 64, 0, 1, 0, 64, 0, 1, 0, 0, 64, 0},
			le(0x00018000, 0xFFFF0000, 0, 0x00004000))...)
	m, err := readModel(&RawChunk{ID: 4, Body: body}, 0x125)
	if err != nil {
		t.Fatal(err)
	}
	sm := &m.Meshes[0]
	if len(sm.Influences) != 2 || len(sm.Influences[0]) != 2 || len(sm.Influences[1]) != 1 {
		t.Fatalf("influences %+v", sm.Influences)
	}
	a, b, c := sm.Influences[0][0], sm.Influences[0][1], sm.Influences[1][0]
	if a.Node != 2 || a.Weight != 0.25 || a.Position != [3]float32{1, 2, 3} || b.Node != 0 || b.Weight != 0.75 || b.Position != [3]float32{4, 5, 6} ||
		c.Node != 1 || c.Weight != 1 || c.Position != [3]float32{7, 8, 9} {
		t.Errorf("copies %+v %+v %+v", a, b, c)
	}
	if want := []float32{1.5, -1, 0, 0.25}; !equalF32(sm.UVs, want) {
		t.Errorf("UVs %v, want %v", sm.UVs, want)
	}
	// The stored strip flag is the last copy's from 0x125: vertex 0 → 1.
	if sm.Strip[0] != 1 || sm.Strip[1] != 0 {
		t.Errorf("strip flags %v", sm.Strip)
	}

	// A rigid sub-mesh at 0x125: 32-bit UVs after the colours.
	rigid := append(modelHead123(4096, ModelRigid, 0, 1),
		le(5, 6, 1, i16s(1, 2, 3, 0), []byte{0, 0, 64, 0}, []byte{0x80, 0x80, 0x80, 0x80}, le(0x00028000, 0xFFFFC000))...)
	m, err = readModel(&RawChunk{ID: 4, Body: rigid}, 0x125)
	if err != nil {
		t.Fatal(err)
	}
	if uv := m.Meshes[0].UVs; !equalF32(uv, []float32{2.5, -0.25}) {
		t.Errorf("rigid UVs %v", uv)
	}
}

// Generation 1's Model size word is unreliable (ccs-container.md §2.5):
// a model whose size says 2 words still decodes whole, its body running to
// the next chunk the walk resyncs to.
func TestModelSizeTrap(t *testing.T) {
	b := ccswrite.New("trap", 0x110)
	obj := b.Object("OBJ_a", "a.max")
	mdl := b.Object("MDL_a", "a.max")
	anm := b.Object("ANM_a", "a.max")
	b.ObjectFull(obj, 0, mdl, 0)
	quad := ccswrite.RigidMesh{Pos: [][3]int16{{0, 0, 0}, {4, 0, 0}, {0, 4, 0}, {4, 4, 0}},
		Normal: [][4]int8{{0, 0, 64, 1}, {0, 0, 64, 1}, {0, 0, 64, 0}, {0, 0, 64, 0}},
		Color:  make([][4]byte, 4), UV: make([][2]int16, 4)}
	b.ChunkSized(0x0800, 2, b.RigidModelWords(mdl, 4096, 0, quad)...)
	b.Anime(anm, 2, false, []ccswrite.Record{ccswrite.ObjCtrl(obj, ccswrite.Const(1, 2, 3), ccswrite.Absent, ccswrite.Absent, ccswrite.Absent)})
	f := mustDecode(t, b.Bytes())
	if len(f.Meshes) != 1 || len(f.Meshes[0].Primitives[0].Positions) != 12 || len(f.Meshes[0].Primitives[0].Indices) != 6 {
		t.Fatalf("meshes %+v", f.Meshes)
	}
	if p := f.Meshes[0].Primitives[0].Positions; p[3] != 4 || p[7] != 4 {
		t.Errorf("positions %v", p)
	}
}
