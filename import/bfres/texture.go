package bfres

import (
	"errors"
	"fmt"
	"strings"

	"github.com/animbake/bake/import/bfres/gx2"
	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/pixel"
)

// FTEXHeaderSize is the size of a Wii U FTEX header: the magic, the GX2
// surface (0x04–0x9F: dim … component selectors and texture registers),
// then handle, array length, name, path, data and mip-data offsets and the
// user data (docs/formats/bfres.md, Textures).
const FTEXHeaderSize = 0xC0

// maxTextureDim is the GX2 limit on a texture's width and height.
const maxTextureDim = 8192

// gx2UseDepthBuffer is the GX2SurfaceUse bit of depth buffers, which
// addrlib tiles in another micro-tile order.
const gx2UseDepthBuffer = 0x4

// GX2 surface dimensions (GX2SurfaceDim).
var gx2DimNames = map[uint32]string{0: "1D", 1: "2D", 2: "3D", 3: "cube", 4: "1D array", 5: "2D array", 6: "2D MSAA", 7: "2D MSAA array"}

// FTEX is one texture's header (a GX2 surface with its name), offsets
// resolved to absolute file offsets.
type FTEX struct {
	Name, Path     string
	Off            int // file offset of the header
	Dim            uint32
	Width, Height  uint32
	Depth          uint32 // slices (6 for a cube map)
	MipCount       uint32
	Format         gx2.Format
	AAMode         uint32
	Use            uint32
	ImageSize      uint32 // bytes of level 0 (all slices)
	MipSize        uint32 // bytes of levels 1…
	TileMode       gx2.TileMode
	Swizzle        uint32
	Alignment      uint32
	Pitch          uint32 // elements per stored row of level 0
	MipOffsets     [13]uint32
	ViewMipFirst   uint32
	ViewMipCount   uint32
	ViewSliceFirst uint32
	ViewSliceCount uint32
	CompSel        pixel.Selector
	Data           int // absolute offset of the first data block (0: none)
	MipData        int // absolute offset of the second (0: none)
	// MipDataErr says why the mip-data offset was not usable (it points
	// outside the file: Breath of the Wild's X.Tex1 files point it past
	// their end, at mipmaps that live in X.Tex2). Only level 0 is decoded,
	// so the texture is still read; the caller warns.
	MipDataErr error
}

// errUnsupported marks a well-formed texture this importer cannot decode
// (a GX2 format, tile mode or sample count outside what it handles): a
// warning, unlike a malformed header.
type errUnsupported struct{ error }

func unsupported(format string, args ...any) error {
	return errUnsupported{fmt.Errorf(format, args...)}
}

// errNoImage: the header has no level-0 image (image size 0 or a null data
// offset), as in a mipmap-only X.Tex2 file; the texture is looked for in
// the next source.
var errNoImage = errors.New("no level-0 image")

// isUnsupported reports whether err is an errUnsupported.
func isUnsupported(err error) bool {
	var u errUnsupported
	return errors.As(err, &u)
}

// readFTEX reads the FTEX header at off; name is its index-group name.
func (f *resFile) readFTEX(off int, name string) (*FTEX, error) {
	what := "texture " + name
	if err := f.expectMagic(off, "FTEX", what); err != nil {
		return nil, err
	}
	r, err := f.at(off, FTEXHeaderSize, what+" header")
	if err != nil {
		return nil, err
	}
	t := &FTEX{Off: off}
	r.Skip(4, "magic")
	u32 := func(what string) uint32 { v, _ := r.U32(what); return v }
	t.Dim = u32("dim")
	t.Width, t.Height, t.Depth = u32("width"), u32("height"), u32("depth")
	t.MipCount = u32("mip count")
	t.Format = gx2.Format(u32("format"))
	t.AAMode, t.Use = u32("aa mode"), u32("use")
	t.ImageSize = u32("image size")
	u32("image pointer")
	t.MipSize = u32("mip size")
	u32("mip pointer")
	t.TileMode = gx2.TileMode(u32("tile mode"))
	t.Swizzle, t.Alignment, t.Pitch = u32("swizzle"), u32("alignment"), u32("pitch")
	for i := range t.MipOffsets {
		t.MipOffsets[i] = u32("mip offset")
	}
	t.ViewMipFirst, t.ViewMipCount = u32("view mip first"), u32("view mip count")
	t.ViewSliceFirst, t.ViewSliceCount = u32("view slice first"), u32("view slice count")
	for i := range t.CompSel {
		c, _ := r.U8("component selector")
		t.CompSel[i] = pixel.Channel(c)
	}
	if t.Name, err = f.nameAt(off+0xA8, what); err != nil {
		return nil, err
	}
	if t.Path, err = f.stringAt(off+0xAC, what+" path"); err != nil {
		return nil, err
	}
	if t.Data, _, err = f.offsetAt(off+0xB0, what+" data"); err != nil {
		return nil, err
	}
	t.MipData, _, t.MipDataErr = f.offsetAt(off+0xB4, what+" mip data")
	return t, nil
}

