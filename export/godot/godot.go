// Package godot writes the Godot `.import` sidecar that goes beside a glTF
// output, so that Godot's scene importer keeps bake's keys instead of its
// defaults: it resamples every translation, rotation and scale channel at
// its own rate (Godot 3: 15 fps, Godot 4: 30 fps), runs a lossy keyframe
// optimizer, drops tracks equal to the rest pose (Godot 4), compresses
// animations and meshes, and guesses loops from clip names.
//
// A sidecar sets:
//   - the animation rate to the clips' output rate (sample.CommonRate), so the
//     importer's sampling grid falls on bake's sample times;
//   - the optimizer off, and in Godot 4 compression off, immutable tracks
//     kept and trimming off;
//   - mesh compression off, so vertex data keeps full precision;
//   - Godot 4: each clip's loop mode (settings/loop_mode), keyed by the name
//     Godot gives the clip (ImportedName4; Rename makes those distinct). Godot 3 has no
//     per-clip setting for a glTF's own animations (its clip slots only
//     split an animation named "default"), so its loops come from the
//     names: bake's --godot 3 implies --loop-suffix.
//
// The facts come from Godot's importer source; docs/clients.md names the
// files and versions. The output is deterministic: keys in a fixed order,
// clips sorted by name, numbers in a fixed format.
package godot

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// Extension is appended to the glTF file's name to name its sidecar
// ("Bass.glb" → "Bass.glb.import").
const Extension = ".import"

// Sidecar returns the `.import` file for the glTF form of b in Godot
// version 3 or 4, and warnings for what the sidecar cannot keep exact
// (clip rates with no common grid, or a rate Godot 3 cannot represent).
func Sidecar(b *sample.Baked, version int) (data []byte, warnings []string, err error) {
	rate, warn := sample.CommonRate(b.Animations)
	if warn != "" {
		warnings = append(warnings, warn)
	}
	switch version {
	case 3:
		fps := int(math.Ceil(rate - 1e-9))
		if math.Abs(float64(fps)-rate) > 1e-9 {
			warnings = append(warnings, fmt.Sprintf(
				"godot 3 resamples at a whole number of frames per second: %s fps becomes %d, whose keys fall between bake's samples (bake with --fps %d to keep every key)",
				formatFloat(rate), fps, fps))
		}
		return godot3(fps), warnings, nil
	case 4:
		d, err := godot4(b.Animations, rate)
		return d, warnings, err
	}
	return nil, nil, fmt.Errorf("godot version must be 3 or 4, not %d", version)
}

// godot3 writes a Godot 3.2 sidecar: the [remap] importer and type, and
// every scene-importer parameter 3.2.3 writes, at its default except the
// animation rate, the optimizer and unused-track removal, mesh compression,
// and material storage: built into the scene (0) rather than one .material
// file each (1), which Godot keeps over a re-import (keep_on_reimport), so a
// re-bake's materials would not show; the headless editor also stalled
// generating previews for S01's 120 material files. The 256 empty animation/clip_N slots are left to Godot's
// defaults; [deps] and the remap path name the file's place in a project,
// which Godot fills in on import.
func godot3(fps int) []byte {
	var b bytes.Buffer
	b.WriteString("[remap]\n\nimporter=\"scene\"\ntype=\"PackedScene\"\n\n[params]\n\n")
	for _, kv := range [][2]string{
		{"nodes/root_type", `"Spatial"`},
		{"nodes/root_name", `"Scene Root"`},
		{"nodes/root_scale", "1.0"},
		{"nodes/custom_script", `""`},
		{"nodes/storage", "0"},
		{"materials/location", "1"},
		{"materials/storage", "0"},
		{"materials/keep_on_reimport", "true"},
		{"meshes/compress", "false"},
		{"meshes/ensure_tangents", "true"},
		{"meshes/storage", "0"},
		{"meshes/light_baking", "0"},
		{"meshes/lightmap_texel_size", "0.1"},
		{"skins/use_named_skins", "true"},
		{"external_files/store_in_subdir", "false"},
		{"animation/import", "true"},
		{"animation/fps", strconv.Itoa(fps)},
		{"animation/filter_script", `""`},
		{"animation/storage", "false"},
		{"animation/keep_custom_tracks", "false"},
		{"animation/optimizer/enabled", "false"},
		{"animation/optimizer/max_linear_error", "0.05"},
		{"animation/optimizer/max_angular_error", "0.01"},
		{"animation/optimizer/max_angle", "22"},
		{"animation/optimizer/remove_unused_tracks", "false"},
		{"animation/clips/amount", "0"},
	} {
		b.WriteString(kv[0] + "=" + kv[1] + "\n")
	}
	return b.Bytes()
}

// Godot 4 loop modes (Animation.LoopMode).
const (
	loopNone   = 0
	loopLinear = 1
)

// LoopMode is the Godot 4 settings/loop_mode for a bake loop mode. A
// ping-pong clip is baked as one whole cycle (out and back), so it loops
// linearly; Godot's own ping-pong would play that cycle back and forth.
func LoopMode(loop string) int {
	if loop == model.LoopRepeat || loop == model.LoopPingPong {
		return loopLinear
	}
	return loopNone
}

// godot4 writes a Godot 4 sidecar: the [remap] importer and type, and the
// parameters that keep bake's keys; Godot fills in every other parameter
// with its default.
func godot4(anims []sample.BakedAnimation, fps float64) ([]byte, error) {
	type clip struct {
		key  string
		loop int
	}
	clips := make([]clip, 0, len(anims))
	seen := map[string]string{}
	for i := range anims {
		key := ImportedName4(anims[i].Name)
		if prev, dup := seen[key]; dup {
			return nil, fmt.Errorf("clips %q and %q both import into Godot 4 as %q", prev, anims[i].Name, key)
		}
		seen[key] = anims[i].Name
		clips = append(clips, clip{key, LoopMode(anims[i].Loop)})
	}
	sort.Slice(clips, func(i, j int) bool { return clips[i].key < clips[j].key })

	var b bytes.Buffer
	b.WriteString("[remap]\n\nimporter=\"scene\"\nimporter_version=1\ntype=\"PackedScene\"\n\n[params]\n\n")
	for _, kv := range [][2]string{
		{"meshes/force_disable_compression", "true"},
		{"animation/import", "true"},
		{"animation/fps", formatFloat(fps)},
		{"animation/trimming", "false"},
		{"animation/remove_immutable_tracks", "false"},
		{"animation/import_rest_as_RESET", "false"},
	} {
		b.WriteString(kv[0] + "=" + kv[1] + "\n")
	}
	b.WriteString("_subresources={\n")
	if len(clips) > 0 {
		b.WriteString("\"animations\": {\n")
		for i, c := range clips {
			fmt.Fprintf(&b, "%s: {\n\"settings/loop_mode\": %d\n}", quote(c.key), c.loop)
			if i < len(clips)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString("},\n")
	}
	b.WriteString("\"nodes\": {\n\"PATH:AnimationPlayer\": {\n\"compression/enabled\": false,\n\"optimizer/enabled\": false\n}\n}\n}\n")
	return b.Bytes(), nil
}

// quote writes s as a Godot string literal.
func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`, "\r", `\r`)
	return `"` + r.Replace(s) + `"`
}

// formatFloat writes a rate with the fewest digits that read back to the
// same float64, always with a decimal point so Godot reads a float.
func formatFloat(v float64) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}
