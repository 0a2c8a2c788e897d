// Package pixel decodes the pixel formats that several importers share into
// 8-bit RGBA: the block-compressed formats BC1–BC7 (DXT1–5, ATI1/2, BPTC),
// the direct-colour formats RGBA8, RGB565, RGB5A1, RGBA4, R8 and RG8,
// indexed 4- and 8-bit images with an RGBA palette, and channel selection
// (the GX2 component selectors). It also lays out the one console surface
// layout shared by several formats, the Tegra X1's block-linear layout
// (tegra.go). It knows nothing of any file format: an importer untiles its
// surface into rows of elements (pixels, or 4×4 blocks for BCn) and hands
// them here, and the result goes into model.Image as rows top to bottom.
//
// Every decoder works on bytes in the order the GPU reads them; the bit
// layout of each format is spelt out on its constant. The sRGB variants of a
// format store the same bytes: decoding is the same, and the importer records
// that the colours are sRGB-encoded (glTF base-colour textures are sRGB).
package pixel

import "fmt"

// Format is a pixel layout this package decodes.
type Format int

// The formats. Multi-byte fields are little-endian (the order the Wii U and
// PC GPUs read, and the PS2 GS); the first-named channel sits in the lowest
// bits. Other channel orders are a Swizzle away.
const (
	// RGBA8: 4 bytes R, G, B, A.
	RGBA8 Format = iota + 1
	// RGB565: 16 bits, R in bits 0–4, G in 5–10, B in 11–15; alpha 255.
	// (GX2 TCS_R5_G6_B5; D3D's B5G6R5 has R and B exchanged.)
	RGB565
	// RGB5A1: 16 bits, R in bits 0–4, G 5–9, B 10–14, A bit 15.
	// (GX2 TC_R5_G5_B5_A1, the PS2 GS's PSMCT16.)
	RGB5A1
	// RGBA4: 16 bits, R in bits 0–3, G 4–7, B 8–11, A 12–15.
	RGBA4
	// R8: 1 byte of red; G = B = 0, A = 255 (as a GPU samples it).
	R8
	// RG8: 2 bytes R, G; B = 0, A = 255.
	RG8
	// BC1 (DXT1): 8-byte blocks of 4×4 pixels, 4 colours or 3 and
	// transparent black.
	BC1
	// BC2 (DXT3): 16-byte blocks, explicit 4-bit alpha then a BC1 colour block.
	BC2
	// BC3 (DXT5): 16-byte blocks, an interpolated alpha block then a BC1
	// colour block.
	BC3
	// BC4 (ATI1) unsigned: 8-byte blocks of one interpolated channel (red).
	BC4
	// BC4S: BC4 with signed endpoints, mapped from −1..1 to 0..255.
	BC4S
	// BC5 (ATI2) unsigned: two BC4 blocks, red then green.
	BC5
	// BC5S: BC5 with signed endpoints, mapped from −1..1 to 0..255.
	BC5S
	// BC7 (BPTC UNORM): 16-byte blocks in eight modes (bc7.go).
	BC7
	// BC6H unsigned and signed half floats (BPTC float): 16-byte blocks
	// in fourteen modes, clamped to 0..1 for 8 bits (bc6.go).
	BC6HU
	BC6HS
	numFormats
)

// Info describes the storage of a format: an element is one pixel, or one
// block of BlockW×BlockH pixels for the compressed formats.
type Info struct {
	Name           string
	BlockW, BlockH int // 1×1 for uncompressed formats
	Bytes          int // bytes per element
}

var infos = [numFormats]Info{
	RGBA8:  {"RGBA8", 1, 1, 4},
	RGB565: {"RGB565", 1, 1, 2},
	RGB5A1: {"RGB5A1", 1, 1, 2},
	RGBA4:  {"RGBA4", 1, 1, 2},
	R8:     {"R8", 1, 1, 1},
	RG8:    {"RG8", 1, 1, 2},
	BC1:    {"BC1", 4, 4, 8},
	BC2:    {"BC2", 4, 4, 16},
	BC3:    {"BC3", 4, 4, 16},
	BC4:    {"BC4", 4, 4, 8},
	BC4S:   {"BC4_SNORM", 4, 4, 8},
	BC5:    {"BC5", 4, 4, 16},
	BC5S:   {"BC5_SNORM", 4, 4, 16},
	BC7:    {"BC7", 4, 4, 16},
	BC6HU:  {"BC6H_UF16", 4, 4, 16},
	BC6HS:  {"BC6H_SF16", 4, 4, 16},
}

