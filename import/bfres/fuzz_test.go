package bfres

import (
	"errors"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/bfres/bfreswrite"
	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/internal/modeltest"
	"github.com/animbake/bake/internal/testfiles"
	"github.com/animbake/bake/model"
)

// FuzzDecode feeds arbitrary bytes to the decoder: it must return a model
// that validates or a *binread.FormatError, never panic, and every curve
// it returns must compile and evaluate.
func FuzzDecode(f *testing.F) {
	for _, v := range []uint32{v3, v4} {
		rich := richFile(v).Bytes()
		f.Add(rich)
		f.Add(bfreswrite.Yaz0(rich))
		q := &bfreswrite.File{Version: v, Name: "Q", FSKA: []bfreswrite.FSKA{{Name: "T", Flags: 0x0204, Frames: 3, Bones: []bfreswrite.BoneAnim{
			{Name: "B", Flags: boneAnimBaseRotate | 1<<12, Base: []float32{0, 0, 0, 1},
				Curves: []bfreswrite.Curve{{Type: 2, KeyFormat: 1, Target: 0x2C, Start: 0, End: 2, Scale: 1, Keys: []float64{1, 2, 3}}}}}}}}
		f.Add(q.Bytes())
	}
	for _, nf := range bfreswrite.Demo() {
		f.Add(nf.Data)
	}
	f.Add(demoModel(v3).Bytes()) // the model layouts before 3.4
	// The Switch layout (nx_*.go): the rich file, the Switch demo (model,
	// clips, embedded BNTX), and every curve storage in one bone anim.
	sw := richFile(v4)
	f.Add(switchOf(sw).Bytes())
	f.Add(bfreswrite.DemoSwitch().Bytes())
	f.Add(bfreswrite.Yaz0(switchOf(sw).Bytes()))
	f.Add((&bfreswrite.File{Switch: true, Version: bfreswrite.VSwitch, Name: "C", FSKA: []bfreswrite.FSKA{{Name: "A", Frames: 1,
		Bones: []bfreswrite.BoneAnim{{Name: "B", Curves: storageCurves}}}}}).Bytes())
	// The real files under ../shared/samples/bfres when present; files over
	// 1.5 MiB are left to the sample tests, as seeds they would slow every
	// fuzzing run.
	testfiles.AddSampleSeeds(f, "bfres", 3<<19)
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
		modeltest.CheckDecoded(t, files, func(*model.Animation) []float64 { return []float64{-1e9, -3.5, 0, 0.5, 7.25, 1e9} })
	})
}
