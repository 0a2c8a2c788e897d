package ccs

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/animbake/bake/model"
)

// rawModelStats is what a model chunk's own words say, read by a walk
// written for this test alone (not the importer's reader): per model the
// vertex count from the sub-mesh headers, the triangles (flag-0 vertices
// from the third of each sub-mesh on) and the bounding box of the
// positions at vertexScale/4096 cm a unit. It knows only S01's layout:
// version 0x123 rigid models, 7 header words, sub-meshes of
// (name, material, n, n×6 position bytes padded to 4, n×4 normal bytes,
// n×4 colour bytes, n×4 UV bytes).
type rawModelStats struct {
	verts, tris int
	min, max    [3]float64
}

func rawS01Models(t *testing.T, d []byte) map[uint32]rawModelStats {
	le := binary.LittleEndian
	nf, no := le.Uint32(d[0x44:]), le.Uint32(d[0x48:])
	p := 0x4C + 32*int(nf+no) + 8 // past the index and the bare setup words
	out := map[uint32]rawModelStats{}
	for p+8 <= len(d) {
		typ, size := le.Uint32(d[p:]), int(le.Uint32(d[p+4:]))
		code := typ & 0xFFFF
		if typ>>16 != 0xCCCC {
			t.Fatalf("raw walk out of step at 0x%x", p)
		}
		if code == 0x0005 {
			break
		}
		body := d[p+8:]
		if code == 0x0300 {
			size -= 50
		}
		if code == 0x0800 {
			id := le.Uint32(body)
			unit := float64(math.Float32frombits(le.Uint32(body[4:]))) / 4096
			meshes := int(le.Uint16(body[10:]))
			st := rawModelStats{min: [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}, max: [3]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}}
			q := 28
			for range meshes {
				n := int(le.Uint32(body[q+8:]))
				q += 12
				for i := range n {
					for k := range 3 {
						v := float64(int16(le.Uint16(body[q+6*i+2*k:]))) * unit
						st.min[k], st.max[k] = math.Min(st.min[k], v), math.Max(st.max[k], v)
					}
				}
				q += (6*n + 3) / 4 * 4
				for i := 2; i < n; i++ {
					if body[q+4*i+3] == 0 {
						st.tris++
					}
				}
				q += 12 * n // normals, colours, UVs
				st.verts += n
			}
			if q != 4*size {
				t.Fatalf("raw model at 0x%x: sub-meshes end at word %d, the size says %d", p, q/4, size)
			}
			out[id] = st
		}
		p += 8 + 4*size
	}
	return out
}

// S01.CCS's assets: every count the issue names, every texture decoded,
// and each model's vertex and triangle counts and bounding box equal to
// what its own words say.
func TestS01Assets(t *testing.T) {
	data := readSample(t, "ccsf/S01.CCS")
	s, err := ReadScene(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	for code, want := range map[uint16]int{CodeModel: 90, CodeClump: 79, CodeMaterial: 185, CodeTexture: 113, CodeCLUT: 113} {
		if got := len(s.Raw[code]); got != want {
			t.Errorf("%d chunks of 0x%04x kept, want %d", got, code, want)
		}
	}
	var warnings []string
	f, err := Convert(s, func(format string, a ...any) { warnings = append(warnings, format) })
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Validate(); err != nil {
		t.Fatal(err)
	}
	// 13 objects that some clip hides (a constant transparency 0: the
	// gimmicks' _a2 clips, the efe effects) draw materials other objects
	// draw too, so each gets its own copy of its mesh and of those
	// materials (13 of each, extras ccsCopyFor / ccsCopyOf).
	copies := 0
	for _, m := range f.Meshes {
		if m.Extras["ccsCopyFor"] != nil {
			copies++
		}
	}
	if len(f.Textures) != 113 || len(f.Materials) != 185+13 || len(f.Meshes) != 90+13 || copies != 13 {
		t.Errorf("%d textures, %d materials, %d meshes (%d copies); want 113, 198, 103 (13)", len(f.Textures), len(f.Materials), len(f.Meshes), copies)
	}
	if f.Extras["ccsRefused"] != nil {
		t.Errorf("refused: %v", f.Extras["ccsRefused"])
	}
	raw := rawS01Models(t, data)
	if len(raw) != 90 {
		t.Fatalf("raw walk found %d models", len(raw))
	}
	totalV, totalT, agree, disagree := 0, 0, 0, 0
	for i := range f.Meshes {
		me := &f.Meshes[i]
		if me.Extras["ccsCopyFor"] != nil {
			continue
		}
		id := uint32(me.Extras["ccsObject"].(int64))
		want := raw[id]
		got := rawModelStats{min: [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}, max: [3]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}}
		for _, p := range me.Primitives {
			got.verts += len(p.Positions) / 3
			got.tris += len(p.Indices) / 3
			for v := 0; v < len(p.Positions); v += 3 {
				for k := range 3 {
					x := float64(p.Positions[v+k])
					got.min[k], got.max[k] = math.Min(got.min[k], x), math.Max(got.max[k], x)
				}
			}
			a, d := windingAgreement(&p)
			agree, disagree = agree+a, disagree+d
		}
		if got.verts != want.verts || got.tris != want.tris {
			t.Errorf("%s: %d vertices %d triangles, raw words say %d and %d", me.Name, got.verts, got.tris, want.verts, want.tris)
		}
		for k := range 3 {
			// Positions are float32: within a float32 rounding of the exact value.
			if math.Abs(got.min[k]-want.min[k]) > 1e-7*math.Abs(want.min[k]) ||
				math.Abs(got.max[k]-want.max[k]) > 1e-7*math.Abs(want.max[k]) {
				t.Errorf("%s: bounding box %v..%v, raw words say %v..%v", me.Name, got.min, got.max, want.min, want.max)
				break
			}
		}
		totalV += got.verts
		totalT += got.tris
	}
	// The whole stage: 32,007 vertices and 12,269 triangles.
	if totalV != 32007 || totalT != 12269 {
		t.Errorf("%d vertices, %d triangles", totalV, totalT)
	}
	// The strip rule's winding agrees with the stored normals: a triangle's
	// face normal points the way of its vertices' normals.
	t.Logf("winding: %d triangles agree with their vertex normals, %d disagree", agree, disagree)
	if disagree*20 > agree {
		t.Errorf("winding disagrees with the normals on %d of %d triangles", disagree, agree+disagree)
	}
	// Every mesh hangs on the node of the object that names its model.
	hung := 0
	for _, n := range f.Nodes {
		if n.Mesh != "" {
			hung++
		}
	}
	if hung != 90 {
		t.Errorf("%d nodes carry a mesh, want 90", hung)
	}
}

