package bfreswrite

import (
	"encoding/binary"
	"math"
)

// Demo texture names (FTEX) the demo materials sample.
const (
	DemoAlbedo = "demo_alb"
	DemoMask   = "demo_mask"
)

// addDemoMeshes gives the demo skeleton a skinned, textured body made of
// boxes, one shape per way BFRES skins a vertex:
//
//   - "Body" (vertex skin count 2, material "Body"): a box x ±0.25,
//     y 0…1.5, z ±0.125 in model space; the bottom vertices follow Root
//     (weight 1), the top ones Root 0.2 and Spine 0.8 (51/255 and
//     204/255). Positions are halves (16_16_16_16_float), normals
//     10_10_10_2_snorm, tangents 8_8_8_8_snorm, UVs 16_16_unorm, skin
//     indices 8_8_uint and weights 8_8_unorm, as BotW stores them. LOD 1
//     draws the four sides only.
//   - "Helmet" (skin count 1, material "Head"): a 0.4 cube standing on the
//     Head bone, in Head's space, every vertex naming palette matrix 2, the
//     rigid matrix of Head.
//   - "Sleeve_L" and "Sleeve_R" (skin count 0, material "Arm"): one shared
//     vertex buffer, a box 0.75 long along the bone's +y, drawn rigidly on
//     the shape's bone.
//
// The palette is Root and Spine smooth (inverse model matrices identity
// and a translation by −1 in y) and Head rigid.
func addDemoMeshes(m *Model) {
	m.SmoothMatrices = []uint16{0, 1}
	m.RigidMatrices = []uint16{2}
	m.InverseModel = [][12]float32{
		{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0},
		{1, 0, 0, 0, 0, 1, 0, -1, 0, 0, 1, 0},
	}
	body := box([3]float64{-0.25, 0, -0.125}, [3]float64{0.25, 1.5, 0.125})
	var idx, wts [][]float64
	for _, p := range body.pos {
		if p[1] == 0 {
			idx, wts = append(idx, []float64{0, 1}), append(wts, []float64{1, 0})
		} else {
			idx, wts = append(idx, []float64{0, 1}), append(wts, []float64{51.0 / 255, 204.0 / 255})
		}
	}
	head := box([3]float64{-0.2, 0, -0.2}, [3]float64{0.2, 0.4, 0.2})
	var headIdx [][]float64
	for range head.pos {
		headIdx = append(headIdx, []float64{2})
	}
	arm := box([3]float64{-0.0625, 0, -0.0625}, [3]float64{0.0625, 0.75, 0.0625})
	m.VertexBuffers = []VertexBuffer{
		{SkinCount: 2, Strides: []int{8, 4, 12}, Attribs: []VertexAttrib{
			{Name: "_p0", Format: Attrib16x4Float, Buffer: 0, Values: body.pos},
			{Name: "_w0", Format: Attrib8_8UNorm, Buffer: 1, Offset: 0, Values: wts},
			{Name: "_i0", Format: Attrib8_8UInt, Buffer: 1, Offset: 2, Values: idx},
			{Name: "_n0", Format: Attrib10_10_10_2SN, Buffer: 2, Offset: 0, Values: body.nrm},
			{Name: "_t0", Format: Attrib8_8_8_8SNorm, Buffer: 2, Offset: 4, Values: body.tan},
			{Name: "_u0", Format: Attrib16_16UNorm, Buffer: 2, Offset: 8, Values: body.uv},
		}},
		{SkinCount: 1, Strides: []int{20, 1}, Attribs: []VertexAttrib{
			{Name: "_p0", Format: Attrib32_32_32Float, Values: head.pos},
			{Name: "_n0", Format: Attrib10_10_10_2SN, Offset: 12, Values: head.nrm},
			{Name: "_u0", Format: Attrib16_16UNorm, Offset: 16, Values: head.uv},
			{Name: "_i0", Format: Attrib8UInt, Buffer: 1, Values: headIdx},
		}},
		{Strides: []int{20}, Attribs: []VertexAttrib{
			{Name: "_p0", Format: Attrib32_32_32Float, Values: arm.pos},
			{Name: "_n0", Format: Attrib10_10_10_2SN, Offset: 12, Values: arm.nrm},
			{Name: "_u0", Format: Attrib16_16UNorm, Offset: 16, Values: arm.uv},
		}},
	}
	m.Shapes = []Shape{
		{Name: "Body", Material: 0, Bone: 0, VertexBuffer: 0, SkinBones: []uint16{0, 1}, Meshes: []Mesh{
			{Primitive: PrimTriangles, IndexFormat: IndexU16, Indices: body.idx},
			{Primitive: PrimTriangles, IndexFormat: IndexU16, Indices: body.idx[:24]},
		}},
		{Name: "Helmet", Material: 1, Bone: 2, VertexBuffer: 1, SkinBones: []uint16{2}, Meshes: []Mesh{
			{Primitive: PrimTriangles, IndexFormat: IndexU32, Indices: head.idx},
		}},
		{Name: "Sleeve_L", Material: 2, Bone: 3, VertexBuffer: 2, Meshes: []Mesh{
			{Primitive: PrimTriangles, IndexFormat: IndexU16, Indices: arm.idx},
		}},
		{Name: "Sleeve_R", Material: 2, Bone: 4, VertexBuffer: 2, Meshes: []Mesh{
			{Primitive: PrimTriangles, IndexFormat: IndexU16, Indices: arm.idx},
		}},
	}
	bilinear := [3]uint32{1<<9 | 1<<12, 0, 0}
	srt := texSrtParam(2, 1, 0, 0, 0)
	m.Materials = []Material{
		{Name: "Body", ShaderArchive: "demo_shader", ShadingModel: "demo_mat",
			RenderState:   &RenderState{Flags: 1, PolygonControl: 2},
			SamplerAssign: [][2]string{{"_a0", "_a0"}},
			Samplers:      []Sampler{{Name: "_a0", Texture: DemoAlbedo, Words: bilinear}},
			Params:        []ShaderParam{{Name: "tex_srt0", Type: 30, Data: srt}}},
		{Name: "Head", ShaderArchive: "demo_shader", ShadingModel: "demo_mat",
			RenderState: &RenderState{Flags: 2, PolygonControl: 2, AlphaControl: 8 | 6, AlphaRef: 0.5},
			Samplers:    []Sampler{{Name: "_a0", Texture: DemoMask, Words: [3]uint32{2 | 2<<3, 0, 0}}}},
		{Name: "Arm", ShaderArchive: "demo_shader", ShadingModel: "demo_mat",
			RenderInfo: []RenderInfo{
				{Name: "gsys_render_state_display_face", Strings: []string{"both"}},
				{Name: "gsys_render_state_mode", Strings: []string{"opaque"}},
			},
			Samplers: []Sampler{{Name: "_a0", Texture: DemoAlbedo, Words: bilinear}}},
	}
}

