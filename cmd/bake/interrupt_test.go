package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/qmuntal/gltf"

	"github.com/animbake/bake/import/oni/oniwrite"
)

// TestMain lets the interrupt test run this test binary as the bake
// command itself.
func TestMain(m *testing.M) {
	if os.Getenv("BAKE_AS_COMMAND") == "1" {
		main()
	}
	os.Exit(m.Run())
}

// A SIGINT during a batch leaves --out with only complete files.
func TestInterruptLeavesOnlyCompleteFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	in, out := t.TempDir(), t.TempDir()
	for r := range 3 {
		for _, f := range oniwrite.Corpus() {
			os.WriteFile(filepath.Join(in, strings.TrimSuffix(f.Name, ".dat")+"_"+string(rune('a'+r))+".dat"), f.Data, 0o644)
		}
	}
	cmd := exec.Command(os.Args[0], "-q", "-j", "1", "-f", "glb,gltf,json", "-o", out, in)
	cmd.Env = append(os.Environ(), "BAKE_AS_COMMAND=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if entries, _ := os.ReadDir(out); len(entries) > 2 {
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Fatalf("exit: %v, want 130 (stderr %q)", err, stderr.String())
	}
	entries, _ := os.ReadDir(out)
	if len(entries) == 0 || len(entries) >= 3*15*4 {
		t.Fatalf("interrupt came too early or too late: %d outputs", len(entries))
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasSuffix(name, ".tmp") || strings.HasPrefix(name, ".bake-") {
			t.Errorf("temporary file left: %s", name)
		}
		if strings.HasSuffix(name, ".glb") {
			doc := new(gltf.Document)
			f, _ := os.Open(filepath.Join(out, name))
			if err := gltf.NewDecoder(f).Decode(doc); err != nil {
				t.Errorf("%s is not a complete glb: %v", name, err)
			}
			f.Close()
		}
	}
}
