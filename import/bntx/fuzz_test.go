package bntx_test

import (
	"errors"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/import/bntx"
	"github.com/animbake/bake/import/bntx/bntxwrite"
	"github.com/animbake/bake/internal/modeltest"
	"github.com/animbake/bake/model"
)

// FuzzDecode feeds arbitrary bytes to the registered decoder: it must
// return a model that validates or a *binread.FormatError, never panic.
func FuzzDecode(f *testing.F) {
	for _, d := range bntxwrite.Demo() {
		f.Add(d.Data)
	}
	f.Add([]byte(bntx.Magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, files, err := format.Decode(format.BytesInput("fuzz.bntx", data), &format.Options{MaxInflate: 1 << 20})
		if err != nil {
			var fe *binread.FormatError
			if !errors.As(err, &fe) && !errors.Is(err, format.ErrUnknown) {
				t.Fatalf("error %v (%T) is not a FormatError", err, err)
			}
			return
		}
		modeltest.CheckDecoded(t, files, func(*model.Animation) []float64 { return nil })
	})
}
