package bfres

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/internal/testfiles"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

var benchFiles = []string{"Animal_Bass_Animation.bfres", "Animal_Bear_Animation.bfres", "Npc_Gerudo_Queen_Animation.bfres"}

// BenchmarkDecodeSamples decodes the three animation sample files.
func BenchmarkDecodeSamples(b *testing.B) {
	dir := testfiles.Samples(b, "bfres")
	var inputs [][]byte
	total := 0
	for _, name := range benchFiles {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			b.Fatal(err)
		}
		inputs = append(inputs, data)
		total += len(data)
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	for b.Loop() {
		for i, data := range inputs {
			if _, err := Decode(format.BytesInput(benchFiles[i], data), nil); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkEvalSampleCurves evaluates every curve of the three files at
// every half frame of its animation and reports curve samples per second.
func BenchmarkEvalSampleCurves(b *testing.B) {
	type job struct {
		e   sample.Evaluator
		end float64
	}
	var jobs []job
	for _, name := range benchFiles {
		f := decodeSample(b, name, nil)
		for _, a := range f.Animations {
			end := a.End
			forEachCurve(&model.File{Animations: []model.Animation{a}}, func(_ string, c *model.NW4FCurve) {
				e, err := sample.Compile(c)
				if err != nil {
					b.Fatal(err)
				}
				jobs = append(jobs, job{e, end})
			})
		}
	}
	var out [1]float64
	samples := 0
	b.ResetTimer()
	for b.Loop() {
		for _, j := range jobs {
			for fr := 0.0; fr <= j.end; fr += 0.5 {
				j.e.Eval(fr, out[:])
				samples++
			}
		}
	}
	b.ReportMetric(float64(samples)/b.Elapsed().Seconds(), "samples/s")
}

// BenchmarkDecodeModel decodes Animal_Bass.bfres's meshes, materials and
// skin (its animation file is left out: BytesInput has no siblings) and
// reports vertices decoded per second beside MB/s.
func BenchmarkDecodeModel(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(testfiles.Samples(b, "bfres"), "Animal_Bass.bfres"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	vertices := 0
	for b.Loop() {
		files, err := Decode(format.BytesInput("Animal_Bass.bfres", data), nil)
		if err != nil {
			b.Fatal(err)
		}
		vertices = 0
		for _, m := range files[0].Meshes {
			vertices += len(m.Primitives[0].Positions) / 3
		}
	}
	b.ReportMetric(float64(vertices)*float64(b.N)/b.Elapsed().Seconds(), "vertices/s")
}