// texSrtParam encodes a TexSrt shader parameter (Body's tex_srt0, which
// the Scroll clip animates, rests at scale 2 × 1): u32 mode, scale x y,
// rotate, translate x y.
func texSrtParam(sx, sy, r, tx, ty float32) []byte {
	out := binary.BigEndian.AppendUint32(nil, 0)
	for _, v := range []float32{sx, sy, r, tx, ty} {
		out = binary.BigEndian.AppendUint32(out, math.Float32bits(v))
	}
	return out
}

// boxMesh is an axis-aligned box with flat faces: 4 vertices per face
// (positions, outward normals, tangents along the face's u direction with
// w = 1, UVs 0/1 at the corners) and two counter-clockwise triangles per
// face. The sides (±x, ±z) come first, then −y and +y.
type boxMesh struct {
	pos, nrm, tan, uv [][]float64
	idx               []uint32
}

func box(lo, hi [3]float64) boxMesh {
	var b boxMesh
	// Each face: normal, u axis, v axis (u × v = normal).
	faces := [][3][3]float64{
		{{0, 0, 1}, {1, 0, 0}, {0, 1, 0}},
		{{1, 0, 0}, {0, 0, -1}, {0, 1, 0}},
		{{0, 0, -1}, {-1, 0, 0}, {0, 1, 0}},
		{{-1, 0, 0}, {0, 0, 1}, {0, 1, 0}},
		{{0, -1, 0}, {1, 0, 0}, {0, 0, 1}},
		{{0, 1, 0}, {1, 0, 0}, {0, 0, -1}},
	}
	center := [3]float64{(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2}
	half := [3]float64{(hi[0] - lo[0]) / 2, (hi[1] - lo[1]) / 2, (hi[2] - lo[2]) / 2}
	for _, f := range faces {
		n, u, v := f[0], f[1], f[2]
		base := uint32(len(b.pos))
		for _, c := range [][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			var p [3]float64
			for k := range 3 {
				p[k] = center[k] + half[k]*(n[k]+c[0]*u[k]+c[1]*v[k])
			}
			b.pos = append(b.pos, p[:])
			b.nrm = append(b.nrm, n[:])
			b.tan = append(b.tan, []float64{u[0], u[1], u[2], 1})
			b.uv = append(b.uv, []float64{(c[0] + 1) / 2, (1 - c[1]) / 2})
		}
		b.idx = append(b.idx, base, base+1, base+2, base, base+2, base+3)
	}
	return b
}
