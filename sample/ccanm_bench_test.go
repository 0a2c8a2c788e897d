package sample

import (
	"testing"

	"github.com/animbake/bake/model"
)

// BenchmarkCcAnmTrackEval measures one vec3 controller sample (EE walk,
// divide, multiply and add per component) on a 30-key track.
func BenchmarkCcAnmTrackEval(b *testing.B) {
	frames := make([]uint32, 30)
	values := make([]float32, 90)
	for i := range frames {
		frames[i] = uint32(2 * i)
		for j := range 3 {
			values[3*i+j] = float32(i*7%11) + float32(j)/3
		}
	}
	ev, err := Compile(&model.CcAnmTrack{Timing: model.CcAnmTiming{Frames: 60}, Kind: model.CcAnmKeyed, Width: 3, Frames: frames, Values: values})
	if err != nil {
		b.Fatal(err)
	}
	var out [3]float64
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		ev.Eval(float64(i%59)+0.5, out[:])
	}
}

// BenchmarkCcAnmRotationEval measures one keyed rotation sample (walk,
// Rodrigues matrix, 3×3 product, quaternion) on a 30-key controller.
func BenchmarkCcAnmRotationEval(b *testing.B) {
	ev, err := Compile(benchRotation())
	if err != nil {
		b.Fatal(err)
	}
	var out [4]float64
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		ev.Eval(float64(i%59)+0.5, out[:])
	}
}

// BenchmarkCcAnmRotationCompile measures compiling a 30-key rotation (90
// emulated VU0 cos/sin evaluations and matrix products).
func BenchmarkCcAnmRotationCompile(b *testing.B) {
	c := benchRotation()
	for b.Loop() {
		if _, err := Compile(c); err != nil {
			b.Fatal(err)
		}
	}
}

// benchRotation is the rotation benchmarks' keyed controller: 30 keys two
// frames apart over 60 frames, angles spread over ±180°.
func benchRotation() *model.CcAnmRotation {
	frames := make([]uint32, 30)
	deg := make([]float32, 90)
	for i := range frames {
		frames[i] = uint32(2 * i)
		for j := range 3 {
			deg[3*i+j] = float32((i*37+j*53)%360 - 180)
		}
	}
	return &model.CcAnmRotation{Timing: model.CcAnmTiming{Frames: 60}, Kind: model.CcAnmKeyed, Frames: frames, Degrees: deg}
}
