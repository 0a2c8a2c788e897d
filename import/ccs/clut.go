package ccs

import (
	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/pixel"
)

// CLUT is a CLUT chunk (0x0400): the palette of indexed textures. Layout
// (blender_ccs_importer ccsClut.py, checked on all 113 CLUTs of S01.CCS,
// whose sizes are exactly 5 + count words):
//
//	u32 id, u32 blit group, u32 flags (1, or 5 when the palette's alpha is
//	used), u16 GS x, u8 GS y, u8 alpha flag (1 or 3), u32 count,
//	count × 4 bytes R, G, B, A (the GS's PSMCT32 byte order; A in 0..0x80).
//
// Colors holds the entries in file order, unconverted: the PS2 ordering
// (CLUTIndex, when it applies) and alpha scaling (PS2Alpha) are applied
// when a texture is decoded.
type CLUT struct {
	Off    int64
	ID     uint32
	Blit   uint32
	Flags  uint32
	Colors [][4]byte
}

// maxCLUTColors is the largest palette an indexed texture can address
// (8-bit indices).
const maxCLUTColors = 256

func readCLUT(c *RawChunk) (*CLUT, error) {
	r := c.reader()
	cl := &CLUT{Off: c.Off, ID: c.ID}
	var err error
	if cl.Blit, err = r.U32("CLUT blit group"); err != nil {
		return nil, err
	}
	if cl.Flags, err = r.U32("CLUT flags"); err != nil {
		return nil, err
	}
	if err := r.Skip(4, "CLUT GS position and alpha flag"); err != nil {
		return nil, err
	}
	countOff := r.Off()
	n32, err := r.U32("CLUT colour count")
	if err != nil {
		return nil, err
	}
	if n32 == 0 || n32 > maxCLUTColors {
		return nil, binread.Errorf(countOff, "CLUT %d: expected 1..%d colours, found %d", c.ID, maxCLUTColors, n32)
	}
	n, err := r.Count(uint64(n32), 4, "CLUT colours")
	if err != nil {
		return nil, err
	}
	cl.Colors = make([][4]byte, n)
	for i := range cl.Colors {
		p, _ := r.Bytes(4, "CLUT colour")
		copy(cl.Colors[i][:], p)
	}
	return cl, nil
}

// CLUTIndex maps a texel's index to the CLUT entry the GS reads for it. A
// 256-colour CLUT is stored in the GS's CSM1 arrangement: in every run of
// 32 entries, the second and third blocks of 8 are swapped (the palette is
// uploaded as 8×2 blocks of a 16-wide PSMCT32 area), which is exchanging
// bits 3 and 4 of the index. 16-colour CLUTs (one 8×2 block) are linear.
func CLUTIndex(i, colors int) int {
	if colors != maxCLUTColors {
		return i
	}
	return i&^0x18 | (i&0x10)>>1 | (i&0x08)<<1
}

// PS2Alpha scales a GS alpha byte, where 0x80 is opaque (1.0), to 0..255
// (pixel.PS2Alpha: round(a·255/128), saturating from 0x80 up, since the
// GS's blend allows alphas up to 2.0).
func PS2Alpha(a byte) byte { return pixel.PS2Alpha(a) }
