package gltf

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qmuntal/gltf"

	bakejson "github.com/animbake/bake/export/json"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// assetFile is a small scene with every kind of asset and every kind of
// animated asset property, in a mirrored source convention (Z flipped), so
// that the writer's index mapping, winding and pointers are all exercised.
func assetFile() *model.File {
	red := make([]byte, 2*2*4)
	for i := 0; i < len(red); i += 4 {
		red[i], red[i+3] = 255, 255
	}
	lin := func(w int, frames []float64, v ...float64) *model.Keyed {
		return &model.Keyed{Interp: model.InterpLinear, Width: w, Frames: frames, Values: v}
	}
	return &model.File{
		Axes: model.Axes{Name: "lh", Basis: [9]float64{1, 0, 0, 0, 1, 0, 0, 0, -1}, Scale: 1},
		Nodes: []model.Node{
			{Name: "box", Parent: -1, Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}, Mesh: "quad"},
			{Name: "cam", Parent: -1, Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}, Camera: "eye"},
			{Name: "lamp", Parent: -1, Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}, Light: "sun"},
		},
		Assets: model.Assets{
			Textures: []model.Texture{
				{Name: "red", Image: model.Image{Width: 2, Height: 2, RGBA: red}, WrapS: model.WrapClampToEdge, MagFilter: model.FilterNearest},
				{Name: "gone", Image: model.Image{URI: "Textures/gone.bmp"}},
			},
			Materials: []model.Material{
				{Name: "paint", BaseColor: [4]float64{0.5, 0.25, 1, 1}, BaseColorTexture: model.TextureRef{Texture: "red"},
					Roughness: 1, EmissiveTexture: model.TextureRef{Texture: "gone"}},
			},
			Meshes: []model.Mesh{{Name: "quad", TargetNames: []string{"up"}, Primitives: []model.Primitive{{
				Positions: []float32{0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0},
				Normals:   []float32{0, 0, 2, 0, 0, 1, 0, 0, 1, 0, 0, 0},
				UVs:       [][]float32{{0, 1, 1, 1, 1, 0, 0, 0}},
				Indices:   []uint32{0, 1, 2, 0, 2, 3},
				Mode:      model.ModeTriangles,
				Material:  "paint",
				Targets:   []model.MorphTarget{{Positions: []float32{0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1}}},
			}}}},
			Cameras: []model.Camera{{Name: "eye", Type: model.CameraPerspective, Yfov: 1, Aspect: 1.5, Znear: 0.1, Zfar: 100}},
			Lights:  []model.Light{{Name: "sun", Type: model.LightSpot, Color: [3]float64{1, 0.5, 0}, Intensity: 2, OuterCone: 0.5, InnerCone: 0.25}},
		},
		Animations: []model.Animation{{Name: "show", FPS: 10, Frames: 3, End: 2, Loop: model.LoopOnce, Channels: []model.Channel{
			{Material: "paint", Path: model.PathUVOffset, Curve: lin(2, []float64{0, 2}, 0, 0, 1, 0)},
			{Material: "paint", Path: model.PathAlpha, Curve: lin(1, []float64{0, 2}, 1, 0)},
			{Material: "paint", Path: model.PathUVScale, TextureSlot: "emissive", Curve: lin(2, []float64{0, 2}, 1, 1, 2, 2)},
			{Node: "box", Path: model.PathVisibility, Curve: &model.Keyed{Interp: model.InterpStep, Width: 1, Frames: []float64{0, 1}, Values: []float64{1, 0}}},
			{Node: "box", Path: model.PathWeights, Curve: lin(1, []float64{0, 2}, 0, 1)},
			{Node: "cam", Path: "fov", Curve: lin(1, []float64{0, 2}, 1, 0.5)},
			{Node: "lamp", Path: "intensity", Curve: lin(1, []float64{0, 2}, 2, 4)},
			{Node: "lamp", Path: "color", Curve: lin(3, []float64{0, 2}, 1, 0.5, 0, 0, 0, 1)},
		}}},
	}
}

