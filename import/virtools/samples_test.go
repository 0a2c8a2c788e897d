package virtools

import (
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/internal/testfiles"
	"github.com/animbake/bake/model"
)

// The six real files (SOURCES.md §1), relative to shared/samples/virtools.
const (
	menuLevel21   = "Ballance.Three.js/menulevel.nmo"
	peBalloon21   = "Ballance.Three.js/pe_balloon.nmo"
	pBox21        = "Ballance.Three.js/p_box.nmo"
	menuLevel35   = "BallanceModding/MenuLevel.nmo"
	peBalloon35   = "BallanceModding/PE_Balloon.nmo"
	trafoSticky25 = "BallanceModLoaderPlus/P_Trafo_Sticky.nmo"
)

var allSamples = []string{menuLevel21, peBalloon21, pBox21, menuLevel35, peBalloon35, trafoSticky25}

// readSample returns a real file's bytes (name relative to
// shared/samples/virtools), skipping the test when it is not there.
func readSample(tb testing.TB, name string) []byte {
	tb.Helper()
	return testfiles.ReadSample(tb, "virtools", name)
}

// decodeSampleScene decodes a real file down to the scene, failing on errors.
func decodeSampleScene(tb testing.TB, name string) (*Scene, []string) {
	tb.Helper()
	data := readSample(tb, name)
	var warnings []string
	warn := func(f string, a ...any) { warnings = append(warnings, f) }
	c, err := ParseContainer(data, format.DefaultMaxInflate, warn)
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	s, err := DecodeScene(c, warn)
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	return s, warnings
}

// decodeSampleFile converts a real file through the registered importer
// with the frames timing (the importer's own frame-rate rules).
func decodeSampleFile(tb testing.TB, name string) (*model.File, []string) {
	tb.Helper()
	return decodeSampleTimed(tb, name, TimingFrames)
}

// decodeSampleTimed converts a real file with the given timing choice.
func decodeSampleTimed(tb testing.TB, name, timing string) (*model.File, []string) {
	tb.Helper()
	data := readSample(tb, name)
	var warnings []string
	opts := &format.Options{Timing: timing, NoMeshes: true, Warn: func(s string) { warnings = append(warnings, s) }}
	files, err := Decode(format.BytesInput(name, data), opts)
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	if len(files) != 1 {
		tb.Fatalf("%s: %d files", name, len(files))
	}
	if err := files[0].Validate(); err != nil {
		tb.Fatalf("%s: model does not validate: %v", name, err)
	}
	return files[0], warnings
}

// objectNamed finds a table entry by name.
func objectNamed(tb testing.TB, s *Scene, name string) *Object {
	tb.Helper()
	for i := range s.Objects {
		if s.Objects[i].Name == name {
			return &s.Objects[i]
		}
	}
	tb.Fatalf("no object named %q", name)
	return nil
}
