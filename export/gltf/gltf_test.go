package gltf

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/qmuntal/gltf"

	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

func testFile() *model.File {
	s := math.Sqrt(0.5)
	return &model.File{
		Axes: model.GLTFAxes,
		Nodes: []model.Node{
			{Name: "root", Parent: -1, Translation: [3]float64{1, 2, 3}},
			{Name: "arm", Parent: 0, Rotation: [4]float64{0, 0, s, s}},
			{Name: "fixed", Parent: 1, Matrix: &[16]float64{2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1}},
		},
		Animations: []model.Animation{
			{Name: "spin", FPS: 30, Frames: 3, End: 2, Period: 3, Loop: model.LoopRepeat,
				Events: []model.Event{{Frame: 1, Name: "note", Node: "arm", Args: map[string]any{"event": 2}}},
				Channels: []model.Channel{
					{Node: "arm", Path: model.PathRotation, Curve: &model.Keyed{Interp: model.InterpSlerp, Width: 4,
						Frames: []float64{0, 2}, Values: []float64{0, 0, 0, 1, 0, 0, s, s}}},
					{Node: "root", Path: model.PathTranslation, Curve: &model.Keyed{Interp: model.InterpStep, Width: 3,
						Frames: []float64{0, 1}, Values: []float64{0, 0, 0, 1, 1, 1}}},
					{Material: "skin", Path: model.PathUVOffset, Curve: &model.Keyed{Interp: model.InterpLinear, Width: 2,
						Frames: []float64{0, 2}, Values: []float64{0, 0, 1, 0}}},
				}},
			{Name: "fade", FPS: 30, Frames: 2, End: 1, Loop: model.LoopOnce,
				Channels: []model.Channel{{Material: "skin", Path: model.PathAlpha, Curve: &model.Constant{Value: []float64{0.5}}}}},
		},
	}
}

func encode(t *testing.T, f *model.File, opts Options) *gltf.Document {
	t.Helper()
	return encodeWith(t, f, sample.Options{}, opts)
}

func encodeWith(t *testing.T, f *model.File, bake sample.Options, opts Options) *gltf.Document {
	t.Helper()
	b, err := sample.Bake(f, bake)
	if err != nil {
		t.Fatal(err)
	}
	data, _, err := Encode(b, opts)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestEncodeStructure(t *testing.T) {
	doc := encodeWith(t, testFile(), sample.Options{LoopSuffix: true}, Options{Binary: true})
	if len(doc.Scenes) != 1 || len(doc.Scenes[0].Nodes) != 2 { // root + data node
		t.Fatalf("scene roots %v", doc.Scenes[0].Nodes)
	}
	if doc.Nodes[0].Children[0] != 1 || doc.Nodes[1].Children[0] != 2 {
		t.Fatalf("hierarchy wrong")
	}
	if doc.Nodes[2].Matrix[0] != 2 {
		t.Fatalf("static matrix lost")
	}
	spin := doc.Animations[0]
	if spin.Name != "spin-loop" || len(spin.Channels) != 2 {
		t.Fatalf("spin: %q with %d channels", spin.Name, len(spin.Channels))
	}
	if spin.Samplers[1].Interpolation != gltf.InterpolationStep || spin.Samplers[0].Interpolation != gltf.InterpolationLinear {
		t.Fatalf("interpolations wrong")
	}
	in := doc.Accessors[spin.Samplers[0].Input]
	// Repeat: frames 0,1,2 and the seam at 3 → 4 samples, 0 to 0.1 s.
	// The bound is float32(0.1) in its shortest form, 0.1.
	if in.Count != 4 || in.Min[0] != 0 || in.Max[0] != 0.1 {
		t.Fatalf("time accessor %+v", in)
	}
	if spin.Samplers[0].Input != spin.Samplers[1].Input {
		t.Fatalf("channels of one clip must share the time accessor")
	}
	// The clip's facts are in the scene's clip table (extras_test.go); the
	// animation's extras hold only the channel glTF cannot animate here
	// (uvOffset of a material the file does not have): LINEAR, so no
	// interpolation; frames 0, 1, 2 and the seam 3 (back at frame 0's
	// value) at 30 fps: float32(1/30) = 0.033333335, float32(2/30) =
	// 0.06666667 in their shortest forms; values 0 → 1 in x over frames 0-2.
	raw, err := json.Marshal(spin.Extras)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"data":[{"material":"skin","path":"uvOffset","times":[0,0.033333335,0.06666667,0.1],"values":[[0,0],[0.5,0],[1,0],[0,0]]}]}`
	if string(raw) != want {
		t.Fatalf("spin extras\n got %s\nwant %s", raw, want)
	}
	fade := doc.Animations[1]
	if fade.Name != "fade" || len(fade.Channels) != 1 || doc.Nodes[*fade.Channels[0].Target.Node].Name != DataNodeName {
		t.Fatalf("data-only clip should hold a channel on %s", DataNodeName)
	}
}

func TestEncodeDeterministic(t *testing.T) {
	b1, _ := sample.Bake(testFile(), sample.Options{})
	b2, _ := sample.Bake(testFile(), sample.Options{})
	for _, bin := range []bool{true, false} {
		d1, x1, err1 := Encode(b1, Options{Binary: bin, BinName: "x.bin"})
		d2, x2, err2 := Encode(b2, Options{Binary: bin, BinName: "x.bin"})
		if err1 != nil || err2 != nil || !bytes.Equal(d1, d2) || !bytes.Equal(x1, x2) {
			t.Fatalf("output differs between runs (binary %v)", bin)
		}
	}
}

func TestEncodeSeparateBuffer(t *testing.T) {
	b, _ := sample.Bake(testFile(), sample.Options{})
	main, bin, err := Encode(b, Options{BinName: "t.bin"})
	if err != nil || len(bin) == 0 || !bytes.Contains(main, []byte(`"uri": "t.bin"`)) {
		t.Fatalf("gltf+bin: err %v, %d bin bytes", err, len(bin))
	}
}
