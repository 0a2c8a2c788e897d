package bntx

import (
	"fmt"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/pixel"
)

// Tile modes (nn::gfx::TileMode).
const (
	TileOptimal = 0 // block-linear
	TileLinear  = 1 // pitch-linear
)

// storage dimensions (nn::gfx::ImageStorageDimension).
const (
	storage1D = 1
	storage2D = 2
	storage3D = 3
)

// imageDimNames names nn::gfx::ImageDimension values.
var imageDimNames = map[uint8]string{0: "1D", 1: "2D", 2: "3D", 3: "cube", 4: "1D array", 5: "2D array",
	6: "2D multisample", 7: "2D multisample array", 8: "cube array"}

// Decode returns level 0 (layer 0) of t as 8-bit RGBA rows, top to bottom,
// with the channel sources applied. A malformed header is a
// *binread.FormatError; a texture this package cannot decode is an error
// matching ErrUnsupported.
func (f *File) Decode(t *Texture) ([]byte, error) {
	at := func(field int, format string, args ...any) error {
		return binread.Errorf(int64(t.Off+field), "texture %s: %s", t.Name, fmt.Sprintf(format, args...))
	}
	sel, ok := selector(t.ChannelSources)
	if !ok {
		return nil, at(0x58, "channel sources %v are not nn::gfx channel sources (0..5)", t.ChannelSources)
	}
	if t.TileMode > TileLinear {
		return nil, at(0x12, "tile mode %d is not an nn::gfx tile mode (0 optimal, 1 linear)", t.TileMode)
	}
	switch {
	case t.StorageDim == storage3D || t.Depth > 1:
		return nil, unsupported("texture %s is a 3D texture (depth %d), whose block-linear slices are not decoded", t.Name, t.Depth)
	case t.StorageDim != storage1D && t.StorageDim != storage2D:
		return nil, at(0x11, "storage dimension %d is not 1D, 2D or 3D (1..3)", t.StorageDim)
	case t.SampleCount > 1:
		return nil, unsupported("texture %s is multisampled (%d samples)", t.Name, t.SampleCount)
	}
	if _, ok := pixelFormats[t.Format]; !ok {
		return nil, unsupported("texture %s has the format %s, which is not decoded (%s are)", t.Name, t.Format, decodedFormats)
	}
	cols, rows, bytes, err := t.Format.Elements(t.Width, t.Height)
	if err != nil {
		return nil, at(0x24, "%v", err)
	}
	surf := pixel.TegraSurface{Cols: cols, Rows: rows, Bytes: bytes,
		Linear: t.TileMode == TileLinear, BlockHeightLog2: t.BlockHeightLog2}
	size, err := surf.Size()
	if err != nil {
		return nil, at(0x34, "%v", err)
	}
	start := t.Mips[0]
	if size > len(f.data)-start {
		return nil, at(0x70, "level 0 needs 0x%x bytes at 0x%x, past the end of the file (0x%x bytes)", size, start, len(f.data))
	}
	if size > t.ImageSize {
		return nil, at(0x50, "level 0 needs 0x%x bytes but the texture size is 0x%x", size, t.ImageSize)
	}
	packed, err := surf.Untile(f.data[start : start+size])
	if err != nil {
		return nil, at(0x70, "%v", err)
	}
	rgba, err := t.Format.decode(packed, t.Width, t.Height)
	if err != nil {
		return nil, at(0x1C, "%v", err)
	}
	pixel.Swizzle(rgba, sel)
	return rgba, nil
}

// Model builds the model texture of t from its decoded pixels: the name,
// level 0, glTF's default sampler (a BNTX holds no sampler; the material
// that binds the texture has it), and the BNTX facts in extras.bntx.
func (t *Texture) Model(rgba []byte) model.Texture {
	sel, _ := selector(t.ChannelSources)
	bx := map[string]any{
		"format":          t.Format.String(),
		"tileMode":        map[uint16]string{TileOptimal: "block-linear", TileLinear: "pitch-linear"}[t.TileMode],
		"blockHeightLog2": t.BlockHeightLog2,
		"mipCount":        t.MipCount,
		"channelSources":  sel.String(),
		"mipLevels":       "level 0 only",
	}
	if name, ok := imageDimNames[t.ImageDim]; ok {
		bx["dim"] = name
	}
	if t.ArrayLayers > 1 {
		bx["arrayLayers"] = t.ArrayLayers
	}
	ex := map[string]any{"bntx": bx}
	if t.Format.SRGB() {
		ex["srgb"] = true
	}
	return model.Texture{
		Name:   t.Name,
		Image:  model.Image{Width: t.Width, Height: t.Height, RGBA: rgba},
		Extras: ex,
	}
}

// Textures decodes level 0 of every texture of the BNTX at the start of
// data, in file order: the entry point for importers whose files embed a
// BNTX (Switch BFRES). A malformed file is a *binread.FormatError (offsets
// within data); a texture that is well formed but not decodable (see
// ErrUnsupported) is left out with a warning through opts. The decoded
// RGBA of all textures together is capped by opts.Inflate().
func Textures(data []byte, opts *format.Options) ([]model.Texture, error) {
	f, err := Parse(data)
	if err != nil {
		return nil, err
	}
	return f.Decoded(opts)
}

// Decoded decodes every texture of f as Textures does.
func (f *File) Decoded(opts *format.Options) ([]model.Texture, error) {
	var out []model.Texture
	budget := opts.Inflate()
	for _, t := range f.Textures {
		if rgbaBytes := int64(t.Width) * int64(t.Height) * 4; rgbaBytes > budget {
			return nil, binread.Errorf(int64(t.Off+0x24), "texture %s: %d×%d RGBA exceeds what is left of the decoded-size cap (%d bytes; raise --max-inflate)", t.Name, t.Width, t.Height, budget)
		} else {
			budget -= rgbaBytes
		}
		rgba, err := f.Decode(t)
		if err != nil {
			if isUnsupported(err) {
				opts.Warnf("%v; left out", err)
				continue
			}
			return nil, err
		}
		if t.ArrayLayers > 1 {
			opts.Warnf("texture %s has %d array layers; only layer 0 is decoded", t.Name, t.ArrayLayers)
		}
		out = append(out, t.Model(rgba))
	}
	return out, nil
}
