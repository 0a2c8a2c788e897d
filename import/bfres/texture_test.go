package bfres

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/bfres/bfreswrite"
	"github.com/animbake/bake/import/bfres/gx2"
	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/model"
)

// texInputs decodes the textures of the model file input among files
// (name → bytes, the siblings it can open), collecting the notices.
func texInputs(t *testing.T, files map[string][]byte, input string, names []string, from string) ([]model.Texture, []string, error) {
	t.Helper()
	open := func(p string) (*format.Input, error) {
		d, ok := files[p]
		if !ok {
			return nil, os.ErrNotExist
		}
		return format.BytesInput(p, d), nil
	}
	in := format.BytesInput(input, files[input])
	in.OpenSibling = open
	var notes []string
	opts := &format.Options{TexturesFrom: from, Warn: func(s string) { notes = append(notes, s) }}
	data, err := unwrap(files[input], opts.Inflate())
	if err != nil {
		return nil, nil, err
	}
	f, err := readHeader(data)
	if err != nil {
		return nil, nil, err
	}
	texs, err := modelTextures(in, f, names, opts)
	return texs, notes, err
}

func pixelAt(tex model.Texture, x, y int) [4]byte {
	i := (y*tex.Image.Width + x) * 4
	return [4]byte(tex.Image.RGBA[i : i+4])
}

