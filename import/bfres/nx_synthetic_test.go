package bfres

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"testing"

	"github.com/animbake/bake/import/bfres/bfreswrite"
	"github.com/animbake/bake/internal/modeltest"
	"github.com/animbake/bake/model"
)

// switchOf returns the Switch layout of a description (version 0.8.0.0).
func switchOf(tf *bfreswrite.File) *bfreswrite.File {
	sw := *tf
	sw.Switch, sw.Version = true, bfreswrite.VSwitch
	return &sw
}

// The Switch layout of a description decodes to the model its Wii U
// layout gives (bfres-container.md §11: the same flags, curves, targets and
// evaluation): skeleton, FSKA, the FSHU and FTXP written as FMAA and the
// bone FVIS as FBVS. Only the version, the frame rate (60 on the Switch,
// decision S1), the unit (centimetres, decision S2), the sub-file kinds in
// extras and the FSHU group (an FMAA
// named without a _fst suffix is a shader-parameter animation; its
// tex_srt0 is still a texture SRT by name) differ. The material FVIS has
// no Switch form in the writer and is left out of both.
func TestSyntheticSwitchMatchesWiiU(t *testing.T) {
	tf := richFile(v4)
	tf.FVIS = tf.FVIS[:1]
	wiiu := decodeBytes(t, "Rich_Animation.bfres", tf.Bytes(), nil)
	nx := decodeBytes(t, "Rich_Animation.bfres", switchOf(tf).Bytes(), nil)
	if nx.Extras["version"] != "0.8.0.0" {
		t.Errorf("version %v", nx.Extras["version"])
	}
	if len(nx.Animations) != len(wiiu.Animations) {
		t.Fatalf("%d animations, want %d", len(nx.Animations), len(wiiu.Animations))
	}
	for i := range nx.Animations {
		a, b := &nx.Animations[i], &wiiu.Animations[i]
		if a.FPS != 60 {
			t.Errorf("%s at %v fps, want 60", a.Name, a.FPS)
		}
		a.FPS = b.FPS
		for _, k := range []string{"subfiles", "group"} {
			a.Extras[k], b.Extras[k] = nil, nil
		}
	}
	if nx.Axes.Scale != 0.01 || wiiu.Axes.Scale != 1 {
		t.Errorf("units: Switch %v, Wii U %v; want 0.01 (centimetres) and 1", nx.Axes.Scale, wiiu.Axes.Scale)
	}
	nx.Axes = wiiu.Axes
	nx.Extras["version"], nx.Source = nil, model.Source{}
	wiiu.Extras["version"], wiiu.Source = nil, model.Source{}
	if !reflect.DeepEqual(wiiu, nx) {
		t.Errorf("Switch and Wii U layouts decode differently:\n%+v\n%+v", wiiu, nx)
	}
	checkRichSkeletal(t, nx)
	subfiles := map[string][]string{}
	for _, a := range decodeBytes(t, "Rich_Animation.bfres", switchOf(tf).Bytes(), nil).Animations {
		subfiles[a.Name] = a.Extras["subfiles"].([]string)
	}
	if !reflect.DeepEqual(subfiles, map[string][]string{"Wave": {"FSKA", "FBVS"}, "Scroll": {"FMAA"}, "Blink": {"FMAA"}}) {
		t.Errorf("sub-files %v", subfiles)
	}
}

// checkRichSkeletal checks the skeletal part of richFile: Wave's Arm rotate
// Z runs linearly 0 → 1 over frames 0..40 and Hand's translate X 0 → 8,
// with Y and Z from the bind pose (5, 6).
func checkRichSkeletal(t *testing.T, f *model.File) {
	t.Helper()
	var wave *model.Animation
	for i := range f.Animations {
		if f.Animations[i].Name == "Wave" {
			wave = &f.Animations[i]
		}
	}
	if wave == nil {
		t.Fatal("no animation Wave")
	}
	for _, ch := range wave.Channels {
		if ch.Node == "Hand" && ch.Path == model.PathTranslation {
			if v := compileCurveEval(t, ch.Curve, 10); !closeTo(v, []float64{2, 5, 6}, 1e-6) {
				t.Errorf("Hand translation at 10: %v, want (2, 5, 6)", v)
			}
			return
		}
	}
	t.Error("no Hand translation channel")
}

