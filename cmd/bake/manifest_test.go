package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/animbake/bake/manifest"
)

// copyTree copies the files under src into dst, so a test can change them.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		os.MkdirAll(filepath.Join(dst, filepath.Dir(rel)), 0o755)
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// counts is the summary line of a convert run.
type counts struct{ converted, upToDate, failed, skipped, pruned int }

var summaryRE = regexp.MustCompile(`bake: (\d+) converted, (\d+) up to date, (\d+) failed, (\d+) skipped, (\d+) pruned`)

func summary(t *testing.T, stderr string) counts {
	t.Helper()
	m := summaryRE.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no summary line in:\n%s", stderr)
	}
	n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
	return counts{n(1), n(2), n(3), n(4), n(5)}
}

// bakeRun runs bake -v with args and returns the exit code, the summary
// and the inputs it converted (from -v's "input -> output" lines), sorted.
func bakeRun(t *testing.T, args ...string) (int, counts, []string, string) {
	t.Helper()
	code, stdout, stderr := runCLI(append([]string{"-v"}, args...)...)
	var converted []string
	for _, line := range strings.Split(stdout, "\n") {
		if in, _, ok := strings.Cut(line, " -> "); ok && !slices.Contains(converted, in) {
			converted = append(converted, in)
		}
	}
	slices.Sort(converted)
	return code, summary(t, stderr), converted, stderr
}

// demoCopy copies testdata/demo to a temporary folder, bakes it once and
// returns the input and output folders and the number of inputs.
func demoCopy(t *testing.T, extra ...string) (in, out string, n int) {
	t.Helper()
	in, out = filepath.Join(t.TempDir(), "demo"), t.TempDir()
	copyTree(t, filepath.Join("..", "..", "testdata", "demo"), in)
	code, c, conv, stderr := bakeRun(t, append([]string{"-o", out, in}, extra...)...)
	if code != 0 || c.converted == 0 || c.upToDate != 0 || len(conv) != c.converted {
		t.Fatalf("first run: exit %d, %+v, %d listed\n%s", code, c, len(conv), stderr)
	}
	return in, out, c.converted
}

func readManifest(t *testing.T, path string) *manifest.Manifest {
	t.Helper()
	m, err := manifest.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// mtimes records every output's modification time, to prove a rerun
// wrote nothing.
func mtimes(t *testing.T, dir string) map[string]time.Time {
	t.Helper()
	m := map[string]time.Time{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() != manifest.CacheName && d.Name() != manifest.DefaultName {
			st, _ := d.Info()
			m[p] = st.ModTime()
		}
		return nil
	})
	return m
}

// A second run over the unchanged demo converts nothing, rewrites no
// output and writes the same manifest.
func TestRerunOverDemoConvertsNothing(t *testing.T) {
	in, out, n := demoCopy(t)
	before, _ := os.ReadFile(filepath.Join(out, manifest.DefaultName))
	times := mtimes(t, out)
	code, c, conv, stderr := bakeRun(t, "-o", out, in)
	if code != 0 || c.converted != 0 || c.upToDate != n || len(conv) != 0 {
		t.Fatalf("rerun: exit %d, %+v, converted %v\n%s", code, c, conv, stderr)
	}
	after, _ := os.ReadFile(filepath.Join(out, manifest.DefaultName))
	if !bytes.Equal(before, after) {
		t.Error("the rerun changed the manifest")
	}
	for p, mt := range mtimes(t, out) {
		if !times[p].Equal(mt) {
			t.Errorf("%s was rewritten", p)
		}
	}
	// Without the hash cache every output is hashed again: still nothing to do.
	os.Remove(filepath.Join(out, manifest.CacheName))
	if _, c, _, _ := bakeRun(t, "-o", out, in); c.converted != 0 || c.upToDate != n {
		t.Errorf("rerun without cache: %+v", c)
	}
	// The manifest records the demo's BFRES pairs: each animation file
	// used the model beside it.
	m := readManifest(t, filepath.Join(out, manifest.DefaultName))
	model := filepath.ToSlash(filepath.Join(in, "bfres", "Demo.bfres"))
	users := 0
	for _, e := range m.Inputs {
		if strings.Contains(e.Path, "Demo_Animation") {
			if len(e.Uses) != 1 || e.Uses[0].Path != model || e.Uses[0].Absent {
				t.Errorf("%s uses %+v, want %s", e.Path, e.Uses, model)
			}
			users++
		}
	}
	if users != 2 {
		t.Errorf("%d animation files in the manifest, want 2", users)
	}
}

