package sample_test

import (
	"math"
	"math/rand"
	"path/filepath"
	"testing"

	"github.com/animbake/bake/format"
	_ "github.com/animbake/bake/import/all"
	"github.com/animbake/bake/internal/testfiles"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// The derivative bounds hold on the curves of the demo inputs and the
// real samples (Virtools, ccAnm, Oni): on random quarter-frame intervals
// of every channel whose bound is derived, the value stays within
// h²/8·d2 of the chord and first differences within d1 (ChordCheck);
// ccAnm at whole ticks, the times the game shows. It logs how many
// intervals were derived and the tightest ratio seen.
func TestBendOnRealCurves(t *testing.T) {
	files := []string{
		filepath.Join(testfiles.DemoDir(t, "virtools"), "demo.nmo"),
		filepath.Join(testfiles.DemoDir(t, "ccs"), "demo.ccs"),
		filepath.Join(testfiles.DemoDir(t, "oni"), "level1_Final.dat"),
	}
	if dir := testfiles.SamplesDir(); dir != "" {
		for _, rel := range []string{"virtools/Ballance.Three.js/menulevel.nmo", "virtools/Ballance.Three.js/pe_balloon.nmo", "ccsf/S01.CCS"} {
			files = append(files, filepath.Join(dir, rel))
		}
	}
	rng := rand.New(rand.NewSource(20))
	tick := func(x float64) float64 { return math.Floor(x*256) / 256 }
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			in, closer, err := format.OpenFile(path)
			if err != nil {
				t.Skip(err)
			}
			defer closer.Close()
			name, decoded, err := format.Decode(in, &format.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var derived, tried int
			tight := 0.0
			for _, f := range decoded {
				for _, a := range f.Animations {
					for _, c := range a.Channels {
						if c.Path != model.PathTranslation && c.Path != model.PathRotation && c.Path != model.PathScale {
							continue
						}
						ev, err := sample.Compile(c.Curve)
						if err != nil {
							t.Fatal(err)
						}
						if sample.IsStepped(ev) {
							continue
						}
						for range 40 {
							f0 := math.Floor(rng.Float64()*max(a.End, 1)*4) / 4
							tried++
							if _, _, ok := sample.Bend(ev, f0, f0+0.25); !ok {
								continue
							}
							derived++
							var snap func(float64) float64
							h := 1e-3
							if name.Name == "ccs" {
								snap, h = tick, 1.0/256
							}
							tight = max(tight, sample.ChordCheck(t, a.Name+" "+c.Path, ev, f0, f0+0.25, h, 1e-6, 20, rng, snap))
						}
					}
				}
			}
			t.Logf("%d of %d intervals derived; the largest chord miss is %.3g of its bound", derived, tried, tight)
		})
	}
}
