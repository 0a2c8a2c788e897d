package gltf

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// sceneExtras encodes f baked with opts and returns its scene's extras as
// JSON (keys sorted, as encoding/json writes maps).
func sceneExtras(t *testing.T, f *model.File, opts sample.Options) string {
	t.Helper()
	doc := encodeWith(t, f, opts, Options{Binary: true})
	if doc.Extras != nil {
		t.Errorf("file facts also at the root: %v", doc.Extras)
	}
	for _, a := range doc.Animations {
		if ex, ok := a.Extras.(map[string]any); ok && (len(ex) != 1 || ex["data"] == nil) {
			t.Errorf("animation %s extras %v: only data channels belong there", a.Name, ex)
		}
	}
	raw, err := json.Marshal(doc.Scenes[0].Extras)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// The clip table for testFile, worked out by hand. Both clips are at 30
// fps, the file's rate, and their source rate, so neither writes fps or
// sourceFps. "spin" repeats with a period of 3 frames: 3/30 s, frameEnd 3,
// and its 3 source frames are frameEnd × 30 / 30, the default; its event
// keeps its source frame, node and arguments. "fade" plays once to its end
// frame 1 (1/30 s, frameEnd 1) but states 2 frames, so sourceFrames is
// written; loop once is the default. No key has one value in both clips,
// so the table holds only fps and clips; axes are glTF's, not written.
func TestSceneExtrasClipTable(t *testing.T) {
	got := sceneExtras(t, testFile(), sample.Options{})
	want := `{"bake":{"clips":{` +
		`"fade":{"frameEnd":1,"sourceFrames":2},` +
		`"spin":{"events":[{"args":{"event":2},"frame":1,"name":"note","node":"arm"}],"frameEnd":3,"loop":"repeat"}},` +
		`"fps":30}}`
	if got != want {
		t.Errorf("scene extras\n got %s\nwant %s", got, want)
	}
}

// Shared values go to the table once; defaults are left out. Three clips
// at source 30 fps baked at 60: every clip's fps is the table's 60 (not
// written) and its sourceFps 30 differs from it, the same in all three, so
// sourceFps: 30 is on the table, as is the format fact "mode"; "flags" is
// 1 in two clips and 2 in one, so flags: 1 is on the table and only "c"
// writes its own. Frame ends at 60
// fps: "a" plays once to frame 9 (0.3 s, frame 18) and states 10 frames,
// not 18 × 30 / 60 = 9, so sourceFrames is written; "b" ends at 6 = its 6
// frames (0.2 s, frame 12); "c" repeats with period 4 (4/30 s, frame 8;
// 8 × 30 / 60 = 4 frames, its own). A format fact under a key of the
// table ("loop" on "a") gives way to bake's.
func TestSceneExtrasSharedValues(t *testing.T) {
	still := func() []model.Channel {
		return []model.Channel{{Node: "root", Path: model.PathTranslation, Curve: &model.Constant{Value: []float64{1, 2, 3}}}}
	}
	f := &model.File{
		Axes:  model.GLTFAxes,
		Nodes: []model.Node{{Name: "root", Parent: -1}},
		Animations: []model.Animation{
			{Name: "a", FPS: 30, Frames: 10, End: 9, Loop: model.LoopOnce, Channels: still(),
				Extras: map[string]any{"flags": 1, "mode": "x", "loop": "bad"}},
			{Name: "b", FPS: 30, Frames: 6, End: 6, Loop: model.LoopOnce, Channels: still(),
				Extras: map[string]any{"flags": 1, "mode": "x"}},
			{Name: "c", FPS: 30, Frames: 4, End: 3, Period: 4, Loop: model.LoopRepeat, Channels: still(),
				Extras: map[string]any{"flags": 2, "mode": "x"}},
		},
	}
	got := sceneExtras(t, f, sample.Options{FPS: 60})
	want := `{"bake":{"clips":{` +
		`"a":{"frameEnd":18,"sourceFrames":10},` +
		`"b":{"frameEnd":12},` +
		`"c":{"flags":2,"frameEnd":8,"loop":"repeat"}},` +
		`"flags":1,"fps":60,"mode":"x","sourceFps":30}}`
	if got != want {
		t.Errorf("scene extras\n got %s\nwant %s", got, want)
	}
	// A key some clip lacks stays in the entries, even where two share it:
	// the clip without it must not inherit the table's.
	delete(f.Animations[2].Extras, "flags")
	got = sceneExtras(t, f, sample.Options{FPS: 60})
	want = `{"bake":{"clips":{` +
		`"a":{"flags":1,"frameEnd":18,"sourceFrames":10},` +
		`"b":{"flags":1,"frameEnd":12},` +
		`"c":{"frameEnd":8,"loop":"repeat"}},` +
		`"fps":60,"mode":"x","sourceFps":30}}`
	if got != want {
		t.Errorf("flags missing in c\n got %s\nwant %s", got, want)
	}
	// One clip: nothing moves to the table (its entry says it all).
	f.Animations = f.Animations[1:2]
	got = sceneExtras(t, f, sample.Options{FPS: 60})
	want = `{"bake":{"clips":{"b":{"flags":1,"frameEnd":12,"mode":"x","sourceFps":30}},"fps":60}}`
	if got != want {
		t.Errorf("one clip\n got %s\nwant %s", got, want)
	}
}

// Short32 writes a float32 in the fewest digits that read back as it.
func TestShort32(t *testing.T) {
	for _, c := range []struct{ in, want float64 }{
		{0, 0},
		{1, 1},
		{0.1, 0.1},                       // float32(0.1) = 0.100000001490116…
		{float64(float32(0.015)), 0.015}, // was written 0.014999999664723873
		{1.0 / 3, 0.33333334},
		{math.Sqrt(0.5), 0.70710677},
		{-2.5e-8, -2.5e-8},
		{16777217, 16777216}, // 2^24 + 1 is not a float32
	} {
		got := Short32(c.in)
		if got != c.want || float32(got) != float32(c.in) {
			t.Errorf("Short32(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

// sharedValue picks the value that saves the most bytes, ties to the
// smaller JSON, and none when no value repeats or a clip lacks the key.
func TestSharedValue(t *testing.T) {
	e := func(vs ...any) []map[string]any {
		out := make([]map[string]any, len(vs))
		for i, v := range vs {
			out[i] = map[string]any{"k": v}
		}
		return out
	}
	for _, c := range []struct {
		entries []map[string]any
		want    any
		ok      bool
	}{
		// "yy" twice saves 1 × len(`"k":"yy",`) = 9 bytes, "x" twice 8.
		{e("x", "yy", "x", "yy"), "yy", true},
		{e(2, 1, 2, 1), 1, true}, // equal savings: "1" < "2"
		{e(1, 2, 3), nil, false}, // nothing repeats
		{e(5, 5, 5, 7), 5, true}, // the most common
		{append(e(5, 5), map[string]any{}), nil, false},
	} {
		got, ok := sharedValue(c.entries, "k")
		if ok != c.ok || got != c.want {
			t.Errorf("sharedValue(%v) = %v, %v; want %v, %v", c.entries, got, ok, c.want, c.ok)
		}
	}
}
