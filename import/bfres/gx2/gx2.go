// Package gx2 undoes the Wii U GPU's surface tiling and names the GX2
// surface formats, for the textures of BFRES files (and any other Wii U
// format that stores GX2 surfaces).
//
// The Wii U's GPU (Latte, an AMD R700 derivative) stores textures tiled:
// 8×8-element micro tiles, grouped for the 2D modes into 32×16-element
// macro tiles whose 256-byte groups are spread over 2 pipes and 4 banks. An
// element is one pixel, or one 4×4 block of a BCn format. The address
// computations here are those of AMD's R600/R700 address library (addrlib)
// with the Wii U's configuration (2 pipes, 4 banks, 256-byte pipe
// interleave, 2048-byte rows and split size, 256-byte swap size), as
// documented by its public ports: decaf-emu's addrlib, Cemu's LatteAddrLib
// and AboodXD's addrlib.py (see docs/formats/bfres.md, Textures). No code
// was copied; the tests are worked by hand from the rules below.
//
// Only mip level 0 of a single-sample, single-slice surface is addressed:
// the linear modes, 1D tiled thin1 and the macro-tiled thin modes (2D and
// 2B bank-swapped in thin1, thin2 and thin4, and 3D/3B thin1, which equal
// 2D/2B on slice 0). Thick, multisample and depth-ordered surfaces are
// refused, as is the unresolved "default" mode 0.
package gx2

import "fmt"

// TileMode is a GX2 (= addrlib) tile mode.
type TileMode uint32

// Tile modes (GX2TileMode; addrlib's AddrTileMode has the same numbers).
const (
	// Default (GX2_TILE_MODE_DEFAULT) asks GX2 to choose a mode when the
	// surface is created; a stored surface holds the mode chosen, so a
	// file with 0 is refused.
	Default       TileMode = 0x0
	LinearAligned TileMode = 0x1
	Tiled1DThin1  TileMode = 0x2
	Tiled1DThick  TileMode = 0x3
	Tiled2DThin1  TileMode = 0x4
	Tiled2DThin2  TileMode = 0x5
	Tiled2DThin4  TileMode = 0x6
	Tiled2DThick  TileMode = 0x7
	Tiled2BThin1  TileMode = 0x8
	Tiled2BThin2  TileMode = 0x9
	Tiled2BThin4  TileMode = 0xA
	Tiled2BThick  TileMode = 0xB
	Tiled3DThin1  TileMode = 0xC
	Tiled3DThick  TileMode = 0xD
	Tiled3BThin1  TileMode = 0xE
	Tiled3BThick  TileMode = 0xF
	// LinearSpecial is GX2's name for addrlib's linear general mode: rows
	// of pitch elements, no alignment.
	LinearSpecial TileMode = 0x10
)

var tileModeNames = map[TileMode]string{
	Default: "default (unresolved)", LinearAligned: "linear aligned",
	Tiled1DThin1: "1D tiled thin1", Tiled1DThick: "1D tiled thick",
	Tiled2DThin1: "2D tiled thin1", Tiled2DThin2: "2D tiled thin2", Tiled2DThin4: "2D tiled thin4", Tiled2DThick: "2D tiled thick",
	Tiled2BThin1: "2B tiled thin1", Tiled2BThin2: "2B tiled thin2", Tiled2BThin4: "2B tiled thin4", Tiled2BThick: "2B tiled thick",
	Tiled3DThin1: "3D tiled thin1", Tiled3DThick: "3D tiled thick", Tiled3BThin1: "3B tiled thin1", Tiled3BThick: "3B tiled thick",
	LinearSpecial: "linear special",
}

func (m TileMode) String() string {
	if s, ok := tileModeNames[m]; ok {
		return s
	}
	return fmt.Sprintf("tile mode 0x%x", uint32(m))
}

// Supported reports whether this package addresses mode m.
func (m TileMode) Supported() bool {
	switch m {
	case LinearAligned, LinearSpecial, Tiled1DThin1, Tiled2DThin1, Tiled2DThin2, Tiled2DThin4,
		Tiled2BThin1, Tiled2BThin2, Tiled2BThin4, Tiled3DThin1, Tiled3BThin1:
		return true
	}
	return false
}

func (m TileMode) linear() bool { return m == LinearAligned || m == LinearSpecial }
func (m TileMode) macro() bool  { return m >= Tiled2DThin1 && m <= Tiled3BThick }
func (m TileMode) bankSwapped() bool {
	return m == Tiled2BThin1 || m == Tiled2BThin2 || m == Tiled2BThin4 || m == Tiled3BThin1
}

