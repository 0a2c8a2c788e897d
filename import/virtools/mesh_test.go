package virtools

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/virtools/vtwrite"
	"github.com/animbake/bake/internal/modeltest"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// Table indices of meshScene's objects.
const (
	msQuad = iota
	msMesh
	msMatA
	msMatB
	msTex
	msCam
	msLight
	msSpot
)

// quadMesh is a unit quad in the XZ plane: vertices 0 (0,0,0), 1 (0,0,1),
// 2 (1,0,1), 3 (1,0,0); face (0,1,2) in slot 1, face (0,2,3) in slot 2;
// per-vertex colours 0xff808080 (grey) except vertex 3 (0x80ff0000,
// half-transparent red); normals (0,1,0); UVs at the corners; one channel
// with its own UVs (u+1).
func quadMesh() vtwrite.MeshData {
	return vtwrite.MeshData{
		Flags:     vtwrite.MeshFlagsDefault,
		Materials: []uint32{0xffffffff, msMatA, msMatB},
		Positions: []float32{0, 0, 0, 0, 0, 1, 1, 0, 1, 1, 0, 0},
		Normals:   []float32{0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0},
		UVs:       []float32{0, 1, 0, 0, 1, 0, 1, 1},
		Colors:    []uint32{0xff808080, 0xff808080, 0xff808080, 0x80ff0000},
		Faces:     []uint16{0, 1, 2, 0, 2, 3},
		FaceSlots: []uint16{1, 2},
		Channels:  []vtwrite.ChannelData{{Material: msMatA, Flags: 1, SrcBlend: 1, DstBlend: 3, UVs: []float32{1, 1, 1, 0, 2, 0, 2, 1}}},
	}
}

// meshScene is a file with one 3D object showing quadMesh, two materials
// (one textured with a stored 1 × 2 texture), a camera and two lights.
func meshScene(m vtwrite.MeshData) *vtwrite.File {
	obj := func(id uint32, class int32, name string, sections ...vtwrite.Section) vtwrite.Object {
		return vtwrite.Object{FileID: id, ClassID: class, Name: name, Chunk: &vtwrite.Chunk{Sections: sections}}
	}
	return &vtwrite.File{Objects: []vtwrite.Object{
		msQuad: obj(1, vtwrite.Class3dObject, "Quad",
			vtwrite.Section{ID: vtwrite.IdentEntityMeshes, Words: []uint32{msMesh, 0}},
			vtwrite.EntitySection(0, vtwrite.TranslationRows(0, 0, 0))),
		msMesh: obj(2, vtwrite.ClassMesh, "Quad_Mesh", vtwrite.MeshSections(m)...),
		msMatA: obj(3, vtwrite.ClassMaterial, "Mat_A", vtwrite.MaterialSection(vtwrite.MaterialData{
			Diffuse: 0xff4c9a3c, Specular: 0xffffffff, Power: 30, Texture: msTex,
			Modes: [8]uint8{2, 4, 2, 5, 6, 2, 3, 3}, States: 0x1 | 0x2 | 0x10 | 7<<16 | 128<<24})),
		msMatB: obj(4, vtwrite.ClassMaterial, "Mat_B", vtwrite.MaterialSection(vtwrite.MaterialData{
			Diffuse: 0x80808080, Emissive: 0xff808080, Texture: 0xffffffff, Modes: [8]uint8{2, 2, 1, 5, 6, 2, 3, 1}, States: 0x8})),
		msTex: obj(5, vtwrite.ClassTexture, "Tex", vtwrite.Section{ID: vtwrite.IdentTexRaw, Words: rawTexture1x2()}),
		msCam: obj(6, vtwrite.ClassCamera, "Cam",
			vtwrite.EntitySection(0, vtwrite.TranslationRows(0, 1, -5)),
			vtwrite.CameraSection(1, 1.0, 1, 4, 3, 0.5, 100)),
		msLight: obj(7, vtwrite.ClassLight, "Lamp",
			vtwrite.EntitySection(0, vtwrite.TranslationRows(0, 3, 0)),
			vtwrite.LightSection(1, 0x100, 0xff808080, [3]float32{0, 0, 2}, 50),
			vtwrite.Section{ID: vtwrite.IdentLightPower, Words: vtwrite.F32s(1.5)}),
		msSpot: obj(8, vtwrite.ClassLight, "Spot",
			vtwrite.EntitySection(0, vtwrite.TranslationRows(0, 3, 1)),
			vtwrite.LightSection(2, 0, 0xffffffff, [3]float32{1, 0, 0}, 20, 1.0, 0.5, 1)),
	}}
}