// windingAgreement counts the triangles whose face normal (counter-
// clockwise winding) has a positive dot product with the sum of their
// vertex normals, and those with a negative one.
func windingAgreement(p *model.Primitive) (agree, disagree int) {
	pos := func(i uint32) [3]float64 {
		return [3]float64{float64(p.Positions[3*i]), float64(p.Positions[3*i+1]), float64(p.Positions[3*i+2])}
	}
	for t := 0; t+2 < len(p.Indices); t += 3 {
		a, b, c := pos(p.Indices[t]), pos(p.Indices[t+1]), pos(p.Indices[t+2])
		e1 := [3]float64{b[0] - a[0], b[1] - a[1], b[2] - a[2]}
		e2 := [3]float64{c[0] - a[0], c[1] - a[1], c[2] - a[2]}
		fn := [3]float64{e1[1]*e2[2] - e1[2]*e2[1], e1[2]*e2[0] - e1[0]*e2[2], e1[0]*e2[1] - e1[1]*e2[0]}
		var dot float64
		for _, v := range p.Indices[t : t+3] {
			for k := range 3 {
				dot += fn[k] * float64(p.Normals[3*int(v)+k])
			}
		}
		switch {
		case dot > 0:
			agree++
		case dot < 0:
			disagree++
		}
	}
	return agree, disagree
}

// MDL_obj_020_01, decoded by hand from its 28 words at 0x92d2c:
// id 0x386, scale 256.0 (0x43800000, 1/16 cm a unit), type 0, one
// sub-mesh: name 0x387, material 0x307, 4 vertices; positions
// (−3094, 3408, −800) (−3094, −3407, −800) (3094, 3408, −800)
// (3094, −3407, −800); normals (0, 0, 64) with flags 1, 1, 0, 0; colours
// all 0x80; UVs (0, 256) (0, 0) (256, 256) (256, 0) in 1/256.
func TestS01ModelByHand(t *testing.T) {
	data := readSample(t, "ccsf/S01.CCS")
	s, err := ReadScene(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Convert(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	var me *model.Mesh
	for i := range f.Meshes {
		if f.Meshes[i].Name == "MDL_obj_020_01" {
			me = &f.Meshes[i]
		}
	}
	if me == nil || len(me.Primitives) != 1 {
		t.Fatalf("MDL_obj_020_01: %+v", me)
	}
	p := me.Primitives[0]
	wantPos := []float32{-193.375, 213, -50, -193.375, -212.9375, -50, 193.375, 213, -50, 193.375, -212.9375, -50}
	for i, w := range wantPos {
		if p.Positions[i] != w {
			t.Errorf("position[%d] = %v, want %v", i, p.Positions[i], w)
		}
	}
	// Flags 1, 1, 0, 0: (0, 1, 2), then the reversed (3, 2, 1); both
	// wind counter-clockwise seen from +Z, where the normals point.
	if !equalU32(p.Indices, []uint32{0, 1, 2, 3, 2, 1}) {
		t.Errorf("indices %v", p.Indices)
	}
	// V flipped for glTF: (0, 1) → (0, 0), (0, 0) → (0, 1), ...
	if want := []float32{0, 0, 0, 1, 1, 0, 1, 1}; !equalF32(p.UVs[0], want) {
		t.Errorf("UVs %v, want %v", p.UVs[0], want)
	}
	for i, c := range p.Colors {
		if c != 1 {
			t.Fatalf("colour[%d] = %v, want 1 (0x80)", i, c)
		}
	}
	// Material 0x307's name, MAT_/#8402, is shared with other objects
	// of the index, so its material is named MAT_/#8402#775.
	if p.Material != "MAT_/#8402#775" || p.Normals[2] != 1 {
		t.Errorf("material %q, normal %v", p.Material, p.Normals[:3])
	}
}

func equalF32(a, b []float32) bool {
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
