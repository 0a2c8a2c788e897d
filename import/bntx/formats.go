package bntx

import (
	"fmt"

	"github.com/animbake/bake/pixel"
)

// ImageFormat is an nn::gfx image format as a BRTI stores it: the channel
// format in bits 8–15 and the type (UNORM, SNORM, sRGB, float …) in bits
// 0–7 (docs/formats/bntx.md, Formats).
type ImageFormat uint32

// Channel returns the channel-format half of f (0x1A BC1 …).
func (f ImageFormat) Channel() uint32 { return uint32(f) >> 8 }

// Type returns the type half of f (1 UNORM, 2 SNORM, 6 sRGB …).
func (f ImageFormat) Type() uint32 { return uint32(f) & 0xFF }

// nn::gfx channel formats and types the decoder knows by name.
var channelNames = map[uint32]string{
	0x02: "R8", 0x03: "R4_G4_B4_A4", 0x05: "R5_G5_B5_A1", 0x06: "A1_B5_G5_R5",
	0x07: "R5_G6_B5", 0x08: "B5_G6_R5", 0x09: "R8_G8", 0x0A: "R16", 0x0B: "R8_G8_B8_A8",
	0x0C: "B8_G8_R8_A8", 0x0D: "R9_G9_B9_E5", 0x0E: "R10_G10_B10_A2", 0x0F: "R11_G11_B10",
	0x12: "R16_G16", 0x13: "D24_S8", 0x14: "R32", 0x15: "R16_G16_B16_A16", 0x16: "D32_S8",
	0x17: "R32_G32", 0x18: "R32_G32_B32", 0x19: "R32_G32_B32_A32",
	0x1A: "BC1", 0x1B: "BC2", 0x1C: "BC3", 0x1D: "BC4", 0x1E: "BC5", 0x1F: "BC6H", 0x20: "BC7",
	0x2D: "ASTC_4x4", 0x2E: "ASTC_5x4", 0x2F: "ASTC_5x5", 0x30: "ASTC_6x5", 0x31: "ASTC_6x6",
	0x32: "ASTC_8x5", 0x33: "ASTC_8x6", 0x34: "ASTC_8x8", 0x35: "ASTC_10x5", 0x36: "ASTC_10x6",
	0x37: "ASTC_10x8", 0x38: "ASTC_10x10", 0x39: "ASTC_12x10", 0x3A: "ASTC_12x12",
	0x3B: "B5_G5_R5_A1",
}

var typeNames = map[uint32]string{
	1: "UNORM", 2: "SNORM", 3: "UINT", 4: "SINT", 5: "FLOAT", 6: "SRGB", 7: "DEPTH",
	8: "USCALED", 9: "SSCALED", 10: "UFLOAT",
}

func (f ImageFormat) String() string {
	c, ok1 := channelNames[f.Channel()]
	t, ok2 := typeNames[f.Type()]
	if !ok1 || !ok2 || f>>16 != 0 {
		return fmt.Sprintf("ImageFormat(0x%x)", uint32(f))
	}
	return c + "_" + t
}

// decodable maps the channel and type of each format this package decodes
// to the pixel decoder (a pixel.Format, or an ASTC footprint), and says
// whether the bytes are stored swapped (B8G8R8A8: blue first).
type decodable struct {
	pixel pixel.Format
	astc  pixel.ASTC
	bgr   bool
}

// astcFootprints are the block sizes of the ASTC channel formats 0x2D–0x3A.
var astcFootprints = [][2]int{{4, 4}, {5, 4}, {5, 5}, {6, 5}, {6, 6}, {8, 5}, {8, 6}, {8, 8},
	{10, 5}, {10, 6}, {10, 8}, {10, 10}, {12, 10}, {12, 12}}

func init() {
	for i, fp := range astcFootprints {
		ch := ImageFormat(0x2D+i) << 8
		pixelFormats[ch|1] = decodable{astc: pixel.ASTC{BlockW: fp[0], BlockH: fp[1]}}
		pixelFormats[ch|6] = decodable{astc: pixel.ASTC{BlockW: fp[0], BlockH: fp[1], SRGB: true}}
	}
}

