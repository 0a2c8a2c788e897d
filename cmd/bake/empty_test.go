package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A recognised file that imports to nothing (no animation, node, curve or
// asset) is reported, writes no output, and is not a failure; the other
// files of the batch convert.
func TestNothingToConvert(t *testing.T) {
	in, out := t.TempDir(), t.TempDir()
	write(t, filepath.Join(in, "settings.bt"), "BAKETEST EMPTY")
	write(t, filepath.Join(in, "door.bt"), "BAKETEST open")
	code, _, stderr := runCLI("-o", out, in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "settings.bt: nothing to convert") || !strings.Contains(stderr, "1 converted") ||
		!strings.Contains(stderr, "1 with nothing to convert") {
		t.Errorf("report: %s", stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "settings.glb")); !os.IsNotExist(err) {
		t.Errorf("an output was written for the empty file: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "door.glb")); err != nil {
		t.Errorf("the other file did not convert: %v", err)
	}
	// -q prints nothing for it.
	if _, _, stderr := runCLI("-q", "-o", t.TempDir(), in); stderr != "" {
		t.Errorf("-q printed %q", stderr)
	}
}