// Changing one input's bytes reconverts exactly that input; changing a
// BFRES model reconverts it and the animation files that read it.
func TestChangedInputReconvertsOnlyIt(t *testing.T) {
	in, out, n := demoCopy(t)
	door := filepath.Join(in, "oni", "OBANdoor_lab.oni")
	flyby, _ := os.ReadFile(filepath.Join(in, "oni", "OBANcam_flyby.oni"))
	os.WriteFile(door, flyby, 0o644)
	code, c, conv, stderr := bakeRun(t, "-o", out, in)
	if code != 0 || c.converted != 1 || c.upToDate != n-1 || !slices.Equal(conv, []string{door}) {
		t.Fatalf("after changing %s: exit %d, %+v, converted %v\n%s", door, code, c, conv, stderr)
	}
	glb, _ := os.ReadFile(filepath.Join(out, "oni", "OBANdoor_lab.glb"))
	want, _ := os.ReadFile(filepath.Join(out, "oni", "OBANcam_flyby.glb"))
	if !bytes.Equal(glb, want) {
		t.Error("the changed input's output was not rewritten from its new bytes")
	}

	model := filepath.Join(in, "bfres", "Demo.bfres")
	f, _ := os.OpenFile(model, os.O_APPEND|os.O_WRONLY, 0)
	f.Write([]byte{0, 0, 0, 0})
	f.Close()
	_, c, conv, _ = bakeRun(t, "-o", out, in)
	wantConv := []string{model, filepath.Join(in, "bfres", "Demo_Animation.bfres"), filepath.Join(in, "bfres", "Demo_Animation.sbfres")}
	slices.Sort(wantConv)
	if c.converted != 3 || !slices.Equal(conv, wantConv) {
		t.Errorf("after changing the model: %+v, converted %v, want %v", c, conv, wantConv)
	}
	// Removing the model reconverts the animation files (now without a
	// skeleton) and leaves the model's output over.
	os.Remove(model)
	_, c, conv, stderr = bakeRun(t, "-o", out, in)
	if c.converted != 2 || !strings.Contains(stderr, "Demo.glb: left over from") {
		t.Errorf("after removing the model: %+v, converted %v\n%s", c, conv, stderr)
	}
}

// Any option that shapes output reconverts everything; one that does not
// (--jobs) reconverts nothing.
func TestChangedOptionReconvertsEverything(t *testing.T) {
	in, out, n := demoCopy(t)
	code, c, _, stderr := bakeRun(t, "-j", "1", "-o", out, in)
	if code != 0 || c.converted != 0 || c.upToDate != n {
		t.Fatalf("-j 1: %+v\n%s", c, stderr)
	}
	code, c, _, stderr = bakeRun(t, "--fps", "30", "-o", out, in)
	if code != 0 || c.converted != n || c.upToDate != 0 || !strings.Contains(stderr, "fps: native → 30") {
		t.Fatalf("--fps 30: exit %d, %+v\n%s", code, c, stderr)
	}
	if _, c, _, _ = bakeRun(t, "--fps", "30", "-o", out, in); c.converted != 0 || c.upToDate != n {
		t.Errorf("--fps 30 again: %+v", c)
	}
	if _, c, _, _ = bakeRun(t, "--fps", "30", "--force", "-o", out, in); c.converted != n {
		t.Errorf("--force: %+v", c)
	}
}

// Every flag but the neutral ones is recorded; the neutral list names
// real flags only.
func TestOutputOptionsCoverEveryShapingFlag(t *testing.T) {
	var cfg convertConfig
	fs := convertFlags(&cfg)
	cfg.inc.register(fs)
	cfg.common.register(fs)
	fs.BoolP("help", "h", false, "")
	for name := range outputNeutralFlags {
		if fs.Lookup(name) == nil {
			t.Errorf("outputNeutralFlags names %q, which is no flag", name)
		}
	}
	opts := outputOptions(fs)
	for _, name := range []string{"format", "fps", "timebase", "axes", "split", "loop-suffix", "skeleton", "timing", "curve-seconds", "max-inflate"} {
		if _, ok := opts[name]; !ok {
			t.Errorf("--%s changes output but is not in the manifest's options", name)
		}
	}
	for _, name := range []string{"jobs", "out", "quiet", "shard", "prune"} {
		if _, ok := opts[name]; ok {
			t.Errorf("--%s is recorded but never changes output", name)
		}
	}
}

