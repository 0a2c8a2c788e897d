package ccs

import (
	"fmt"

	"github.com/animbake/bake/import/binread"
)

// Texture pixel formats (the type byte; blender_ccs_importer ccsTexture.py,
// imoqReader blocks.nim).
const (
	TexRGBA32 = 0x00 // 4 bytes a texel: R, G, B, A (A in 0..0x80)
	TexI8     = 0x13 // 8-bit CLUT indices
	TexI4     = 0x14 // 4-bit CLUT indices, the low nibble the left texel
)

// maxTextureSide bounds a texture's width and height: the GS addresses at
// most 1024 texels a side (TEX0's TW/TH are log2 ≤ 10); later generations'
// explicit 16-bit sizes are held to 4096, so a hostile size cannot drive a
// huge allocation.
const maxTextureSide = 4096

// Texture is a Texture chunk (0x0300). Layout after the id (imoqReader
// readTexture, blender_ccs_importer; on S01.CCS every one of the 113 bodies
// is exactly 28 bytes of header plus the data words, the chunk's size word
// counting 50 more, ccs-container.md §2.5):
//
//	u32 CLUT id, u32 blit group, u8 flags, u8 type, u8 mip count, u8 ?,
//	u8 log2 width, u8 log2 height, u16 ?, u32 ?, u32 data size in words,
//	the texels (rows top to bottom, as the GS stores them), then per mip
//	level u32 ?, u32 words and its data (not kept).
//
// When both log2 bytes are 0xFF (later generations) the sizes follow as
// u16 width, u16 height, u16 ?.
type Texture struct {
	Off           int64
	ID            uint32
	CLUT          uint32
	Blit          uint32
	Flags         uint8
	Type          uint8
	Mips          uint8
	Width, Height int
	// Data holds the texels as stored (Width·Height·bpp/8 bytes at least).
	Data []byte
	// DataOff is the file offset of Data[0].
	DataOff int64
}

func readTexture(c *RawChunk) (*Texture, error) {
	r := c.reader()
	t := &Texture{Off: c.Off, ID: c.ID}
	var err error
	if t.CLUT, err = r.U32("texture CLUT id"); err != nil {
		return nil, err
	}
	if t.Blit, err = r.U32("texture blit group"); err != nil {
		return nil, err
	}
	head, err := r.Bytes(8, "texture format bytes")
	if err != nil {
		return nil, err
	}
	t.Flags, t.Type, t.Mips = head[0], head[1], head[2]
	sizeOff := r.Off() - 4
	lw, lh := head[4], head[5]
	if lw == 0xFF && lh == 0xFF {
		w, err := r.U16("texture width")
		if err != nil {
			return nil, err
		}
		h, err := r.U16("texture height")
		if err != nil {
			return nil, err
		}
		if err := r.Skip(2, "texture size padding"); err != nil {
			return nil, err
		}
		t.Width, t.Height = int(w), int(h)
	} else {
		if lw > 12 || lh > 12 {
			return nil, binread.Errorf(sizeOff, "texture %d: log2 size %d×%d exceeds %d texels a side", c.ID, lw, lh, maxTextureSide)
		}
		t.Width, t.Height = 1<<lw, 1<<lh
	}
	if t.Width == 0 || t.Height == 0 || t.Width > maxTextureSide || t.Height > maxTextureSide {
		return nil, binread.Errorf(sizeOff, "texture %d: size %d×%d outside 1..%d a side", c.ID, t.Width, t.Height, maxTextureSide)
	}
	bpp, ok := texelBits(t.Type)
	if !ok {
		return t, nil // an unknown format: Decode refuses it with the reason
	}
	if err := r.Skip(4, "texture word"); err != nil {
		return nil, err
	}
	wordsOff := r.Off()
	words, err := r.U32("texture data size")
	if err != nil {
		return nil, err
	}
	need := t.Width * t.Height * bpp / 8
	if uint64(words)*4 < uint64(need) {
		return nil, binread.Errorf(wordsOff, "texture %d: %d×%d at %d bits needs %d bytes, the data size says %d words", c.ID, t.Width, t.Height, bpp, need, words)
	}
	if uint64(words)*4 > uint64(r.Remaining()) {
		return nil, binread.Errorf(wordsOff, "texture %d: data size %d words overruns the chunk (%d bytes left)", c.ID, words, r.Remaining())
	}
	t.DataOff = r.Off()
	t.Data, _ = r.Bytes(need, "texture data")
	return t, nil
}

// texelBits gives the bits per texel of a supported type.
func texelBits(typ uint8) (int, bool) {
	switch typ {
	case TexRGBA32:
		return 32, true
	case TexI8:
		return 8, true
	case TexI4:
		return 4, true
	}
	return 0, false
}

// Decode returns the texture as 8-bit RGBA rows, top row first as the
// picture is meant to be seen. CCS stores the bottom row first: S01.CCS's
// lettering reads upside down in storage order, and blender_ccs_importer
// writes the stored rows into a bottom-left-origin TGA. Meshes flip V to
// match (see rigidPrimitive), so every texel lands where the GS puts it.
//
// Indexed texels look up clut with alpha scaling (PS2Alpha). A 256-colour
// CLUT is read in linear order unless csm1 is set (the GS's CSM1 block
// order, CLUTIndex). Convert reads linear: all 36 8-bit textures of
// S01.CCS show clean pictures in linear order and speckle through CSM1
// (docs/formats/ccs.md §9), and blender_ccs_importer reads them linear too;
// no file we have needs CSM1.
// An index beyond the palette is an error, as is a missing CLUT for an
// indexed type or an unsupported type (the DXT "btx" textures of later
// generations).
func (t *Texture) Decode(clut *CLUT, csm1 bool) ([]byte, error) {
	bpp, ok := texelBits(t.Type)
	if !ok {
		return nil, binread.Errorf(t.Off+12+9, "texture %d: pixel format 0x%02x is not supported (known: 0x00 RGBA32, 0x13 8-bit and 0x14 4-bit indexed)", t.ID, t.Type)
	}
	if bpp < 32 && clut == nil {
		return nil, binread.Errorf(t.Off+12, "texture %d: indexed (%d-bit) but its CLUT %d is missing", t.ID, bpp, t.CLUT)
	}
	out := make([]byte, 4*t.Width*t.Height)
	for y := range t.Height {
		row := out[4*t.Width*(t.Height-1-y):]
		for x := range t.Width {
			i := y*t.Width + x
			px := row[4*x : 4*x+4]
			if bpp == 32 {
				copy(px, t.Data[4*i:4*i+3])
				px[3] = PS2Alpha(t.Data[4*i+3])
				continue
			}
			idx := int(t.Data[i*bpp/8])
			if bpp == 4 {
				idx = idx >> (4 * (i & 1)) & 0xF
			}
			if csm1 {
				idx = CLUTIndex(idx, len(clut.Colors))
			}
			if idx >= len(clut.Colors) {
				return nil, binread.Errorf(t.DataOff+int64(i*bpp/8), "texture %d: texel %d has index %d beyond its CLUT's %d colours", t.ID, i, idx, len(clut.Colors))
			}
			c := clut.Colors[idx]
			copy(px, c[:3])
			px[3] = PS2Alpha(c[3])
		}
	}
	return out, nil
}

// FormatName names a texture type for listings.
func (t *Texture) FormatName() string {
	switch t.Type {
	case TexRGBA32:
		return "RGBA32"
	case TexI8:
		return "I8"
	case TexI4:
		return "I4"
	}
	return fmt.Sprintf("0x%02x", t.Type)
}
