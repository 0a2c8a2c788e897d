package gltf

import (
	"encoding/json"
	"testing"
)

// The clip table on the scene's extras, for testFile: "spin" repeats with a
// period of 3 frames at 30 fps, so it lasts 3/30 s, frames 0 to 3 at the
// file's 30 fps, and its event at source frame 1 is at 1/30 s, frame 1;
// "fade" plays once to frame 1 (1/30 s).
func TestSceneExtrasClipTable(t *testing.T) {
	doc := encode(t, testFile(), Options{Binary: true})
	raw, err := json.Marshal(doc.Scenes[0].Extras)
	if err != nil {
		t.Fatal(err)
	}
	var ex struct {
		Axes string `json:"axes"`
		Bake struct {
			FPS   float64 `json:"fps"`
			Clips map[string]struct {
				FPS        float64 `json:"fps"`
				Loop       string  `json:"loop"`
				FrameStart float64 `json:"frameStart"`
				FrameEnd   float64 `json:"frameEnd"`
				Duration   float64 `json:"duration"`
				Events     []struct {
					Name  string  `json:"name"`
					Time  float64 `json:"time"`
					Frame float64 `json:"frame"`
				} `json:"events"`
			} `json:"clips"`
		} `json:"bake"`
	}
	if err := json.Unmarshal(raw, &ex); err != nil {
		t.Fatal(err)
	}
	if ex.Axes != "gltf" || ex.Bake.FPS != 30 || len(ex.Bake.Clips) != 2 {
		t.Fatalf("scene extras %s", raw)
	}
	spin, fade := ex.Bake.Clips[doc.Animations[0].Name], ex.Bake.Clips[doc.Animations[1].Name]
	if spin.Loop != "repeat" || spin.FPS != 30 || spin.FrameStart != 0 || spin.FrameEnd != 3 || spin.Duration != 0.1 {
		t.Errorf("spin %+v", spin)
	}
	if len(spin.Events) != 1 || spin.Events[0].Name != "note" || spin.Events[0].Frame != 1 || spin.Events[0].Time != 1.0/30 {
		t.Errorf("spin events %+v", spin.Events)
	}
	if fade.Loop != "once" || fade.FrameEnd != 1 || len(fade.Events) != 0 {
		t.Errorf("fade %+v", fade)
	}
	if doc.Extras != nil {
		t.Errorf("file facts also at the root: %v", doc.Extras)
	}
}