// A deleted or altered output reconverts its input.
func TestMissingOrAlteredOutputReconvertsItsInput(t *testing.T) {
	in, out, n := demoCopy(t)
	os.Remove(filepath.Join(out, "virtools", "demo.glb"))
	_, c, conv, _ := bakeRun(t, "-o", out, in)
	if c.converted != 1 || c.upToDate != n-1 || !slices.Equal(conv, []string{filepath.Join(in, "virtools", "demo.nmo")}) {
		t.Fatalf("after deleting an output: %+v, converted %v", c, conv)
	}
	if _, err := os.Stat(filepath.Join(out, "virtools", "demo.glb")); err != nil {
		t.Fatal(err)
	}
	// Same size, one byte different, and a new modification time.
	p := filepath.Join(out, "oni", "OBANcam_flyby.glb")
	data, _ := os.ReadFile(p)
	orig := slices.Clone(data)
	data[len(data)-1] ^= 1
	os.WriteFile(p, data, 0o644)
	os.Chtimes(p, time.Now().Add(time.Hour), time.Now().Add(time.Hour))
	_, c, conv, _ = bakeRun(t, "-o", out, in)
	if c.converted != 1 || !slices.Equal(conv, []string{filepath.Join(in, "oni", "OBANcam_flyby.oni")}) {
		t.Fatalf("after altering an output: %+v, converted %v", c, conv)
	}
	if got, _ := os.ReadFile(p); !bytes.Equal(got, orig) {
		t.Error("the altered output was not rewritten")
	}
}

// Outputs of a deleted input are listed and kept; --prune deletes them
// (and the folders they leave empty).
func TestPruneRemovesOutputsOfDeletedInput(t *testing.T) {
	in, out, n := demoCopy(t)
	os.Remove(filepath.Join(in, "virtools", "demo.nmo"))
	glb := filepath.Join(out, "virtools", "demo.glb")
	code, c, _, stderr := bakeRun(t, "-o", out, in)
	if code != 0 || c.converted != 0 || c.upToDate != n-1 || c.pruned != 0 ||
		!strings.Contains(stderr, glb+": left over from "+filepath.ToSlash(filepath.Join(in, "virtools", "demo.nmo"))+", which is gone") ||
		!strings.Contains(stderr, "1 left over (--prune deletes them)") {
		t.Fatalf("without --prune: exit %d, %+v\n%s", code, c, stderr)
	}
	if _, err := os.Stat(glb); err != nil {
		t.Fatal("the output was deleted without --prune")
	}
	m := readManifest(t, filepath.Join(out, manifest.DefaultName))
	if len(m.Orphans) != 1 || m.Orphans[0].Path != "virtools/demo.glb" {
		t.Fatalf("orphans %+v", m.Orphans)
	}
	// The next run still knows it, and --prune deletes it.
	code, c, _, stderr = bakeRun(t, "--prune", "-o", out, in)
	if code != 0 || c.pruned != 1 || c.upToDate != n-1 {
		t.Fatalf("--prune: exit %d, %+v\n%s", code, c, stderr)
	}
	if _, err := os.Stat(filepath.Dir(glb)); !os.IsNotExist(err) {
		t.Errorf("%s and its folder should be gone: %v", glb, err)
	}
	m = readManifest(t, filepath.Join(out, manifest.DefaultName))
	if len(m.Orphans) != 0 || len(m.Inputs) != n-1 {
		t.Errorf("after --prune: %d inputs, orphans %+v", len(m.Inputs), m.Orphans)
	}
	// A left-over output someone changed is not deleted.
	os.Remove(filepath.Join(in, "oni", "OBANdoor_lab.oni"))
	bakeRun(t, "-o", out, in)
	door := filepath.Join(out, "oni", "OBANdoor_lab.glb")
	os.WriteFile(door, []byte("mine now"), 0o644)
	_, c, _, stderr = bakeRun(t, "--prune", "-o", out, in)
	if c.pruned != 0 || !strings.Contains(stderr, "changed since bake wrote it: not pruned") {
		t.Errorf("changed left-over: %+v\n%s", c, stderr)
	}
	if _, err := os.Stat(door); err != nil {
		t.Error("a changed left-over output was deleted")
	}
}

