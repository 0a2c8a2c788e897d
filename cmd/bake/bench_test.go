package main

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/animbake/bake/import/oni/oniwrite"
	"github.com/animbake/bake/sample"
)

// BenchmarkConvertOniCorpus converts a CD-sized Oni corpus (1,067 OBANs,
// 334,386 frames in 15 level files, made by the writer) to GLB with every
// CPU, the whole command path: walk, decode, bake, encode, atomic write.
func BenchmarkConvertOniCorpus(b *testing.B) {
	in := b.TempDir()
	var size int64
	files := oniwrite.Corpus()
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(in, f.Name), f.Data, 0o644); err != nil {
			b.Fatal(err)
		}
		size += int64(len(f.Data))
	}
	jobs, err := collect([]string{in})
	if err != nil {
		b.Fatal(err)
	}
	cfg := &convertConfig{formats: []string{"glb"}, jobs: runtime.NumCPU(), quiet: true, failFast: true}
	cfg.common.timing, cfg.common.curveSeconds, cfg.common.maxInflate = "graph", 10, 1<<30
	b.SetBytes(size)
	b.ResetTimer()
	for range b.N {
		cfg.out = b.TempDir()
		if err := convertAll(jobs, cfg, sample.Options{Axes: "gltf"}, io.Discard, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
	secs := b.Elapsed().Seconds()
	b.ReportMetric(float64(len(files)*b.N)/secs, "files/s")
	b.ReportMetric(float64(oniwrite.CorpusObans*b.N)/secs, "obans/s")
	b.ReportMetric(float64(oniwrite.CorpusFrames*b.N)/secs, "frames/s")
}