// aspect is the macro-tile aspect ratio: thin2 and thin4 macro tiles are
// 2 and 4 times taller and as much narrower than thin1's 32×16 elements
// (addrlib ComputeMacroTileAspectRatio).
func (m TileMode) aspect() int {
	switch m {
	case Tiled2DThin2, Tiled2BThin2:
		return 2
	case Tiled2DThin4, Tiled2BThin4:
		return 4
	}
	return 1
}

// macroTileSize is the macro tile's width and height in elements.
func (m TileMode) macroTileSize() (w, h int) {
	return macroTileWidth / m.aspect(), macroTileHeight * m.aspect()
}

// The Wii U's addrlib configuration.
const (
	numPipes           = 2
	numBanks           = 4
	pipeInterleaveBits = 8 // 256-byte groups
	pipeBits           = 1
	bankBits           = 2
	rowSize            = 2048
	swapSize           = 256
	splitSize          = 2048
	microTileWidth     = 8
	microTileHeight    = 8
	macroTileWidth     = microTileWidth * numBanks  // 32 elements, thin1
	macroTileHeight    = microTileHeight * numPipes // 16 elements, thin1
)

// Surface is what addressing needs to know of mip level 0 of a surface.
type Surface struct {
	Mode TileMode
	// Bits per element: 8, 16, 32, 64 or 128 (a BCn element is a block:
	// 64 bits for BC1/BC4, 128 for BC2/BC3/BC5).
	Bits int
	// Pitch is the stored row length in elements (the surface header's pitch).
	Pitch int
	// Swizzle is the surface header's swizzle word: bit 8 is the pipe
	// swizzle, bits 9–10 the bank swizzle (macro-tiled modes only).
	Swizzle uint32
}

// Check reports whether s can be addressed: a supported mode, an element
// size the micro-tile orders are defined for and a pitch that whole tiles
// divide.
func (s Surface) Check() error {
	if err := checkMode(s.Mode, s.Bits); err != nil {
		return err
	}
	if s.Pitch <= 0 || s.Pitch > 1<<16 {
		return fmt.Errorf("GX2 surface pitch %d is outside 1..65536", s.Pitch)
	}
	switch {
	case s.Mode.macro() && s.Pitch%(macroTileWidth/s.Mode.aspect()) != 0:
		return fmt.Errorf("GX2 %s surface pitch %d is not a multiple of the %d-element macro tile", s.Mode, s.Pitch, macroTileWidth/s.Mode.aspect())
	case s.Mode == Tiled1DThin1 && s.Pitch%microTileWidth != 0:
		return fmt.Errorf("GX2 %s surface pitch %d is not a multiple of the %d-element micro tile", s.Mode, s.Pitch, microTileWidth)
	}
	return nil
}

// checkMode reports whether mode m and the element size are supported.
func checkMode(m TileMode, bits int) error {
	if !m.Supported() {
		return fmt.Errorf("GX2 %s is not supported (only linear aligned/special, 1D thin1, 2D/2B thin1/2/4 and 3D/3B thin1)", m)
	}
	switch bits {
	case 8, 16, 32, 64, 128:
		return nil
	}
	return fmt.Errorf("GX2 surface with %d bits per element is not supported", bits)
}

// pixelIndex is the position of element (x, y) within its 8×8 micro tile
// for a thin, displayable (non-depth) surface: a 6-bit number whose bits
// are taken from x and y in an order that depends on the element size
// (addrlib ComputePixelIndexWithinMicroTile, ADDR_DISPLAYABLE). Listed from
// bit 0 up:
//
//	 8 bits: x0 x1 x2 y1 y0 y2
//	16 bits: x0 x1 x2 y0 y1 y2
//	32 bits: x0 x1 y0 x2 y1 y2
//	64 bits: x0 y0 x1 x2 y1 y2
//	128 bits: y0 x0 x1 x2 y1 y2
func pixelIndex(x, y, bits int) int {
	x0, x1, x2 := x&1, x>>1&1, x>>2&1
	y0, y1, y2 := y&1, y>>1&1, y>>2&1
	var b [6]int
	switch bits {
	case 8:
		b = [6]int{x0, x1, x2, y1, y0, y2}
	case 16:
		b = [6]int{x0, x1, x2, y0, y1, y2}
	case 64:
		b = [6]int{x0, y0, x1, x2, y1, y2}
	case 128:
		b = [6]int{y0, x0, x1, x2, y1, y2}
	default: // 32
		b = [6]int{x0, x1, y0, x2, y1, y2}
	}
	return b[0] | b[1]<<1 | b[2]<<2 | b[3]<<3 | b[4]<<4 | b[5]<<5
}

