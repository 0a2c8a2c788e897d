package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
)

// CacheName is the hash cache's file name inside the output folder.
const CacheName = ".bake-cache.json"

// cacheSchema names the cache layout; any other content is ignored.
const cacheSchema = "bake-cache/1"

// Cache remembers the SHA-256 of output files by their size and
// modification time, so a rerun need not read unchanged outputs again to
// prove they are intact (the fast path; see docs/manifest.md). It is
// local state, not part of the reproducible record: a file whose size or
// modification time differs from the remembered ones is hashed again, and
// a missing or unreadable cache only costs time. It is safe for
// concurrent use.
type Cache struct {
	mu    sync.Mutex
	dir   string
	files map[string]cacheEntry
	keep  map[string]bool
}

type cacheEntry struct {
	Size   int64  `json:"size"`
	MTime  int64  `json:"mtime"` // nanoseconds since 1970
	SHA256 string `json:"sha256"`
}

type cacheFile struct {
	Schema string                `json:"schema"`
	Files  map[string]cacheEntry `json:"files"`
}

// OpenCache reads the cache of the output folder dir; any problem with
// the file gives an empty cache.
func OpenCache(dir string) *Cache {
	c := &Cache{dir: dir, files: map[string]cacheEntry{}, keep: map[string]bool{}}
	f, err := os.Open(filepath.Join(dir, CacheName))
	if err != nil {
		return c
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil || len(data) > MaxSize {
		return c
	}
	var cf cacheFile
	if json.Unmarshal(data, &cf) != nil || cf.Schema != cacheSchema {
		return c
	}
	for p, e := range cf.Files {
		if LocalPath(p) && checkSum(e.Size, e.SHA256) == nil {
			c.files[p] = e
		}
	}
	return c
}

// Verify reports whether the output at rel (slash-separated, under the
// folder) has the given size and hash: by the remembered hash when the
// file's size and modification time are the remembered ones, else by
// reading it. exists is false when there is no such regular file.
func (c *Cache) Verify(rel string, size int64, sum string) (ok, exists bool, err error) {
	full := filepath.Join(c.dir, filepath.FromSlash(rel))
	st, err := os.Stat(full)
	if err != nil || !st.Mode().IsRegular() {
		if err == nil || errorsIsNotExist(err) {
			return false, false, nil
		}
		return false, false, err
	}
	if st.Size() != size {
		return false, true, nil
	}
	mtime := st.ModTime().UnixNano()
	c.mu.Lock()
	e, hit := c.files[rel]
	c.mu.Unlock()
	if hit && e.Size == size && e.MTime == mtime {
		c.Keep(rel)
		return e.SHA256 == sum, true, nil
	}
	f, err := os.Open(full)
	if err != nil {
		return false, true, err
	}
	n, got, err := Sum(f)
	f.Close()
	if err != nil {
		return false, true, err
	}
	c.remember(rel, n, mtime, got)
	return got == sum && n == size, true, nil
}

// Note remembers the hash of an output just written (rel under the folder).
func (c *Cache) Note(rel, sum string) {
	st, err := os.Stat(filepath.Join(c.dir, filepath.FromSlash(rel)))
	if err != nil || !st.Mode().IsRegular() {
		return
	}
	c.remember(rel, st.Size(), st.ModTime().UnixNano(), sum)
}

// Keep marks rel as still wanted; Encode drops what was not kept.
func (c *Cache) Keep(rel string) {
	c.mu.Lock()
	c.keep[rel] = true
	c.mu.Unlock()
}

func (c *Cache) remember(rel string, size, mtime int64, sum string) {
	c.mu.Lock()
	c.files[rel] = cacheEntry{Size: size, MTime: mtime, SHA256: sum}
	c.keep[rel] = true
	c.mu.Unlock()
}

// Encode returns the cache's file content with the entries verified,
// noted or kept since OpenCache.
func (c *Cache) Encode() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	cf := cacheFile{Schema: cacheSchema, Files: map[string]cacheEntry{}}
	names := make([]string, 0, len(c.keep))
	for p := range c.keep {
		names = append(names, p)
	}
	slices.Sort(names)
	for _, p := range names {
		if e, ok := c.files[p]; ok {
			cf.Files[p] = e
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(cf) // plain strings and numbers: cannot fail
	return buf.Bytes()
}

// errorsIsNotExist reports a missing file, or a path through a file that
// is not a folder (ENOTDIR), which means the output is missing too.
func errorsIsNotExist(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}