func compileCurveEval(t *testing.T, c model.Curve, frame float64) []float64 {
	t.Helper()
	e := compileCurve(t, c)
	out := make([]float64, 4)
	e.Eval(frame, out)
	switch c.(type) {
	case *model.Vector:
		return out[:3]
	}
	return out
}

// Every curve type, frame type and key type round-trips through the
// Switch curve record (0x30 bytes: u64 frame and key array offsets, then
// the Wii U fields and delta), read from a Switch FSKA's bone anim.
func TestSwitchCurveStorageRoundTrip(t *testing.T) {
	tf := &bfreswrite.File{Switch: true, Version: bfreswrite.VSwitch, Name: "C", FSKA: []bfreswrite.FSKA{{Name: "A", Frames: 1,
		Bones: []bfreswrite.BoneAnim{{Name: "B", Curves: storageCurves}}}}}
	data := tf.Bytes()
	f, err := readNXHeader(data)
	if err != nil {
		t.Fatal(err)
	}
	es, err := f.nxListEntries(nxSkeletalAnims, nxFSKASize)
	if err != nil {
		t.Fatal(err)
	}
	a, err := f.readNXFSKA(es[0].Data)
	if err != nil {
		t.Fatal(err)
	}
	checkStoredCurves(t, "switch", a.BoneAnims[0].Curves, storageCurves)
	// The first curve's record, by hand: frame array offset (u64) at +0,
	// key array offset at +8, flags at +0x10 (cubic, f32 frames and keys:
	// 0), key count 2 at +0x12, scale 1.0 at +0x20.
	le := binary.LittleEndian
	ba := int(le.Uint64(data[int(le.Uint64(data[0x38:]))+0x30:]))
	c := int(le.Uint64(data[ba+8:]))
	if fa, n, scale := le.Uint64(data[c:]), le.Uint16(data[c+0x12:]), le.Uint32(data[c+0x20:]); fa == 0 || n != 2 || scale != 0x3F800000 {
		t.Errorf("curve record: frame array 0x%x, %d keys, scale 0x%x", fa, n, scale)
	}
}

// The demo model (three skinned shapes, the three skinning kinds, several
// attribute formats, u16 and u32 indices, two levels of detail) written in
// the Switch layout decodes to the meshes, skin and nodes of its Wii U
// layout: the Switch attribute formats, buffers in the GPU block, index
// buffers, FSHP and FSKL palette records carry the same data.
func TestSwitchModelMatchesWiiU(t *testing.T) {
	decode := func(tf *bfreswrite.File) *model.File {
		tf.Textures = nil
		return decodeBytes(t, "Demo.bfres", tf.Bytes(), nil)
	}
	wiiu := decode(demoModel(v4))
	nx := decode(switchOf(demoModel(v4)))
	if !reflect.DeepEqual(wiiu.Meshes, nx.Meshes) || !reflect.DeepEqual(wiiu.Skins, nx.Skins) || !reflect.DeepEqual(wiiu.Nodes, nx.Nodes) {
		t.Error("the Switch and Wii U layouts of the demo model decode to different meshes, skins or nodes")
	}
	if len(nx.Materials) != len(wiiu.Materials) {
		t.Fatalf("%d materials, want %d", len(nx.Materials), len(wiiu.Materials))
	}
	for i := range nx.Materials {
		a, b := nx.Materials[i], wiiu.Materials[i]
		if a.Name != b.Name || !reflect.DeepEqual(a.Extras["shaderParams"], b.Extras["shaderParams"]) {
			t.Errorf("material %d: %s %v, want %s %v", i, a.Name, a.Extras["shaderParams"], b.Name, b.Extras["shaderParams"])
		}
	}
}