// A manifest that is damaged, from another schema, options or bake, or
// that lies about an output, is reported and never trusted: the run
// converts what it cannot prove current.
func TestBadManifestMeansFullRebuild(t *testing.T) {
	in, out, n := demoCopy(t)
	mpath := filepath.Join(out, manifest.DefaultName)
	good, _ := os.ReadFile(mpath)
	var raw map[string]any
	json.Unmarshal(good, &raw)
	reencode := func(edit func(map[string]any)) []byte {
		var m map[string]any
		json.Unmarshal(good, &m)
		edit(m)
		data, _ := json.Marshal(m)
		return data
	}
	for _, c := range []struct {
		name, warning string
		data          []byte
	}{
		{"truncated", "unexpected end", good[:len(good)/2]},
		{"bit flip", "offset", bytes.Replace(good, []byte(`"inputs": [`), []byte(`"inputs": {`), 1)},
		{"other schema", `schema "bake-manifest/0"`, bytes.Replace(good, []byte(`"bake-manifest/1"`), []byte(`"bake-manifest/0"`), 1)},
		{"options tampered", "does not match", reencode(func(m map[string]any) {
			m["options"].(map[string]any)["values"].(map[string]any)["fps"] = "30"
		})},
		{"other bake", "written by bake v0.0.1", reencode(func(m map[string]any) { m["bake"] = "v0.0.1 output/1" })},
		{"other options", "options changed", reencode(func(m map[string]any) {
			m["options"] = map[string]any{"sha256": manifest.NewOptions(map[string]string{"fps": "30"}).SHA256, "values": map[string]any{"fps": "30"}}
		})},
	} {
		os.WriteFile(mpath, c.data, 0o644)
		code, cnt, _, stderr := bakeRun(t, "-o", out, in)
		if code != 0 || cnt.converted != n || !strings.Contains(stderr, c.warning) {
			t.Errorf("%s: exit %d, %+v, want %d converted and a warning with %q\n%s", c.name, code, cnt, n, c.warning, stderr)
		}
		if now, _ := os.ReadFile(mpath); !bytes.Equal(now, good) {
			t.Errorf("%s: the rebuilt manifest differs from the first run's", c.name)
		}
	}
	// A manifest that claims a different hash for one output: that
	// output's input converts again.
	lie := reencode(func(m map[string]any) {
		for _, e := range m["inputs"].([]any) {
			e := e.(map[string]any)
			if strings.HasSuffix(e["path"].(string), "demo.nmo") {
				e["outputs"].([]any)[0].(map[string]any)["sha256"] = strings.Repeat("0", 64)
			}
		}
	})
	var pretty bytes.Buffer
	json.Indent(&pretty, lie, "", "  ")
	os.WriteFile(mpath, pretty.Bytes(), 0o644)
	if _, cnt, conv, _ := bakeRun(t, "-o", out, in); cnt.converted != 1 || !strings.HasSuffix(conv[0], "demo.nmo") {
		t.Errorf("lying manifest: %+v %v", cnt, conv)
	}
	// A file that is no bake manifest at all is not overwritten.
	other := filepath.Join(t.TempDir(), "package.json")
	os.WriteFile(other, []byte(`{"name": "my-mod"}`), 0o644)
	code, _, stderr := runCLI("--manifest", other, "-o", out, in)
	if data, _ := os.ReadFile(other); code != 1 || string(data) != `{"name": "my-mod"}` || !strings.Contains(stderr, "not a bake manifest: not overwriting it") {
		t.Errorf("foreign file: exit %d, now %q\n%s", code, data, stderr)
	}
}

// A failed input is recorded as failed and converted again by the next
// run, and converts once it is fixed.
func TestFailedInputIsRetried(t *testing.T) {
	in, out := t.TempDir(), t.TempDir()
	write(t, filepath.Join(in, "good.tst"), "BAKETEST walk")
	write(t, filepath.Join(in, "bad.tst"), "BAKETEST xxBAD")
	for range 2 {
		code, c, _, stderr := bakeRun(t, "-o", out, in)
		if code != 1 || c.failed != 1 || !strings.Contains(stderr, "bad.tst: offset 0xb: expected a good byte") {
			t.Fatalf("exit %d, %+v\n%s", code, c, stderr)
		}
	}
	m := readManifest(t, filepath.Join(out, manifest.DefaultName))
	if len(m.Inputs) != 2 || !strings.HasSuffix(m.Inputs[0].Path, "bad.tst") || !strings.Contains(m.Inputs[0].Error, "expected a good byte") {
		t.Fatalf("manifest inputs %+v", m.Inputs)
	}
	write(t, filepath.Join(in, "bad.tst"), "BAKETEST fixed")
	code, c, conv, _ := bakeRun(t, "-o", out, in)
	if code != 0 || c.converted != 1 || c.upToDate != 1 || !slices.Equal(conv, []string{filepath.Join(in, "bad.tst")}) {
		t.Errorf("after the fix: exit %d, %+v, %v", code, c, conv)
	}
}