// decode returns level 0 (slice 0) of the texture as RGBA rows, with the
// component selectors applied. A malformed header is a FormatError at the
// field; a well-formed texture this importer cannot decode is an
// errUnsupported.
func (f *resFile) decodeFTEX(t *FTEX) ([]byte, error) {
	at := func(field int, format string, args ...any) error {
		return binread.Errorf(int64(t.Off+field), "texture %s: %s", t.Name, fmt.Sprintf(format, args...))
	}
	if t.Width == 0 || t.Height == 0 || t.Width > maxTextureDim || t.Height > maxTextureDim {
		return nil, at(0x08, "size %d×%d is outside 1..%d", t.Width, t.Height, maxTextureDim)
	}
	if _, ok := gx2DimNames[t.Dim]; !ok {
		return nil, at(0x04, "surface dimension %d is not a GX2 dimension (0..7)", t.Dim)
	}
	if t.TileMode > gx2.LinearSpecial {
		return nil, at(0x34, "tile mode 0x%x is not a GX2 tile mode (0..0x10)", uint32(t.TileMode))
	}
	if !t.CompSel.Valid() {
		return nil, at(0x88, "component selectors %d are not GX2 selectors (0..5)", [4]pixel.Channel(t.CompSel))
	}
	if t.AAMode > 3 {
		return nil, at(0x1C, "AA mode %d is not a GX2 AA mode (0..3)", t.AAMode)
	}
	if t.AAMode != 0 {
		return nil, unsupported("texture %s is multisampled (AA mode %d); only single-sample surfaces are decoded", t.Name, t.AAMode)
	}
	if t.Use&gx2UseDepthBuffer != 0 {
		return nil, unsupported("texture %s is a depth buffer (use 0x%x), whose depth micro-tile order is not decoded", t.Name, t.Use)
	}
	pf, _, ok := t.Format.Pixel()
	if !ok {
		return nil, unsupported("texture %s has %s, which is not decoded (BC1–BC5, RGBA8, RGB565, RGB5A1, RGBA4, R8, RG8 are)", t.Name, t.Format)
	}
	if !t.TileMode.Supported() {
		return nil, unsupported("texture %s uses GX2 %s, which is not decoded", t.Name, t.TileMode)
	}
	if t.Data == 0 || t.ImageSize == 0 {
		return nil, errNoImage
	}
	if int64(t.Data)+int64(t.ImageSize) > int64(len(f.data)) {
		return nil, at(0x24, "image of %d bytes at 0x%x runs past the end of the file (0x%x bytes)", t.ImageSize, t.Data, len(f.data))
	}
	w, h := int(t.Width), int(t.Height)
	cols, rows, err := pf.Elements(w, h)
	if err != nil {
		return nil, at(0x08, "%v", err)
	}
	if int(t.Pitch) < cols {
		return nil, at(0x40, "pitch %d is smaller than the %d elements of a row", t.Pitch, cols)
	}
	surf := gx2.Surface{Mode: t.TileMode, Bits: t.Format.Bits(), Pitch: int(t.Pitch), Swizzle: t.Swizzle}
	if err := surf.Check(); err != nil {
		return nil, at(0x34, "%v", err)
	}
	image := f.data[t.Data : t.Data+int(t.ImageSize)]
	packed, err := gx2.Untile(surf, image, cols, rows)
	if err != nil {
		return nil, at(0x24, "%v", err)
	}
	rgba, err := pixel.Decode(pf, packed, w, h)
	if err != nil {
		return nil, at(0x18, "%v", err)
	}
	if err := pixel.Swizzle(rgba, t.CompSel); err != nil {
		return nil, at(0x88, "%v", err)
	}
	return rgba, nil
}

