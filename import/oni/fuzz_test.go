package oni

import (
	"errors"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/import/oni/oniwrite"
	"github.com/animbake/bake/internal/modeltest"
	"github.com/animbake/bake/internal/testfiles"
	"github.com/animbake/bake/model"
)

// FuzzDecode checks that no input makes the importer panic, that every
// failure is a *binread.FormatError, and that every success is a valid
// model whose channels compile and evaluate.
func FuzzDecode(f *testing.F) {
	f.Add(validLevel())
	for _, nf := range oniwrite.Demo() {
		f.Add(nf.Data)
	}
	// The real files under ../shared/samples/oni when present; files over
	// 1.5 MiB are left to the sample tests, as seeds they would slow every
	// fuzzing run.
	testfiles.AddSampleSeeds(f, "oni", 3<<19)
	p := probe(oniwrite.FlagLocalized | oniwrite.FlagPingPong)
	f.Add(levelWith(oniwrite.ObanInstance("", p), oniwrite.Placeholder("OBAN", "x"),
		oniwrite.OBOAInstance("", []oniwrite.ObjectSetup{{Anim: 0, Name: "o"}}),
		oniwrite.DOORInstance("d", 0), oniwrite.TRIGInstance("t", 0), oniwrite.OBDCInstance("c", []int{0})))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Decode("fuzz.oni", data, &format.Options{Warn: func(string) {}})
		if err != nil {
			var fe *binread.FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v is not a *binread.FormatError", err)
			}
			return
		}
		modeltest.CheckDecoded(t, []*model.File{file}, func(a *model.Animation) []float64 {
			return []float64{-1, 0, 0.5, a.End / 2, a.End, a.End + 1}
		})
	})
}
