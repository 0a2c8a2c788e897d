package virtools

import (
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/sample"
)

// BenchmarkDecodeAndBake parses, converts and bakes (30 fps, glTF axes)
// all six real files per iteration. It reports the input throughput
// (MB/s) and the baked channel samples per second.
func BenchmarkDecodeAndBake(b *testing.B) {
	inputs := sampleInputs(b)
	b.ReportAllocs()
	var samples int64
	b.ResetTimer()
	for b.Loop() {
		for _, data := range inputs {
			f, err := DecodeBytes(data, &format.Options{})
			if err != nil {
				b.Fatal(err)
			}
			baked, err := sample.Bake(f, sample.Options{FPS: 30, Axes: "gltf"})
			if err != nil {
				b.Fatal(err)
			}
			for _, a := range baked.Animations {
				for _, c := range a.Channels {
					samples += int64(len(c.Values) / max(c.Width, 1))
				}
			}
		}
	}
	b.ReportMetric(float64(samples)/b.Elapsed().Seconds(), "samples/s")
}

// BenchmarkDecode parses and converts all six real files, without baking:
// with the scene's meshes, materials, textures, cameras and lights, and
// animation-only (--no-meshes), so the cost of the assets is one ratio.
func BenchmarkDecode(b *testing.B) {
	for _, c := range []struct {
		name string
		opts format.Options
	}{{"assets", format.Options{}}, {"animation-only", format.Options{NoMeshes: true}}} {
		b.Run(c.name, func(b *testing.B) {
			inputs := sampleInputs(b)
			b.ReportAllocs()
			for b.Loop() {
				for _, data := range inputs {
					if _, err := DecodeBytes(data, &c.opts); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// sampleInputs reads the six real files (skipping when they are absent)
// and sets the benchmark's bytes per iteration to their total size.
func sampleInputs(b *testing.B) [][]byte {
	b.Helper()
	var inputs [][]byte
	var total int64
	for _, name := range allSamples {
		data := readSample(b, name)
		inputs = append(inputs, data)
		total += int64(len(data))
	}
	b.SetBytes(total)
	return inputs
}