// Switch attribute formats (nn::gfx channel format << 8 | type) and the
// GX2 formats they are read as, worked out from the two enumerations.
func TestSwitchAttribFormats(t *testing.T) {
	for _, tc := range []struct {
		nx  uint32
		gx2 AttribFormat
	}{
		{0x1805, 0x811}, // R32_G32_B32 float → 32_32_32_float
		{0x0E02, 0x20B}, // R10_G10_B10_A2 snorm → 10_10_10_2_snorm
		{0x1505, 0x80F}, // R16_G16_B16_A16 float → 16_16_16_16_float
		{0x1205, 0x808}, // R16_G16 float → 16_16_float
		{0x0B02, 0x20A}, // R8_G8_B8_A8 snorm → 8_8_8_8_snorm
		{0x0201, 0x000}, // R8 unorm → 8_unorm
		{0x0203, 0x100}, // R8 uint → 8_uint
		{0x0903, 0x104}, // R8_G8 uint → 8_8_uint
		{0x0901, 0x004}, // R8_G8 unorm → 8_8_unorm
		{0x1201, 0x007}, // R16_G16 unorm → 16_16_unorm
		{0x0B08, 0x80A}, // R8_G8_B8_A8 uscaled → 8_8_8_8_uint_to_float
		{0x0B09, 0xA0A}, // R8_G8_B8_A8 sscaled → 8_8_8_8_sint_to_float
		{0x0B04, 0x30A}, // R8_G8_B8_A8 sint
	} {
		got, err := nxAttribFormat(tc.nx)
		if err != nil || got != tc.gx2 {
			t.Errorf("Switch format 0x%04x: %v (%v), want %v", tc.nx, got, err, tc.gx2)
		}
		if back := bfreswrite.SwitchAttribFormat(uint32(tc.gx2)); back != tc.nx {
			t.Errorf("writer: GX2 %v → 0x%04x, want 0x%04x", tc.gx2, back, tc.nx)
		}
	}
	for _, bad := range []uint32{0x1605, 0x0B05, 0x0B06, 0x1401, 0x3105, 0x11805} {
		if f, err := nxAttribFormat(bad); err == nil {
			t.Errorf("Switch format 0x%04x accepted as %v", bad, f)
		}
	}
}

// A little-endian 10_10_10_2 snorm word: x = 0x1FF (511 → 1), y = 0x200
// (−512 → max(−512/511, −1) = −1), z = 1 (1/511), w = 0; bytes FF 01 18 00
// hold the word 0x001801FF (x in the low bits).
func TestSwitchPackedAttribute(t *testing.T) {
	a := VertexAttrib{Name: "_n0", Format: 0x20B}
	got, err := decodeAttribute(&a, []VertexBufferData{{Stride: 4, Data: []byte{0xFF, 0x01, 0x18, 0x00}}}, 1, binary.LittleEndian)
	if err != nil {
		t.Fatal(err)
	}
	want := []float32{1, -1, float32(1) / 511, 0}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("decoded %v, want %v", got, want)
	}
}

// A Switch model's textures come from the BNTX it embeds: the Switch demo
// (bfreswrite.DemoSwitch) holds bntxwrite's demo_rgba under both of the
// materials' texture names, pixel (x, y) = (16x, 16y, 128, 255 − 8x), so
// (3, 5) is (48, 80, 128, 231). A BNTX with a broken magic is a
// FormatError at its offset in the FRES. The demo's clips (skeletal, the
// FMAA Scroll_fst on Body's base-colour transform, the FBVS Blink hiding
// the Helmet, the shape on bone Head) reach the model's assets as the Wii U demo's do.
func TestSwitchDemo(t *testing.T) {
	good := bfreswrite.DemoSwitch().Bytes()
	f := decodeBytes(t, "Demo_Switch.bfres", good, nil)
	if len(f.Textures) != 2 || f.Textures[0].Name != bfreswrite.DemoAlbedo || f.Textures[1].Name != bfreswrite.DemoMask {
		t.Fatalf("textures %d: %+v", len(f.Textures), f.Textures)
	}
	img := f.Textures[0].Image
	x, y := 3, 5
	if px := img.RGBA[4*(y*img.Width+x):][:4]; !reflect.DeepEqual(px, []byte{48, 80, 128, 255 - 24}) {
		t.Errorf("pixel (3, 5) = %v, want [48 80 128 231]", px)
	}
	if f.Materials[0].BaseColorTexture.Texture != bfreswrite.DemoAlbedo || !f.Materials[0].BaseColorTexture.Transform {
		t.Errorf("Body's base colour %+v", f.Materials[0].BaseColorTexture)
	}
	blink := modeltest.Animation(t, f, "Blink")
	if ch := modeltest.FindChannel(blink, "Helmet", model.PathVisibility); ch == nil {
		t.Errorf("Blink does not hide the Helmet (the shape on bone Head): %+v", blink.Channels)
	}
	at := bytes.Index(good, []byte("BNTX"))
	bad := append([]byte(nil), good...)
	bad[at] = 'X'
	expectErr(t, bad, int64(at), "embedded textures.bntx")
}
