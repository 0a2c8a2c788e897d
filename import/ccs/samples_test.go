package ccs

import (
	"os"
	"path/filepath"
	"testing"
)

// sharedDir finds /work/shared from the test's directory: up to the
// directory holding go.mod, then ../shared. Tests that need it skip when
// it is absent.
func sharedDir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Skip(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("no go.mod above the test directory")
		}
		dir = parent
	}
	shared := filepath.Join(dir, "..", "shared")
	if _, err := os.Stat(shared); err != nil {
		t.Skip("shared samples are absent:", err)
	}
	return shared
}

// readSample reads a shared sample or skips the test.
func readSample(t testing.TB, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(sharedDir(t), "samples", rel))
	if err != nil {
		t.Skip("sample absent:", err)
	}
	return data
}
