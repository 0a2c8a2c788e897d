package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// The whole demo set, and the real samples when ../shared is present, give
// byte-identical outputs twice over and with -j 1 and -j 8.
func TestDemoAndSamplesDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	inputs := []string{filepath.Join("..", "..", "testdata", "demo")}
	if st, err := os.Stat(filepath.Join("..", "..", "..", "shared", "samples")); err == nil && st.IsDir() {
		inputs = append(inputs, filepath.Join("..", "..", "..", "shared", "samples"))
	}
	var outs []map[string][]byte
	for _, j := range []string{"1", "8", "8"} {
		out := t.TempDir()
		args := append([]string{"-q", "-j", j, "-f", "glb,gltf,json", "-o", out}, inputs...)
		if code, _, stderr := runCLI(args...); code != 0 {
			t.Fatalf("-j %s: exit %d\n%s", j, code, stderr)
		}
		outs = append(outs, tree(t, out))
	}
	if len(outs[0]) == 0 {
		t.Fatal("no outputs")
	}
	for i := 1; i < len(outs); i++ {
		if len(outs[i]) != len(outs[0]) {
			t.Fatalf("run %d wrote %d files, run 0 wrote %d", i, len(outs[i]), len(outs[0]))
		}
		for name, data := range outs[0] {
			if !bytes.Equal(data, outs[i][name]) {
				t.Errorf("%s differs between runs", name)
			}
		}
	}
}