// pixelFormats lists the decoded formats by (channel, type).
var pixelFormats = map[ImageFormat]decodable{
	0x0201: {pixel: pixel.R8},
	0x0901: {pixel: pixel.RG8},
	0x0B01: {pixel: pixel.RGBA8},
	0x0B06: {pixel: pixel.RGBA8},
	0x0C01: {pixel: pixel.RGBA8, bgr: true},
	0x0C06: {pixel: pixel.RGBA8, bgr: true},
	0x1A01: {pixel: pixel.BC1},
	0x1A06: {pixel: pixel.BC1},
	0x1B01: {pixel: pixel.BC2},
	0x1B06: {pixel: pixel.BC2},
	0x1C01: {pixel: pixel.BC3},
	0x1C06: {pixel: pixel.BC3},
	0x1D01: {pixel: pixel.BC4},
	0x1D02: {pixel: pixel.BC4S},
	0x1E01: {pixel: pixel.BC5},
	0x1E02: {pixel: pixel.BC5S},
	0x1F05: {pixel: pixel.BC6HS},
	0x1F0A: {pixel: pixel.BC6HU},
	0x2001: {pixel: pixel.BC7},
	0x2006: {pixel: pixel.BC7},
}

// Pixel returns the pixel decoder of f (the zero Format for ASTC, see
// ASTC), whether it is stored blue first, and whether f is decoded at all.
func (f ImageFormat) Pixel() (pf pixel.Format, bgr, ok bool) {
	d, ok := pixelFormats[f]
	return d.pixel, d.bgr, ok
}

// ASTC returns the ASTC footprint of f, if f is an ASTC format.
func (f ImageFormat) ASTC() (pixel.ASTC, bool) {
	d := pixelFormats[f]
	return d.astc, d.astc.Valid()
}

// Elements returns the storage of a w×h level of a decodable format: the
// elements (pixels or blocks) per row and rows, and the bytes of an
// element. A format this package does not decode is an error.
func (f ImageFormat) Elements(w, h int) (cols, rows, bytes int, err error) {
	if _, ok := pixelFormats[f]; !ok {
		return 0, 0, 0, fmt.Errorf("format %s is not decoded", f)
	}
	if a, ok := f.ASTC(); ok {
		cols, rows, err = a.Elements(w, h)
		return cols, rows, pixel.ASTCBlockBytes, err
	}
	pf, _, _ := f.Pixel()
	cols, rows, err = pf.Elements(w, h)
	return cols, rows, pf.Info().Bytes, err
}

// decode converts packed rows of elements of a decodable format to RGBA.
func (f ImageFormat) decode(packed []byte, w, h int) ([]byte, error) {
	if a, ok := f.ASTC(); ok {
		return pixel.DecodeASTC(a, packed, w, h)
	}
	pf, bgr, _ := f.Pixel()
	rgba, err := pixel.Decode(pf, packed, w, h)
	if err == nil && bgr {
		pixel.Swizzle(rgba, pixel.Selector{pixel.ChanB, pixel.ChanG, pixel.ChanR, pixel.ChanA})
	}
	return rgba, err
}

// SRGB reports whether f's colours are sRGB-encoded.
func (f ImageFormat) SRGB() bool { return f.Type() == 6 }

// TwoChannel reports whether f holds two channels only (BC5, RG8): a normal
// map of this format keeps X and Y and the shader rebuilds Z.
func (f ImageFormat) TwoChannel() bool { return f.Channel() == 0x1E || f.Channel() == 0x09 }

// decodedFormats names the decoded formats for the unsupported-format error.
const decodedFormats = "BC1–BC7, ASTC (LDR, 4x4–12x12), R8, R8_G8, R8_G8_B8_A8, B8_G8_R8_A8 and their sRGB variants"

// Channel sources (nn::gfx::ChannelSource) as a BRTI stores them, one byte
// per output channel R, G, B, A.
const (
	sourceZero = iota
	sourceOne
	sourceRed
	sourceGreen
	sourceBlue
	sourceAlpha
)

// selector converts the four nn::gfx channel sources to a pixel.Selector.
func selector(src [4]byte) (pixel.Selector, bool) {
	var s pixel.Selector
	for i, c := range src {
		switch c {
		case sourceZero:
			s[i] = pixel.Chan0
		case sourceOne:
			s[i] = pixel.Chan1
		case sourceRed, sourceGreen, sourceBlue, sourceAlpha:
			s[i] = pixel.ChanR + pixel.Channel(c-sourceRed)
		default:
			return s, false
		}
	}
	return s, true
}