func TestEncodeAssets(t *testing.T) {
	doc := encode(t, assetFile(), Options{Binary: true})
	if len(doc.Meshes) != 1 || len(doc.Materials) != 1 || len(doc.Textures) != 1 || len(doc.Images) != 1 || len(doc.Cameras) != 1 {
		t.Fatalf("meshes %d materials %d textures %d images %d cameras %d", len(doc.Meshes), len(doc.Materials), len(doc.Textures), len(doc.Images), len(doc.Cameras))
	}
	if doc.Nodes[0].Mesh == nil || *doc.Nodes[0].Mesh != 0 || doc.Nodes[1].Camera == nil {
		t.Error("mesh or camera not attached to its node")
	}
	want := []string{extPointer, extLights, extVisibility, extTextureTransform}
	slices.Sort(want)
	if !slices.Equal(doc.ExtensionsUsed, want) || len(doc.ExtensionsRequired) != 0 {
		t.Errorf("extensionsUsed %v required %v", doc.ExtensionsUsed, doc.ExtensionsRequired)
	}
	// The mirror flips Z of positions and normals, and the winding:
	// (0,1,2) becomes (0,2,1).
	p := doc.Meshes[0].Primitives[0]
	if p.Mode != gltf.PrimitiveTriangles {
		t.Errorf("mode %v", p.Mode)
	}
	acc := doc.Accessors[*p.Indices]
	ix := readUint16(t, doc, acc)
	if !slices.Equal(ix, []uint16{0, 2, 1, 0, 3, 2}) {
		t.Errorf("indices %v", ix)
	}
	if acc := doc.Accessors[p.Targets[0][gltf.POSITION]]; acc.Min[2] != -1 || acc.Max[2] != -1 {
		t.Errorf("morph target bounds %v %v, want z = -1", acc.Min, acc.Max)
	}
	// The normal (0,0,2) is renormalised and mirrored to (0,0,-1); the zero
	// normal becomes +Z.
	n := readFloats(t, doc, doc.Accessors[p.Attributes[gltf.NORMAL]])
	if !slices.Equal(n[:3], []float32{0, 0, -1}) || !slices.Equal(n[9:], []float32{0, 0, 1}) {
		t.Errorf("normals %v", n)
	}
	m := doc.Materials[0]
	if m.AlphaMode != gltf.AlphaBlend || m.EmissiveTexture != nil {
		t.Errorf("alpha mode %v (animated alpha needs BLEND); emissive %v (its texture is missing)", m.AlphaMode, m.EmissiveTexture)
	}
	if _, ok := m.PBRMetallicRoughness.BaseColorTexture.Extensions[extTextureTransform]; !ok {
		t.Error("animated base colour texture has no KHR_texture_transform")
	}
	ptrs := map[string]bool{}
	for _, c := range doc.Animations[0].Channels {
		if c.Target.Path == "pointer" {
			raw, _ := json.Marshal(c.Target.Extensions[extPointer])
			var v struct{ Pointer string }
			json.Unmarshal(raw, &v)
			ptrs[v.Pointer] = true
		}
	}
	for _, ptr := range []string{
		"/materials/0/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/offset",
		"/materials/0/pbrMetallicRoughness/baseColorFactor",
		"/nodes/0/extensions/KHR_node_visibility/visible",
		"/cameras/0/perspective/yfov",
		"/extensions/KHR_lights_punctual/lights/0/intensity",
		"/extensions/KHR_lights_punctual/lights/0/color",
	} {
		if !ptrs[ptr] {
			t.Errorf("no pointer channel %s (have %v)", ptr, ptrs)
		}
	}
	if len(ptrs) != 6 {
		t.Errorf("%d pointers, want 6 (the emissive scale has no texture to move)", len(ptrs))
	}
	// The animated node carries the extension's object, empty: visible is
	// true by default (KHR_node_visibility), bake's rest state.
	if raw, _ := json.Marshal(doc.Nodes[0].Extensions[extVisibility]); string(raw) != `{}` {
		t.Errorf("node 0 KHR_node_visibility %s, want {}", raw)
	}
	// The weights channel is a plain channel: SCALAR, one value per target per key.
	found := false
	for _, c := range doc.Animations[0].Channels {
		if c.Target.Path == gltf.TRSWeights {
			found = true
			out := doc.Accessors[doc.Animations[0].Samplers[c.Sampler].Output]
			if out.Type != gltf.AccessorScalar || out.Count != 3 {
				t.Errorf("weights output %v × %d", out.Type, out.Count)
			}
		}
	}
	if !found {
		t.Error("no weights channel")
	}
}

