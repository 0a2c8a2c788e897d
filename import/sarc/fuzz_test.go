package sarc_test

import (
	"errors"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/import/sarc"
	"github.com/animbake/bake/import/sarc/sarcwrite"
	"github.com/animbake/bake/internal/modeltest"
	"github.com/animbake/bake/internal/testfiles"
	"github.com/animbake/bake/model"
)

// FuzzDecode feeds arbitrary bytes to the archive decoder: it must return
// files that validate or an error that is (or wraps, for a member) a
// *binread.FormatError, never panic, and every curve it returns must
// compile and evaluate.
func FuzzDecode(f *testing.F) {
	f.Add(sarcwrite.Write(demoMembers(), sarcwrite.Options{}))
	f.Add(sarcwrite.Write(demoMembers(), sarcwrite.Options{LittleEndian: true}))
	f.Add(sarcwrite.Compressed(demoMembers(), sarcwrite.Options{}))
	nested := sarcwrite.Write([]sarcwrite.File{{Name: "a.bin", Data: []byte{1, 2, 3}}, {Name: "b.bin"}}, sarcwrite.Options{LittleEndian: true})
	f.Add(sarcwrite.Write([]sarcwrite.File{{Name: "n.sarc", Data: nested}, {Name: "m.szs", Data: sarcwrite.Compressed(nil, sarcwrite.Options{})}}, sarcwrite.Options{}))
	testfiles.AddSampleSeeds(f, "bfres-switch", 1<<20)
	testfiles.AddSampleSeeds(f, "bntx", 1<<20)
	f.Fuzz(func(t *testing.T, data []byte) {
		files, err := sarc.Decode(format.BytesInput("fuzz.szs", data), &format.Options{MaxInflate: 4 << 20})
		if err != nil {
			var fe *binread.FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v (%T) is not a FormatError", err, err)
			}
		}
		modeltest.CheckDecoded(t, files, func(*model.Animation) []float64 { return []float64{-1e9, 0, 0.5, 7.25, 1e9} })
	})
}