// Addr returns the byte address of element (x, y) of level 0 (s must pass
// Check; x, y ≥ 0).
func (s Surface) Addr(x, y int) int {
	switch {
	case s.Mode.linear():
		return (y*s.Pitch + x) * s.Bits / 8
	case s.Mode == Tiled1DThin1:
		return s.microTiledAddr(x, y)
	}
	return s.macroTiledAddr(x, y)
}

// microTiledAddr: micro tiles of 8×8 elements stored row after row, each
// 64 elements in pixelIndex order (addrlib ComputeSurfaceAddrFromCoordMicroTiled).
func (s Surface) microTiledAddr(x, y int) int {
	microTileBytes := 64 * s.Bits / 8
	tile := x/microTileWidth + (s.Pitch/microTileWidth)*(y/microTileHeight)
	return tile*microTileBytes + pixelIndex(x, y, s.Bits)*s.Bits/8
}

// macroTiledAddr (addrlib ComputeSurfaceAddrFromCoordMacroTiled for one
// sample, slice 0, thin modes):
//
//   - the element's offset within its micro tile is pixelIndex·bits/8;
//   - pipe = (y/8 ⊕ x/8) mod 2; bank bit 0 = (y/32 ⊕ x/8) mod 2, bank bit 1 =
//     (y/16 ⊕ x/16) mod 2; then (pipe + 2·bank) ⊕= (pipeSwizzle +
//     2·bankSwizzle), and pipe and bank are read back from it;
//   - macro tiles of W×H = 32×16 elements (thin1; 16×32 thin2, 8×64 thin4)
//     are stored row after row, pitch/W per row, 64·bits bytes each; the
//     bank-swapped modes then XOR the bank with
//     (0, 1, 3, 2)[(W·macroX / bankSwapWidth) mod 4];
//   - with t = macroTileOffset/8 + the micro-tile offset, the address is
//     t's low 8 bits, the pipe at bit 8, the bank at bits 9–10 and the rest
//     of t shifted up by 3.
func (s Surface) macroTiledAddr(x, y int) int {
	elemOffset := pixelIndex(x, y, s.Bits) * s.Bits / 8
	pipe := (y>>3 ^ x>>3) & 1
	bank := (y>>5^x>>3)&1 | ((y>>4^x>>4)&1)<<1
	swizzle := int(s.Swizzle>>8&1) + numPipes*int(s.Swizzle>>9&3)
	bankPipe := (pipe + numPipes*bank) ^ swizzle
	bankPipe %= numPipes * numBanks
	pipe, bank = bankPipe%numPipes, bankPipe/numPipes

	mw, mh := s.Mode.macroTileSize()
	macroTileBytes := mw * mh * s.Bits / 8
	macroX, macroY := x/mw, y/mh
	macroTileOffset := (macroX + s.Pitch/mw*macroY) * macroTileBytes
	if s.Mode.bankSwapped() {
		swapIndex := mw * macroX / bankSwapWidth(s.Bits, s.Pitch, s.Mode.aspect())
		bank ^= bankSwapOrder[swapIndex&(numBanks-1)]
	}
	total := macroTileOffset>>(pipeBits+bankBits) + elemOffset
	const groupMask = 1<<pipeInterleaveBits - 1
	return (total&^groupMask)<<(pipeBits+bankBits) | total&groupMask |
		pipe<<pipeInterleaveBits | bank<<(pipeInterleaveBits+pipeBits)
}

var bankSwapOrder = [4]int{0, 1, 3, 2}

// bankSwapWidth is addrlib's ComputeSurfaceBankSwappedWidth for a thin,
// single-sample surface: min(swapMax, max(swapMin, swapWidth)) halved
// while it is at least twice the pitch, where swapWidth = max(1,
// (swapSize/2)/bits)·8·banks, swapMax = pipes·banks·rowSize/(aspect·pipes·bits)
// and swapMin = pipeInterleave·8·banks/(8·bits) (bytes per tile slice).
func bankSwapWidth(bits, pitch, aspect int) int {
	swapTiles := max(1, (swapSize>>1)/bits)
	swapWidth := swapTiles * 8 * numBanks
	heightBytes := aspect * numPipes * bits // numSamples · aspect · pipes · bits
	swapMax := numPipes * numBanks * rowSize / heightBytes
	swapMin := (1 << pipeInterleaveBits) * 8 * numBanks / (8 * bits)
	w := min(swapMax, max(swapMin, swapWidth))
	for w >= 2*pitch {
		w >>= 1
	}
	return max(w, 1)
}

