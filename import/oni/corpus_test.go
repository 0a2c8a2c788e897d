package oni

import (
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/oni/oniwrite"
	"github.com/animbake/bake/internal/testfiles"
)

// The synthetic corpus has the CD's figures (oni-oban.txt): 1,067 OBANs,
// 334,386 frames in all, 37 loops and 13 quarter-turned doors.
func TestCorpusFigures(t *testing.T) {
	obans, frames, loops, doors := 0, 0, 0, 0
	for _, nf := range oniwrite.Corpus() {
		f, _ := decodeBytes(t, nf.Name, nf.Data)
		for _, a := range f.Animations {
			obans++
			frames += int(a.Frames)
			if a.Extras["flags"].(uint32)&oniwrite.FlagLoop != 0 {
				loops++
			}
			if a.Extras["quarterTurnX"] == true {
				doors++
			}
		}
	}
	if obans != 1067 || frames != 334386 || loops != 37 || doors != 13 {
		t.Errorf("corpus: %d OBANs, %d frames, %d loops, %d doors; want 1067, 334386, 37, 13", obans, frames, loops, doors)
	}
}

// BenchmarkDecodeCorpus measures decoding the CD-sized corpus (all level
// files) into model files.
func BenchmarkDecodeCorpus(b *testing.B) {
	corpus := oniwrite.Corpus()
	size := 0
	for _, nf := range corpus {
		size += len(nf.Data)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	opts := &format.Options{}
	for b.Loop() {
		for _, nf := range corpus {
			if _, err := Decode(nf.Name, nf.Data, opts); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// The committed demo inputs are what `go generate` writes today, and
// each decodes.
func TestDemoFilesAreUpToDate(t *testing.T) {
	testfiles.CheckDemoFiles(t, testfiles.DemoDir(t, "oni"), oniwrite.Demo(), "go generate ./import/oni")
	for _, nf := range oniwrite.Demo() {
		decodeBytes(t, nf.Name, nf.Data)
	}
}

// The demo level names its four animations from instances and from the
// OBOA element that plays the unnamed fan.
func TestDemoLevel(t *testing.T) {
	f, warns := decodeBytes(t, "level1_Final.dat", oniwrite.DemoLevel().Bytes())
	want := map[string]string{"door_lab": "once", "warehouse_fan": "repeat", "lift_cargo": "pingpong", "cam_flyby": "once"}
	if len(f.Animations) != len(want) || len(warns) != 1 {
		t.Fatalf("%d animations, notices %q", len(f.Animations), warns)
	}
	for _, a := range f.Animations {
		if want[a.Name] != a.Loop {
			t.Errorf("animation %q loop %q, want %q", a.Name, a.Loop, want[a.Name])
		}
	}
}
