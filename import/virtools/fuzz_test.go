package virtools

import (
	"errors"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/internal/testfiles"
	"github.com/animbake/bake/sample"
)

// FuzzDecode feeds arbitrary bytes to the importer. It must never panic;
// every failure must be a FormatError; and whatever it accepts must be a
// valid model whose channels and curves compile and evaluate.
func FuzzDecode(f *testing.F) {
	seeds := []*testFile{sampleScene()}
	raw := sampleScene()
	raw.rawData = true
	seeds = append(seeds, raw)
	merged := sampleScene()
	merged.rawData = true
	merged.objects = append(merged.objects, testObject{110, ClassObjectAnimation, "Blend", &testChunk{sections: []testSection{
		objAnimSection(AnimMerged, iChild, 10, []uint32{f32(0.25), iAnim, iArmAnim}),
	}}})
	seeds = append(seeds, merged)
	kinds := sampleScene()
	kinds.rawData = true
	bez := append(f32s(0, 1, 2, 3), 0x00200020)
	bez = append(bez, f32s(-1, -2, -3, 4, 5, 6)...)
	kinds.objects[iAnim].chunk.sections[0] = objAnimSection(0, iChild, 10, nil,
		testController{CtrlBezierPosition, 1, bez},
		testController{CtrlTCBScale, 1, f32s(2, 1, 1, 1, 0.25, -0.5, 0.75, 0, 1)},
		testController{CtrlLinearScaleAxis, 1, f32s(0, 0, 0.6, 0, 0.8)},
		testController{CtrlMorph, 1, []uint32{0}})
	seeds = append(seeds, kinds)
	for _, v := range []uint32{7, 6} {
		old := sampleScene()
		old.rawData, old.version = true, v
		seeds = append(seeds, old)
	}
	// Behaviour graphs (graph_writer_test.go): a whole script, and one
	// with a shared-input cycle.
	graph, ix := graphScene()
	graph.rawData = true
	seeds = append(seeds, graph)
	cyclic, ix := graphScene()
	cyclic.rawData = true
	b := &graphBuilder{cyclic}
	other := b.shared(TypeVector, ix.rotateAxis)
	cyclic.objects[ix.rotateAxis].chunk.sections[0] = testSection{identParamInShared, []uint32{TypeVector[0], TypeVector[1], other}}
	seeds = append(seeds, cyclic)
	for _, s := range seeds {
		f.Add(s.build())
	}
	// The real files, when ../shared is present (samples_test.go).
	testfiles.AddSampleSeeds(f, "virtools", 3<<19)
	f.Fuzz(func(t *testing.T, data []byte) {
		opts := &format.Options{MaxInflate: 1 << 20, CurveSeconds: 1}
		m, err := DecodeBytes(data, opts)
		if err != nil {
			var fe *binread.FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error is not a FormatError: %v", err)
			}
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("accepted input gives an invalid model: %v", err)
		}
		out := make([]float64, 16)
		for _, a := range m.Animations {
			for _, c := range a.Channels {
				ev, err := sample.Compile(c.Curve)
				if err != nil {
					t.Fatalf("animation %q channel %s does not compile: %v", a.Name, c.Path, err)
				}
				ev.Eval(0, out)
				ev.Eval(a.End/2, out)
				ev.Eval(a.End, out)
			}
		}
		for _, c := range m.Curves {
			ev, err := sample.Compile(c.Curve)
			if err != nil {
				t.Fatalf("curve %q does not compile: %v", c.Name, err)
			}
			ev.Eval(0.5, out)
		}
	})
}
