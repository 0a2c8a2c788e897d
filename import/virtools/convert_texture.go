package virtools

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"image/jpeg"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/animbake/bake/model"
	"github.com/animbake/bake/pixel/tga"
	"golang.org/x/image/bmp"
)

// maxTextureFile bounds an external texture file bake reads (64 MiB).
const maxTextureFile = 64 << 20

// textureImage is the image of a texture's current slot, once resolved.
type textureImage struct {
	img  model.Image
	from string // "stored", "stored file" or the external file's path
	ok   bool
}

// textureName returns the model name of a texture as sampled by material
// m, converting it on first use, and whether its image is there. A texture
// whose image is missing but which names a file becomes an image with only
// that URI (the exporter writes no image for it and lists it in the
// material's missingTextures; a warning names the file); one that names
// nothing gives "". A texture sampled with different modes by different
// materials becomes one model texture per sampler.
func (ax *assetConverter) textureName(index int, m *Material) (name string, pixels bool) {
	smp := sampler(m)
	k := textureKey{index, smp}
	if name, done := ax.textureKeys[k]; done {
		return name, name != "" && ax.textureFiles[index].ok
	}
	im := ax.textureImage(index)
	t := ax.a.Textures[index]
	var fileName string
	if len(t.Slots) > 0 {
		fileName = t.Slots[t.CurrentSlot].FileName
	}
	img := im.img
	if !im.ok {
		if fileName == "" {
			ax.textureKeys[k] = ""
			return "", false
		}
		img = model.Image{URI: strings.ReplaceAll(fileName, `\`, "/")}
	}
	name = ax.unique(ax.usedTexture, ax.s.Objects[index].Name, "texture", index)
	ax.textureKeys[k] = name
	tex := model.Texture{Name: name, Image: img, WrapS: smp[0], WrapT: smp[1], MinFilter: smp[2], MagFilter: smp[3],
		Extras: map[string]any{"virtoolsTexture": ax.s.Objects[index].Name}}
	if im.from != "" {
		tex.Extras["virtoolsSource"] = im.from
	}
	if fileName != "" {
		tex.Extras["virtoolsFileName"] = fileName
	}
	if t.Transparent {
		tex.Extras["virtoolsColorKey"] = hexColor(t.TransparentColor)
	}
	ax.file.Textures = append(ax.file.Textures, tex)
	return name, im.ok
}

// textureImage resolves the image of a texture's current slot: pixels or
// an image file stored in the composition, else the named file looked up
// beside the input (see findTextureFile). A colour-keyed texture gets
// alpha 0 where a pixel's RGB equals the key.
func (ax *assetConverter) textureImage(index int) *textureImage {
	if ti, done := ax.textureFiles[index]; done {
		return ti
	}
	ti := &textureImage{}
	ax.textureFiles[index] = ti
	t := ax.a.Textures[index]
	name := ax.s.Objects[index].Name
	if len(t.Slots) == 0 {
		ax.warnf("texture %q stores no image and names no file; its materials keep their colour", name)
		return ti
	}
	slot := &t.Slots[t.CurrentSlot]
	switch {
	case slot.RGBA != nil:
		ti.from = "stored"
		ti.setPixels(&image.NRGBA{Pix: slot.RGBA, Stride: 4 * slot.Width, Rect: image.Rect(0, 0, slot.Width, slot.Height)}, t)
	case slot.File != nil:
		ti.from = "stored " + slot.Ext + " file"
		if err := ti.load(slot.File, slot.Ext, slot.alpha, t); err != nil {
			ax.warnf("texture %q: its stored %s image does not decode (%v); its materials keep their colour", name, slot.Ext, err)
		}
	default:
		if slot.Problem != "" {
			ax.warnf("texture %q: %s", name, slot.Problem)
		}
		if slot.FileName == "" {
			ax.warnf("texture %q stores no image and names no file; its materials keep their colour", name)
			return ti
		}
		path, found := findTextureFile(ax.dir, slot.FileName)
		if !found {
			ax.missing = append(ax.missing, slot.FileName)
			return ti
		}
		ti.from = path
		data, err := readLimited(path)
		if err == nil {
			err = ti.load(data, strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), "."), nil, t)
		}
		if err != nil {
			ax.warnf("texture %q: %s: %v; its materials keep their colour", name, path, err)
		}
	}
	return ti
}

// load takes an image file: PNG and JPEG as they are, unless alpha stored
// beside it or a colour key must change their pixels; anything else
// decoded.
func (ti *textureImage) load(file []byte, ext string, alpha []byte, t *Texture) error {
	if mime := keepAs(file); mime != "" && alpha == nil && !t.Transparent {
		ti.img, ti.ok = model.Image{MIME: mime, Bytes: file}, true
		return nil
	}
	img, err := decodeImage(file, ext)
	if err != nil {
		return err
	}
	rgba := toNRGBA(img)
	applyAlpha(rgba, alpha)
	ti.setPixels(rgba, t)
	return nil
}

// setPixels takes decoded pixels, applying the texture's colour key.
func (ti *textureImage) setPixels(rgba *image.NRGBA, t *Texture) {
	if t.Transparent {
		colorKey(rgba, t.TransparentColor)
	}
	b := rgba.Bounds()
	ti.img, ti.ok = model.Image{Width: b.Dx(), Height: b.Dy(), RGBA: rgba.Pix}, true
}

// keepAs returns the MIME type of an image file glTF can hold as is (PNG
// or JPEG), by its signature; "" for anything else.
func keepAs(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png"
	case bytes.HasPrefix(b, []byte{0xff, 0xd8, 0xff}):
		return "image/jpeg"
	}
	return ""
}

// decodeImage decodes a BMP, PNG, JPEG or TGA file (by signature, TGA by
// its extension since it has none). The size in the file's header is
// checked first, so that a damaged or hostile header cannot make the
// decoder allocate more than maxTexturePixels.
func decodeImage(b []byte, ext string) (image.Image, error) {
	var config func(io.Reader) (image.Config, error)
	var decode func(io.Reader) (image.Image, error)
	switch {
	case bytes.HasPrefix(b, []byte("BM")):
		config, decode = bmp.DecodeConfig, bmp.Decode
	case keepAs(b) == "image/png":
		config, decode = png.DecodeConfig, png.Decode
	case keepAs(b) == "image/jpeg":
		config, decode = jpeg.DecodeConfig, jpeg.Decode
	case ext == "tga":
		return decodeTGA(b) // checks its own size
	default:
		return nil, errUnknownImage
	}
	c, err := config(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	if c.Width <= 0 || c.Height <= 0 || int64(c.Width)*int64(c.Height) > maxTexturePixels {
		return nil, fmt.Errorf("image size %d × %d (at most %d pixels)", c.Width, c.Height, maxTexturePixels)
	}
	return decode(bytes.NewReader(b))
}

// toNRGBA converts any image to straight-alpha 8-bit RGBA, rows top to
// bottom, origin at (0, 0).
func toNRGBA(img image.Image) *image.NRGBA {
	if n, ok := img.(*image.NRGBA); ok && n.Rect.Min == (image.Point{}) && n.Stride == 4*n.Rect.Dx() {
		return n
	}
	b := img.Bounds()
	out := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(out, out.Rect, img, b.Min, draw.Src)
	return out
}

// applyAlpha sets the alpha stored beside an image file: one byte for
// every pixel, or one byte for all.
func applyAlpha(img *image.NRGBA, alpha []byte) {
	n := len(img.Pix) / 4
	switch {
	case len(alpha) == 1:
		for i := range n {
			img.Pix[4*i+3] = alpha[0]
		}
	case len(alpha) >= n:
		for i := range n {
			img.Pix[4*i+3] = alpha[i]
		}
	}
}

// colorKey makes every pixel whose RGB equals the key's transparent.
func colorKey(img *image.NRGBA, key uint32) {
	r, g, b := byte(key>>16), byte(key>>8), byte(key)
	for i := 0; i+4 <= len(img.Pix); i += 4 {
		if img.Pix[i] == r && img.Pix[i+1] == g && img.Pix[i+2] == b {
			img.Pix[i+3] = 0
		}
	}
}

// baseName strips a Windows or Unix folder from a saved file name.
func baseName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// textureSearchDepth is how many folders above the input are searched.
const textureSearchDepth = 3

// findTextureFile looks a texture's saved file name up the way Ballance
// lays out its data (3D Entities/<file>.nmo beside Textures/<name>):
// in the input's folder and each of its parents up to textureSearchDepth
// levels, first the folder itself, then its Textures folder, then that
// folder's subfolders. Names match without regard to case, since the game
// was made on Windows and copies on other systems often change the case.
func findTextureFile(dir, saved string) (string, bool) {
	name := baseName(saved)
	if name == "" || dir == "" {
		return "", false
	}
	for range textureSearchDepth + 1 {
		if p, ok := matchIn(dir, name); ok {
			return p, true
		}
		for _, tex := range matchDirs(dir, "Textures") {
			if p, ok := matchIn(tex, name); ok {
				return p, true
			}
			entries, _ := os.ReadDir(tex)
			for _, e := range entries {
				if e.IsDir() {
					if p, ok := matchIn(filepath.Join(tex, e.Name()), name); ok {
						return p, true
					}
				}
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return "", false
}

// matchIn finds a regular file named name (any case) in dir; an exact
// match wins over a case-folded one.
func matchIn(dir, name string) (string, bool) {
	if st, err := os.Stat(filepath.Join(dir, name)); err == nil && st.Mode().IsRegular() {
		return filepath.Join(dir, name), true
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.EqualFold(e.Name(), name) && e.Type().IsRegular() {
			return filepath.Join(dir, e.Name()), true
		}
	}
	return "", false
}

// matchDirs lists the subfolders named name (any case) of dir, in the
// order os.ReadDir gives them (sorted).
func matchDirs(dir, name string) []string {
	var out []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.IsDir() && strings.EqualFold(e.Name(), name) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// readLimited reads a file of at most maxTextureFile bytes.
func readLimited(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.Size() > maxTextureFile {
		return nil, errTooLarge
	}
	return os.ReadFile(path)
}

// decodeTGA decodes a TGA file (pixel/tga).
func decodeTGA(b []byte) (image.Image, error) { return tga.Decode(b) }

var (
	errUnknownImage = errors.New("not a BMP, PNG, JPEG or TGA image")
	errTooLarge     = errors.New("larger than 64 MiB")
)

// reportMissing warns once about every texture file that was not found.
func (ax *assetConverter) reportMissing() {
	if len(ax.missing) == 0 {
		return
	}
	ax.warnf("%d texture files not found beside the input or in a Textures folder above it (%s); their materials keep their colour",
		len(ax.missing), strings.Join(ax.missing, ", "))
}
