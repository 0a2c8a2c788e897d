package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// --godot writes one sidecar beside each glTF output (none beside the
// JSON), in the same atomic batch; --godot 3 names repeating clips with the
// loop suffix Godot 3 needs.
func TestGodotSidecars(t *testing.T) {
	in := t.TempDir()
	write(t, filepath.Join(in, "walk.tst"), "BAKETEST walk")
	for _, tc := range []struct {
		version, importer string
	}{{"3", "importer=\"scene\"\ntype=\"PackedScene\""}, {"4", "importer=\"scene\"\nimporter_version=1"}} {
		out := t.TempDir()
		if c, _, e := runCLI("-q", "--godot", tc.version, "-f", "glb,gltf,json", "-o", out, in); c != 0 {
			t.Fatal(e)
		}
		got := tree(t, out)
		want := []string{"walk.glb", "walk.glb.import", "walk.gltf", "walk.gltf.import", "walk.bin", "walk.json"}
		if len(got) != len(want) {
			t.Errorf("godot %s: outputs %v, want %v", tc.version, keys(got), want)
		}
		for _, name := range []string{"walk.glb.import", "walk.gltf.import"} {
			side := string(got[name])
			if !strings.Contains(side, tc.importer) || !strings.Contains(side, "animation/fps=30") {
				t.Errorf("godot %s: %s:\n%s", tc.version, name, side)
			}
		}
		if loop := bytes.Contains(got["walk.gltf"], []byte(`"walk-loop"`)); loop != (tc.version == "3") {
			t.Errorf("godot %s: loop suffix on the repeating clip: %v", tc.version, loop)
		}
	}
	if code, _, _ := runCLI("--godot", "5", in); code != 2 {
		t.Errorf("--godot 5: exit %d, want 2", code)
	}
}
