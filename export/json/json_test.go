package json

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

func TestF32Shortest(t *testing.T) {
	for v, want := range map[float64]string{0.1: "0.1", 1: "1", -2.5: "-2.5", 1e-7: "1e-07", 0.30000001192092896: "0.3"} {
		b, _ := F32(v).MarshalJSON()
		if string(b) != want {
			t.Errorf("%v: got %s, want %s", v, b, want)
		}
	}
}

func TestEncodeSchema(t *testing.T) {
	f := &model.File{
		Source: model.Source{Path: "in/x.oni", Format: "oni", SHA256: "ab"},
		Axes:   model.GLTFAxes,
		Nodes:  []model.Node{{Name: "a", Parent: -1}, {Name: "b", Parent: 0}},
		Animations: []model.Animation{{Name: "m", FPS: 60, Frames: 2, End: 1, Loop: model.LoopOnce,
			Events: []model.Event{{Frame: 1, Name: "note"}},
			Channels: []model.Channel{{Node: "b", Path: model.PathTranslation, Curve: &model.Keyed{
				Interp: model.InterpLinear, Width: 3, Frames: []float64{0, 1}, Values: []float64{0, 0, 0, 1, 2, 3}}}}}},
	}
	b, err := sample.Bake(f, sample.Options{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := Encode(b)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc["format"] != FormatID || doc["axes"] != "gltf" {
		t.Fatalf("header %v", doc)
	}
	src := doc["source"].(map[string]any)
	if src["file"] != "in/x.oni" || src["format"] != "oni" || src["sha256"] != "ab" {
		t.Fatalf("source %v", src)
	}
	nodes := doc["nodes"].([]any)
	if nodes[0].(map[string]any)["parent"] != nil || nodes[1].(map[string]any)["parent"] != "a" {
		t.Fatalf("parents %v", nodes)
	}
	a := doc["animations"].([]any)[0].(map[string]any)
	for _, k := range []string{"name", "loop", "sourceFps", "sourceFrames", "fps", "duration", "channels", "events"} {
		if _, ok := a[k]; !ok {
			t.Errorf("animation lacks %q", k)
		}
	}
	ch := a["channels"].([]any)[0].(map[string]any)
	if ch["interpolation"] != "LINEAR" || len(ch["times"].([]any)) != 2 {
		t.Fatalf("channel %v", ch)
	}
	if !strings.HasSuffix(string(data), "\n") {
		t.Fatal("no final newline")
	}
}

// Assets are summarised: per primitive its counts, attributes and bounds
// (positions (0,0,0), (2,1,-3), (1,1,1) → min (0,0,-3), max (2,1,1)), materials with
// their factors, textures with their origin.
func TestAssetsSummary(t *testing.T) {
	f := &model.File{
		Axes:  model.GLTFAxes,
		Nodes: []model.Node{{Name: "n", Parent: -1, Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}, Mesh: "m"}},
		Assets: model.Assets{
			Meshes: []model.Mesh{{Name: "m", Primitives: []model.Primitive{{Positions: []float32{0, 0, 0, 2, 1, -3, 1, 1, 1},
				UVs: [][]float32{{0, 0, 1, 1, 0, 1}}, Indices: []uint32{0, 1, 2}, Mode: model.ModeTriangles, Material: "mat"}}}},
			Materials: []model.Material{{Name: "mat", BaseColor: [4]float64{1, 1, 1, 1}, Roughness: 0.5,
				BaseColorTexture: model.TextureRef{Texture: "t"}}},
			Textures: []model.Texture{{Name: "t", Image: model.Image{URI: "a.bmp"}}},
		},
	}
	b, err := sample.Bake(f, sample.Options{})
	if err != nil {
		t.Fatal(err)
	}
	doc := Build(b)
	p := doc.Assets.Meshes[0].Primitives[0]
	if p.Vertices != 3 || p.Indices != 3 || p.Mode != 4 || p.Material != "mat" ||
		!reflect.DeepEqual(p.Attributes, []string{"POSITION", "TEXCOORD_0"}) ||
		!reflect.DeepEqual(p.Min, []F32{0, 0, -3}) || !reflect.DeepEqual(p.Max, []F32{2, 1, 1}) {
		t.Errorf("primitive %+v", p)
	}
	if doc.Nodes[0].Mesh != "m" || doc.Assets.Textures[0].Image != "missing" || doc.Assets.Materials[0].BaseColorTexture.Texture != "t" {
		t.Errorf("node %+v texture %+v", doc.Nodes[0], doc.Assets.Textures[0])
	}
}
