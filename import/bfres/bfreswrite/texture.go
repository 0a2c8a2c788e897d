package bfreswrite

import (
	"encoding/binary"

	"github.com/animbake/bake/import/bfres/gx2"
)

// ftexHeaderSize is the Wii U FTEX header (docs/formats/bfres.md, Textures).
const ftexHeaderSize = 0xC0

// GX2 surface formats and tile modes the demo and tests use (the values
// of gx2.Format and gx2.TileMode).
const (
	FormatRGBA8   = uint32(gx2.FormatRGBA8)
	FormatBC1SRGB = uint32(gx2.FormatBC1SRGB)
	FormatBC1     = uint32(gx2.FormatBC1)
	Tile1DThin1   = uint32(gx2.Tiled1DThin1)
	Tile2DThin1   = uint32(gx2.Tiled2DThin1)
)

// Texture is an FTEX with one mip level: Elements holds the level-0 image
// as packed rows of elements (pixels, or 4×4 blocks for BCn) in GPU byte
// order, which Bytes tiles in TileMode with gx2.Layout's pitch and size.
type Texture struct {
	Name          string
	Width, Height int
	Format        uint32 // GX2 surface format
	TileMode      uint32
	Swizzle       uint32 // bits 8–10: pipe and bank swizzle
	CompSel       [4]byte
	Elements      []byte
	// Raw, when not nil, is written as the image as is (with Pitch and
	// ImageSize) instead of tiling Elements: for hostile-input tests.
	Raw              []byte
	Pitch, ImageSize uint32
	// Path is the texture's source path (stored, not used).
	Path string
}

// ftex writes the header and its image; it returns the header position.
func (w *writer) ftex(t Texture) int {
	f := gx2.Format(t.Format)
	bits := f.Bits()
	image, pitch, size, align := t.Raw, t.Pitch, t.ImageSize, uint32(0)
	if image == nil {
		in := gx2.Surface{Mode: gx2.TileMode(t.TileMode), Bits: bits}
		pf, _, _ := f.Pixel()
		cols, rows, err := pf.Elements(t.Width, t.Height)
		if err != nil {
			panic("bfreswrite: texture " + t.Name + ": " + err.Error())
		}
		p, _, s, a, err := gx2.Layout(in.Mode, bits, cols, rows)
		if err != nil {
			panic("bfreswrite: texture " + t.Name + ": " + err.Error())
		}
		in.Pitch, in.Swizzle = p, t.Swizzle
		if image, err = gx2.Tile(in, t.Elements, cols, rows, s); err != nil {
			panic("bfreswrite: texture " + t.Name + ": " + err.Error())
		}
		pitch, size, align = uint32(p), uint32(s), uint32(a)
	}
	h := w.reserve(ftexHeaderSize)
	copy(w.b[h:], "FTEX")
	for i, v := range []uint32{
		1, uint32(t.Width), uint32(t.Height), 1, 1, // 2D, size, depth, mips
		t.Format, 0, 1, // format, single sample, used as a texture
		size, 0, 0, 0, // image size and pointer, no mips
		t.TileMode, t.Swizzle, align, pitch,
	} {
		w.put32(h+4+4*i, v)
	}
	// Mip offsets (0x44…0x77) stay 0; view: first mip 0, 1 mip, slice 0, 1 slice.
	w.put32(h+0x7C, 1)
	w.put32(h+0x84, 1)
	copy(w.b[h+0x88:], t.CompSel[:])
	w.b[h+0xA4] = 1 // array length
	w.str(h+0xA8, t.Name)
	w.str(h+0xAC, t.Path)
	for w.pos()%256 != 0 { // GX2 images start on an aligned address
		w.b = append(w.b, 0)
	}
	w.off(h+0xB0, w.pos())
	w.b = append(w.b, image...)
	w.align()
	return h
}

// DemoTextures are the textures of Demo.bfres: "demo_alb", a 64×64 BC1
// (sRGB) albedo tiled 2D thin1 with swizzle 0x200 (bank swizzle 1), whose
// blocks shade from red (left) to green (right) and dark to light (top to
// bottom) with a darker diagonal stripe in each block; and "demo_mask", a
// 16×16 RGBA8 mask tiled 1D thin1 whose pixel (x, y) is (16x, 16y, 128,
// 255 − 8x) with the component selectors R, G, B, A.
func DemoTextures() []Texture {
	var blocks []byte
	for by := range 16 {
		for bx := range 16 {
			// c0 = (r, g, b) in 5:6:5 with red falling and green rising
			// across, blue rising down; c1 the same at half brightness, so
			// c0 > c1 (4-colour mode).
			r, g, b := uint16(31-2*bx), uint16(4*bx+3), uint16(2*by)
			c0 := r<<11 | g<<5 | b
			c1 := (r/2)<<11 | (g/2)<<5 | b/2
			// Index 0 everywhere but the diagonal (index 3, the darker third).
			idx := uint32(3 | 3<<10 | 3<<20 | 3<<30)
			blocks = binary.LittleEndian.AppendUint16(blocks, c0)
			blocks = binary.LittleEndian.AppendUint16(blocks, c1)
			blocks = binary.LittleEndian.AppendUint32(blocks, idx)
		}
	}
	var mask []byte
	for y := range 16 {
		for x := range 16 {
			mask = append(mask, byte(16*x), byte(16*y), 128, byte(255-8*x))
		}
	}
	return []Texture{
		{Name: "demo_alb", Width: 64, Height: 64, Format: FormatBC1SRGB, TileMode: Tile2DThin1, Swizzle: 0x200,
			CompSel: [4]byte{0, 1, 2, 3}, Elements: blocks, Path: "demo_alb.png"},
		{Name: "demo_mask", Width: 16, Height: 16, Format: FormatRGBA8, TileMode: Tile1DThin1,
			CompSel: [4]byte{0, 1, 2, 3}, Elements: mask},
	}
}
