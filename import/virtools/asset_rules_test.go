package virtools

import (
	"encoding/binary"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/virtools/vtwrite"
	"github.com/animbake/bake/model"
)

// TestSampler: the material modes to glTF's sampler (docs §4.4):
// address 1 wrap → REPEAT (10497), 2 mirror → MIRRORED_REPEAT (33648),
// 4 border → CLAMP_TO_EDGE (33071); filters 1 → NEAREST (9728), 2 →
// LINEAR (9729), 3..7 → 9984, 9985, 9986, 9987, 9987; a mip mode as
// magnification is LINEAR (glTF has no mip magnification).
func TestSampler(t *testing.T) {
	for _, c := range []struct {
		address, min, mag uint8
		want              [4]int
	}{
		{1, 1, 1, [4]int{10497, 10497, 9728, 9728}},
		{2, 3, 2, [4]int{33648, 33648, 9984, 9729}},
		{4, 5, 3, [4]int{33071, 33071, 9986, 9729}},
		{3, 6, 1, [4]int{33071, 33071, 9987, 9728}},
		{1, 7, 2, [4]int{10497, 10497, 9987, 9729}},
	} {
		if got := sampler(&Material{Address: c.address, MinFilter: c.min, MagFilter: c.mag}); got != c.want {
			t.Errorf("address %d filters %d/%d: %v, want %v", c.address, c.min, c.mag, got, c.want)
		}
	}
}

// TestOrthographicCameraAndSun: zoom 0.5 at 4:3 gives x_ndc = 0.5·x, so
// xmag 2 and ymag 1/(0.5·4/3) = 1.5; a directional light keeps its power
// (1.5) whatever its attenuation and has no range.
func TestOrthographicCameraAndSun(t *testing.T) {
	f := meshScene(quadMesh())
	f.Objects[msCam].Chunk.Sections[1] = vtwrite.CameraSection(2, 1, 0.5, 4, 3, 1, 10)
	f.Objects[msLight].Chunk.Sections[1] = vtwrite.LightSection(3, 0x100, 0xffffffff, [3]float32{0, 0, 2}, 50)
	_, m, _ := decodeAssets(t, f)
	c := m.Cameras[0]
	if c.Type != model.CameraOrthographic || c.XMag != 2 || math.Abs(c.YMag-1.5) > 1e-12 || c.Yfov != 0 {
		t.Errorf("camera %+v", c)
	}
	l := m.Lights[0]
	if l.Type != model.LightDirectional || l.Intensity != 1.5 || l.Range != 0 || l.Color != [3]float64{1, 1, 1} {
		t.Errorf("light %+v", l)
	}
}

// TestDecalMaterial: texture blend 1 (decal) replaces the lit colour with
// the texture: unlit, white base colour keeping the diffuse alpha (0x80).
func TestDecalMaterial(t *testing.T) {
	f := meshScene(quadMesh())
	f.Objects[msMatA].Chunk.Sections[0] = vtwrite.MaterialSection(vtwrite.MaterialData{Diffuse: 0x80336699, Texture: msTex, Modes: [8]uint8{1, 2, 2, 2, 1, 2, 3, 1}})
	_, m, _ := decodeAssets(t, f)
	a := material(t, m, "Mat_A")
	if !a.Unlit || a.BaseColor != [4]float64{1, 1, 1, 128.0 / 255} || a.BaseColorTexture.Texture != "Tex" {
		t.Errorf("decal material %+v", a)
	}
}

