package pixel

import (
	"bytes"
	"testing"
)

// TestTegraOffsetByHand checks element addresses worked out by hand from
// the GOB layout (tegra.go's formula: GOB base, then within the GOB
// (x/32)·256 + (y/2)·64 + ((x%32)/16)·32 + (y%2)·16 + x%16).
func TestTegraOffsetByHand(t *testing.T) {
	cases := []struct {
		name string
		s    TegraSurface
		x, y int
		want int
	}{
		// RGBA8, 32 pixels = 128 bytes = 2 GOBs per row, blocks of 2 GOBs
		// (16 rows, 1024 bytes). (21, 19): byte column 84, block row
		// 19/16 = 1 → 1·1024·2 = 2048; GOB column 84/64 = 1 → 1024; GOB
		// 3/8 = 0 in its block; inside: x 20, y 3 → 0·256 + 1·64 + 1·32
		// + 1·16 + 4 = 116. 2048 + 1024 + 116 = 3188.
		{"rgba8 (21,19)", TegraSurface{Cols: 32, Rows: 32, Bytes: 4, BlockHeightLog2: 1}, 21, 19, 3188},
		// The first element of each piece of the first GOB.
		{"rgba8 (0,0)", TegraSurface{Cols: 32, Rows: 32, Bytes: 4, BlockHeightLog2: 1}, 0, 0, 0},
		{"rgba8 (4,0)", TegraSurface{Cols: 32, Rows: 32, Bytes: 4, BlockHeightLog2: 1}, 4, 0, 32},  // x 16 → 32
		{"rgba8 (0,1)", TegraSurface{Cols: 32, Rows: 32, Bytes: 4, BlockHeightLog2: 1}, 0, 1, 16},  // y 1 → 16
		{"rgba8 (8,0)", TegraSurface{Cols: 32, Rows: 32, Bytes: 4, BlockHeightLog2: 1}, 8, 0, 256}, // x 32 → 256
		{"rgba8 (0,2)", TegraSurface{Cols: 32, Rows: 32, Bytes: 4, BlockHeightLog2: 1}, 0, 2, 64},  // y 2 → 64
		// Second GOB of the block: row 8 → 512.
		{"rgba8 (0,8)", TegraSurface{Cols: 32, Rows: 32, Bytes: 4, BlockHeightLog2: 1}, 0, 8, 512},
		// BC1 blocks (8 bytes), 128×128 pixels = 32×32 blocks, 256 bytes =
		// 4 GOBs per row, blocks of 4 GOBs (32 rows, 2048 bytes). Block
		// (13, 22): byte column 104 → GOB column 1 → 2048; GOB 22/8 = 2 →
		// 1024; inside x 40, y 6 → 256 + 3·64 + 0·32 + 0 + 8 = 456.
		// 2048 + 1024 + 456 = 3528.
		{"bc1 (13,22)", TegraSurface{Cols: 32, Rows: 32, Bytes: 8, BlockHeightLog2: 2}, 13, 22, 3528},
		// BC7 blocks (16 bytes), 3 columns = 48 bytes → 1 GOB per row;
		// one GOB per block (8 rows, 512 bytes). (2, 9): block row 1 →
		// 512; inside x 32, y 1 → 256 + 0 + 0 + 16 + 0 = 272. 784.
		{"bc7 (2,9)", TegraSurface{Cols: 3, Rows: 10, Bytes: 16, BlockHeightLog2: 0}, 2, 9, 784},
		// Pitch-linear R8, 33 pixels: pitch 64 (33 rounded up to 32s).
		{"linear (5,2)", TegraSurface{Cols: 33, Rows: 3, Bytes: 1, Linear: true}, 5, 2, 133},
	}
	for _, c := range cases {
		if got := c.s.Offset(c.x, c.y); got != c.want {
			t.Errorf("%s: offset %d, want %d", c.name, got, c.want)
		}
	}
}