// Alpha animates baseColorFactor: the material's RGB held, alpha from the
// channel: (0.5, 0.25, 1, 1) at frame 0 and (…, 0.5) at frame 1.
func TestAlphaPointerValues(t *testing.T) {
	doc := encode(t, assetFile(), Options{Binary: true})
	for _, c := range doc.Animations[0].Channels {
		raw, _ := json.Marshal(c.Target.Extensions[extPointer])
		if string(raw) != `{"pointer":"/materials/0/pbrMetallicRoughness/baseColorFactor"}` {
			continue
		}
		out := readFloats(t, doc, doc.Accessors[doc.Animations[0].Samplers[c.Sampler].Output])
		if !slices.Equal(out, []float32{0.5, 0.25, 1, 1, 0.5, 0.25, 1, 0.5, 0.5, 0.25, 1, 0}) {
			t.Errorf("baseColorFactor keys %v", out)
		}
		return
	}
	t.Fatal("no baseColorFactor pointer")
}

func TestCleanSkinWeights(t *testing.T) {
	// Joint 3 twice (0.25 + 0.25), a zero weight on joint 7: merged, the
	// unused slots at joint 0 with weight 0.
	j, w := cleanSkinWeights([]uint16{3, 5, 3, 7}, []float32{0.25, 0.5, 0.25, 0})
	if !slices.Equal(j, []uint16{3, 5, 0, 0}) || !slices.Equal(w, []float32{0.5, 0.5, 0, 0}) {
		t.Errorf("got %v %v", j, w)
	}
}

func readFloats(t *testing.T, doc *gltf.Document, acc *gltf.Accessor) []float32 {
	t.Helper()
	bv := doc.BufferViews[*acc.BufferView]
	data := doc.Buffers[0].Data[bv.ByteOffset+acc.ByteOffset : bv.ByteOffset+bv.ByteLength]
	n := acc.Count * map[gltf.AccessorType]int{gltf.AccessorScalar: 1, gltf.AccessorVec2: 2, gltf.AccessorVec3: 3, gltf.AccessorVec4: 4}[acc.Type]
	out := make([]float32, n)
	for i := range out {
		out[i] = math.Float32frombits(uint32(data[4*i]) | uint32(data[4*i+1])<<8 | uint32(data[4*i+2])<<16 | uint32(data[4*i+3])<<24)
	}
	return out
}

func readUint16(t *testing.T, doc *gltf.Document, acc *gltf.Accessor) []uint16 {
	t.Helper()
	if acc.ComponentType != gltf.ComponentUshort {
		t.Fatalf("component type %v", acc.ComponentType)
	}
	bv := doc.BufferViews[*acc.BufferView]
	data := doc.Buffers[0].Data[bv.ByteOffset:]
	out := make([]uint16, acc.Count)
	for i := range out {
		out[i] = uint16(data[2*i]) | uint16(data[2*i+1])<<8
	}
	return out
}

