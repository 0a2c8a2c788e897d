package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/animbake/bake/internal/testfiles"
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

// Gerudo's talk clips: "Face_Default_Joy_Talk" and
// "Face_Default_Joy_Talk_Loop" would both import into Godot 4 as
// "Face_Default_Joy_Talk". --godot 4 writes the looping one as
// "Face_Default_Joy_Talk_Loop-loop" (Godot 4 shows "Face_Default_Joy_Talk_Loop"),
// keeps its source name and warns. (--tolerance 0: the names do not depend
// on the keys, and the conversion is cheaper.)
func TestGodotNameCollision(t *testing.T) {
	src := testfiles.Samples(t, "bfres", "Npc_Gerudo_Queen_Animation.bfres")
	out := t.TempDir()
	code, _, stderr := runCLI("--godot", "4", "--tolerance", "0", "-f", "json", "-o", out, src)
	if code != 0 {
		t.Fatalf("--godot 4: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, `Godot 4 shows as "Face_Default_Joy_Talk_Loop"`) {
		t.Errorf("no warning for the renamed clip:\n%s", stderr)
	}
	var doc struct {
		Animations []struct {
			Name   string         `json:"name"`
			Extras map[string]any `json:"extras"`
		} `json:"animations"`
	}
	if err := json.Unmarshal(tree(t, out)["Npc_Gerudo_Queen_Animation.json"], &doc); err != nil {
		t.Fatal(err)
	}
	names := map[string]map[string]any{}
	for _, a := range doc.Animations {
		names[a.Name] = a.Extras
	}
	if _, ok := names["Face_Default_Joy_Talk"]; !ok {
		t.Error("Face_Default_Joy_Talk renamed")
	}
	if ex, ok := names["Face_Default_Joy_Talk_Loop-loop"]; !ok || ex["sourceName"] != "Face_Default_Joy_Talk_Loop" {
		t.Errorf("Face_Default_Joy_Talk_Loop-loop: present %v, extras %v", ok, ex)
	}
}
