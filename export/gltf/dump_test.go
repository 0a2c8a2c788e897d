package gltf

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/animbake/bake/sample"
)

// TestWriteForValidator writes the test file's outputs to BAKE_DUMP_DIR when
// it is set, so the CI script can run the Khronos validator over them.
func TestWriteForValidator(t *testing.T) {
	dir := os.Getenv("BAKE_DUMP_DIR")
	if dir == "" {
		t.Skip("BAKE_DUMP_DIR not set")
	}
	b, err := sample.Bake(testFile(), sample.Options{})
	if err != nil {
		t.Fatal(err)
	}
	glb, _, err := Encode(b, Options{Binary: true})
	if err != nil {
		t.Fatal(err)
	}
	main, bin, err := Encode(b, Options{BinName: "exporter_test.bin"})
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(dir, 0o755)
	for name, data := range map[string][]byte{"exporter_test.glb": glb, "exporter_test.gltf": main, "exporter_test.bin": bin} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
