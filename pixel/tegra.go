package pixel

import "fmt"

// Tegra X1 surfaces (Nintendo Switch) are stored block-linear: the image is
// cut into GOBs ("groups of bytes") of 64 bytes × 8 rows (512 bytes), and
// GOBs are stacked in blocks one GOB wide and 2^BlockHeightLog2 GOBs tall.
// Blocks follow one another left to right, then block rows top to bottom;
// inside a block the GOBs go top to bottom; inside a GOB the 512 bytes are
// in this order (x the byte column 0..63, y the row 0..7):
//
//	offset = (x/32)·256 + (y/2)·64 + ((x%32)/16)·32 + (y%2)·16 + x%16
//
// that is, two 32-byte halves of 256 bytes each, each made of four 2-row
// strips of 64 bytes, in which 16-byte pieces of the two rows alternate.
// Rows are as wide as the image's bytes rounded up to whole GOBs and the
// height is rounded up to whole blocks. A pitch-linear surface (BNTX tile
// mode 1) is plain rows whose pitch is the row's bytes rounded up to 32.

// Tegra GOB and pitch constants (bytes).
const (
	GOBWidth    = 64
	GOBHeight   = 8
	GOBSize     = GOBWidth * GOBHeight
	TegraPitch  = 32 // row alignment of pitch-linear surfaces
	MaxBlockLog = 5  // block heights are 1, 2, 4, 8, 16 or 32 GOBs
)

// TegraSurface describes level 0 of a Tegra X1 surface in elements (pixels,
// or blocks of a compressed format).
type TegraSurface struct {
	// Cols and Rows are the elements per row and the rows of elements.
	Cols, Rows int
	// Bytes is the size of an element.
	Bytes int
	// Linear selects the pitch-linear layout; otherwise block-linear with
	// blocks of 2^BlockHeightLog2 GOBs.
	Linear          bool
	BlockHeightLog2 int
}

// check refuses dimensions that could overflow or ask for absurd sizes.
func (s TegraSurface) check() error {
	if s.Cols <= 0 || s.Rows <= 0 || s.Cols > MaxDim || s.Rows > MaxDim {
		return fmt.Errorf("surface of %d×%d elements is outside 1..%d", s.Cols, s.Rows, MaxDim)
	}
	if s.Bytes <= 0 || s.Bytes > 16 || s.Bytes&(s.Bytes-1) != 0 {
		// Powers of two up to 16 never straddle the GOB's 16-byte pieces.
		return fmt.Errorf("element size %d bytes is not 1, 2, 4, 8 or 16", s.Bytes)
	}
	if !s.Linear && (s.BlockHeightLog2 < 0 || s.BlockHeightLog2 > MaxBlockLog) {
		return fmt.Errorf("block height 2^%d GOBs is outside 2^0..2^%d", s.BlockHeightLog2, MaxBlockLog)
	}
	return nil
}

// rowBytes is the stored width of one row in bytes: whole GOBs, or the
// 32-byte-aligned pitch.
func (s TegraSurface) rowBytes() int {
	if s.Linear {
		return roundUp(s.Cols*s.Bytes, TegraPitch)
	}
	return roundUp(s.Cols*s.Bytes, GOBWidth)
}

// blockRows is the number of element rows one block covers.
func (s TegraSurface) blockRows() int { return GOBHeight << s.BlockHeightLog2 }

// Size returns the bytes the stored surface occupies, padding included.
func (s TegraSurface) Size() (int, error) {
	if err := s.check(); err != nil {
		return 0, err
	}
	if s.Linear {
		return s.rowBytes() * s.Rows, nil
	}
	return s.rowBytes() * roundUp(s.Rows, s.blockRows()), nil
}

// Offset returns the byte offset of element (x, y) in the stored surface.
// The surface must be valid (Size without error) and x, y inside it.
func (s TegraSurface) Offset(x, y int) int {
	xb := x * s.Bytes
	if s.Linear {
		return y*s.rowBytes() + xb
	}
	gobsPerRow := s.rowBytes() / GOBWidth
	blockSize := GOBSize << s.BlockHeightLog2
	br := s.blockRows()
	gob := (y/br)*blockSize*gobsPerRow + (xb/GOBWidth)*blockSize + (y%br/GOBHeight)*GOBSize
	gx, gy := xb%GOBWidth, y%GOBHeight
	return gob + gx/32*256 + gy/2*64 + gx%32/16*32 + gy%2*16 + gx%16
}

// Untile returns the elements of the stored surface src as packed rows
// (Cols·Bytes bytes each, Rows rows), the input of Decode. src must hold
// at least Size bytes.
func (s TegraSurface) Untile(src []byte) ([]byte, error) {
	return s.move(src, false)
}

// Tile is Untile's inverse: it lays packed rows out as the stored surface
// (Size bytes, padding zero). Writers use it.
func (s TegraSurface) Tile(packed []byte) ([]byte, error) {
	return s.move(packed, true)
}

func (s TegraSurface) move(src []byte, tile bool) ([]byte, error) {
	size, err := s.Size()
	if err != nil {
		return nil, err
	}
	packed := s.Cols * s.Rows * s.Bytes
	need, outLen := size, packed
	if tile {
		need, outLen = packed, size
	}
	if len(src) < need {
		return nil, fmt.Errorf("surface of %d×%d %d-byte elements needs %d bytes, only %d given", s.Cols, s.Rows, s.Bytes, need, len(src))
	}
	out := make([]byte, outLen)
	n := s.Bytes
	if s.Linear {
		pitch := s.rowBytes()
		for y := range s.Rows {
			lin, stored := y*s.Cols*n, y*pitch
			if tile {
				copy(out[stored:stored+s.Cols*n], src[lin:])
			} else {
				copy(out[lin:lin+s.Cols*n], src[stored:])
			}
		}
		return out, nil
	}
	for y := range s.Rows {
		for x := range s.Cols {
			lin, stored := (y*s.Cols+x)*n, s.Offset(x, y)
			if tile {
				copy(out[stored:stored+n], src[lin:lin+n])
			} else {
				copy(out[lin:lin+n], src[stored:stored+n])
			}
		}
	}
	return out, nil
}

func roundUp(x, a int) int { return (x + a - 1) / a * a }
