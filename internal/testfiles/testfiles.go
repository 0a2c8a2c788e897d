// Package testfiles finds the files tests read from outside their own
// package: the repository root, the committed demo inputs under testdata,
// and the real sample files in ../shared/samples (copyrighted, so never in
// the repository; the tests that need them skip when they are absent).
// It is an ordinary package so that the tests of every importer can share it.
package testfiles

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/animbake/bake/internal/demofiles"
)

// findRoot walks up from the working directory to the directory holding
// go.mod; ok is false when there is none.
func findRoot() (root string, ok bool) {
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// RepoRoot returns the repository root (the directory holding go.mod at or
// above the test's directory), failing the test when there is none.
func RepoRoot(t testing.TB) string {
	t.Helper()
	root, ok := findRoot()
	if !ok {
		t.Fatal("no go.mod above the test directory")
	}
	return root
}

// SamplesDir returns ../shared/samples next to the repository root, or ""
// when it (or the root) is absent. It needs no test, for fuzz seeding.
func SamplesDir() string {
	root, ok := findRoot()
	if !ok {
		return ""
	}
	dir := filepath.Join(root, "..", "shared", "samples")
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return ""
	}
	return dir
}

// Samples returns the path of rel (slash-separated parts) under
// ../shared/samples, skipping the test cleanly when that path is absent.
func Samples(t testing.TB, rel ...string) string {
	t.Helper()
	dir := SamplesDir()
	if dir == "" {
		t.Skip("shared samples (../shared/samples) are absent")
	}
	for _, r := range rel {
		dir = filepath.Join(dir, filepath.FromSlash(r))
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("sample absent: %v", err)
	}
	return dir
}

// ReadSample returns the bytes of the sample file rel under
// ../shared/samples, skipping the test when it is absent or unreadable.
func ReadSample(t testing.TB, rel ...string) []byte {
	t.Helper()
	path := Samples(t, rel...)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("sample not readable: %v", err)
	}
	return data
}

// DemoDir returns testdata/demo/<format> at the repository root, where
// `go generate` puts a writer's demo inputs.
func DemoDir(t testing.TB, format string) string {
	t.Helper()
	return filepath.Join(RepoRoot(t), "testdata", "demo", format)
}

// CheckDemoFiles checks that dir holds exactly files, byte for byte: the
// committed demo inputs are what the generator writes today. regenerate
// is the command that brings them up to date, named in every failure.
func CheckDemoFiles(t testing.TB, dir string, files []demofiles.File, regenerate string) {
	t.Helper()
	want := map[string]bool{}
	for _, nf := range files {
		want[nf.Name] = true
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("%v (run %s)", err, regenerate)
	}
	for _, e := range entries {
		if !want[e.Name()] {
			t.Errorf("%s is not a demo input any more; remove it", e.Name())
		}
	}
	for _, nf := range files {
		got, err := os.ReadFile(filepath.Join(dir, nf.Name))
		if err != nil {
			t.Fatalf("%v (run %s)", err, regenerate)
		}
		if !bytes.Equal(got, nf.Data) {
			t.Errorf("%s differs from the generator's output; run %s", nf.Name, regenerate)
		}
	}
}

// AddSampleSeeds adds every real file under ../shared/samples/<subdir>
// (all depths, .md notes left out) of at most maxSize bytes to f's seed
// corpus; nothing when the samples are absent. Larger files are left to
// the sample tests: as seeds they would slow every fuzzing run.
func AddSampleSeeds(f *testing.F, subdir string, maxSize int64) {
	f.Helper()
	dir := SamplesDir()
	if dir == "" {
		return
	}
	filepath.WalkDir(filepath.Join(dir, subdir), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".md") {
			return nil
		}
		if st, err := d.Info(); err != nil || st.Size() > maxSize {
			return nil
		}
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
		return nil
	})
}
