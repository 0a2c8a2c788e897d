package virtools

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/virtools/vtwrite"
	"github.com/animbake/bake/model"
)

// bmp2x1 is a hand-made 2 × 1 24-bit BMP: a 14-byte file header, a
// 40-byte info header, then one row of BGR pixels padded to 4 bytes:
// red (0, 0, 255) and green (0, 255, 0).
func bmp2x1() []byte {
	b := []byte("BM")
	b = binary.LittleEndian.AppendUint32(b, 62)
	b = binary.LittleEndian.AppendUint32(b, 0)
	b = binary.LittleEndian.AppendUint32(b, 54)
	for _, v := range []uint32{40, 2, 1} {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	b = binary.LittleEndian.AppendUint16(b, 1)
	b = binary.LittleEndian.AppendUint16(b, 24)
	for _, v := range []uint32{0, 8, 2835, 2835, 0, 0} {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	return append(b, 0, 0, 255, 0, 255, 0, 0, 0)
}

// write creates a file and its folders.
func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFindTextureFile: Ballance's layout, 3D Entities/<level>.nmo beside
// Textures/ (with subfolders), found from the level's folder whatever the
// case of the names and whatever folder a Windows path names.
func TestFindTextureFile(t *testing.T) {
	root := t.TempDir()
	level := filepath.Join(root, "Ballance", "3D Entities", "Level")
	write(t, filepath.Join(level, "Level_01.nmo"), nil)
	write(t, filepath.Join(root, "Ballance", "textures", "Sky", "Sky_A_Back.BMP"), []byte("x"))
	write(t, filepath.Join(root, "Ballance", "Textures", "Ball_Stone.bmp"), []byte("x"))
	write(t, filepath.Join(level, "Local.tga"), []byte("x"))
	for _, c := range []struct{ saved, want string }{
		{"sky_a_back.bmp", filepath.Join(root, "Ballance", "textures", "Sky", "Sky_A_Back.BMP")},
		{`C:\Program Files\Ballance\Textures\Ball_Stone.bmp`, filepath.Join(root, "Ballance", "Textures", "Ball_Stone.bmp")},
		{"Local.tga", filepath.Join(level, "Local.tga")},
		{"Missing.bmp", ""},
	} {
		got, ok := findTextureFile(level, c.saved)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("%q: %q %v, want %q", c.saved, got, ok, c.want)
		}
	}
}

// textureScene is meshScene whose texture only names a file, with a
// colour key when key is nonzero.
func textureScene(file string, key uint32) *vtwrite.File {
	f := meshScene(quadMesh())
	f.Objects[msTex].Chunk.Sections = []vtwrite.Section{vtwrite.FileNameSection(file), vtwrite.TextureOptionsSection(key != 0, key)}
	return f
}

// decodeAt converts a vtwrite file as if read from path.
func decodeAt(t *testing.T, path string, tf *vtwrite.File) (*model.File, []string) {
	t.Helper()
	var warnings []string
	files, err := Decode(format.BytesInput(path, tf.Bytes()), &format.Options{Warn: func(s string) { warnings = append(warnings, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if err := files[0].Validate(); err != nil {
		t.Fatal(err)
	}
	return files[0], warnings
}

// TestExternalTexture: a texture naming Textures/Tex.bmp is read and
// decoded (red, green); with the colour key 0xff0000 its red pixel turns
// transparent.
func TestExternalTexture(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "Textures", "Tex.BMP"), bmp2x1())
	path := filepath.Join(root, "3D Entities", "Quad.nmo")
	f, warnings := decodeAt(t, path, textureScene("Tex.bmp", 0))
	if len(warnings) != 0 || len(f.Textures) != 1 {
		t.Fatalf("warnings %q, %d textures", warnings, len(f.Textures))
	}
	im := f.Textures[0].Image
	if im.Width != 2 || im.Height != 1 || !slices.Equal(im.RGBA, []byte{255, 0, 0, 255, 0, 255, 0, 255}) {
		t.Errorf("image %+v", im)
	}
	f, _ = decodeAt(t, path, textureScene("Tex.bmp", 0xffff0000))
	if im := f.Textures[0].Image; !slices.Equal(im.RGBA, []byte{255, 0, 0, 0, 0, 255, 0, 255}) {
		t.Errorf("colour-keyed image %v", im.RGBA)
	}
}

// TestMissingTexture: a texture whose file is nowhere becomes an image
// with only its URI (the exporter writes no image and lists it in the
// material's missingTextures), the material keeps its colour, and one
// warning names the file.
func TestMissingTexture(t *testing.T) {
	f, warnings := decodeAt(t, filepath.Join(t.TempDir(), "Quad.nmo"), textureScene(`C:\Ballance\Textures\Nowhere.bmp`, 0))
	if len(warnings) != 1 || !strings.Contains(warnings[0], "Nowhere.bmp") {
		t.Errorf("warnings %q", warnings)
	}
	m := material(t, f, "Mat_A")
	if len(f.Textures) != 1 || f.Textures[0].Image.URI != "C:/Ballance/Textures/Nowhere.bmp" || f.Textures[0].Image.RGBA != nil ||
		m.BaseColorTexture.Texture != "Tex" || m.BaseColor[3] != 1 {
		t.Errorf("material %+v, textures %+v", m, f.Textures)
	}
}

// TestStoredImageFile: an image file stored with a bitmap reader (0x100000)
// is kept as is when glTF can hold it (PNG, JPEG); a stored BMP is decoded.
func TestStoredImageFile(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\nrest")
	for _, c := range []struct {
		file, ext string
		check     func(model.Image) bool
	}{
		{string(png), "png", func(im model.Image) bool { return im.MIME == "image/png" && string(im.Bytes) == string(png) }},
		{string(bmp2x1()), "bmp", func(im model.Image) bool { return im.Width == 2 && im.RGBA[4+1] == 255 }},
	} {
		ext := binary.LittleEndian.Uint32(append([]byte(c.ext), 0))
		words := []uint32{1, 2, 1, 24, 1, ext, 0, 0}
		words = append(words, vtwrite.Buffer([]byte(c.file))...)
		f := meshScene(quadMesh())
		f.Objects[msTex].Chunk.Sections = []vtwrite.Section{{ID: vtwrite.IdentTexReader, Words: words}}
		_, m, warnings := decodeAssets(t, f)
		if len(m.Textures) != 1 || !c.check(m.Textures[0].Image) || len(warnings) != 0 {
			t.Errorf("%s: textures %+v warnings %q", c.ext, m.Textures, warnings)
		}
	}
}

// TestHostileImageFiles: an external BMP whose header claims 60000 ×
// 60000 pixels is refused from its header (no 14 GB allocation): the
// texture keeps only its file name and a warning names the file.
func TestHostileImageFiles(t *testing.T) {
	root := t.TempDir()
	b := bmp2x1()
	binary.LittleEndian.PutUint32(b[18:], 60000)
	binary.LittleEndian.PutUint32(b[22:], 60000)
	write(t, filepath.Join(root, "Tex.bmp"), b)
	f, warnings := decodeAt(t, filepath.Join(root, "Quad.nmo"), textureScene("Tex.bmp", 0))
	if len(f.Textures) != 1 || f.Textures[0].Image.RGBA != nil || len(warnings) != 1 || !strings.Contains(warnings[0], "60000 × 60000") {
		t.Errorf("textures %d, warnings %q", len(f.Textures), warnings)
	}
}
