package godot

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// clip makes a baked clip of n samples at fps.
func clip(name, loop string, fps float64, n int) sample.BakedAnimation {
	times := make([]float64, n)
	for i := range times {
		times[i] = float64(i) / fps
	}
	return sample.BakedAnimation{Name: name, Loop: loop, FPS: fps, Times: times}
}

// params reads a sidecar's sections and key=value lines (values up to the
// next key, so a multi-line dictionary stays whole).
func params(t *testing.T, data []byte) (sections []string, keys []string, values map[string]string) {
	t.Helper()
	values = map[string]string{}
	var cur string
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") && !strings.Contains(line, "="):
			sections = append(sections, line)
			cur = ""
		case cur != "" && (line == "" || !strings.Contains(line, "=") || strings.HasPrefix(line, "\"") || line == "}"):
			values[cur] += "\n" + line
		case strings.Contains(line, "="):
			k, v, _ := strings.Cut(line, "=")
			keys = append(keys, k)
			values[k] = v
			cur = k
			if !strings.HasSuffix(v, "{") {
				cur = ""
			}
		}
	}
	return sections, keys, values
}

// godot3Keys are the [params] keys Godot 3.2.3 itself wrote into the
// .import of a bake .glb (imported headless, `godot3 --editor --quit`),
// without its 256 animation/clip_N slots.
var godot3Keys = []string{
	"nodes/root_type", "nodes/root_name", "nodes/root_scale", "nodes/custom_script", "nodes/storage",
	"materials/location", "materials/storage", "materials/keep_on_reimport",
	"meshes/compress", "meshes/ensure_tangents", "meshes/storage", "meshes/light_baking", "meshes/lightmap_texel_size",
	"skins/use_named_skins", "external_files/store_in_subdir",
	"animation/import", "animation/fps", "animation/filter_script", "animation/storage", "animation/keep_custom_tracks",
	"animation/optimizer/enabled", "animation/optimizer/max_linear_error", "animation/optimizer/max_angular_error",
	"animation/optimizer/max_angle", "animation/optimizer/remove_unused_tracks", "animation/clips/amount",
}

func TestGodot3Sidecar(t *testing.T) {
	b := &sample.Baked{Animations: []sample.BakedAnimation{
		clip("Move-loop", model.LoopRepeat, 30, 25), clip("Dead", model.LoopOnce, 30, 31)}}
	data, warns, err := Sidecar(b, 3)
	if err != nil || len(warns) != 0 {
		t.Fatalf("Sidecar: %v %v", err, warns)
	}
	sections, keys, v := params(t, data)
	if strings.Join(sections, ",") != "[remap],[params]" {
		t.Errorf("sections %v", sections)
	}
	if got := strings.Join(keys[2:], ","); got != strings.Join(godot3Keys, ",") {
		t.Errorf("params keys\n got %s\nwant %s", got, strings.Join(godot3Keys, ","))
	}
	for k, want := range map[string]string{
		"importer": `"scene"`, "type": `"PackedScene"`,
		"animation/fps": "30", "animation/optimizer/enabled": "false",
		"animation/optimizer/remove_unused_tracks": "false", "meshes/compress": "false", "animation/import": "true",
		"materials/storage": "0",
	} {
		if v[k] != want {
			t.Errorf("%s = %s, want %s", k, v[k], want)
		}
	}
}

func TestGodot3WholeRate(t *testing.T) {
	b := &sample.Baked{Animations: []sample.BakedAnimation{clip("Record", model.LoopOnce, 75.02638522427441, 10)}}
	data, warns, err := Sidecar(b, 3)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, v := params(t, data); v["animation/fps"] != "76" {
		t.Errorf("fps %s, want 76 (Godot 3 takes whole rates; the next one up)", v["animation/fps"])
	}
	if len(warns) != 1 || !strings.Contains(warns[0], "--fps 76") {
		t.Errorf("warnings %q", warns)
	}
}

func TestGodot4Sidecar(t *testing.T) {
	b := &sample.Baked{Animations: []sample.BakedAnimation{
		clip("Wait-loop", model.LoopRepeat, 30, 25), clip("Dead", model.LoopOnce, 30, 31),
		clip("Swing", model.LoopPingPong, 30, 9)}}
	data, warns, err := Sidecar(b, 4)
	if err != nil || len(warns) != 0 {
		t.Fatalf("Sidecar: %v %v", err, warns)
	}
	sections, _, v := params(t, data)
	if strings.Join(sections, ",") != "[remap],[params]" {
		t.Errorf("sections %v", sections)
	}
	for k, want := range map[string]string{
		"importer": `"scene"`, "importer_version": "1", "type": `"PackedScene"`,
		"animation/import": "true", "animation/fps": "30.0", "animation/trimming": "false",
		"animation/remove_immutable_tracks": "false", "animation/import_rest_as_RESET": "false",
		"meshes/force_disable_compression": "true",
	} {
		if v[k] != want {
			t.Errorf("%s = %s, want %s", k, v[k], want)
		}
	}
	// With these plain keys and values Godot's dictionary syntax is JSON.
	var sub struct {
		Animations map[string]map[string]int  `json:"animations"`
		Nodes      map[string]map[string]bool `json:"nodes"`
	}
	if err := json.Unmarshal([]byte(v["_subresources"]), &sub); err != nil {
		t.Fatalf("_subresources %q: %v", v["_subresources"], err)
	}
	want := map[string]int{"Wait": 1, "Dead": 0, "Swing": 1}
	if len(sub.Animations) != len(want) {
		t.Errorf("animations %v", sub.Animations)
	}
	for name, mode := range want {
		if got, ok := sub.Animations[name]["settings/loop_mode"]; !ok || got != mode {
			t.Errorf("%s loop_mode %v (present %v), want %d", name, got, ok, mode)
		}
	}
	player := sub.Nodes["PATH:AnimationPlayer"]
	if en, ok := player["optimizer/enabled"]; !ok || en {
		t.Errorf("optimizer %v", player)
	}
	if en, ok := player["compression/enabled"]; !ok || en {
		t.Errorf("compression %v", player)
	}
}

func TestGodot4RateAndCollision(t *testing.T) {
	b := &sample.Baked{Animations: []sample.BakedAnimation{clip("Record", model.LoopOnce, 75.02638522427441, 10)}}
	data, warns, err := Sidecar(b, 4)
	if err != nil || len(warns) != 0 {
		t.Fatal(err, warns)
	}
	if _, _, v := params(t, data); v["animation/fps"] != "75.0263852242744" {
		t.Errorf("fps %s: Godot 4 takes a float rate, written with the digits that round-trip", v["animation/fps"])
	}
	b.Animations = append(b.Animations, clip("Record-loop", model.LoopRepeat, 75.02638522427441, 10))
	if _, _, err := Sidecar(b, 4); err == nil {
		t.Error("two clips importing under one Godot 4 name: no error")
	}
}

func TestSidecarDeterministicAndVersion(t *testing.T) {
	b := &sample.Baked{Animations: []sample.BakedAnimation{
		clip("b", model.LoopOnce, 30, 3), clip("a", model.LoopRepeat, 30, 3), clip("c", model.LoopOnce, 30, 3)}}
	first, _, _ := Sidecar(b, 4)
	b.Animations[0], b.Animations[2] = b.Animations[2], b.Animations[0]
	second, _, _ := Sidecar(b, 4)
	if string(first) != string(second) {
		t.Error("clip order changes the Godot 4 sidecar")
	}
	if _, _, err := Sidecar(b, 5); err == nil {
		t.Error("version 5 accepted")
	}
}
