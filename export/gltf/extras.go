package gltf

import (
	"encoding/json"
	"math"
	"sort"

	"github.com/qmuntal/gltf"

	"github.com/animbake/bake/sample"
)

// ClipsKey names the file-level extras entry that tells clients how to play
// the clips (see fileExtras).
const ClipsKey = "bake"

// Keys of the clip table and of its clip entries (docs/clients.md).
const (
	clipsKey        = "clips"
	fpsKey          = "fps"
	loopKey         = "loop"
	frameEndKey     = "frameEnd"
	sourceFpsKey    = "sourceFps"
	sourceFramesKey = "sourceFrames"
	eventsKey       = "events"
)

// fileExtras are the file-level facts, written on the file's scene, whose
// extras Blender's importer turns into scene custom properties and
// three.js into scene.userData (animation-level extras reach no client,
// so every fact about a clip is here, once):
//
//   - the source's own file facts, sourceFormat, axes (the source
//     convention's name with --axes source; omitted for glTF's axes, the
//     default) and the 3D curve names;
//   - ClipsKey: the clip table (clipTable). The Blender add-on
//     tools/blender/bake_import.py reads it.
//
// anims are the glTF animations as written, in bake's order, so the names
// are the ones clients show.
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
	// axes: "gltf" (the default, not written) when converted to glTF's
	// axes, else the source convention left as it is (--axes source).
	if b.Axes != "" && b.Axes != "gltf" {
		ex["axes"] = b.Axes
	}
	if len(b.Curves) > 0 {
		names := make([]string, len(b.Curves))
		for i, c := range b.Curves {
			names[i] = c.Name
		}
		sort.Strings(names)
		ex["curves"] = names
	}
	if len(b.Animations) > 0 && len(anims) == len(b.Animations) {
		ex[ClipsKey] = clipTable(b.Animations, anims)
	}
	return ex
}

// clipTable is {"fps": the file's rate, "clips": {glTF animation name:
// entry}} plus the values clips share (below). A clip's value for a key is
// its entry's, else the table's, else the key's default; a key without a
// default (frameEnd) is in one of the two. Keys:
//
//   - fps: the clip's output rate; the table's is the one rate that puts
//     every clip's samples on frames (sample.CommonRate), which clips
//     sharing it do not repeat;
//   - loop: once (default), repeat or pingpong;
//   - frameEnd: the clip's last frame at the table's fps (duration × fps,
//     whole when within 1e-6 of a whole number, so a 0.8 s clip at 30 fps
//     ends on 24, not 24.000000000000004); the clip starts at frame 0 and
//     lasts frameEnd / fps seconds (within 1e-6 frames);
//   - sourceFps: the source's frames per second (after --timebase);
//     default: the clip's fps;
//   - sourceFrames: the length in source frames as the source states it;
//     default: frameEnd × sourceFps / fps (the table's fps), computed in
//     that order in float64;
//   - events: [{"name", "frame" (source frame; the time in seconds is
//     frame / sourceFps), "node" and "args" when the source has them}];
//     default: none;
//   - the format's own facts about the clip (flags, what drives it, its
//     source name when renamed), except under the keys above.
//
// In a file of two or more clips, a value that two or more clips share,
// for a key every clip has, is written once on the table (per key, the one
// that saves the most bytes: the most common), and only clips whose value
// differs write their own.
func clipTable(baked []sample.BakedAnimation, anims []*gltf.Animation) map[string]any {
	rate, _ := sample.CommonRate(baked)
	entries := make([]map[string]any, len(baked))
	for i := range baked {
		entries[i] = clipEntry(&baked[i], rate)
	}
	table := map[string]any{fpsKey: rate}
	if len(entries) >= 2 {
		for _, k := range sortedKeys(entries[0]) {
			if k == clipsKey || k == fpsKey {
				continue
			}
			if v, ok := sharedValue(entries, k); ok {
				table[k] = v
			}
		}
		for k, v := range table {
			want, _ := json.Marshal(v)
			for _, e := range entries {
				if got, err := json.Marshal(e[k]); err == nil && string(got) == string(want) {
					delete(e, k)
				}
			}
		}
	}
	clips := make(map[string]any, len(anims))
	for i, ga := range anims {
		clips[ga.Name] = entries[i]
	}
	table[clipsKey] = clips
	return table
}

// clipEntry is one clip's entry before shared values move to the table:
// every key whose value is not its default.
func clipEntry(a *sample.BakedAnimation, rate float64) map[string]any {
	e := map[string]any{}
	for k, v := range a.Extras {
		switch k {
		case clipsKey, fpsKey, loopKey, frameEndKey, sourceFpsKey, sourceFramesKey, eventsKey:
		default:
			e[k] = v
		}
	}
	if a.FPS != rate {
		e[fpsKey] = a.FPS
	}
	if a.Loop != "" && a.Loop != "once" {
		e[loopKey] = a.Loop
	}
	end := frame(a.Duration, rate)
	e[frameEndKey] = end
	if a.SourceFPS != a.FPS {
		e[sourceFpsKey] = a.SourceFPS
	}
	if rate <= 0 || a.SourceFrames != end*a.SourceFPS/rate {
		e[sourceFramesKey] = a.SourceFrames
	}
	if len(a.Events) > 0 {
		events := make([]map[string]any, 0, len(a.Events))
		for _, ev := range a.Events {
			m := map[string]any{"name": ev.Name, "frame": ev.Frame}
			if ev.Node != "" {
				m["node"] = ev.Node
			}
			if len(ev.Args) > 0 {
				m["args"] = ev.Args
			}
			events = append(events, m)
		}
		e[eventsKey] = events
	}
	return e
}

// sharedValue is, for a key every entry holds, the value two or more
// entries share that saves the most bytes written once on the table (the
// most common one for values of one length; a tie goes to the smaller
// JSON, so the choice is deterministic). Values are compared by their JSON
// (extras values may be equal in JSON and not in Go types).
func sharedValue(entries []map[string]any, k string) (any, bool) {
	count := map[string]int{}
	value := map[string]any{}
	for _, e := range entries {
		v, ok := e[k]
		if !ok {
			return nil, false // a clip without the key must not inherit one
		}
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, false
		}
		count[string(raw)]++
		value[string(raw)] = v
	}
	best, bestSaving := "", 0
	for raw, n := range count {
		saving := (n - 1) * (len(raw) + len(k) + 4) // "k":v, and a comma
		if n >= 2 && (saving > bestSaving || saving == bestSaving && raw < best) {
			best, bestSaving = raw, saving
		}
	}
	if bestSaving == 0 {
		return nil, false
	}
	return value[best], true
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// frame is time t in frames at rate, snapped to a whole frame within 1e-6.
func frame(t, rate float64) float64 {
	f := t * rate
	if r := math.Round(f); math.Abs(f-r) <= 1e-6 {
		return r
	}
	return f
}
