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
	return [][]byte{kite, later, ccswrite.Gzip(kite, "ctu1body.cmp"),
		ccswrite.DataBIN(ccswrite.Gzip(kite, ""), ccswrite.Gzip(later, "later.cmp"))}
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