// rawTexture1x2 is a 0x20000 section of one 1 × 2 slot: blue plane
// (10, 20), green (11, 21), red (12, 22), alpha (13, 23). Rows are stored
// bottom first, so the top pixel is (22, 21, 20, 23) and the bottom one
// (12, 11, 10, 13).
func rawTexture1x2() []uint32 {
	return []uint32{1, 32, 1, 2, 0xff000000, 0xff0000, 0xff00, 0xff, 0,
		2, 20<<8 | 10, 2, 21<<8 | 11, 2, 22<<8 | 12, 2, 23<<8 | 13}
}

// decodeAssets decodes a vtwrite file with its assets.
func decodeAssets(t *testing.T, tf *vtwrite.File) (*Scene, *model.File, []string) {
	t.Helper()
	var warnings []string
	opts := &format.Options{Warn: func(s string) { warnings = append(warnings, s) }}
	c, err := ParseContainer(tf.Bytes(), 1<<30, func(f string, a ...any) { opts.Warnf(f, a...) })
	if err != nil {
		t.Fatal(err)
	}
	s, err := DecodeScene(c, func(f string, a ...any) { opts.Warnf(f, a...) })
	if err != nil {
		t.Fatal(err)
	}
	if err := s.DecodeAssets(func(f string, a ...any) { opts.Warnf(f, a...) }); err != nil {
		t.Fatal(err)
	}
	f, err := Convert(s, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Validate(); err != nil {
		t.Fatalf("model does not validate: %v", err)
	}
	return s, f, warnings
}

// TestDecodeMesh: the packed vertex block, faces and slots, and the
// channel come back as written.
func TestDecodeMesh(t *testing.T) {
	s, _, _ := decodeAssets(t, meshScene(quadMesh()))
	m := s.Assets.Meshes[msMesh]
	q := quadMesh()
	if m.Vertices != 4 || !slices.Equal(m.Positions, q.Positions) || !slices.Equal(m.Normals, q.Normals) ||
		!slices.Equal(m.UVs, q.UVs) || !slices.Equal(m.Colors, q.Colors) || !slices.Equal(m.Speculars, []uint32{0, 0, 0, 0}) {
		t.Errorf("vertices %+v", m)
	}
	if !slices.Equal(m.Faces, q.Faces) || !slices.Equal(m.FaceSlots, q.FaceSlots) || !slices.Equal(m.Materials, []int{noRef, msMatA, msMatB}) {
		t.Errorf("faces %v slots %v materials %v", m.Faces, m.FaceSlots, m.Materials)
	}
	if len(m.Channels) != 1 || m.Channels[0].Material != msMatA || m.Channels[0].DstBlend != 3 || !slices.Equal(m.Channels[0].UVs, q.Channels[0].UVs) {
		t.Errorf("channels %+v", m.Channels)
	}
	if e := s.Entities[msQuad]; e.Mesh != msMesh {
		t.Errorf("entity mesh %d", e.Mesh)
	}
}

// TestMeshPrimitives: one primitive per material in slot order, each with
// the vertices its faces use in order of first use: face (0,1,2) gives
// vertices 0,1,2; face (0,2,3) vertices 0,2,3; indices 0,1,2 in both. The
// winding is Virtools' own (sample mirrors it). UV set 0 is the mesh's,
// set 1 the channel's. A lit mesh has no vertex colours.
func TestMeshPrimitives(t *testing.T) {
	_, f, _ := decodeAssets(t, meshScene(quadMesh()))
	if n := modeltest.Node(t, f, "Quad"); n.Mesh != "Quad_Mesh" {
		t.Fatalf("node mesh %q", n.Mesh)
	}
	m := f.Meshes[0]
	if len(m.Primitives) != 2 {
		t.Fatalf("%d primitives", len(m.Primitives))
	}
	a, b := m.Primitives[0], m.Primitives[1]
	if a.Material != "Mat_A" || b.Material != "Mat_B" || a.Mode != model.ModeTriangles {
		t.Errorf("materials %q %q mode %d", a.Material, b.Material, a.Mode)
	}
	if !slices.Equal(a.Positions, []float32{0, 0, 0, 0, 0, 1, 1, 0, 1}) || !slices.Equal(b.Positions, []float32{0, 0, 0, 1, 0, 1, 1, 0, 0}) ||
		!slices.Equal(a.Indices, []uint32{0, 1, 2}) || !slices.Equal(b.Indices, []uint32{0, 1, 2}) {
		t.Errorf("positions %v / %v indices %v / %v", a.Positions, b.Positions, a.Indices, b.Indices)
	}
	if len(b.UVs) != 2 || !slices.Equal(b.UVs[0], []float32{0, 1, 1, 0, 1, 1}) || !slices.Equal(b.UVs[1], []float32{1, 1, 2, 0, 2, 1}) {
		t.Errorf("uvs %v", b.UVs)
	}
	if a.Colors != nil || !slices.Equal(a.Normals, []float32{0, 1, 0, 0, 1, 0, 0, 1, 0}) {
		t.Errorf("colours %v normals %v", a.Colors, a.Normals)
	}
}

// TestPrelitMesh: a prelit mesh carries its vertex colours (sRGB-decoded:
// 0x80/255 = 0.50196 → 0.21586; alpha as is, 0x80 → 0.50196) and unlit
// variants of its materials with a white base colour.
func TestPrelitMesh(t *testing.T) {
	q := quadMesh()
	q.Flags |= vtwrite.MeshPrelit
	_, f, _ := decodeAssets(t, meshScene(q))
	b := f.Meshes[0].Primitives[1]
	if b.Material != "Mat_B (prelit)" {
		t.Fatalf("material %q", b.Material)
	}
	want := []float64{0.21586050011389926, 0.21586050011389926, 0.21586050011389926, 1, 0.21586050011389926, 0.21586050011389926, 0.21586050011389926, 1, 1, 0, 0, 128.0 / 255}
	for i, w := range want {
		if math.Abs(float64(b.Colors[i])-w) > 1e-6 {
			t.Fatalf("colours %v, want %v", b.Colors, want)
		}
	}
	mat := material(t, f, "Mat_B (prelit)")
	if !mat.Unlit || mat.BaseColor != [4]float64{1, 1, 1, 1} {
		t.Errorf("prelit material %+v", mat)
	}
}

func material(t *testing.T, f *model.File, name string) *model.Material {
	t.Helper()
	for i := range f.Materials {
		if f.Materials[i].Name == name {
			return &f.Materials[i]
		}
	}
	t.Fatalf("no material %q", name)
	return nil
}

// TestMaterialMapping (docs/formats/virtools.md, Materials): Mat_A's
// diffuse 0xff4c9a3c is sRGB (0x4c, 0x9a, 0x3c)/255 → linear (0.072272,
// 0.323143, 0.045186); specular power 30 gives α = √(2/32) = 0.25 and
// roughness √0.25 = 0.5; its alpha test (function 7, greater-or-equal,
// reference 128) is MASK with cutoff 128/255; two-sided; its texture's
// sampler: address 3 (clamp), min filter 4 (MIPLINEAR → 9985), mag 2
// (linear). Mat_B blends (BLEND), has no specular (roughness 1), emissive
// 0x808080 → 0.21586, and keeps its diffuse alpha 0x80.
func TestMaterialMapping(t *testing.T) {
	_, f, _ := decodeAssets(t, meshScene(quadMesh()))
	a, b := material(t, f, "Mat_A"), material(t, f, "Mat_B")
	near := func(x, y float64) bool { return math.Abs(x-y) < 1e-6 }
	if !near(a.BaseColor[0], 0.07227185068231748) || !near(a.BaseColor[1], 0.32314320911295075) || !near(a.BaseColor[2], 0.04518620438567554) || a.BaseColor[3] != 1 {
		t.Errorf("base colour %v", a.BaseColor)
	}
	if !near(a.Roughness, 0.5) || a.Metallic != 0 || a.AlphaMode != model.AlphaMask || !near(a.AlphaCutoff, 128.0/255) || !a.DoubleSided || a.Unlit {
		t.Errorf("Mat_A %+v", a)
	}
	if a.BaseColorTexture.Texture != "Tex" || a.BaseColorTexture.UV != 0 {
		t.Errorf("texture %+v", a.BaseColorTexture)
	}
	if len(f.Textures) != 1 {
		t.Fatalf("%d textures", len(f.Textures))
	}
	tx := f.Textures[0]
	if tx.WrapS != model.WrapClampToEdge || tx.WrapT != model.WrapClampToEdge || tx.MinFilter != 9985 || tx.MagFilter != model.FilterLinear {
		t.Errorf("sampler %+v", tx)
	}
	if b.AlphaMode != model.AlphaBlend || b.Roughness != 1 || !near(b.Emissive[0], 0.21586050011389926) || !near(b.BaseColor[3], 128.0/255) || b.DoubleSided {
		t.Errorf("Mat_B %+v", b)
	}
	if b.Extras["virtoolsDiffuse"] != "#80808080" {
		t.Errorf("extras %v", b.Extras)
	}
	// Extras leave out values at their defaults (materialDefaults) and the
	// object's name, the materials' own. Mat_A: blend 5 → 6, alpha test on
	// with function 7 and reference 128, address 3 (clamp) are written;
	// z-write on and alpha blending off are not. Mat_B: alpha blending on,
	// z-write off and alpha function 0 are written; alpha test off,
	// reference 0 and address 1 (wrap) are not.
	want := map[string]map[string]any{
		"Mat_A": {"virtoolsSrcBlend": uint8(5), "virtoolsDstBlend": uint8(6), "virtoolsAlphaTest": true,
			"virtoolsAlphaFunc": uint8(7), "virtoolsAlphaRef": uint8(128), "virtoolsAddress": uint8(3),
			"virtoolsZWrite": nil, "virtoolsAlphaBlend": nil, "virtoolsMaterial": nil},
		"Mat_B": {"virtoolsAlphaBlend": true, "virtoolsZWrite": false, "virtoolsAlphaFunc": uint8(0),
			"virtoolsAlphaTest": nil, "virtoolsAlphaRef": nil, "virtoolsAddress": nil, "virtoolsMaterial": nil},
	}
	for name, m := range map[string]*model.Material{"Mat_A": a, "Mat_B": b} {
		for k, v := range want[name] {
			if got, ok := m.Extras[k]; got != v || ok != (v != nil) {
				t.Errorf("%s extras %s = %v (present %v), want %v", name, k, got, ok, v)
			}
		}
	}
}

// TestRawTexture: the planes of rawTexture1x2, bottom row first, become
// RGBA rows top to bottom.
func TestRawTexture(t *testing.T) {
	_, f, _ := decodeAssets(t, meshScene(quadMesh()))
	im := f.Textures[0].Image
	if im.Width != 1 || im.Height != 2 || !slices.Equal(im.RGBA, []byte{22, 21, 20, 23, 12, 11, 10, 13}) {
		t.Errorf("image %+v", im)
	}
}

// TestCameraAndLights: the camera's horizontal fov 1 rad at 4:3 is a
// vertical 2·atan(tan(0.5)·3/4) = 0.7777268 rad; the point light's power
// 1.5 over its quadratic attenuation 2 is 0.75 (colour 0x808080 →
// 0.21586); the spot's full cones 1.0 and 0.5 are half-angles 0.5 and
// 0.25, its constant attenuation 1 leaves power 1, but it is saved
// switched off (flags 0), so its intensity is 0 with the 1 in extras.
func TestCameraAndLights(t *testing.T) {
	_, f, _ := decodeAssets(t, meshScene(quadMesh()))
	if len(f.Cameras) != 1 || len(f.Lights) != 2 {
		t.Fatalf("%d cameras, %d lights", len(f.Cameras), len(f.Lights))
	}
	c := f.Cameras[0]
	if c.Type != model.CameraPerspective || math.Abs(c.Yfov-0.7777267644826291) > 1e-9 || math.Abs(c.Aspect-4.0/3) > 1e-12 || c.Znear != 0.5 || c.Zfar != 100 {
		t.Errorf("camera %+v", c)
	}
	if modeltest.Node(t, f, "Cam").Camera != c.Name || modeltest.Node(t, f, "Lamp").Light != "Lamp" {
		t.Error("nodes do not carry their camera and light")
	}
	p, s := f.Lights[0], f.Lights[1]
	if p.Type != model.LightPoint || math.Abs(p.Intensity-0.75) > 1e-9 || p.Range != 50 || math.Abs(p.Color[0]-0.21586050011389926) > 1e-9 {
		t.Errorf("point %+v", p)
	}
	if s.Type != model.LightSpot || s.Intensity != 0 || s.Extras["virtoolsIntensity"] != 1.0 || math.Abs(s.OuterCone-0.5) > 1e-9 || math.Abs(s.InnerCone-0.25) > 1e-9 {
		t.Errorf("spot %+v", s)
	}
}

// TestBuildNormals: a mesh saved without normals gets BuildNormals'
// normals: quad faces (0,1,2) and (0,2,3) in the XZ plane have
// (b − a) × (c − a) = (0,0,1) × (1,0,1) = (0,1,0), so every vertex gets
// (0, 1, 0).
func TestBuildNormals(t *testing.T) {
	got := buildNormals([]float32{0, 0, 0, 0, 0, 1, 1, 0, 1, 1, 0, 0}, []uint16{0, 1, 2, 0, 2, 3})
	if !slices.Equal(got, []float32{0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0}) {
		t.Errorf("normals %v", got)
	}
}

// TestFrontFacesAfterAxes: Virtools' front faces are clockwise in its
// left-handed axes, which makes (b − a) × (c − a) the outward normal, the
// same rule glTF states for its counter-clockwise fronts in right-handed
// axes. So after sample's conversion (Z mirrored, winding reversed) every
// triangle of the demo's cube must still have (b − a) × (c − a) along its
// vertices' normal.
func TestFrontFacesAfterAxes(t *testing.T) {
	f, err := DecodeBytes(vtwrite.DemoScene().Bytes(), &format.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out := sample.NewConverter(f.Axes).Assets(&f.Assets)
	for _, m := range out.Meshes {
		for _, p := range m.Primitives {
			if agree, total := facesAlongNormals(p); agree != total || total == 0 {
				t.Errorf("%s: %d of %d triangles face along their normals", m.Name, agree, total)
			}
		}
	}
}

// facesAlongNormals counts the triangles whose (b − a) × (c − a) points
// the way of the sum of their vertex normals.
func facesAlongNormals(p model.Primitive) (agree, total int) {
	at := func(a []float32, i uint32) [3]float64 {
		return [3]float64{float64(a[3*i]), float64(a[3*i+1]), float64(a[3*i+2])}
	}
	for k := 0; k+3 <= len(p.Indices); k += 3 {
		a, b, c := at(p.Positions, p.Indices[k]), at(p.Positions, p.Indices[k+1]), at(p.Positions, p.Indices[k+2])
		u := [3]float64{b[0] - a[0], b[1] - a[1], b[2] - a[2]}
		w := [3]float64{c[0] - a[0], c[1] - a[1], c[2] - a[2]}
		n := [3]float64{u[1]*w[2] - u[2]*w[1], u[2]*w[0] - u[0]*w[2], u[0]*w[1] - u[1]*w[0]}
		if n == ([3]float64{}) {
			continue
		}
		var vn [3]float64
		for _, i := range p.Indices[k : k+3] {
			x := at(p.Normals, i)
			vn = [3]float64{vn[0] + x[0], vn[1] + x[1], vn[2] + x[2]}
		}
		total++
		if n[0]*vn[0]+n[1]*vn[1]+n[2]*vn[2] > 0 {
			agree++
		}
	}
	return agree, total
}

// TestHostileMeshes: counts larger than their data and indices past the
// vertices fail with the offset and what was expected, before allocating.
func TestHostileMeshes(t *testing.T) {
	bad := func(edit func(s []vtwrite.Section)) []byte {
		f := meshScene(quadMesh())
		edit(f.Objects[msMesh].Chunk.Sections)
		return f.Bytes()
	}
	section := func(s []vtwrite.Section, id uint32) *vtwrite.Section {
		for i := range s {
			if s[i].ID == id {
				return &s[i]
			}
		}
		t.Fatalf("no section %x", id)
		return nil
	}
	for _, c := range []struct {
		name, want string
		edit       func(s []vtwrite.Section)
	}{
		{"vertex count past the data", "need", func(s []vtwrite.Section) { section(s, identMeshVertices).Words[0] = 5000 }},
		{"vertex count past 16 bits", "16-bit", func(s []vtwrite.Section) { section(s, identMeshVertices).Words[0] = 0xffffffff }},
		{"vertex block size past the section", "does not fit", func(s []vtwrite.Section) { section(s, identMeshVertices).Words[2] = 1 << 30 }},
		{"face count past the data", "faces need", func(s []vtwrite.Section) { section(s, identMeshFaces).Words[0] = 0x7fffffff }},
		{"face index past the vertices", "uses vertex 9 of 4", func(s []vtwrite.Section) { section(s, identMeshFaces).Words[1] = 9 }},
		{"slot count past the data", "material slots need", func(s []vtwrite.Section) { section(s, identMeshMaterials).Words[0] = 1 << 31 }},
		{"channel uv count", "channel has", func(s []vtwrite.Section) { section(s, identMeshChannels).Words[5] = 3 }},
		{"NaN position", "NaN", func(s []vtwrite.Section) { section(s, identMeshVertices).Words[3] = 0x7fc00000 }},
	} {
		fe := expectFormatError(t, c.name, bad(c.edit), &format.Options{}, c.want)
		if fe != nil && !strings.Contains(fe.Msg, "Quad_Mesh") {
			t.Errorf("%s: %q does not name the mesh", c.name, fe.Msg)
		}
	}
}

// TestHostileTextures: a texture size whose pixel count overflows, planes
// of the wrong size and a file size past the section are refused with
// offsets.
func TestHostileTextures(t *testing.T) {
	for _, c := range []struct {
		name, want string
		words      []uint32
		id         uint32
	}{
		{"overflowing size", "raw bitmap of 65536 × 65536", []uint32{1, 32, 1 << 16, 1 << 16, 0, 0, 0, 0, 0}, vtwrite.IdentTexRaw},
		{"zero width", "raw bitmap of 0 × 2", []uint32{1, 32, 0, 2, 0, 0, 0, 0, 0}, vtwrite.IdentTexRaw},
		{"bad pixel format", "64 bits per pixel", []uint32{1, 64, 1, 1, 0, 0, 0, 0, 0}, vtwrite.IdentTexRaw},
		{"short plane", "blue plane holds 1 bytes", []uint32{1, 32, 1, 2, 0, 0, 0, 0, 0, 1, 7}, vtwrite.IdentTexRaw},
		{"slot count", "slots need", []uint32{0x40000000}, vtwrite.IdentTexRaw},
		{"image file past the section", "does not fit", []uint32{1, 4, 4, 32, 1, 0x706d62, 0, 0, 1 << 30}, vtwrite.IdentTexReader},
	} {
		f := meshScene(quadMesh())
		f.Objects[msTex].Chunk.Sections = []vtwrite.Section{{ID: c.id, Words: c.words}}
		expectFormatError(t, c.name, f.Bytes(), &format.Options{}, c.want)
	}
}

// TestScrollTargetsMaterial (issue item 5): with assets, the Texture
// Scroller on "Mesh" moves the texture transform of the mesh's textured
// material, which is marked animated; without a converted material it
// stays a channel on the mesh's name (graph_convert_test.go).
func TestScrollTargetsMaterial(t *testing.T) {
	f, ix := graphScene()
	b := &graphBuilder{f}
	tex := b.add(vtwrite.ClassTexture, "Scroll_Tex")
	f.Objects[tex].Chunk = &vtwrite.Chunk{Sections: []vtwrite.Section{{ID: vtwrite.IdentTexRaw, Words: rawTexture1x2()}}}
	mat := b.add(vtwrite.ClassMaterial, "Water")
	f.Objects[mat].Chunk = &vtwrite.Chunk{Sections: []vtwrite.Section{vtwrite.MaterialSection(vtwrite.MaterialData{
		Diffuse: 0xffffffff, Texture: uint32(tex), Modes: [8]uint8{2, 2, 2, 2, 1, 2, 3, 1}})}}
	q := quadMesh()
	q.Materials, q.Channels = []uint32{0xffffffff, uint32(mat), uint32(mat)}, nil
	f.Objects[ix.mesh].Chunk = &vtwrite.Chunk{Sections: vtwrite.MeshSections(q)}
	arm := &f.Objects[iArm].Chunk.Sections
	*arm = append([]vtwrite.Section{{ID: vtwrite.IdentEntityMeshes, Words: []uint32{ix.mesh, 0}}}, *arm...)
	m, err := DecodeBytes(f.Bytes(), &format.Options{Timing: TimingGraph})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	sc := modeltest.Animation(t, m, "Mesh texture scroll")
	if len(sc.Channels) != 1 || sc.Channels[0].Material != "Water" || sc.Channels[0].TextureSlot != "" || sc.Channels[0].Path != model.PathUVOffset {
		t.Errorf("channels %+v", sc.Channels)
	}
	if w := material(t, m, "Water"); !w.BaseColorTexture.Transform || w.BaseColorTexture.Texture != "Scroll_Tex" {
		t.Errorf("material %+v", w)
	}
	if n := modeltest.Node(t, m, "Arm"); n.Mesh != "Mesh" {
		t.Errorf("Arm shows %q", n.Mesh)
	}
}

// TestNoMeshes: --no-meshes gives the animation-only model: no asset is
// decoded (a damaged mesh chunk cannot fail the file) and the nodes are
// only the animated entities, the curve and their follower.
func TestNoMeshes(t *testing.T) {
	f := vtwrite.DemoScene()
	f.Objects[vtwrite.DemoSpinnerMesh].Chunk.Sections[2].Words[0] = 1 << 20 // a vertex count past the data
	m, err := DecodeBytes(f.Bytes(), &format.Options{NoMeshes: true})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, n := range m.Nodes {
		names = append(names, n.Name)
	}
	if !m.Assets.Empty() || strings.Join(names, ",") != "Spinner,Crane_Base,Crane_Arm,Track,Track follower" {
		t.Errorf("nodes %v, assets %+v", names, m.Assets)
	}
	if _, err := DecodeBytes(f.Bytes(), &format.Options{}); err == nil {
		t.Error("the damaged mesh decodes with assets on")
	}
}