// TestTextureOptions: the dwords after the options dword mean colour key,
// current slot and video format depending on their number, the slot count
// and the video-format bit 0x200 (libcmo CKTexture::Load).
func TestTextureOptions(t *testing.T) {
	for _, c := range []struct {
		name  string
		words []uint32
		slots int
		want  Texture
	}{
		{"video format only", []uint32{0x30200, 6}, 1, Texture{HasVideoFormat: true, VideoFormat: 6, SaveOptions: 3}},
		{"colour key only", []uint32{0x100, 0xff00ff}, 1, Texture{Transparent: true, TransparentColor: 0xff00ff}},
		{"slot only", []uint32{0, 1}, 2, Texture{CurrentSlot: 1}},
		{"key and video format", []uint32{0x301, 0xff, 4}, 1, Texture{MipMap: true, Transparent: true, HasVideoFormat: true, TransparentColor: 0xff, VideoFormat: 4}},
		{"slot and video format", []uint32{0x200, 1, 4}, 2, Texture{HasVideoFormat: true, CurrentSlot: 1, VideoFormat: 4}},
		{"all three", []uint32{0x200, 0xff, 1, 4}, 2, Texture{HasVideoFormat: true, TransparentColor: 0xff, CurrentSlot: 1, VideoFormat: 4}},
		{"slot past the slots", []uint32{0, 5}, 2, Texture{}},
	} {
		names := make([]string, c.slots)
		for i := range names {
			names[i] = "t.bmp"
		}
		f := meshScene(quadMesh())
		f.Objects[msTex].Chunk.Sections = []vtwrite.Section{vtwrite.FileNameSection(names...), {ID: vtwrite.IdentTexOptions, Words: c.words}}
		s, _, _ := decodeAssets(t, f)
		got := *s.Assets.Textures[msTex]
		got.Index, got.Slots = 0, nil
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestStoredFileAlpha: a stored image file with marker 2 carries its
// alpha beside it — one value 0x80 for every pixel — so even a PNG is
// decoded to apply it.
func TestStoredFileAlpha(t *testing.T) {
	ext := binary.LittleEndian.Uint32([]byte("bmp\x00"))
	words := []uint32{1, 2, 1, 24, 2, ext, 0, 0}
	words = append(words, vtwrite.Buffer(bmp2x1())...)
	words = append(words, 1, 0x80)
	f := meshScene(quadMesh())
	f.Objects[msTex].Chunk.Sections = []vtwrite.Section{{ID: vtwrite.IdentTexReader, Words: words}}
	_, m, _ := decodeAssets(t, f)
	if im := m.Textures[0].Image; !slices.Equal(im.RGBA, []byte{255, 0, 0, 0x80, 0, 255, 0, 0x80}) {
		t.Errorf("pixels %v", im.RGBA)
	}
}

// TestSameUVChannelAndBadSlot: a channel flagged SAMEUV adds no UV set; a
// face whose slot is past the slot list is drawn with the default
// material ("") and warned about once.
func TestSameUVChannelAndBadSlot(t *testing.T) {
	q := quadMesh()
	q.Channels[0].Flags |= ChannelSameUV
	q.Channels[0].UVs = nil
	q.FaceSlots[1] = 7
	_, m, warnings := decodeAssets(t, meshScene(q))
	p := m.Meshes[0].Primitives
	if len(p) != 2 || len(p[0].UVs) != 1 || p[1].Material != "" {
		t.Errorf("primitives %+v", p)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "slot 7 of 3") {
		t.Errorf("warnings %q", warnings)
	}
}

// TestDemoGroupsAndExtras: the demo's group Demo_Solids holds the spinner
// and the ground; node extras name it.
func TestDemoGroupsAndExtras(t *testing.T) {
	f, err := DecodeBytes(vtwrite.DemoScene().Bytes(), &format.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range f.Nodes {
		g, _ := n.Extras["virtoolsGroups"].([]string)
		want := n.Name == "Spinner" || n.Name == "Ground"
		if want != slices.Equal(g, []string{"Demo_Solids"}) {
			t.Errorf("node %s: groups %v", n.Name, g)
		}
	}
}

// TestMeshLines: a mesh's lines (count 2, buffer of the pairs 0–1, 2–3)
// become a LINES primitive after its triangles, with the vertices it uses
// and the mesh's first material.
func TestMeshLines(t *testing.T) {
	q := quadMesh()
	q.Lines = []uint16{0, 1, 2, 3}
	s, m, _ := decodeAssets(t, meshScene(q))
	if got := s.Assets.Meshes[msMesh].Lines; !slices.Equal(got, q.Lines) {
		t.Fatalf("lines %v", got)
	}
	p := m.Meshes[0].Primitives
	if len(p) != 3 || p[2].Mode != model.ModeLines || !slices.Equal(p[2].Indices, []uint32{0, 1, 2, 3}) ||
		!slices.Equal(p[2].Positions, q.Positions) || p[2].Material != "Mat_A" {
		t.Errorf("line primitive %+v", p[len(p)-1])
	}
}

// TestTextureSamplerVariants: one texture sampled three ways by three
// materials becomes three model textures with distinct names: "Tex",
// "Tex#4", "Tex#4.2" (4 is its table index).
func TestTextureSamplerVariants(t *testing.T) {
	q := quadMesh()
	f := meshScene(q)
	extra := len(f.Objects)
	for i, addr := range []uint8{2, 3} {
		f.Objects = append(f.Objects, vtwrite.Object{FileID: uint32(50 + i), ClassID: vtwrite.ClassMaterial, Name: "Mat_" + string(rune('C'+i)),
			Chunk: &vtwrite.Chunk{Sections: []vtwrite.Section{vtwrite.MaterialSection(vtwrite.MaterialData{Diffuse: 0xffffffff, Texture: msTex,
				Modes: [8]uint8{2, 2, 2, 2, 1, 2, 3, addr}})}}})
	}
	q.Materials = append(q.Materials, uint32(extra), uint32(extra+1))
	q.Faces = append(q.Faces, 0, 1, 2, 0, 2, 3)
	q.FaceSlots = append(q.FaceSlots, 3, 4)
	f.Objects[msMesh].Chunk.Sections = vtwrite.MeshSections(q)
	_, m, _ := decodeAssets(t, f)
	var names []string
	for _, tx := range m.Textures {
		names = append(names, tx.Name)
	}
	if strings.Join(names, ",") != "Tex,Tex#4,Tex#4.2" {
		t.Errorf("textures %v", names)
	}
}
