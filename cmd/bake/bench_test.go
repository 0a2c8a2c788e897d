package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/animbake/bake/fidelity"
	"github.com/animbake/bake/import/oni/oniwrite"
	"github.com/animbake/bake/internal/testfiles"
	"github.com/animbake/bake/manifest"
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

// BenchmarkRerunVsFullRun measures what the manifest saves: each
// iteration bakes the CD-sized Oni corpus (and ../shared/samples when
// present) into an empty folder (full, manifest written), then runs again
// with nothing changed (rerun: inputs hashed, outputs proved by the hash
// cache), then again without the hash cache (rerun-nocache: every output
// hashed too, as in CI on a fresh checkout of committed outputs). The
// rerun figures are also given as a percentage of the full run.
func BenchmarkRerunVsFullRun(b *testing.B) {
	in := b.TempDir()
	for _, f := range oniwrite.Corpus() {
		if err := os.WriteFile(filepath.Join(in, f.Name), f.Data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	paths := []string{in}
	if dir := testfiles.SamplesDir(); dir != "" {
		paths = append(paths, dir)
	}
	jobs, err := collect(paths)
	if err != nil {
		b.Fatal(err)
	}
	cfg := &convertConfig{formats: []string{"glb"}, jobs: runtime.NumCPU(), quiet: true, textures: "embed"}
	cfg.common.timing, cfg.common.curveSeconds, cfg.common.maxInflate = "graph", 10, 1<<30
	run := func() time.Duration {
		start := time.Now()
		if err := convertAll(jobs, cfg, sample.Options{Axes: "gltf"}, io.Discard, io.Discard); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	var full, rerun, nocache time.Duration
	b.ResetTimer()
	for range b.N {
		cfg.out = b.TempDir()
		full += run()
		rerun += run()
		b.StopTimer()
		os.Remove(filepath.Join(cfg.out, manifest.CacheName))
		b.StartTimer()
		nocache += run()
	}
	n := float64(b.N)
	b.ReportMetric(full.Seconds()*1000/n, "full-ms")
	b.ReportMetric(rerun.Seconds()*1000/n, "rerun-ms")
	b.ReportMetric(nocache.Seconds()*1000/n, "rerun-nocache-ms")
	b.ReportMetric(100*rerun.Seconds()/full.Seconds(), "rerun-%")
	b.ReportMetric(100*nocache.Seconds()/full.Seconds(), "rerun-nocache-%")
}

// BenchmarkConvertSamples converts every real sample and demo input to GLB
// on one core, with every sample of the native grid (--tolerance 0) and
// with error-bounded keys at the default tolerance: the ratio of the two is
// the cost of the key reduction (and of measuring it).
func BenchmarkConvertSamples(b *testing.B) {
	inputs := []string{filepath.Join(testfiles.RepoRoot(b), "testdata", "demo"), testfiles.Samples(b)}
	jobs, err := collect(inputs)
	if err != nil {
		b.Fatal(err)
	}
	for _, tol := range []float64{0, fidelity.DefaultTolerance} {
		b.Run(fmt.Sprintf("tolerance=%g", tol), func(b *testing.B) {
			cfg := &convertConfig{formats: []string{"glb"}, jobs: 1, quiet: true, failFast: true, tolerance: tol, short: true}
			cfg.common.timing, cfg.common.curveSeconds, cfg.common.maxInflate = "graph", 10, 1<<30
			for range b.N {
				cfg.out = b.TempDir()
				if err := convertAll(jobs, cfg, sample.Options{Axes: "gltf"}, io.Discard, io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