// TestWriteAssetsForValidator writes the asset scene for the Khronos
// validator (BAKE_DUMP_DIR), as TestWriteForValidator does.
func TestWriteAssetsForValidator(t *testing.T) {
	dir := os.Getenv("BAKE_DUMP_DIR")
	if dir == "" {
		t.Skip("BAKE_DUMP_DIR not set")
	}
	b, err := sample.Bake(assetFile(), sample.Options{})
	if err != nil {
		t.Fatal(err)
	}
	glb, _, err := Encode(b, Options{Binary: true})
	if err != nil {
		t.Fatal(err)
	}
	js, err := bakejson.Encode(b)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(dir, 0o755)
	for name, data := range map[string][]byte{"assets_test.glb": glb, "assets_test.json": js} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// External textures are files beside the glTF, referred to by URI; none
// writes no image and keeps the material's name for it.
func TestTextureModes(t *testing.T) {
	b, err := sample.Bake(assetFile(), sample.Options{})
	if err != nil {
		t.Fatal(err)
	}
	main, _, images, err := EncodeFiles(b, Options{Binary: true, Textures: TexturesExternal, ImagePrefix: "my level"})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := decode(main)
	if err != nil {
		t.Fatal(err)
	}
	if len(images) != 1 || images[0].Name != "my level_0_red.png" || doc.Images[0].URI != "my%20level_0_red.png" || doc.Images[0].BufferView != nil {
		t.Errorf("images %v, uri %q", len(images), doc.Images[0].URI)
	}
	main, _, images, err = EncodeFiles(b, Options{Binary: true, Textures: TexturesNone})
	if err != nil {
		t.Fatal(err)
	}
	doc, _ = decode(main)
	if len(images) != 0 || len(doc.Images) != 0 || len(doc.Textures) != 0 || doc.Materials[0].PBRMetallicRoughness.BaseColorTexture != nil {
		t.Errorf("textures none wrote %d images, %d textures", len(doc.Images), len(doc.Textures))
	}
}

// A clip whose only channels are pointers still holds a plain channel (on
// the data node) over its whole length, so clients without
// KHR_animation_pointer see the clip and its duration.
func TestPointerOnlyClipKeepsItsLength(t *testing.T) {
	f := assetFile()
	f.Animations[0].Channels = f.Animations[0].Channels[:4] // offset, alpha, emissive scale (data), visibility
	doc := encode(t, f, Options{Binary: true})
	plain := 0
	for _, c := range doc.Animations[0].Channels {
		if c.Target.Path != "pointer" {
			plain++
			if doc.Nodes[*c.Target.Node].Name != DataNodeName {
				t.Errorf("plain channel on %q", doc.Nodes[*c.Target.Node].Name)
			}
			in := doc.Accessors[doc.Animations[0].Samplers[c.Sampler].Input]
			if in.Max[0] != 0.2 { // float32(0.2) in its shortest form
				t.Errorf("data channel ends at %v, want the clip's 0.2 s", in.Max)
			}
		}
	}
	if plain != 1 {
		t.Errorf("%d plain channels, want 1", plain)
	}
	// The pointer channels (offset, alpha, visibility) are only glTF
	// channels; the extras hold the one channel without a target: the
	// emissive slot's scale, (1,1) → (2,2) over frames 0-2 at 10 fps.
	raw, err := json.Marshal(doc.Animations[0].Extras)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"data":[{"material":"paint","path":"uvScale","textureSlot":"emissive","times":[0,0.1,0.2],"values":[[1,1],[1.5,1.5],[2,2]]}]}`
	if string(raw) != want {
		t.Errorf("extras\n got %s\nwant %s", raw, want)
	}
}

// Material numbers are float32s in their shortest form: a linear colour
// 0.1 (float32 0.100000001…) is written 0.1, 1/3 as 0.33333334, a
// roughness 0.7 as 0.7, the texture transform's offset 1/3 as 0.33333334.
func TestMaterialNumbersShort(t *testing.T) {
	f := assetFile()
	m := &f.Assets.Materials[0]
	m.BaseColor = [4]float64{0.1, 0.2, 1.0 / 3, 1}
	m.Emissive = [3]float64{1.0 / 3, 0, 0}
	m.Roughness = 0.7
	m.BaseColorTexture.Offset = [2]float64{1.0 / 3, 0}
	doc := encode(t, f, Options{Binary: true})
	raw, err := json.Marshal(doc.Materials[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"baseColorFactor":[0.1,0.2,0.33333334,1]`, `"emissiveFactor":[0.33333334,0,0]`,
		`"roughnessFactor":0.7`, `"offset":[0.33333334,0]`} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("material %s lacks %s", raw, want)
		}
	}
}