// --shard and the manifest command's usage mistakes exit 2; a merge with
// a shard missing fails.
func TestShardAndMergeUsage(t *testing.T) {
	in := t.TempDir()
	write(t, filepath.Join(in, "a.tst"), "BAKETEST a")
	o := t.TempDir()
	for _, args := range [][]string{
		{"--shard", "0/3", "-o", o, in}, {"--shard", "4/3", "-o", o, in}, {"--shard", "two", "-o", o, in},
		{"--no-manifest", "--prune", "-o", o, in}, {"--no-manifest", "--manifest", "m.json", "-o", o, in},
		{"manifest"}, {"manifest", "join", "a.json"}, {"manifest", "merge", "a.json"}, {"manifest", "merge", "-o", "m.json"},
	} {
		if code, _, stderr := runCLI(args...); code != 2 {
			t.Errorf("%v: exit %d, want 2\n%s", args, code, stderr)
		}
	}
	o1 := t.TempDir()
	if code, _, stderr := runCLI("-q", "--shard", "1/2", "-o", o1, in); code != 0 {
		t.Fatal(stderr)
	}
	code, _, stderr := runCLI("manifest", "merge", filepath.Join(o1, manifest.DefaultName), "-o", filepath.Join(o1, "m.json"))
	if code != 1 || !strings.Contains(stderr, "shards [2] of 2 are missing") {
		t.Errorf("merge of one of two shards: exit %d\n%s", code, stderr)
	}
}

// Shards 1/3, 2/3 and 3/3 of the demo (and the real samples when present),
// baked into separate folders and merged, give exactly the outputs and
// the manifest of one unsharded run; inputs that convert together (a
// BFRES animation file and the model it reads) are in one shard.
func TestShardsMergedEqualOneRun(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	inputs := []string{filepath.Join("..", "..", "testdata", "demo")}
	if st, err := os.Stat(filepath.Join("..", "..", "..", "shared", "samples")); err == nil && st.IsDir() {
		inputs = append(inputs, filepath.Join("..", "..", "..", "shared", "samples"))
	}
	flags := []string{"-q", "-f", "glb,gltf,json"}
	one := t.TempDir()
	if code, _, stderr := runCLI(append(append(flags, "-o", one), inputs...)...); code != 0 {
		t.Fatalf("one run: exit %d\n%s", code, stderr)
	}
	merged := t.TempDir()
	var parts []string
	// Shards split by a hash of each path, so with only the dozen demo
	// inputs one shard may get none; the split must still spread them.
	busy := 0
	for k := 1; k <= 3; k++ {
		dir := t.TempDir()
		args := append(append(flags, "--shard", strconv.Itoa(k)+"/3", "-o", dir), inputs...)
		if code, _, stderr := runCLI(args...); code != 0 {
			t.Fatalf("shard %d/3: exit %d\n%s", k, code, stderr)
		}
		m := readManifest(t, filepath.Join(dir, manifest.DefaultName))
		if len(m.Inputs) > 0 {
			busy++
		}
		mine := map[string]bool{}
		for _, e := range m.Inputs {
			mine[e.Path] = true
		}
		for _, e := range m.Inputs {
			for _, u := range e.Uses {
				if _, err := os.Stat(filepath.FromSlash(u.Path)); err == nil && !mine[u.Path] {
					t.Errorf("shard %d/3 converts %s but not %s, which it reads", k, e.Path, u.Path)
				}
			}
		}
		for rel, data := range tree(t, dir) {
			dst := filepath.Join(merged, rel)
			if _, err := os.Stat(dst); err == nil {
				t.Errorf("%s written by two shards", rel)
			}
			os.MkdirAll(filepath.Dir(dst), 0o755)
			os.WriteFile(dst, data, 0o644)
		}
		parts = append(parts, filepath.Join(dir, manifest.DefaultName))
	}
	if busy < 2 {
		t.Errorf("only %d of 3 shards converted anything", busy)
	}
	args := append([]string{"manifest", "merge", "-o", filepath.Join(merged, manifest.DefaultName)}, parts...)
	if code, _, stderr := runCLI(args...); code != 0 {
		t.Fatalf("merge: exit %d\n%s", code, stderr)
	}
	want, got := tree(t, one), tree(t, merged)
	if len(want) == 0 || len(got) != len(want) {
		t.Fatalf("merged shards hold %d outputs, one run %d", len(got), len(want))
	}
	for name, data := range want {
		if !bytes.Equal(data, got[name]) {
			t.Errorf("%s differs between the merged shards and one run", name)
		}
	}
	wantM, _ := os.ReadFile(filepath.Join(one, manifest.DefaultName))
	gotM, _ := os.ReadFile(filepath.Join(merged, manifest.DefaultName))
	if !bytes.Equal(wantM, gotM) {
		t.Errorf("the merged manifest differs from one run's:\n%s\nwant\n%s", gotM, wantM)
	}
	// The merged folder is up to date by bake check, like the one run's.
	if code, stdout, stderr := runCLI(append([]string{"check", "-f", "glb,gltf,json", "-o", merged}, inputs...)...); code != 0 {
		t.Errorf("check of the merged folder: exit %d\n%s%s", code, stdout, stderr)
	}
}