// TestTegraBitPattern checks the address bits of a 64×64 RGBA8 surface
// (block height 8 GOBs, the one 64 rows need) against the pattern that
// ScanMountGoat/tegra_swizzle's swizzle.md tabulates: in 4-byte units,
// x's bits go to address bits 0, 1, 3, 6, 10, 11 and y's to 2, 4, 5, 7,
// 8, 9.
func TestTegraBitPattern(t *testing.T) {
	s := TegraSurface{Cols: 64, Rows: 64, Bytes: 4, BlockHeightLog2: 3}
	xBits := []int{0, 1, 3, 6, 10, 11}
	yBits := []int{2, 4, 5, 7, 8, 9}
	deposit := func(v int, bits []int) int {
		out := 0
		for i, b := range bits {
			out |= (v >> i & 1) << b
		}
		return out
	}
	for y := range 64 {
		for x := range 64 {
			want := 4 * (deposit(x, xBits) | deposit(y, yBits))
			if got := s.Offset(x, y); got != want {
				t.Fatalf("(%d,%d): offset %d, want %d", x, y, got, want)
			}
		}
	}
}

// TestTegraSizes checks the padded sizes worked out by hand.
func TestTegraSizes(t *testing.T) {
	cases := []struct {
		s    TegraSurface
		want int
	}{
		// 8×8 BC4: 2×2 blocks of 8 bytes: 16 bytes → 1 GOB wide, 2 rows →
		// one block of one GOB: 512 (the BNTX samples' 8×8 textures).
		{TegraSurface{Cols: 2, Rows: 2, Bytes: 8}, 512},
		// 128×128 BC1, block height 4: 4 GOBs × 32 rows (one block row) =
		// 4·2048 = 8192.
		{TegraSurface{Cols: 32, Rows: 32, Bytes: 8, BlockHeightLog2: 2}, 8192},
		// 100×20 RGBA8, block height 2: 400 bytes → 7 GOBs (448); 20 rows
		// → 2 block rows of 16 = 32 rows: 448·32 = 14336.
		{TegraSurface{Cols: 100, Rows: 20, Bytes: 4, BlockHeightLog2: 1}, 14336},
		// Linear 33×3 R8: pitch 64 · 3 = 192.
		{TegraSurface{Cols: 33, Rows: 3, Bytes: 1, Linear: true}, 192},
	}
	for _, c := range cases {
		got, err := c.s.Size()
		if err != nil || got != c.want {
			t.Errorf("%+v: size %d (%v), want %d", c.s, got, err, c.want)
		}
	}
	for _, bad := range []TegraSurface{
		{Cols: 0, Rows: 1, Bytes: 4},
		{Cols: 1, Rows: 1, Bytes: 3},
		{Cols: 1, Rows: 1, Bytes: 4, BlockHeightLog2: 6},
		{Cols: MaxDim + 1, Rows: 1, Bytes: 4},
	} {
		if _, err := bad.Size(); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

// TestTegraRoundTrip: Tile then Untile gives the packed rows back, for
// surfaces of every element size, padded or not, and Untile refuses a
// short source.
func TestTegraRoundTrip(t *testing.T) {
	for _, s := range []TegraSurface{
		{Cols: 7, Rows: 5, Bytes: 1, BlockHeightLog2: 0},
		{Cols: 33, Rows: 70, Bytes: 2, BlockHeightLog2: 3},
		{Cols: 64, Rows: 64, Bytes: 4, BlockHeightLog2: 4},
		{Cols: 9, Rows: 17, Bytes: 8, BlockHeightLog2: 1},
		{Cols: 5, Rows: 300, Bytes: 16, BlockHeightLog2: 5},
		{Cols: 13, Rows: 4, Bytes: 4, Linear: true},
	} {
		packed := make([]byte, s.Cols*s.Rows*s.Bytes)
		for i := range packed {
			packed[i] = byte(i*7 + i/251)
		}
		stored, err := s.Tile(packed)
		if err != nil {
			t.Fatal(err)
		}
		size, _ := s.Size()
		if len(stored) != size {
			t.Errorf("%+v: tiled %d bytes, size %d", s, len(stored), size)
		}
		back, err := s.Untile(stored)
		if err != nil || !bytes.Equal(back, packed) {
			t.Errorf("%+v: round trip differs (%v)", s, err)
		}
		if _, err := s.Untile(stored[:size-1]); err == nil {
			t.Errorf("%+v: short source accepted", s)
		}
	}
}
