package gltf

import (
	"math"
	"sort"

	"github.com/qmuntal/gltf"

	"github.com/animbake/bake/sample"
)

// ClipsKey names the file-level extras entry that tells clients how to play
// the clips (see fileExtras).
const ClipsKey = "bake"

// fileExtras are the file-level facts, written on the file's scene, whose
// extras Blender's importer turns into scene custom properties and
// three.js into scene.userData (animation-level extras reach no client):
//
//   - the source's own file facts, sourceFormat, axes and the 3D curve names;
//   - ClipsKey: {"fps": the one rate that puts every clip's samples on
//     frames (sample.CommonRate), "clips": {glTF animation name: {"fps",
//     "loop" (once, repeat, pingpong), "frameStart", "frameEnd" (the clip's
//     range in frames at that rate: 0 and duration × fps), "duration"
//     (seconds), "events": [{"name", "time" (seconds), "frame" (at that
//     rate)}]}}}. The Blender add-on tools/blender/bake_import.py reads it.
//
// anims are the glTF animations as written, in bake's order, so the names
// are the ones clients show. Frames within 1e-6 of a whole number are
// written whole, so a 0.8 s clip at 30 fps ends on frame 24, not
// 24.000000000000004.
func fileExtras(b *sample.Baked, anims []*gltf.Animation) map[string]any {
	ex := map[string]any{}
	for k, v := range b.Extras {
		ex[k] = v
	}
	// Only the format: the same animations read from two containers (a
	// BFRES and its Yaz0 copy, a CCS file and its gzip copy) give the same
	// glTF bytes. The JSON form names the exact source file and digest.
	if b.Source.Format != "" {
		ex["sourceFormat"] = b.Source.Format
	}
	ex["axes"] = b.Axes
	if len(b.Curves) > 0 {
		names := make([]string, len(b.Curves))
		for i, c := range b.Curves {
			names[i] = c.Name
		}
		sort.Strings(names)
		ex["curves"] = names
	}
	if len(b.Animations) > 0 && len(anims) == len(b.Animations) {
		rate, _ := sample.CommonRate(b.Animations)
		clips := make(map[string]any, len(anims))
		for i, ga := range anims {
			a := &b.Animations[i]
			events := make([]map[string]any, 0, len(a.Events))
			for _, e := range a.Events {
				events = append(events, map[string]any{"name": e.Name, "time": e.Time, "frame": frame(e.Time, rate)})
			}
			clips[ga.Name] = map[string]any{
				"fps": a.FPS, "loop": a.Loop, "duration": a.Duration,
				"frameStart": 0, "frameEnd": frame(a.Duration, rate), "events": events,
			}
		}
		ex[ClipsKey] = map[string]any{"fps": rate, "clips": clips}
	}
	return ex
}

// frame is time t in frames at rate, snapped to a whole frame within 1e-6.
func frame(t, rate float64) float64 {
	f := t * rate
	if r := math.Round(f); math.Abs(f-r) <= 1e-6 {
		return r
	}
	return f
}
