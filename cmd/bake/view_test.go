package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/animbake/bake/manifest"
	"github.com/animbake/bake/view"
)

func TestViewUsage(t *testing.T) {
	if code, _, _ := runCLI("view"); code != exitUsage {
		t.Errorf("bake view without a folder: exit %d, want %d", code, exitUsage)
	}
	// Loopback and a free port unless --addr says otherwise.
	if code, out, _ := runCLI("view", "--help"); code != exitOK || !strings.Contains(out, `(default "127.0.0.1:0")`) {
		t.Errorf("bake view --help: exit %d, %s", code, out)
	}
	if code, _, _ := runCLI("view", filepath.Join(t.TempDir(), "none")); code != exitFailed {
		t.Errorf("bake view of a missing folder: exit %d, want %d", code, exitFailed)
	}
}

// The manifest's options give back the run's bake options: the engine
// side is evaluated as the run baked.
func TestImportAsRunUsesTheManifestOptions(t *testing.T) {
	out := t.TempDir()
	in := filepath.Join("..", "..", "testdata", "demo", "oni", "OBANdoor_lab.oni")
	if code, _, stderr := runCLI("-q", "-f", "glb,json", "--fps", "30", "--loop-suffix", "--timebase", "50", "-o", out, in); code != 0 {
		t.Fatalf("convert: exit %d: %s", code, stderr)
	}
	m, err := manifest.ReadFile(filepath.Join(out, manifest.DefaultName))
	if err != nil {
		t.Fatal(err)
	}
	files, opts, err := importAsRun(m.Inputs[0].Path, m.Options.Values, func(string) {})
	if err != nil || len(files) == 0 {
		t.Fatalf("import: %v (%d files)", err, len(files))
	}
	if opts.FPS != 30 || opts.Timebase != 50 || !opts.LoopSuffix || opts.Axes != "gltf" {
		t.Errorf("options %+v, want fps 30, timebase 50, loop suffix, gltf axes", opts)
	}
	values := map[string]string{"no-such-option": "1"}
	if _, _, err := importAsRun(m.Inputs[0].Path, values, func(string) {}); err == nil {
		t.Error("an option this bake does not know was accepted")
	}
}

// The page's error readout is bake stats --at-frame's number: the demo
// door at source frames 0, 37 and 99 (its end), and the cam's fly-by.
func TestViewErrorIsStatsAtFrame(t *testing.T) {
	out := t.TempDir()
	demo := filepath.Join("..", "..", "testdata", "demo", "oni")
	if code, _, stderr := runCLI("-q", "-o", out, demo); code != 0 {
		t.Fatalf("convert: exit %d: %s", code, stderr)
	}
	srv, err := view.New(view.Config{Paths: []string{out}, Import: importAsRun})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	h := srv.Handler()
	for _, c := range []struct{ output, input, clip, frame string }{
		{"0/OBANdoor_lab.glb", "OBANdoor_lab.oni", "door_lab", "0"},
		{"0/OBANdoor_lab.glb", "OBANdoor_lab.oni", "door_lab", "37"},
		{"0/OBANdoor_lab.glb", "OBANdoor_lab.oni", "door_lab", "99"},
		{"0/OBANcam_flyby.glb", "OBANcam_flyby.oni", "cam_flyby", "150"},
	} {
		q := url.Values{"output": {c.output}, "clip": {c.clip}, "frame": {c.frame}}
		req := httptest.NewRequest(http.MethodGet, "/api/eval?"+q.Encode(), nil)
		req.Host = "127.0.0.1:1"
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			t.Fatalf("%s %s: %d %s", c.output, c.clip, w.Code, w.Body)
		}
		var got struct {
			Error     float64 `json:"error"`
			WorstNode string  `json:"worstNode"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := runCLI("stats", "--json", "--at-frame", c.frame, filepath.Join(demo, c.input))
		if code != 0 {
			t.Fatalf("stats: exit %d: %s", code, stderr)
		}
		var st struct {
			Files []struct {
				Clips []statsClip `json:"animations"`
			} `json:"files"`
		}
		if err := json.Unmarshal([]byte(stdout), &st); err != nil {
			t.Fatal(err)
		}
		found := false
		for _, sc := range st.Files[0].Clips {
			if sc.Name == c.clip {
				found = true
				t.Logf("%s %s frame %s: view %g at %q, stats %g", c.output, c.clip, c.frame, got.Error, got.WorstNode, sc.Max)
				if got.Error != sc.Max || got.WorstNode != sc.WorstNode {
					t.Errorf("%s %s frame %s: view %g at %q, stats %g at %q", c.output, c.clip, c.frame, got.Error, got.WorstNode, sc.Max, sc.WorstNode)
				}
			}
		}
		if !found {
			t.Errorf("stats has no clip %s", c.clip)
		}
	}
}
