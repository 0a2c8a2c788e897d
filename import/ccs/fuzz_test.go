package ccs

import (
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/ccs/ccswrite"
	"github.com/animbake/bake/import/ccs/ccswrite/demogen/ccsdemo"
	"github.com/animbake/bake/internal/modeltest"
	"github.com/animbake/bake/internal/testfiles"
	"github.com/animbake/bake/model"
)

// fuzzSeeds are files from the project's writer covering every record
// kind, both generations and every container.
func fuzzSeeds() [][]byte {
	kite, _ := kiteFile()
	b := ccswrite.New("later", 0x123)
	b.BareSetup = true
	o := b.Object("OBJ_a", "a.max")
	l := b.Object("LGT_a", "a.max")
	c := b.Object("CAM_a", "a.max")
	m := b.Object("MAT_a", "a.max")
	anm := b.Object("ANM_a", "a.max")
	b.Chunk(0x0600, l, 1)
	b.Texture(0, 1, 2)
	b.ChunkSized(0x0800, 1, 0, 5, 6)
	b.Anime(anm, 4, true,
		[]ccswrite.Record{
			ccswrite.ObjCtrl(o, ccswrite.Keyed(ccswrite.K(0, 1, 2, 3), ccswrite.K(3, 4, 5, 6)), ccswrite.QuatKeyed(ccswrite.K(0, 0, 0, 0, 1)), ccswrite.Const(2, 2, 2), ccswrite.Const(0.5)),
			ccswrite.MatCtrl(m, ccswrite.Const(0.5), ccswrite.Keyed(ccswrite.K(0, 0), ccswrite.K(3, 1)), ccswrite.Const(2)),
			ccswrite.LightCtrl(0x0605, l, ccswrite.Const(0, 0, 2500), ccswrite.Absent, ccswrite.ColorConst(255, 255, 255, 0), ccswrite.Absent, ccswrite.Absent, ccswrite.Absent, ccswrite.Const(498), ccswrite.Const(500)),
			ccswrite.CamCtrl(c, ccswrite.Const(1, 2, 3), ccswrite.Const(4, 5, 6), ccswrite.Keyed(ccswrite.K(0, 45), ccswrite.K(2, 60))),
			ccswrite.CamFrame(c, 0x80, 1, 2, 3, 4, 5, 6, 50),
			ccswrite.Ambient(l, 1, 2, 3, 4),
		},
		[]ccswrite.Record{ccswrite.FObjLater(o, 0xFFE), ccswrite.MatFrame(m, 1, 0.1, 0.2, 0.3, 0.4), ccswrite.Note(o, 2, 3)},
		[]ccswrite.Record{ccswrite.Morph(o, ccswrite.MorphWeight{Target: m, Weight: 0.5})},
	)
	later := b.Bytes()
	return [][]byte{kite, later, assetSeed(), ccswrite.Gzip(kite, "ctu1body.cmp"),
		ccswrite.DataBIN(ccswrite.Gzip(kite, ""), ccswrite.Gzip(later, "later.cmp"))}
}

