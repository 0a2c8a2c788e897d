package manifest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The cache answers from memory only while an output's size and
// modification time are the remembered ones; otherwise it reads the file.
func TestCacheFastPathAndInvalidation(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "a.glb")
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, []byte("abc"), 0o644)

	c := OpenCache(dir)
	if ok, exists, err := c.Verify("sub/a.glb", 3, sumABC); !ok || !exists || err != nil {
		t.Fatalf("fresh file: %v %v %v", ok, exists, err)
	}
	if ok, _, _ := c.Verify("sub/a.glb", 3, sumEmpty); ok {
		t.Error("a wrong hash was accepted")
	}
	if ok, exists, _ := c.Verify("sub/none.glb", 3, sumABC); ok || exists {
		t.Error("a missing file was accepted")
	}
	if ok, exists, _ := c.Verify("sub/a.glb/x", 3, sumABC); ok || exists {
		t.Error("a path through a file was accepted")
	}
	os.WriteFile(filepath.Join(dir, CacheName), c.Encode(), 0o644)

	// Same size, same modification time, other bytes: the cache answers
	// without reading (this is the documented blind spot of the fast path).
	st, _ := os.Stat(p)
	os.WriteFile(p, []byte("xyz"), 0o644)
	os.Chtimes(p, st.ModTime(), st.ModTime())
	c = OpenCache(dir)
	if ok, _, _ := c.Verify("sub/a.glb", 3, sumABC); !ok {
		t.Error("the cache was not used for an unchanged size and time")
	}
	// A new modification time makes it read the file again.
	later := st.ModTime().Add(time.Second)
	os.Chtimes(p, later, later)
	if ok, _, _ := c.Verify("sub/a.glb", 3, sumABC); ok {
		t.Error("a file with a new modification time was not hashed again")
	}
	// Note remembers a file just written; Encode keeps only what was used.
	os.WriteFile(filepath.Join(dir, "b.glb"), nil, 0o644)
	c = OpenCache(dir)
	c.Note("b.glb", sumEmpty)
	if got := string(c.Encode()); !strings.Contains(got, `"b.glb"`) || strings.Contains(got, "a.glb") {
		t.Errorf("encoded cache %s", got)
	}
}

// A damaged, foreign or hostile cache is an empty cache.
func TestCacheIgnoresBadFiles(t *testing.T) {
	for _, data := range []string{
		"{", `{"schema": "other"}`, `[]`,
		`{"schema": "bake-cache/1", "files": {"../x": {"size": 3, "mtime": 1, "sha256": "` + sumABC + `"}}}`,
		`{"schema": "bake-cache/1", "files": {"x": {"size": -3, "mtime": 1, "sha256": "` + sumABC + `"}}}`,
	} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, CacheName), []byte(data), 0o644)
		if c := OpenCache(dir); len(c.files) != 0 {
			t.Errorf("%s: %d entries", data, len(c.files))
		}
	}
}