// Valid reports whether f is one of the formats above.
func (f Format) Valid() bool { return f > 0 && f < numFormats }

// Info returns the storage description of f (zero for an invalid format).
func (f Format) Info() Info {
	if !f.Valid() {
		return Info{}
	}
	return infos[f]
}

func (f Format) String() string {
	if !f.Valid() {
		return fmt.Sprintf("Format(%d)", int(f))
	}
	return infos[f].Name
}

// Compressed reports whether f stores blocks of several pixels.
func (f Format) Compressed() bool { return f.Info().BlockW > 1 }

// MaxDim bounds an image's width and height (GX2 and the PS2 GS allow
// 8192 and 1024; 16384 leaves room without letting a hostile header ask for
// gigabytes).
const MaxDim = 16384

// Elements returns the number of elements per row and of rows that a w×h
// image of format f stores (blocks round up).
func (f Format) Elements(w, h int) (cols, rows int, err error) {
	if err := checkDims(w, h); err != nil {
		return 0, 0, err
	}
	in := f.Info()
	if in.Bytes == 0 {
		return 0, 0, fmt.Errorf("unknown pixel format %d", int(f))
	}
	return (w + in.BlockW - 1) / in.BlockW, (h + in.BlockH - 1) / in.BlockH, nil
}

// Size returns the number of bytes a w×h image of format f occupies with its
// element rows packed one after another.
func (f Format) Size(w, h int) (int, error) {
	cols, rows, err := f.Elements(w, h)
	if err != nil {
		return 0, err
	}
	return cols * rows * f.Info().Bytes, nil
}

func checkDims(w, h int) error {
	if w <= 0 || h <= 0 || w > MaxDim || h > MaxDim {
		return fmt.Errorf("image size %d×%d is outside 1..%d", w, h, MaxDim)
	}
	return nil
}

// Decode converts a w×h image of format f, stored as packed rows of elements
// (Size(w, h) bytes; extra bytes are ignored), into 8-bit RGBA rows top to
// bottom (w·h·4 bytes). Blocks that overhang the right or bottom edge are
// cropped.
func Decode(f Format, src []byte, w, h int) ([]byte, error) {
	n, err := f.Size(w, h)
	if err != nil {
		return nil, err
	}
	if len(src) < n {
		return nil, fmt.Errorf("%s image of %d×%d needs %d bytes, only %d given", f, w, h, n, len(src))
	}
	dst := make([]byte, w*h*4)
	if f.Compressed() {
		decodeBlocks(f, src, dst, w, h)
		return dst, nil
	}
	decodeDirect(f, src[:n], dst)
	return dst, nil
}

// decodeBlocks decodes every 4×4 block and copies its visible pixels.
func decodeBlocks(f Format, src, dst []byte, w, h int) {
	in := infos[f]
	cols := (w + 3) / 4
	var block [64]byte // 16 pixels RGBA, row-major
	for by := 0; by*4 < h; by++ {
		for bx := 0; bx < cols; bx++ {
			off := (by*cols + bx) * in.Bytes
			DecodeBlock(f, src[off:off+in.Bytes], &block)
			for py := 0; py < 4 && by*4+py < h; py++ {
				for px := 0; px < 4 && bx*4+px < w; px++ {
					d := ((by*4+py)*w + bx*4 + px) * 4
					copy(dst[d:d+4], block[(py*4+px)*4:])
				}
			}
		}
	}
}

// unorm rounds x/d to the nearest integer (halves up), for x, d ≥ 0.
func unorm(x, d int) byte { return byte((2*x + d) / (2 * d)) }

// snorm maps a signed value n/d (−127/127 … 127/127 in units of 1/127, i.e.
// n/d ∈ [−127, 127]) to 0..255 with one rounding: round((n/d + 127)·255/254).
func snorm(n, d int) byte {
	x := (n + 127*d) * 255
	y := d * 254
	return byte((2*x + y) / (2 * y))
}
