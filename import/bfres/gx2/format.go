package gx2

import (
	"fmt"

	"github.com/animbake/bake/pixel"
)

// Format is a GX2 surface format (GX2SurfaceFormat): the low 6 bits are the
// hardware format, bit 8 marks UINT, bit 9 SNORM, bit 10 sRGB, bit 11 float.
type Format uint32

// The formats the texture decoder handles (names as in the GX2 headers).
const (
	FormatR8        Format = 0x001 // TC_R8_UNORM
	FormatRG8       Format = 0x007 // TC_R8_G8_UNORM
	FormatRGB565    Format = 0x008 // TCS_R5_G6_B5_UNORM
	FormatRGB5A1    Format = 0x00A // TC_R5_G5_B5_A1_UNORM
	FormatRGBA4     Format = 0x00B // TC_R4_G4_B4_A4_UNORM
	FormatRGBA8     Format = 0x01A // TCS_R8_G8_B8_A8_UNORM
	FormatRGBA8SRGB Format = 0x41A // TCS_R8_G8_B8_A8_SRGB
	FormatBC1       Format = 0x031 // T_BC1_UNORM
	FormatBC1SRGB   Format = 0x431 // T_BC1_SRGB
	FormatBC2       Format = 0x032 // T_BC2_UNORM
	FormatBC2SRGB   Format = 0x432 // T_BC2_SRGB
	FormatBC3       Format = 0x033 // T_BC3_UNORM
	FormatBC3SRGB   Format = 0x433 // T_BC3_SRGB
	FormatBC4       Format = 0x034 // T_BC4_UNORM
	FormatBC4SNORM  Format = 0x234 // T_BC4_SNORM
	FormatBC5       Format = 0x035 // T_BC5_UNORM
	FormatBC5SNORM  Format = 0x235 // T_BC5_SNORM
)

type formatInfo struct {
	name string
	pix  pixel.Format
	srgb bool
}

var formats = map[Format]formatInfo{
	FormatR8:        {"TC_R8_UNORM", pixel.R8, false},
	FormatRG8:       {"TC_R8_G8_UNORM", pixel.RG8, false},
	FormatRGB565:    {"TCS_R5_G6_B5_UNORM", pixel.RGB565, false},
	FormatRGB5A1:    {"TC_R5_G5_B5_A1_UNORM", pixel.RGB5A1, false},
	FormatRGBA4:     {"TC_R4_G4_B4_A4_UNORM", pixel.RGBA4, false},
	FormatRGBA8:     {"TCS_R8_G8_B8_A8_UNORM", pixel.RGBA8, false},
	FormatRGBA8SRGB: {"TCS_R8_G8_B8_A8_SRGB", pixel.RGBA8, true},
	FormatBC1:       {"T_BC1_UNORM", pixel.BC1, false},
	FormatBC1SRGB:   {"T_BC1_SRGB", pixel.BC1, true},
	FormatBC2:       {"T_BC2_UNORM", pixel.BC2, false},
	FormatBC2SRGB:   {"T_BC2_SRGB", pixel.BC2, true},
	FormatBC3:       {"T_BC3_UNORM", pixel.BC3, false},
	FormatBC3SRGB:   {"T_BC3_SRGB", pixel.BC3, true},
	FormatBC4:       {"T_BC4_UNORM", pixel.BC4, false},
	FormatBC4SNORM:  {"T_BC4_SNORM", pixel.BC4S, false},
	FormatBC5:       {"T_BC5_UNORM", pixel.BC5, false},
	FormatBC5SNORM:  {"T_BC5_SNORM", pixel.BC5S, false},
}

func (f Format) String() string {
	if in, ok := formats[f]; ok {
		return in.name
	}
	return fmt.Sprintf("GX2 format 0x%x", uint32(f))
}

// Pixel returns the pixel layout of f and whether its colours are
// sRGB-encoded; ok is false for a format the decoder does not handle.
func (f Format) Pixel() (p pixel.Format, srgb, ok bool) {
	in, ok := formats[f]
	return in.pix, in.srgb, ok
}

// Bits returns the bits per element of a handled format (per 4×4 block for
// BCn), 0 otherwise.
func (f Format) Bits() int {
	in, ok := formats[f]
	if !ok {
		return 0
	}
	return in.pix.Info().Bytes * 8
}