// The demo model's two textures, decoded through the FTEX header, GX2
// untiling and the pixel decoders, against values worked by hand from
// DemoTextures' description.
func TestDemoTextures(t *testing.T) {
	files := map[string][]byte{"Demo.bfres": bfreswrite.DemoModel().Bytes()}
	texs, notes, err := texInputs(t, files, "Demo.bfres", nil, "")
	if err != nil || len(notes) > 0 {
		t.Fatalf("%v %v", err, notes)
	}
	if len(texs) != 2 || texs[0].Name != "demo_alb" || texs[1].Name != "demo_mask" {
		t.Fatalf("textures %v", texs)
	}
	alb, mask := texs[0], texs[1]
	if alb.Image.Width != 64 || alb.Image.Height != 64 || alb.Extras["srgb"] != true {
		t.Errorf("demo_alb: %d×%d srgb %v", alb.Image.Width, alb.Image.Height, alb.Extras["srgb"])
	}
	// Block (0,0): c0 = r31 g3 b0 → (255, 12, 0); c1 = r15 g1 b0 →
	// (123, 4, 0); the diagonal takes c3 = round((c0 + 2·c1)/3) =
	// (167, 6.67 → 7, 0). Block (15,15): c0 = r1 g63 b30 → (8, 255, 247),
	// c1 = r0 g31 b15 → (0, 125, 123), c3 = (2.67 → 3, 168.33 → 168,
	// 164.33 → 164).
	for _, c := range []struct {
		x, y int
		want [4]byte
	}{
		{0, 0, [4]byte{167, 7, 0, 255}}, {1, 0, [4]byte{255, 12, 0, 255}}, {3, 3, [4]byte{167, 7, 0, 255}},
		{63, 63, [4]byte{3, 168, 164, 255}}, {60, 60, [4]byte{3, 168, 164, 255}}, {61, 60, [4]byte{8, 255, 247, 255}},
	} {
		if got := pixelAt(alb, c.x, c.y); got != c.want {
			t.Errorf("demo_alb (%d,%d) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
	for y := range 16 {
		for x := range 16 {
			want := [4]byte{byte(16 * x), byte(16 * y), 128, byte(255 - 8*x)}
			if got := pixelAt(mask, x, y); got != want {
				t.Fatalf("demo_mask (%d,%d) = %v, want %v", x, y, got, want)
			}
		}
	}
	gx := mask.Extras["gx2"].(map[string]any)
	if gx["tileMode"] != "1D tiled thin1" || gx["format"] != "TCS_R8_G8_B8_A8_UNORM" || mask.Extras["srgb"] != nil {
		t.Errorf("demo_mask extras %v", mask.Extras)
	}
}

// rgbaTexture is a 4×2 RGBA8 texture whose pixel (x, y) is (x, y, 7, 255),
// stored linear with a pitch of 64 (linear aligned), written raw.
func rgbaTexture(name string) bfreswrite.Texture {
	img := make([]byte, 64*2*4)
	for y := range 2 {
		for x := range 4 {
			copy(img[(y*64+x)*4:], []byte{byte(x), byte(y), 7, 255})
		}
	}
	return bfreswrite.Texture{Name: name, Width: 4, Height: 2, Format: bfreswrite.FormatRGBA8, TileMode: 1,
		CompSel: [4]byte{0, 1, 2, 3}, Raw: img, Pitch: 64, ImageSize: uint32(len(img))}
}

// BotW keeps a model's textures in X.Tex1.sbfres beside X.sbfres: a name
// not in the model file is found there (Yaz0 and all); the component
// selectors apply (B ← 1, A ← R); --textures-from names another archive;
// names found nowhere and a missing archive are notices.
func TestTextureArchive(t *testing.T) {
	inArchive := rgbaTexture("tex_b")
	inArchive.CompSel = [4]byte{0, 1, 5, 0}
	model := bfreswrite.File{Version: bfreswrite.V4, Name: "M", Textures: []bfreswrite.Texture{rgbaTexture("tex_a")}}
	arch := bfreswrite.File{Version: bfreswrite.V4, Name: "M.Tex1", Textures: []bfreswrite.Texture{inArchive, rgbaTexture("tex_a")}}
	files := map[string][]byte{"M.sbfres": bfreswrite.Yaz0(model.Bytes()), "M.Tex1.sbfres": bfreswrite.Yaz0(arch.Bytes())}
	texs, notes, err := texInputs(t, files, "M.sbfres", []string{"tex_b", "tex_a", "tex_b", "nowhere"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(texs) != 2 || texs[0].Name != "tex_b" || texs[1].Name != "tex_a" {
		t.Fatalf("got %d textures %v", len(texs), texs)
	}
	if got := pixelAt(texs[0], 3, 1); got != [4]byte{3, 1, 255, 3} {
		t.Errorf("tex_b (3,1) = %v, want (3, 1, 255, 3) after selectors R G 1 R", got)
	}
	if texs[0].Extras["gx2"].(map[string]any)["from"] != "M.Tex1.sbfres" || texs[1].Extras["gx2"].(map[string]any)["from"] != "this file" {
		t.Errorf("sources: %v, %v", texs[0].Extras, texs[1].Extras)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "nowhere") {
		t.Errorf("notices %q", notes)
	}

	// No archive beside the input: a notice, and the model's own texture.
	delete(files, "M.Tex1.sbfres")
	texs, notes, err = texInputs(t, files, "M.sbfres", []string{"tex_a", "tex_b"}, "")
	if err != nil || len(texs) != 1 || len(notes) == 0 || !strings.Contains(notes[0], "M.Tex1.sbfres") {
		t.Errorf("missing archive: %d textures, %q, %v", len(texs), notes, err)
	}
	// --textures-from another file.
	files["elsewhere/Other.bfres"] = arch.Bytes()
	texs, notes, err = texInputs(t, files, "M.sbfres", []string{"tex_b"}, "elsewhere/Other.bfres")
	if err != nil || len(texs) != 1 || len(notes) != 0 {
		t.Errorf("--textures-from: %d textures, %q, %v", len(texs), notes, err)
	}
	texs, notes, err = texInputs(t, files, "M.sbfres", []string{"tex_b"}, "missing.bfres")
	if err != nil || len(texs) != 0 || len(notes) == 0 || !strings.Contains(notes[0], "missing.bfres") {
		t.Errorf("--textures-from a missing file: %d textures, %q, %v", len(texs), notes, err)
	}
}

// ftexField patches the u32 at field of the first texture's FTEX header.
func ftexField(t *testing.T, data []byte, field int, v uint32) []byte {
	t.Helper()
	out := append([]byte(nil), data...)
	_, sub := firstEntry(t, out, GroupTextures)
	binary.BigEndian.PutUint32(out[sub+field:], v)
	return out
}

// Malformed texture headers in the model file are FormatErrors at the
// field; well-formed textures the importer cannot decode are notices.
func TestBadTextures(t *testing.T) {
	good := (&bfreswrite.File{Version: bfreswrite.V4, Name: "M", Textures: []bfreswrite.Texture{rgbaTexture("tex")}}).Bytes()
	_, sub := firstEntry(t, good, GroupTextures)
	for _, c := range []struct {
		field int
		v     uint32
		words []string
	}{
		{0x08, 0, []string{"size 0×2"}},
		{0x0C, 9000, []string{"4×9000", "1..8192"}},
		{0x04, 9, []string{"dimension 9"}},
		{0x34, 0x55, []string{"tile mode 0x55"}},
		{0x1C, 7, []string{"AA mode 7"}},
		{0x88, 0x00010209, []string{"component selectors"}},
		{0x24, 0x7FFFFFF0, []string{"runs past the end"}},
		{0x40, 3, []string{"pitch 3 is smaller"}},
		{0x0C, 200, []string{"rows at pitch 64", "needs more than"}},
		{0x0C, 2000, []string{"needs more than"}},
	} {
		data := ftexField(t, good, c.field, c.v)
		_, notes, err := texInputs(t, map[string][]byte{"M.bfres": data}, "M.bfres", nil, "")
		var fe *binread.FormatError
		if !errors.As(err, &fe) || fe.Off != int64(sub+c.field) && c.field != 0x0C {
			t.Errorf("field 0x%x = %d: %v (notices %q), want a FormatError at 0x%x", c.field, c.v, err, notes, sub+c.field)
			continue
		}
		for _, w := range c.words {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("field 0x%x = %d: %q lacks %q", c.field, c.v, err, w)
			}
		}
	}
	for _, c := range []struct {
		field int
		v     uint32
		word  string
	}{
		{0x18, 0x80E, "GX2 format 0x80e"}, // R32 float
		{0x34, 0x3, "1D tiled thick"},
		{0x1C, 2, "multisampled"},
		{0x20, 5, "depth buffer"},
	} {
		texs, notes, err := texInputs(t, map[string][]byte{"M.bfres": ftexField(t, good, c.field, c.v)}, "M.bfres", nil, "")
		if err != nil || len(texs) != 0 || len(notes) != 1 || !strings.Contains(notes[0], c.word) {
			t.Errorf("field 0x%x = 0x%x: %d textures, %q, %v; want a notice with %q", c.field, c.v, len(texs), notes, err, c.word)
		}
	}
	// No level-0 image here (a mipmap-only header): looked for elsewhere,
	// then reported as not found.
	texs, notes, err := texInputs(t, map[string][]byte{"M.bfres": ftexField(t, good, 0x24, 0)}, "M.bfres", []string{"tex"}, "")
	if err != nil || len(texs) != 0 || len(notes) != 2 || !strings.Contains(notes[0], "no texture archive") || !strings.Contains(notes[1], "level-0 image") {
		t.Errorf("image size 0: %d textures, %q, %v", len(texs), notes, err)
	}
	// Decoded bytes are capped by --max-inflate (hostile files may point
	// many headers at one image): 3 textures of 4×2 RGBA take 32 bytes
	// each; a cap of 64 lets two through and stops the third.
	shared := &bfreswrite.File{Version: bfreswrite.V4, Name: "M", Textures: []bfreswrite.Texture{rgbaTexture("a"), rgbaTexture("b"), rgbaTexture("c")}}
	data := shared.Bytes()
	fr, err := readHeader(data)
	if err != nil {
		t.Fatal(err)
	}
	_, err = modelTextures(format.BytesInput("M.bfres", data), fr, nil, &format.Options{MaxInflate: 64})
	if err == nil || !strings.Contains(err.Error(), "past the 64-byte limit") {
		t.Errorf("budget: %v", err)
	}
	// A truncated file: the header itself runs out.
	_, _, err = texInputs(t, map[string][]byte{"M.bfres": good[:sub+0x40]}, "M.bfres", nil, "")
	if err == nil {
		t.Error("truncated FTEX accepted")
	}
}

// FuzzTextures feeds arbitrary bytes to the texture reader: it returns
// textures of the declared size or an error, never panics, and allocates
// within bounds (the images must be in the input).
func FuzzTextures(f *testing.F) {
	f.Add(bfreswrite.DemoModel().Bytes())
	f.Add((&bfreswrite.File{Version: bfreswrite.V4, Name: "M", Textures: []bfreswrite.Texture{rgbaTexture("a")}}).Bytes())
	tex := bfreswrite.DemoTextures()
	tex[0].TileMode, tex[1].TileMode = bfreswrite.Tile1DThin1, bfreswrite.Tile2DThin1
	f.Add((&bfreswrite.File{Version: bfreswrite.V3, Name: "N", Textures: tex}).Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		fr, err := readHeader(data)
		if err != nil {
			return
		}
		in := format.BytesInput("fuzz.bfres", data)
		texs, err := modelTextures(in, fr, nil, &format.Options{})
		if err != nil {
			var fe *binread.FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v (%T) is not a FormatError", err, err)
			}
			return
		}
		for _, x := range texs {
			if len(x.Image.RGBA) != x.Image.Width*x.Image.Height*4 || x.Image.Width <= 0 {
				t.Fatalf("texture %s: %d bytes for %d×%d", x.Name, len(x.Image.RGBA), x.Image.Width, x.Image.Height)
			}
		}
	})
}

// BenchmarkDecodeTextures decodes 256×256 textures from a model file:
// BC1 2D-tiled and RGBA8 1D-tiled (untiling, block decoding, selectors).
func BenchmarkDecodeTextures(b *testing.B) {
	blocks := make([]byte, 64*64*8)
	for i := range blocks {
		blocks[i] = byte(i * 37)
	}
	rgba := make([]byte, 256*256*4)
	for i := range rgba {
		rgba[i] = byte(i * 11)
	}
	file := (&bfreswrite.File{Version: bfreswrite.V4, Name: "B", Textures: []bfreswrite.Texture{
		{Name: "bc1", Width: 256, Height: 256, Format: bfreswrite.FormatBC1, TileMode: bfreswrite.Tile2DThin1, Swizzle: 0x500,
			CompSel: [4]byte{0, 1, 2, 3}, Elements: blocks},
		{Name: "rgba", Width: 256, Height: 256, Format: bfreswrite.FormatRGBA8, TileMode: bfreswrite.Tile1DThin1,
			CompSel: [4]byte{2, 1, 0, 5}, Elements: rgba},
	}}).Bytes()
	f, err := readHeader(file)
	if err != nil {
		b.Fatal(err)
	}
	in := format.BytesInput("B.bfres", file)
	b.SetBytes(2 * 256 * 256 * 4) // RGBA bytes produced
	b.ReportAllocs()
	for b.Loop() {
		texs, err := modelTextures(in, f, nil, &format.Options{})
		if err != nil || len(texs) != 2 {
			b.Fatal(err)
		}
	}
}

// A texture archive converted on its own says where its textures go.
func TestTextureArchiveAlone(t *testing.T) {
	arch := (&bfreswrite.File{Version: bfreswrite.V4, Name: "M.Tex1", Textures: bfreswrite.DemoTextures()}).Bytes()
	var notes []string
	_, err := Decode(format.BytesInput("M.Tex1.sbfres", bfreswrite.Yaz0(arch)), &format.Options{Warn: func(s string) { notes = append(notes, s) }})
	if err != nil || len(notes) != 1 || !strings.Contains(notes[0], "only textures (2 FTEX)") {
		t.Errorf("%v %q", err, notes)
	}
}

// A BC5 normal map bound to a normal slot gets its Z rebuilt: red block
// e0 = e1 = 128 (x = 128/255·2 − 1 = 0.0039), green the same, so
// z = 0.99998 → 255; decoded once, however often it is bound.
func TestNormalMapZ(t *testing.T) {
	block := []byte{128, 128, 0, 0, 0, 0, 0, 0, 128, 128, 0, 0, 0, 0, 0, 0}
	tex := bfreswrite.Texture{Name: "nrm", Width: 4, Height: 4, Format: uint32(gx2.FormatBC5), TileMode: bfreswrite.Tile1DThin1,
		CompSel: [4]byte{0, 1, 4, 5}, Elements: block}
	files := map[string][]byte{"M.bfres": (&bfreswrite.File{Version: bfreswrite.V4, Name: "M", Textures: []bfreswrite.Texture{tex}}).Bytes()}
	texs, _, err := texInputs(t, files, "M.bfres", nil, "")
	if err != nil || len(texs) != 1 {
		t.Fatal(err)
	}
	if got := pixelAt(texs[0], 2, 3); got != [4]byte{128, 128, 0, 255} {
		t.Fatalf("decoded %v, want (128, 128, 0, 255) with selectors R G 0 1", got)
	}
	asNormalMap(&texs[0])
	asNormalMap(&texs[0])
	if got := pixelAt(texs[0], 2, 3); got != [4]byte{128, 128, 255, 255} || texs[0].Extras["normalZ"] == nil {
		t.Errorf("after asNormalMap %v %v", got, texs[0].Extras)
	}
	// A Switch BC5 normal map (format named by its embedded BNTX) too: the
	// channel selectors gave blue 255; x = y = 200/255·2 − 1 = 0.568627,
	// z = √(1 − 2·0.323337) = 0.594412, blue = round((z/2 + 1/2)·255) =
	// round(203.29) = 203.
	nx := model.Texture{Image: model.Image{Width: 1, Height: 1, RGBA: []byte{200, 200, 255, 255}},
		Extras: map[string]any{"bntx": map[string]any{"format": "BC5_SNORM"}}}
	asNormalMap(&nx)
	if !bytes.Equal(nx.Image.RGBA, []byte{200, 200, 203, 255}) || nx.Extras["normalZ"] == nil {
		t.Errorf("Switch BC5 after asNormalMap %v %v", nx.Image.RGBA, nx.Extras)
	}
	// A Switch RGBA8 texture, and an RGBA8 Wii U one, are left alone.
	sw := model.Texture{Image: model.Image{RGBA: []byte{1, 2, 3, 4}}, Extras: map[string]any{"bntx": map[string]any{"format": "R8_G8_B8_A8_UNORM"}}}
	asNormalMap(&sw)
	if sw.Image.RGBA[2] != 3 {
		t.Error("Switch RGBA8 texture changed")
	}
	rgba := model.Texture{Image: model.Image{RGBA: []byte{1, 2, 3, 4}}, Extras: map[string]any{"gx2": map[string]any{"format": "TCS_R8_G8_B8_A8_UNORM"}}}
	asNormalMap(&rgba)
	if rgba.Image.RGBA[2] != 3 {
		t.Error("RGBA8 texture changed")
	}
}