// Mesh accessors share a buffer view per element size (with that
// byteStride) and one index view (no stride), each at its byte offset.
// assetFile's quad has 4 vertices: POSITION and NORMAL (12 bytes each, 48
// per accessor) then the morph target's POSITION go to the 12-byte view at
// offsets 0, 48 and 96; TEXCOORD_0 (8 bytes) to its own view at 0; the 6
// indices (unsigned shorts) to the index view at 0.
func TestMeshViewsShared(t *testing.T) {
	doc := encode(t, assetFile(), Options{Binary: true})
	p := doc.Meshes[0].Primitives[0]
	type place struct{ view, offset, stride, target int }
	at := func(acc int) place {
		a := doc.Accessors[acc]
		v := doc.BufferViews[*a.BufferView]
		return place{*a.BufferView, a.ByteOffset, v.ByteStride, int(v.Target)}
	}
	pos, nrm, uv, tgt, ix := at(p.Attributes[gltf.POSITION]), at(p.Attributes[gltf.NORMAL]), at(p.Attributes["TEXCOORD_0"]),
		at(p.Targets[0][gltf.POSITION]), at(*p.Indices)
	if pos.view != nrm.view || pos.view != tgt.view || pos.offset != 0 || nrm.offset != 48 || tgt.offset != 96 ||
		pos.stride != 12 || pos.target != int(gltf.TargetArrayBuffer) {
		t.Errorf("12-byte view: POSITION %+v, NORMAL %+v, target POSITION %+v", pos, nrm, tgt)
	}
	if uv.view == pos.view || uv.offset != 0 || uv.stride != 8 {
		t.Errorf("TEXCOORD_0 %+v", uv)
	}
	if ix.view == pos.view || ix.view == uv.view || ix.offset != 0 || ix.stride != 0 || ix.target != int(gltf.TargetElementArrayBuffer) {
		t.Errorf("indices %+v", ix)
	}
	if n := doc.BufferViews[pos.view].ByteLength; n != 144 {
		t.Errorf("12-byte view holds %d bytes, want 144", n)
	}
}

// Position bounds are float32s in their shortest form: the quad's x
// coordinates made 0 and float32(0.1) give min 0, max 0.1 (not
// 0.10000000149011612).
func TestPositionBoundsShort(t *testing.T) {
	f := assetFile()
	pos := f.Assets.Meshes[0].Primitives[0].Positions
	pos[3], pos[6] = 0.1, 0.1
	doc := encode(t, f, Options{Binary: true})
	acc := doc.Accessors[doc.Meshes[0].Primitives[0].Attributes[gltf.POSITION]]
	if acc.Min[0] != 0 || acc.Max[0] != 0.1 {
		t.Errorf("x bounds %v %v, want 0 0.1", acc.Min[0], acc.Max[0])
	}
}

// A static texture transform leaves out the extension's defaults (offset
// 0 0 here); an animated one names both offset and scale for its pointer.
func TestTextureTransformDefaults(t *testing.T) {
	f := assetFile()
	var still []model.Channel
	for _, c := range f.Animations[0].Channels {
		if c.Path != model.PathUVOffset {
			still = append(still, c)
		}
	}
	f.Animations[0].Channels = still
	f.Assets.Materials[0].BaseColorTexture.Scale = [2]float64{2, 1}
	doc := encode(t, f, Options{Binary: true})
	raw, _ := json.Marshal(doc.Materials[0].PBRMetallicRoughness.BaseColorTexture.Extensions[extTextureTransform])
	if string(raw) != `{"scale":[2,1]}` {
		t.Errorf("static transform %s, want {\"scale\":[2,1]}", raw)
	}
	doc = encode(t, assetFile(), Options{Binary: true})
	raw, _ = json.Marshal(doc.Materials[0].PBRMetallicRoughness.BaseColorTexture.Extensions[extTextureTransform])
	if string(raw) != `{"offset":[0,0],"scale":[1,1]}` {
		t.Errorf("animated transform %s, want offset and scale", raw)
	}
}
