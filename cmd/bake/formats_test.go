package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The same animations read from a file and from its compressed copy (Yaz0
// .sbfres, gzip .cmp) give byte-identical glTF.
func TestCompressedCopiesGiveIdenticalGLB(t *testing.T) {
	pairs := [][2]string{
		{"../../testdata/demo/bfres/Demo_Animation.bfres", "../../testdata/demo/bfres/Demo_Animation.sbfres"},
		{"../../testdata/demo/ccs/demo.ccs", "../../testdata/demo/ccs/demo.cmp"},
	}
	samples := "../../../shared/samples/bfres/"
	if _, err := os.Stat(samples); err == nil {
		pairs = append(pairs, [2]string{samples + "Animal_Bass_Animation.bfres", samples + "Animal_Bass_Animation.sbfres"})
	}
	for _, p := range pairs {
		out := t.TempDir()
		if code, _, stderr := runCLI("-q", "-o", out, p[0], p[1]); code != 0 {
			t.Fatalf("%v: exit %d\n%s", p, code, stderr)
		}
		got := tree(t, out)
		if len(got) != 2 {
			t.Fatalf("%v: outputs %v", p, keys(got))
		}
		var glbs [][]byte
		for _, data := range got {
			glbs = append(glbs, data)
		}
		if !bytes.Equal(glbs[0], glbs[1]) {
			t.Errorf("%s and %s give different glTF", p[0], p[1])
		}
	}
}

// A folder of real-format files mixing good ones, corrupt copies and
// unrelated files converts every good file, reports every bad one with an
// offset, exits 1 and leaves nothing partial.
func TestBatchWithCorruptRealFiles(t *testing.T) {
	in := t.TempDir()
	demo := "../../testdata/demo"
	good := 0
	filepath.WalkDir(demo, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		data, _ := os.ReadFile(p)
		rel, _ := filepath.Rel(demo, p)
		name := strings.ReplaceAll(rel, string(filepath.Separator), "_")
		write(t, filepath.Join(in, "good", name), string(data))
		good++
		// A copy cut in half: the magic is intact, the body is not.
		write(t, filepath.Join(in, "bad", name), string(data[:len(data)/2]))
		return nil
	})
	write(t, filepath.Join(in, "notes.txt"), "not an animation")
	out := t.TempDir()
	code, _, stderr := runCLI("-q", "-o", out, in)
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, stderr)
	}
	got := tree(t, out)
	for name := range got {
		// The demo DATA.BIN cut in half ends on a sector boundary after
		// its second member: a valid two-member archive, so it converts.
		if !strings.HasPrefix(name, "good"+string(filepath.Separator)) && !strings.Contains(name, "ccs_DATA") {
			t.Errorf("output from a corrupt or unrelated file: %s", name)
		}
	}
	goodOut := 0
	for name := range got {
		if strings.HasSuffix(name, ".glb") {
			goodOut++
		}
	}
	// DATA.BIN gives one output per member, so at least one per good file.
	if goodOut < good {
		t.Errorf("%d outputs for %d good files", goodOut, good)
	}
	failures := 0
	for _, line := range strings.Split(stderr, "\n") {
		if strings.Contains(line, string(filepath.Separator)+"bad"+string(filepath.Separator)) {
			failures++
			if !strings.Contains(line, "offset") {
				t.Errorf("failure without an offset: %s", line)
			}
		}
	}
	if failures == 0 {
		t.Errorf("no failure reported:\n%s", stderr)
	}
}