// bake check exits 0 right after a run and 1 after any change to an
// input, an output, the output folder or the options, naming each file.
func TestCheck(t *testing.T) {
	in, out, _ := demoCopy(t)
	check := func(extra ...string) (int, []string) {
		t.Helper()
		code, stdout, stderr := runCLI(append([]string{"check", "-o", out, in}, extra...)...)
		if code == 2 {
			t.Fatalf("usage: %s", stderr)
		}
		lines := strings.Split(strings.TrimSpace(stdout), "\n")
		if stdout == "" {
			lines = nil
		}
		return code, lines
	}
	expect := func(what string, want ...string) {
		t.Helper()
		code, lines := check()
		wantCode := 0
		if len(want) > 0 {
			wantCode = 1
		}
		if code != wantCode || !slices.Equal(lines, want) {
			t.Errorf("%s: exit %d, lines\n%s\nwant exit %d and\n%s", what, code, strings.Join(lines, "\n"), wantCode, strings.Join(want, "\n"))
		}
	}
	o := func(rel string) string { return filepath.Join(out, filepath.FromSlash(rel)) }
	i := func(rel string) string { return filepath.ToSlash(filepath.Join(in, filepath.FromSlash(rel))) }
	rebake := func() {
		t.Helper()
		if code, _, stderr := runCLI("-q", "-o", out, in); code != 0 {
			t.Fatal(stderr)
		}
	}
	expect("right after the run")
	if _, err := os.Stat(filepath.Join(out, manifest.CacheName)); err != nil {
		t.Fatal("no hash cache to ignore")
	}

	outputs := 0
	for _, e := range readManifest(t, filepath.Join(out, manifest.DefaultName)).Inputs {
		outputs += len(e.Outputs)
	}
	code, lines := check("--fps", "30")
	if code != 1 || len(lines) != outputs ||
		!strings.Contains(lines[0], "options differ from the manifest's: fps: native → 30") {
		t.Errorf("--fps 30: exit %d\n%s", code, strings.Join(lines, "\n"))
	}

	door := filepath.Join(in, "oni", "OBANdoor_lab.oni")
	orig, _ := os.ReadFile(door)
	os.WriteFile(door, append(slices.Clone(orig), 0), 0o644)
	expect("input changed", "stale "+o("oni/OBANdoor_lab.glb")+": input "+i("oni/OBANdoor_lab.oni")+" changed")
	os.WriteFile(door, orig, 0o644)
	expect("input restored")

	model := filepath.Join(in, "bfres", "Demo.bfres")
	morig, _ := os.ReadFile(model)
	os.WriteFile(model, append(slices.Clone(morig), 0), 0o644)
	expect("model changed",
		"stale "+o("bfres/Demo.glb")+": input "+i("bfres/Demo.bfres")+" changed",
		"stale "+o("bfres/Demo_Animation_bfres.glb")+": "+i("bfres/Demo_Animation.bfres")+" uses "+i("bfres/Demo.bfres")+", which changed",
		"stale "+o("bfres/Demo_Animation_sbfres.glb")+": "+i("bfres/Demo_Animation.sbfres")+" uses "+i("bfres/Demo.bfres")+", which changed")
	os.WriteFile(model, morig, 0o644)

	glb := o("virtools/demo.glb")
	gorig, _ := os.ReadFile(glb)
	os.Remove(glb)
	expect("output deleted", "missing "+glb+": output of "+i("virtools/demo.nmo"))
	os.WriteFile(glb, append(slices.Clone(gorig[:len(gorig)-1]), gorig[len(gorig)-1]^1), 0o644)
	expect("output altered", "stale "+glb+": its bytes differ from the manifest's")
	os.WriteFile(glb, gorig, 0o644)
	expect("output restored")

	os.WriteFile(o("notes.txt"), []byte("x"), 0o644)
	expect("extra file", "extra "+o("notes.txt")+": not in the manifest")
	os.Remove(o("notes.txt"))

	os.WriteFile(filepath.Join(in, "oni", "new.oni"), orig, 0o644)
	os.WriteFile(filepath.Join(in, "README.txt"), []byte("not an animation"), 0o644)
	expect("new input", "missing "+o("oni/new")+".*: new input "+i("oni/new.oni")+" has no outputs")
	rebake()
	expect("after baking the new input")

	os.Remove(filepath.Join(in, "oni", "new.oni"))
	expect("input deleted", "extra "+o("oni/new.glb")+": its input "+i("oni/new.oni")+" is gone")
	rebake()
	expect("left over after the input was deleted", "extra "+o("oni/new.glb")+": left over from "+i("oni/new.oni"))
	runCLI("-q", "--prune", "-o", out, in)
	expect("after --prune")

	os.Remove(filepath.Join(out, manifest.DefaultName))
	if code, lines := check(); code != 1 || len(lines) != 1 || !strings.HasPrefix(lines[0], "stale "+filepath.Join(out, manifest.DefaultName)) {
		t.Errorf("no manifest: exit %d %q", code, lines)
	}
}

