package format

import (
	"path/filepath"
	"testing"
)

func TestSiblingPath(t *testing.T) {
	for _, c := range [][3]string{
		{"in/sub/X_Animation.bfres", "X.bfres", "in/sub/X.bfres"},
		{"X_Animation.bfres", "X.bfres", "X.bfres"},
		{"in/sub/X_Animation.bfres", "models/X.bfres", "models/X.bfres"},
		{"in/X_Animation.bfres", "/abs/X.bfres", "/abs/X.bfres"},
	} {
		if got := SiblingPath(filepath.FromSlash(c[0]), filepath.FromSlash(c[1])); got != filepath.FromSlash(c[2]) {
			t.Errorf("SiblingPath(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}
