package all

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/oni/oniwrite"
	"github.com/animbake/bake/internal/testfiles"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// seed is one valid input that hostile variants are made from.
type seed struct {
	name string
	data []byte
}

// seeds are inputs of every importer: the project's own writers' output,
// plus the real samples when ../shared is present.
func seeds(t *testing.T) []seed {
	var s []seed
	for _, f := range oniwrite.Demo() {
		s = append(s, seed{"oni/" + f.Name, f.Data})
	}
	for _, f := range extraSeeds() {
		s = append(s, f)
	}
	shared := testfiles.SamplesDir() // "" when ../shared is absent: no real files
	if shared == "" {
		return s
	}
	filepath.WalkDir(shared, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if st, err := d.Info(); err != nil || st.Size() > 1<<20 {
			return nil // the two multi-megabyte BFRES files are the fuzzers' job
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		if _, err := format.Sniff(data[:min(len(data), format.HeadSize)]); err == nil {
			rel, _ := filepath.Rel(shared, p)
			s = append(s, seed{"samples/" + filepath.ToSlash(rel), data})
		}
		return nil
	})
	return s
}

// extraSeeds is extended by the other importers' writers.
var extraSeeds = func() []seed { return nil }

// hangLimit is how long one hostile decode may run before the test calls it
// a hang. It guards against loops that never end, not speed (speed is
// measured by the benchmarks): an honest decode of the largest seed takes a
// small fraction of it even on a loaded machine.
const hangLimit = 30 * time.Second

// decodeBounded decodes data, failing the test on a panic, on a decode that
// does not end (hangLimit), or on more than 256 MiB allocated; what decodes
// is also baked, which must not panic either.
func decodeBounded(t *testing.T, label string, data []byte) {
	t.Helper()
	opts := &format.Options{MaxInflate: 64 << 20}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	type result struct {
		files []*model.File
		err   error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{err: fmt.Errorf("panic: %v", p)}
			}
		}()
		_, files, _ := format.Decode(format.BytesInput(label, data), opts)
		done <- result{files: files}
	}()
	var r result
	select {
	case r = <-done:
		if r.err != nil {
			t.Fatalf("%s: %v", label, r.err)
		}
	case <-time.After(hangLimit):
		t.Fatalf("%s: still decoding after %v", label, hangLimit)
	}
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 256<<20 {
		t.Fatalf("%s: allocated %d MiB (limit 256 MiB)", label, alloc>>20)
	}
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("%s: bake panicked: %v", label, p)
			}
		}()
		for _, f := range r.files {
			sample.Bake(f, sample.Options{})
		}
	}()
}

// TestHostileInputs feeds every importer truncations at every 1/64 of a
// seed, random bit flips, and header words set to 0x7fffffff: each must
// end in an error or a valid result, never a panic or a hang, within
// 256 MiB.
func TestHostileInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range seeds(t) {
		t.Run(s.name, func(t *testing.T) {
			n := len(s.data)
			for k := range 64 {
				cut := n * k / 64
				decodeBounded(t, fmt.Sprintf("%s truncated to %d", s.name, cut), s.data[:cut])
			}
			for i := range 64 {
				b := append([]byte(nil), s.data...)
				for range 1 + i%8 {
					bit := rng.IntN(n * 8)
					b[bit/8] ^= 1 << (bit % 8)
				}
				decodeBounded(t, fmt.Sprintf("%s flip %d", s.name, i), b)
			}
			for off := 0; off+4 <= min(n, 512); off += 4 {
				for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
					b := append([]byte(nil), s.data...)
					order.PutUint32(b[off:], 0x7fffffff)
					decodeBounded(t, fmt.Sprintf("%s 0x7fffffff at 0x%x (%v)", s.name, off, order), b)
				}
			}
		})
	}
}
