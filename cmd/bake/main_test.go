package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/manifest"
	"github.com/animbake/bake/model"
)

// A tiny test format: "BAKETEST" then a name line; "BAD" anywhere fails at
// its offset, "PANIC" panics inside the importer.
func init() {
	format.Register(format.Format{
		Name:  "baketest",
		Sniff: func(h []byte) bool { return bytes.HasPrefix(h, []byte("BAKETEST")) },
		Decode: func(in *format.Input, _ *format.Options) ([]*model.File, error) {
			data, err := binread.ReadFile(in.R, in.Size)
			if err != nil {
				return nil, err
			}
			if i := bytes.Index(data, []byte("BAD")); i >= 0 {
				return nil, binread.Errorf(int64(i), "expected a good byte")
			}
			if bytes.Contains(data, []byte("PANIC")) {
				panic("importer bug")
			}
			name := strings.TrimSpace(string(data[8:]))
			if name == "EMPTY" {
				return []*model.File{{Axes: model.GLTFAxes}}, nil
			}
			return []*model.File{{
				Axes:  model.GLTFAxes,
				Nodes: []model.Node{{Name: "n", Parent: -1}},
				Animations: []model.Animation{{Name: name, FPS: 30, Frames: 3, End: 2, Period: 3, Loop: model.LoopRepeat,
					Channels: []model.Channel{{Node: "n", Path: model.PathTranslation, Curve: &model.Keyed{
						Interp: model.InterpLinear, Width: 3, Frames: []float64{0, 2}, Values: []float64{0, 0, 0, 2, 4, 6}}}}}},
			}}, nil
		},
	})
}

func write(t *testing.T, path, content string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func runCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func tree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			if rel == manifest.DefaultName || rel == manifest.CacheName {
				return nil // the run's record, not an output (manifest_test.go checks it)
			}
			files[rel], _ = os.ReadFile(p)
		}
		return nil
	})
	return files
}

func TestBatchMixedInputs(t *testing.T) {
	in := t.TempDir()
	write(t, filepath.Join(in, "good.tst"), "BAKETEST walk")
	write(t, filepath.Join(in, "sub", "also.tst"), "BAKETEST run")
	write(t, filepath.Join(in, "corrupt.tst"), "BAKETEST xxBAD")
	write(t, filepath.Join(in, "crash.tst"), "BAKETEST PANIC")
	write(t, filepath.Join(in, "readme.txt"), "not an animation")
	out := t.TempDir()
	code, _, stderr := runCLI("-o", out, "-f", "glb,json", "-v", in)
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "corrupt.tst: offset 0xb: expected a good byte") {
		t.Errorf("failure not reported as file: offset: what:\n%s", stderr)
	}
	if !strings.Contains(stderr, "crash.tst: internal error") {
		t.Errorf("panic not contained:\n%s", stderr)
	}
	if !strings.Contains(stderr, "readme.txt: skipped") {
		t.Errorf("skipped file not listed with -v:\n%s", stderr)
	}
	got := tree(t, out)
	for _, want := range []string{"good.glb", "good.json", filepath.Join("sub", "also.glb")} {
		if _, ok := got[want]; !ok {
			t.Errorf("missing output %s (have %v)", want, keys(got))
		}
	}
	if len(got) != 4 {
		t.Errorf("unexpected outputs (partial or temp files?): %v", keys(got))
	}
}

func keys(m map[string][]byte) []string {
	var k []string
	for n := range m {
		k = append(k, n)
	}
	return k
}

func TestJobsDoNotChangeOutput(t *testing.T) {
	in := t.TempDir()
	for i, n := range []string{"a", "b", "c", "d", "e", "f"} {
		write(t, filepath.Join(in, n+".tst"), "BAKETEST clip"+strings.Repeat("x", i))
	}
	o1, o8 := t.TempDir(), t.TempDir()
	if c, _, e := runCLI("-q", "-j", "1", "-f", "glb,gltf,json", "-o", o1, in); c != 0 {
		t.Fatal(e)
	}
	if c, _, e := runCLI("-q", "-j", "8", "-f", "glb,gltf,json", "-o", o8, in); c != 0 {
		t.Fatal(e)
	}
	t1, t8 := tree(t, o1), tree(t, o8)
	if len(t1) != 24 || len(t1) != len(t8) {
		t.Fatalf("%d vs %d files", len(t1), len(t8))
	}
	for k, v := range t1 {
		if !bytes.Equal(v, t8[k]) {
			t.Errorf("%s differs between -j 1 and -j 8", k)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{}, {"--fps", "zero", "x"}, {"-f", "fbx", "x"}, {"--axes", "up", "x"}, {"--nope"},
		{"eval", "x"}, {"list"}, {"/does/not/exist"},
	} {
		if code, _, _ := runCLI(args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if code, out, _ := runCLI("--help"); code != 0 || !strings.Contains(out, "Examples:") {
		t.Errorf("--help: exit %d", code)
	}
}

func TestSplitAndSanitize(t *testing.T) {
	in := t.TempDir()
	write(t, filepath.Join(in, "x.tst"), "BAKETEST ../../evil\x01name")
	out := t.TempDir()
	if c, _, e := runCLI("-q", "--split", "-o", out, in); c != 0 {
		t.Fatal(e)
	}
	got := tree(t, out)
	if _, ok := got["x__.._evil_name.glb"]; !ok || len(got) != 1 {
		t.Fatalf("outputs %v", keys(got))
	}
}

func TestSanitize(t *testing.T) {
	for in, want := range map[string]string{
		"door": "door", "a/b": "a_b", `..\..\x`: `_.._x`, "..": "_", "nul\x00x": "nul_x",
		"CON": "_CON", "com1.txt": "_com1.txt", " trail. ": "trail", "": "_",
	} {
		if got := sanitize(in); got != want {
			t.Errorf("sanitize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestListAndEvalJSON(t *testing.T) {
	in := t.TempDir()
	p := filepath.Join(in, "g.tst")
	write(t, p, "BAKETEST walk")
	code, out, e := runCLI("list", "--json", in)
	if code != 0 {
		t.Fatal(e)
	}
	var l struct {
		Files []listFile `json:"files"`
	}
	if err := json.Unmarshal([]byte(out), &l); err != nil || len(l.Files) != 1 {
		t.Fatalf("%v %s", err, out)
	}
	a := l.Files[0].Animations[0]
	// Repeat over a period of 3 frames at 30 fps: 0.1 s.
	if a.Name != "walk" || a.Loop != "repeat" || a.SourceFrames != 3 || a.Duration != 0.1 || a.Channels != 1 {
		t.Fatalf("%+v", a)
	}
	code, out, e = runCLI("eval", "--json", p, "--anim", "walk", "--frames", "0,1,0.5", "--world")
	if code != 0 {
		t.Fatal(e)
	}
	var ev evalResult
	if err := json.Unmarshal([]byte(out), &ev); err != nil {
		t.Fatal(err)
	}
	v := ev.Channels[0].Values
	if v[1][0] != 1 || v[1][1] != 2 || v[2][2] != 1.5 || ev.World["n"][1][13] != 2 {
		t.Fatalf("%+v", ev)
	}
	// --times runs on the baked timeline: 0.1 s is the seam, frame 0.
	code, out, _ = runCLI("eval", "--json", p, "--anim", "walk", "--times", "0.1")
	json.Unmarshal([]byte(out), &ev)
	if code != 0 || ev.Frames[0] != 0 || ev.Times[0] != 0.1 {
		t.Fatalf("times: %s", out)
	}
}
