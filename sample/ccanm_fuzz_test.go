package sample

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/animbake/bake/model"
)

// FuzzCcAnmEval builds ccAnm controllers from arbitrary words (any key
// frames, any float bit patterns, any N) and checks that compiling and
// evaluating never panics and that rotations stay unit quaternions.
func FuzzCcAnmEval(f *testing.F) {
	f.Add(uint32(7), []byte{0, 0, 0, 0, 0, 0, 0x80, 0x3f, 2, 0, 0, 0, 0, 0, 0x20, 0x41}, 1.5)
	f.Add(uint32(0), []byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0xc0, 0x7f}, -3.0)
	f.Fuzz(func(t *testing.T, n uint32, data []byte, frame float64) {
		var frames []uint32
		var vals []float32
		for len(data) >= 8 && len(frames) < 64 {
			frames = append(frames, binary.LittleEndian.Uint32(data))
			vals = append(vals, math.Float32frombits(binary.LittleEndian.Uint32(data[4:])))
			data = data[8:]
		}
		if len(frames) == 0 {
			return
		}
		tm := model.CcAnmTiming{Frames: n}
		tr, err := Compile(&model.CcAnmTrack{Timing: tm, Kind: model.CcAnmKeyed, Width: 1, Frames: frames, Values: vals})
		if err != nil {
			t.Fatal(err)
		}
		var out [4]float64
		tr.Eval(frame, out[:1])
		deg := make([]float32, 3*len(frames))
		for i := range deg {
			deg[i] = vals[i%len(vals)]
		}
		for _, kind := range []model.CcAnmKind{model.CcAnmKeyed, model.CcAnmConstant} {
			r := &model.CcAnmRotation{Timing: tm, Kind: kind, Frames: frames, Degrees: deg}
			if kind == model.CcAnmConstant {
				r.Frames, r.Degrees = nil, deg[:3]
			}
			ev, err := Compile(r)
			if err != nil {
				t.Fatal(err)
			}
			ev.Eval(frame, out[:])
			l := out[0]*out[0] + out[1]*out[1] + out[2]*out[2] + out[3]*out[3]
			if math.IsNaN(l) || math.Abs(l-1) > 1e-9 {
				t.Fatalf("rotation %v", out)
			}
		}
	})
}
