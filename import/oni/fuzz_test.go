package oni

import (
	"errors"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/import/oni/oniwrite"
	"github.com/animbake/bake/internal/testfiles"
	"github.com/animbake/bake/sample"
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
		if err := file.Validate(); err != nil {
			t.Fatalf("decoded an invalid model: %v", err)
		}
		for _, a := range file.Animations {
			for _, c := range a.Channels {
				e, err := sample.Compile(c.Curve)
				if err != nil {
					t.Fatalf("channel %s of %s does not compile: %v", c.Path, a.Name, err)
				}
				out := make([]float64, e.Width())
				for _, fr := range []float64{-1, 0, 0.5, a.End / 2, a.End, a.End + 1} {
					e.Eval(fr, out)
				}
			}
		}
	})
}
