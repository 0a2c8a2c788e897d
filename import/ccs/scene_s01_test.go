package ccs

import (
	"testing"
)

// S01.CCS (SOURCES.md §3): version 0x123, 22 Anime chunks, the setup chunk
// written as the bare words 3, 0, 113 textures whose size counts 50 extra
// words (ccs-container.md §2.5).
func TestS01Scene(t *testing.T) {
	data := readSample(t, "ccsf/S01.CCS")
	var warnings []string
	s, err := ReadScene(data, func(f string, a ...any) { warnings = append(warnings, f) })
	if err != nil {
		t.Fatal(err)
	}
	if s.Header.Name != "s01" || s.Header.Version != 0x123 {
		t.Errorf("header: name %q version 0x%x, want s01 0x123", s.Header.Name, s.Header.Version)
	}
	if len(s.Index.Files) != 0x98 || len(s.Index.Objects) != 0x44F {
		t.Errorf("index: %d files, %d objects; want 152 and 1103", len(s.Index.Files), len(s.Index.Objects))
	}
	if len(s.Animes) != 22 {
		t.Fatalf("%d Anime chunks, want 22", len(s.Animes))
	}
	if s.Resyncs != 0 {
		t.Errorf("walk needed %d resyncs", s.Resyncs)
	}
	if s.Chunks[CodeStream] != 1 {
		t.Errorf("walk did not reach the Stream chunk: %v", s.Chunks)
	}
	for _, w := range warnings {
		t.Log("warning:", w)
	}
	for _, a := range s.Animes {
		t.Logf("%s N=%d end=%d objctrl=%d light=%d skipped=%v", a.Name, a.FrameCount, a.End, len(a.ObjCtrls), len(a.LightCtrls), a.Skipped)
	}
}