// texture builds the model texture of a decoded FTEX; from names where it
// was found (the model file or an archive).
func (t *FTEX) texture(rgba []byte, from string) model.Texture {
	_, srgb, _ := t.Format.Pixel()
	gx := map[string]any{
		"format":    t.Format.String(),
		"tileMode":  t.TileMode.String(),
		"swizzle":   t.Swizzle,
		"pitch":     t.Pitch,
		"dim":       gx2DimNames[t.Dim],
		"mipCount":  t.MipCount,
		"compSel":   t.CompSel.String(),
		"from":      from,
		"mipLevels": "level 0 only",
	}
	if t.Depth > 1 {
		gx["depth"] = t.Depth
	}
	ex := map[string]any{"gx2": gx}
	if srgb {
		ex["srgb"] = true
	}
	if t.Path != "" {
		ex["path"] = t.Path
	}
	return model.Texture{
		Name:   t.Name,
		Image:  model.Image{Width: int(t.Width), Height: int(t.Height), RGBA: rgba},
		Extras: ex,
	}
}

// readTextureGroup reads the FTEX headers of the file's texture index
// group, in group order.
func (f *resFile) readTextureGroup() ([]*FTEX, error) {
	off := f.header.Groups[GroupTextures]
	if off == 0 {
		return nil, nil
	}
	entries, err := f.readDict(off, groupNames[GroupTextures])
	if err != nil {
		return nil, err
	}
	out := make([]*FTEX, 0, len(entries))
	for _, e := range entries {
		t, err := f.readFTEX(e.Data, e.Name)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// twoChannelFormats are the GX2 formats a normal map stores as X and Y
// only (the shader rebuilds Z).
var twoChannelFormats = map[string]bool{
	gx2.FormatBC5.String(): true, gx2.FormatBC5SNORM.String(): true, gx2.FormatRG8.String(): true,
}

// twoChannelBNTX are the channel parts of the BNTX format names
// (import/bntx: "BC5_SNORM", "R8_G8_UNORM") that hold X and Y only.
var twoChannelBNTX = map[string]bool{"BC5": true, "R8_G8": true}

// twoChannel reports whether t was stored with two channels only: a GX2
// format of a Wii U texture, or the format of a Switch texture from its
// embedded BNTX, as the decoders recorded them in the texture's extras.
func twoChannel(t *model.Texture) bool {
	if gx, ok := t.Extras["gx2"].(map[string]any); ok {
		f, _ := gx["format"].(string)
		return twoChannelFormats[f]
	}
	bx, _ := t.Extras["bntx"].(map[string]any)
	f, _ := bx["format"].(string)
	i := strings.LastIndexByte(f, '_')
	return i > 0 && twoChannelBNTX[f[:i]]
}

// asNormalMap prepares a texture bound to a glTF normal slot: a two-channel
// normal map (BC5, RG8; Wii U or Switch) holds only X and Y, and glTF reads
// blue as Z, so Z is rebuilt into blue (pixel.ReconstructNormalZ) and
// extras.normalZ records it. Other textures, and one already rebuilt, are
// left alone.
func asNormalMap(t *model.Texture) {
	if !twoChannel(t) || t.Extras["normalZ"] != nil || t.Image.RGBA == nil {
		return
	}
	pixel.ReconstructNormalZ(t.Image.RGBA)
	t.Extras["normalZ"] = "reconstructed from X and Y"
}
