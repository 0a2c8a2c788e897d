package bfres

import (
	"errors"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/sample"
)

// FuzzDecode feeds arbitrary bytes to the decoder: it must return a model
// that validates or a *binread.FormatError, never panic, and every curve
// it returns must compile and evaluate.
func FuzzDecode(f *testing.F) {
	for _, v := range []uint32{v3, v4} {
		rich := richFile(v).bytes()
		f.Add(rich)
		f.Add(yaz0Encode(rich))
		q := &testFile{version: v, name: "Q", fska: []testFSKA{{name: "T", flags: 0x0204, frames: 3, bones: []testBoneAnim{
			{name: "B", flags: boneAnimBaseRotate | 1<<12, base: []float32{0, 0, 0, 1},
				curves: []testCurve{{typ: 2, kk: 1, target: 0x2C, start: 0, end: 2, scale: 1, keys: []float64{1, 2, 3}}}}}}}}
		f.Add(q.bytes())
	}
	f.Add([]byte("FRES    "))
	f.Add([]byte("Yaz0\x00\x00\x00\x04\x00\x00\x00\x00\x00\x00\x00\x00\xf0FRES"))
	f.Fuzz(func(t *testing.T, data []byte) {
		files, err := Decode(format.BytesInput("fuzz.bfres", data), &format.Options{MaxInflate: 1 << 20})
		if err != nil {
			var fe *binread.FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v (%T) is not a FormatError", err, err)
			}
			return
		}
		for _, file := range files {
			if err := file.Validate(); err != nil {
				t.Fatalf("decoded model does not validate: %v", err)
			}
			for _, a := range file.Animations {
				for _, ch := range a.Channels {
					e, err := sample.Compile(ch.Curve)
					if err != nil {
						t.Fatalf("channel %s/%s does not compile: %v", ch.Node+ch.Material, ch.Path, err)
					}
					out := make([]float64, e.Width())
					for _, fr := range []float64{-1e9, -3.5, 0, 0.5, 7.25, 1e9} {
						e.Eval(fr, out)
					}
				}
			}
		}
	})
}
