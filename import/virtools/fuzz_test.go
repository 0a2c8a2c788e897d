package virtools

import (
	"errors"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/import/virtools/vtwrite"
	"github.com/animbake/bake/internal/modeltest"
	"github.com/animbake/bake/internal/testfiles"
	"github.com/animbake/bake/model"
)

// FuzzDecode feeds arbitrary bytes to the importer. It must never panic;
// every failure must be a FormatError; and whatever it accepts must be a
// valid model whose channels and curves compile and evaluate.
func FuzzDecode(f *testing.F) {
	seeds := []*vtwrite.File{vtwrite.SampleScene()}
	raw := vtwrite.SampleScene()
	raw.RawData = true
	seeds = append(seeds, raw)
	merged := vtwrite.SampleScene()
	merged.RawData = true
	merged.Objects = append(merged.Objects, vtwrite.Object{FileID: 110, ClassID: ClassObjectAnimation, Name: "Blend", Chunk: &vtwrite.Chunk{Sections: []vtwrite.Section{
		vtwrite.ObjAnimSection(AnimMerged, iChild, 10, []uint32{vtwrite.F32(0.25), iAnim, iArmAnim}),
	}}})
	seeds = append(seeds, merged)
	kinds := vtwrite.SampleScene()
	kinds.RawData = true
	bez := append(vtwrite.F32s(0, 1, 2, 3), 0x00200020)
	bez = append(bez, vtwrite.F32s(-1, -2, -3, 4, 5, 6)...)
	kinds.Objects[iAnim].Chunk.Sections[0] = vtwrite.ObjAnimSection(0, iChild, 10, nil,
		vtwrite.Controller{Type: CtrlBezierPosition, Count: 1, Keys: bez},
		vtwrite.Controller{Type: CtrlTCBScale, Count: 1, Keys: vtwrite.F32s(2, 1, 1, 1, 0.25, -0.5, 0.75, 0, 1)},
		vtwrite.Controller{Type: CtrlLinearScaleAxis, Count: 1, Keys: vtwrite.F32s(0, 0, 0.6, 0, 0.8)},
		vtwrite.Controller{Type: CtrlMorph, Count: 1, Keys: []uint32{0}})
	seeds = append(seeds, kinds)
	for _, v := range []uint32{7, 6} {
		old := vtwrite.SampleScene()
		old.RawData, old.Version = true, v
		seeds = append(seeds, old)
	}
	// Behaviour graphs (graph_writer_test.go): a whole script, and one
	// with a shared-input cycle.
	graph, ix := graphScene()
	graph.RawData = true
	seeds = append(seeds, graph)
	cyclic, ix := graphScene()
	cyclic.RawData = true
	b := &graphBuilder{cyclic}
	other := b.shared(TypeVector, ix.rotateAxis)
	cyclic.Objects[ix.rotateAxis].Chunk.Sections[0] = vtwrite.Section{ID: identParamInShared, Words: []uint32{TypeVector[0], TypeVector[1], other}}
	seeds = append(seeds, cyclic)
	// Scenes with meshes, materials, textures (stored raw and as a file
	// name), cameras, lights and a group (mesh_test.go, the demo).
	demo := vtwrite.DemoScene()
	demo.RawData = true
	scene := meshScene(quadMesh())
	scene.RawData = true
	named := textureScene("Tex.bmp", 0xffff0000)
	named.RawData = true
	seeds = append(seeds, demo, scene, named)
	for _, s := range seeds {
		f.Add(s.Bytes())
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
		modeltest.CheckDecoded(t, []*model.File{m}, func(a *model.Animation) []float64 { return []float64{0, a.End / 2, a.End} })
	})
}