// A file reached through two arguments converts once, so the manifest
// keeps one entry per input.
func TestInputGivenTwiceConvertsOnce(t *testing.T) {
	in, out := t.TempDir(), t.TempDir()
	write(t, filepath.Join(in, "sub", "a.tst"), "BAKETEST a")
	code, c, _, stderr := bakeRun(t, "-o", out, in, filepath.Join(in, "sub"))
	if code != 0 || c.converted != 1 || !strings.Contains(stderr, "given twice, converted once") {
		t.Fatalf("exit %d, %+v\n%s", code, c, stderr)
	}
	if got := tree(t, out); len(got) != 1 || got[filepath.Join("sub", "a.glb")] == nil {
		t.Errorf("outputs %v", keys(got))
	}
	if m := readManifest(t, filepath.Join(out, manifest.DefaultName)); len(m.Inputs) != 1 {
		t.Errorf("%d manifest entries", len(m.Inputs))
	}
}

// Adding a file moves no other file to another shard, and every input is
// in exactly one shard.
func TestShardsAreStable(t *testing.T) {
	in := t.TempDir()
	for i := range 20 {
		write(t, filepath.Join(in, "f"+strconv.Itoa(i)+".tst"), "BAKETEST x")
	}
	assign := func() map[string]int {
		t.Helper()
		where := map[string]int{}
		for k := 1; k <= 3; k++ {
			out := t.TempDir()
			if code, _, stderr := runCLI("-q", "--shard", strconv.Itoa(k)+"/3", "-o", out, in); code != 0 {
				t.Fatal(stderr)
			}
			for _, e := range readManifest(t, filepath.Join(out, manifest.DefaultName)).Inputs {
				if prev, dup := where[e.Path]; dup {
					t.Errorf("%s in shards %d and %d", e.Path, prev, k)
				}
				where[e.Path] = k
			}
		}
		return where
	}
	before := assign()
	if len(before) != 20 {
		t.Fatalf("%d of 20 inputs in a shard", len(before))
	}
	write(t, filepath.Join(in, "new.tst"), "BAKETEST x")
	after := assign()
	if len(after) != 21 {
		t.Fatalf("%d of 21 inputs in a shard", len(after))
	}
	for p, k := range before {
		if after[p] != k {
			t.Errorf("%s moved from shard %d to %d", p, k, after[p])
		}
	}
}