// assetSeed is a version-0x123 file with every asset kind the importer
// reads: an 8-bit texture and its CLUT, a material, a rigid model with a
// shadow model, a two-node clump with a deformable model, a morpher with
// a target.
func assetSeed() []byte {
	b := ccswrite.New("assets", 0x123)
	b.BareSetup = true
	root := b.Object("OBJ_root", "a.max")
	tip := b.Object("OBJ_tip", "a.max")
	cmp := b.Object("CMP_a", "a.max")
	skin := b.Object("MDL_skin", "a.max")
	box := b.Object("OBJ_box", "a.max")
	mdl := b.Object("MDL_box", "a.max")
	shadow := b.Object("MDL_box_s", "a.max")
	target := b.Object("MDL_box_t", "a.max")
	mph := b.Object("MPH_box", "a.max")
	mat := b.Object("MAT_box", "a.max")
	tex := b.Object("TEX_box", "a.max")
	clut := b.Object("CLT_box", "a.max")
	anm := b.Object("ANM_box", "a.max")
	colors := make([][4]byte, 256)
	for i := range colors {
		colors[i] = [4]byte{byte(i), 0, 255 - byte(i), 0x40}
	}
	b.CLUT(clut, colors)
	b.TextureData(tex, clut, 0x13, 2, 2, []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	b.Material(mat, tex, 0.5, 100, -100)
	b.ObjectFull(root, 0, skin, 0)
	b.ObjectFull(tip, root, 0, 0)
	b.ObjectFull(box, 0, mdl, shadow)
	b.Clump(cmp, []uint32{root, tip}, []ccswrite.Pose{{Scale: [3]float32{1, 1, 1}}, {Pos: [3]float32{0, 0, 5}, Rot: [3]float32{10, 20, 30}, Scale: [3]float32{1, 2, 1}}})
	quad := ccswrite.RigidMesh{Material: mat, Pos: [][3]int16{{0, 0, 0}, {9, 0, 0}, {0, 9, 0}, {9, 9, 0}},
		Normal: [][4]int8{{0, 0, 64, 1}, {0, 0, 64, 2}, {0, 0, 64, 0}, {0, 0, 64, 0}},
		Color:  [][4]byte{{1, 2, 3, 4}, {0x80, 0x80, 0x80, 0x80}, {0xFF, 0, 0, 0x80}, {0, 0, 0, 0}},
		UV:     [][2]int16{{0, 0}, {256, 0}, {0, 256}, {256, 256}}}
	b.RigidModel(mdl, 512, 0, quad)
	b.RigidModel(target, 1024, 6, ccswrite.RigidMesh{Pos: quad.Pos, Normal: quad.Normal})
	b.ShadowModel(shadow, 512, quad.Pos, []uint32{0, 1, 2, 2, 1, 3})
	b.Morpher(mph, mdl)
	one := func(node uint16, z int16, flag int8) ccswrite.DeformVertex {
		return ccswrite.DeformVertex{Copies: []ccswrite.Copy{{Pos: [3]int16{1, 2, z}, Node: node, Weight: 256, Normal: [3]int8{0, 64, 0}, Flag: flag}}}
	}
	two := ccswrite.DeformVertex{Copies: []ccswrite.Copy{{Pos: [3]int16{1, 2, 5}, Node: 0, Weight: 100, Flag: 0}, {Pos: [3]int16{1, 2, 0}, Node: 1, Weight: 156}}}
	b.DeformableModel(skin, 4096, ccswrite.DeformMesh{Material: mat, Verts: []ccswrite.DeformVertex{one(0, 0, 1), one(1, 3, 1), two, one(1, 9, 0)}})
	b.Anime(anm, 3, false, []ccswrite.Record{ccswrite.ObjCtrl(box, ccswrite.Absent, ccswrite.Absent, ccswrite.Absent, ccswrite.Keyed(ccswrite.K(0, 1), ccswrite.K(2, 0)))},
		[]ccswrite.Record{ccswrite.Morph(mph, ccswrite.MorphWeight{Target: target, Weight: 0.5})})
	return b.Bytes()
}

// FuzzDecode: any input either decodes into files that validate and whose
// curves all compile and evaluate, or fails with an error; it never panics
// and never allocates past the inflate cap.
func FuzzDecode(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s)
	}
	for _, nf := range ccsdemo.Files() {
		f.Add(nf.Data)
	}
	// The real files under ../shared/samples/ccsf when present; files over
	// 1.5 MiB are left to the sample tests, as seeds they would slow every
	// fuzzing run.
	testfiles.AddSampleSeeds(f, "ccsf", 3<<19)
	f.Fuzz(func(t *testing.T, data []byte) {
		Sniff(data[:min(len(data), format.HeadSize)])
		files, err := Decode(format.BytesInput("fuzz.ccs", data), &format.Options{MaxInflate: 1 << 20})
		if err != nil {
			return
		}
		// Every curve the importer makes must compile and evaluate.
		modeltest.CheckDecoded(t, files, func(a *model.Animation) []float64 { return []float64{0, 0.5, a.End, a.End + 1} })
	})
}