// Untile copies the cols×rows elements of level 0 out of the tiled image
// into rows packed one after another (cols·bits/8 bytes each). An element
// whose address lies beyond the image is an error naming it.
func Untile(s Surface, image []byte, cols, rows int) ([]byte, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	if cols <= 0 || rows <= 0 || cols > s.Pitch {
		return nil, fmt.Errorf("GX2 surface of %d×%d elements does not fit its pitch of %d", cols, rows, s.Pitch)
	}
	eb := s.Bits / 8
	// The last row alone reaches at least (rows-1)·pitch elements in: a
	// cheap check that refuses a hostile height before allocating.
	if int64(rows-1)*int64(s.Pitch)*int64(eb) >= int64(len(image)) {
		return nil, fmt.Errorf("GX2 surface of %d rows at pitch %d needs more than the %d bytes of its image", rows, s.Pitch, len(image))
	}
	out := make([]byte, cols*rows*eb)
	for y := range rows {
		for x := range cols {
			a := s.Addr(x, y)
			if a+eb > len(image) {
				return nil, fmt.Errorf("GX2 %s element (%d, %d) lies at 0x%x, beyond the %d-byte image", s.Mode, x, y, a, len(image))
			}
			copy(out[(y*cols+x)*eb:], image[a:a+eb])
		}
	}
	return out, nil
}

// Tile is Untile's inverse: it places packed rows of elements into a new
// tiled image of size bytes (see Layout), for writers and tests.
func Tile(s Surface, packed []byte, cols, rows, size int) ([]byte, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	eb := s.Bits / 8
	if len(packed) < cols*rows*eb {
		return nil, fmt.Errorf("%d×%d elements need %d bytes, only %d given", cols, rows, cols*rows*eb, len(packed))
	}
	out := make([]byte, size)
	for y := range rows {
		for x := range cols {
			a := s.Addr(x, y)
			if a+eb > size {
				return nil, fmt.Errorf("GX2 %s element (%d, %d) lies at 0x%x, beyond the %d-byte image", s.Mode, x, y, a, size)
			}
			copy(out[a:a+eb], packed[(y*cols+x)*eb:])
		}
	}
	return out, nil
}

// Layout computes level 0 of a single-sample 2D surface of cols×rows
// elements in mode m as addrlib's ComputeSurfaceInfo does: the pitch and
// height padded to the mode's alignment, the image size in bytes and the
// base alignment. Writers use it to fill a surface header.
//
//	linear aligned: pitch × max(64, 2048/bits), height ×1, base 256
//	1D thin1:       pitch × max(8, 256/bits), height ×8, base 256
//	2D/3D thin1:    pitch × max(32, 32·(256/bits/8)), height ×16,
//	                base max(64·bits, 16·bits·pitchAlign/8)
//	2D thin2/thin4: the same with the macro tile 16×32 / 8×64 for 32×16
//	2B/3B:          as 2D with the pitch alignment raised to the bank-swap width
func Layout(m TileMode, bits, cols, rows int) (pitch, height, size, align int, err error) {
	if err := checkMode(m, bits); err != nil {
		return 0, 0, 0, 0, err
	}
	if cols <= 0 || rows <= 0 || cols > 1<<14 || rows > 1<<14 {
		return 0, 0, 0, 0, fmt.Errorf("GX2 surface of %d×%d elements is outside 1..16384", cols, rows)
	}
	pitchAlign, heightAlign := 1, 1
	switch {
	case m == LinearSpecial:
		return 0, 0, 0, 0, fmt.Errorf("GX2 %s surfaces are not laid out here", m)
	case m == LinearAligned:
		pitchAlign, align = max(64, 2048/bits), 256
	case m == Tiled1DThin1:
		pitchAlign, heightAlign, align = max(8, 256/bits), microTileHeight, 256
	default:
		mw, mh := m.macroTileSize()
		pitchAlign = max(mw, mw*(256/bits/8))
		heightAlign = mh
		align = max(mw*mh*bits/8, heightAlign*bits*pitchAlign/8)
		if m.bankSwapped() {
			pitchAlign = max(pitchAlign, bankSwapWidth(bits, cols, m.aspect()))
		}
	}
	pitch = (cols + pitchAlign - 1) / pitchAlign * pitchAlign
	height = (rows + heightAlign - 1) / heightAlign * heightAlign
	return pitch, height, pitch * height * bits / 8, align, nil
}
