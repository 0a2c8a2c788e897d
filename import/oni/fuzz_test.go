package oni

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/import/oni/oniwrite"
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
	for _, data := range realSamples() {
		f.Add(data)
	}
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

// realSamples returns the real Oni files under ../shared/samples/oni (found
// from the directory holding go.mod), none when it is absent. Files over
// 1.5 MiB are left to the sample tests: as seeds they would slow every
// fuzzing run. (samples/oni holds only a README
// today: no real Oni file could be found.)
func realSamples() [][]byte {
	dir, err := os.Getwd()
	for err == nil {
		if _, e := os.Stat(filepath.Join(dir, "go.mod")); e == nil {
			break
		}
		if filepath.Dir(dir) == dir {
			return nil
		}
		dir = filepath.Dir(dir)
	}
	var out [][]byte
	filepath.WalkDir(filepath.Join(dir, "..", "shared", "samples", "oni"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".md") {
			return nil
		}
		if st, err := d.Info(); err != nil || st.Size() > 3<<19 {
			return nil
		}
		if data, err := os.ReadFile(p); err == nil {
			out = append(out, data)
		}
		return nil
	})
	return out
}
