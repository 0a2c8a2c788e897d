package gx2

import (
	"bytes"
	"strings"
	"testing"
)

// Linear: row y starts at y·pitch elements.
func TestLinear(t *testing.T) {
	img := []byte{'a', 'b', 'c', 0, 'd', 'e', 'f', 0}
	for _, m := range []TileMode{LinearAligned, LinearSpecial} {
		got, err := Untile(Surface{Mode: m, Bits: 8, Pitch: 4}, img, 3, 2)
		if err != nil || string(got) != "abcdef" {
			t.Errorf("%s: %q %v", m, got, err)
		}
	}
}

// 1D thin1, 8-bit elements: within an 8×8 micro tile the index bits are
// x0 x1 x2 y1 y0 y2, so rows are stored in the order 0, 2, 1, 3, 4, 6, 5, 7
// (y = 1 has y0 = 1 → index 16..23, y = 2 has y1 = 1 → 8..15).
func TestMicroTiled8(t *testing.T) {
	rowOrder := []int{0, 2, 1, 3, 4, 6, 5, 7}
	var tiled []byte
	for _, y := range rowOrder {
		for x := range 8 {
			tiled = append(tiled, byte(y*8+x))
		}
	}
	got, err := Untile(Surface{Mode: Tiled1DThin1, Bits: 8, Pitch: 8}, tiled, 8, 8)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range got {
		if int(v) != i {
			t.Fatalf("untiled element %d holds %d; want the identity pattern, got %v", i, v, got)
		}
	}
}

// 1D thin1, 32-bit elements, pitch 16: micro tiles of 8·8·4 = 256 bytes,
// two per row of tiles. Index bits x0 x1 y0 x2 y1 y2.
func TestMicroTiled32(t *testing.T) {
	s := Surface{Mode: Tiled1DThin1, Bits: 32, Pitch: 16}
	for _, c := range []struct{ x, y, addr int }{
		{0, 0, 0},
		{1, 0, 4},   // x0 → index 1
		{0, 1, 16},  // y0 → index 4
		{4, 0, 32},  // x2 → index 8
		{0, 2, 64},  // y1 → index 16
		{8, 0, 256}, // second tile
		{9, 1, 276}, // second tile, index 1 + 4 = 5 → 20
		{0, 8, 512}, // tile row 1: tile 2
		{15, 15, 1020},
	} {
		if got := s.Addr(c.x, c.y); got != c.addr {
			t.Errorf("(%d,%d): 0x%x, want 0x%x", c.x, c.y, got, c.addr)
		}
	}
}

// Addresses in the 2D thin1 (and, on slice 0, 3D thin1) mode, 32-bit
// elements, pitch 32, worked from the rules on macroTiledAddr:
// pipe = (y/8 ⊕ x/8)&1, bank = (y/32 ⊕ x/8)&1 | ((y/16 ⊕ x/16)&1)<<1,
// address = offset-in-micro-tile | pipe<<8 | bank<<9 within a macro tile
// of 32×16×4 = 2048 bytes.
var macro32 = []struct{ x, y, addr int }{
	{0, 0, 0},
	{1, 0, 4},
	{0, 1, 16},
	{4, 0, 32},
	{0, 2, 64},
	{0, 4, 128},
	{7, 7, 252},    // index 63
	{8, 0, 768},    // pipe 1, bank 1
	{0, 8, 256},    // pipe 1, bank 0
	{8, 8, 512},    // pipe 0, bank 1
	{16, 0, 1024},  // pipe 0, bank 2
	{24, 0, 1792},  // pipe 1, bank 3
	{31, 15, 1788}, // index 63 → 252, pipe 0, bank 3
	{0, 16, 3072},  // second macro row: offset 2048 → t = 256 → 2048, bank 2
	{0, 32, 4608},  // offset 4096 → t = 512 → 4096, bank 1
}

func TestMacroTiled32(t *testing.T) {
	for _, m := range []TileMode{Tiled2DThin1, Tiled3DThin1} {
		s := Surface{Mode: m, Bits: 32, Pitch: 32}
		for _, c := range macro32 {
			if got := s.Addr(c.x, c.y); got != c.addr {
				t.Errorf("%s (%d,%d): %d, want %d", m, c.x, c.y, got, c.addr)
			}
		}
	}
	// Pitch 64: macro tile 1 of row 0 starts 2048 bytes in.
	if got := (Surface{Mode: Tiled2DThin1, Bits: 32, Pitch: 64}).Addr(32, 0); got != 2048 {
		t.Errorf("(32,0) at pitch 64: %d, want 2048", got)
	}
}

// The swizzle word 0x300 (pipe swizzle 1, bank swizzle 1) XORs pipe+2·bank
// with 3: (0,0) moves to pipe 1 bank 1 = 768 and (8,0) (pipe 1, bank 1)
// to 0.
func TestMacroSwizzle(t *testing.T) {
	s := Surface{Mode: Tiled2DThin1, Bits: 32, Pitch: 32, Swizzle: 0x300}
	if a, b := s.Addr(0, 0), s.Addr(8, 0); a != 768 || b != 0 {
		t.Errorf("swizzled (0,0) = %d, (8,0) = %d; want 768, 0", a, b)
	}
	// Bits outside 8–10 (the mip swizzle) do not move level 0.
	s.Swizzle = 0x00FF00FF &^ 0x700
	if a := s.Addr(0, 0); a != 0 {
		t.Errorf("low swizzle bits moved (0,0) to %d", a)
	}
}

// BC1 blocks (64-bit elements): index bits x0 y0 x1 x2 y1 y2; the last
// element of the micro tile sits at 63·8 = 504, which crosses the 256-byte
// group: t = 504 → (256<<3) | 248 = 2296.
func TestMacroTiled64(t *testing.T) {
	s := Surface{Mode: Tiled2DThin1, Bits: 64, Pitch: 32}
	for _, c := range []struct{ x, y, addr int }{{1, 0, 8}, {0, 1, 16}, {2, 0, 32}, {7, 7, 2296}} {
		if got := s.Addr(c.x, c.y); got != c.addr {
			t.Errorf("(%d,%d): %d, want %d", c.x, c.y, got, c.addr)
		}
	}
}

// 2B thin1 (and 3B on slice 0), 32-bit, pitch 256: the bank-swap width is
// min(256, max(32, 4·8·4 = 128)) = 128 (< 2·256), so macro tiles 4..7 of a
// row (x 128..255) XOR their bank with swap order[1] = 1. (128,0): t = 4·2048/8
// = 1024 → 8192, bank 0 → 1: 8704. (192,0): 12288 + 512. (64,0) is unswapped.
func TestBankSwapped(t *testing.T) {
	if w := bankSwapWidth(32, 256, 1); w != 128 {
		t.Fatalf("bank swap width %d, want 128", w)
	}
	for _, m := range []TileMode{Tiled2BThin1, Tiled3BThin1} {
		s := Surface{Mode: m, Bits: 32, Pitch: 256}
		for _, c := range []struct{ x, y, addr int }{{128, 0, 8704}, {192, 0, 12800}, {64, 0, 4096}, {8, 0, 768}} {
			if got := s.Addr(c.x, c.y); got != c.addr {
				t.Errorf("%s (%d,%d): %d, want %d", m, c.x, c.y, got, c.addr)
			}
		}
	}
	if got := (Surface{Mode: Tiled2DThin1, Bits: 32, Pitch: 256}).Addr(128, 0); got != 8192 {
		t.Errorf("2D (128,0) = %d, want 8192", got)
	}
}

// Every tiled mode maps the elements of a padded surface one-to-one onto
// its image, so Tile followed by Untile gives the pattern back.
func TestRoundTripEveryMode(t *testing.T) {
	for _, m := range []TileMode{LinearAligned, Tiled1DThin1, Tiled2DThin1, Tiled2DThin2, Tiled2DThin4, Tiled2BThin1,
		Tiled2BThin2, Tiled2BThin4, Tiled3DThin1, Tiled3BThin1} {
		for _, bits := range []int{8, 16, 32, 64, 128} {
			cols, rows := 70, 37
			pitch, height, size, _, err := Layout(m, bits, cols, rows)
			if err != nil {
				t.Fatal(err)
			}
			s := Surface{Mode: m, Bits: bits, Pitch: pitch, Swizzle: 0x500}
			// Every element of the padded surface lands on its own bytes.
			seen := make([]bool, size)
			for y := range height {
				for x := range pitch {
					a := s.Addr(x, y)
					if a+bits/8 > size || seen[a] {
						t.Fatalf("%s %d bits: (%d,%d) at %d (size %d) out of range or taken", m, bits, x, y, a, size)
					}
					seen[a] = true
				}
			}
			packed := make([]byte, cols*rows*bits/8)
			for i := range packed {
				packed[i] = byte(i*7 + i/251)
			}
			img, err := Tile(s, packed, cols, rows, size)
			if err != nil {
				t.Fatal(err)
			}
			back, err := Untile(s, img, cols, rows)
			if err != nil || !bytes.Equal(back, packed) {
				t.Fatalf("%s %d bits: round trip differs (%v)", m, bits, err)
			}
		}
	}
}

// Layout, worked from the alignment rules on Layout.
func TestLayout(t *testing.T) {
	for _, c := range []struct {
		m                          TileMode
		bits, cols, rows           int
		pitch, height, size, align int
	}{
		{Tiled2DThin1, 64, 16, 16, 32, 16, 4096, 4096},    // BC1 64×64
		{Tiled1DThin1, 32, 16, 16, 16, 16, 1024, 256},     // RGBA8 16×16
		{Tiled2DThin1, 8, 10, 10, 128, 16, 2048, 2048},    // R8: pitch ×128
		{LinearAligned, 32, 3, 3, 64, 3, 768, 256},        // pitch ×64
		{Tiled2BThin1, 32, 200, 16, 256, 16, 16384, 2048}, // swap width 128
	} {
		p, h, s, a, err := Layout(c.m, c.bits, c.cols, c.rows)
		if err != nil || p != c.pitch || h != c.height || s != c.size || a != c.align {
			t.Errorf("%s %d bits %d×%d: pitch %d height %d size %d align %d (%v); want %d %d %d %d",
				c.m, c.bits, c.cols, c.rows, p, h, s, a, err, c.pitch, c.height, c.size, c.align)
		}
	}
}

func TestBadSurfaces(t *testing.T) {
	img := make([]byte, 4096)
	for _, c := range []struct {
		s          Surface
		cols, rows int
		want       string
	}{
		{Surface{Mode: Tiled1DThick, Bits: 32, Pitch: 32}, 8, 8, "not supported"},
		{Surface{Mode: Default, Bits: 32, Pitch: 32}, 8, 8, "default (unresolved) is not supported"},
		{Surface{Mode: 0x55, Bits: 32, Pitch: 32}, 8, 8, "tile mode 0x55"},
		{Surface{Mode: Tiled2DThin1, Bits: 24, Pitch: 32}, 8, 8, "24 bits"},
		{Surface{Mode: Tiled2DThin1, Bits: 32, Pitch: 40}, 8, 8, "multiple of the 32-element macro tile"},
		{Surface{Mode: Tiled1DThin1, Bits: 32, Pitch: 12}, 8, 8, "multiple of the 8-element micro tile"},
		{Surface{Mode: Tiled2DThin1, Bits: 32, Pitch: 32}, 33, 8, "does not fit its pitch"},
		{Surface{Mode: Tiled2DThin1, Bits: 32, Pitch: 32}, 32, 1 << 20, "needs more than"},
		{Surface{Mode: Tiled2DThin1, Bits: 32, Pitch: 32}, 32, 16, "beyond the 2000-byte image"},
		{Surface{Mode: LinearAligned, Bits: 32, Pitch: 0}, 1, 1, "pitch 0"},
	} {
		in := img
		if strings.Contains(c.want, "2000") {
			in = img[:2000]
		}
		_, err := Untile(c.s, in, c.cols, c.rows)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v %d×%d: %v, want an error containing %q", c.s, c.cols, c.rows, err, c.want)
		}
	}
}

// The bank rule in its other published form (Cemu's LatteAddrLib): take
// bits 4–5 of y, exchange them, XOR with x/8 and keep 2 bits. Both forms
// must agree everywhere, swizzle 0, on a 2D surface.
func TestBankRuleOtherForm(t *testing.T) {
	s := Surface{Mode: Tiled2DThin1, Bits: 8, Pitch: 128}
	for y := range 128 {
		for x := range 128 {
			b := y >> 4 & 3
			b = (b>>1 | b<<1) & 3
			bank := (b ^ x>>3) & 3
			pipe := (y>>3 ^ x>>3) & 1
			a := s.Addr(x, y)
			if a>>8&1 != pipe || a>>9&3 != bank {
				t.Fatalf("(%d,%d): pipe %d bank %d from the address 0x%x, other form gives %d, %d", x, y, a>>8&1, a>>9&3, a, pipe, bank)
			}
		}
	}
}

// Thin2 and thin4 macro tiles are 16×32 and 8×64 elements (2048 bytes at
// 32 bits). Thin2, pitch 32 (2 tiles a row): (0,16) stays in macro tile 0
// (pipe 0, bank bits (0, 1) → 2): 1024; (16,0) is macro tile 1: t =
// 2048/8 = 256 → 2048, with pipe 0 and bank 2: 3072 (thin1 puts it at
// 1024); (0,32) is tile row 1: t = 2·2048/8 = 512 → 4096, pipe 0, bank
// bits (1, 0) → 1: 4608. Thin4, pitch 16: (0,32) is bank 1 in tile 0: 512;
// (0,64) is tile row 1: 4096 with pipe 0, bank 0; (8,0) is tile 1: 2048 +
// pipe 1 (256) + bank 1 (512) = 2816.
func TestMacroThin2Thin4(t *testing.T) {
	for _, c := range []struct {
		m           TileMode
		pitch, x, y int
		addr        int
	}{
		{Tiled2DThin2, 32, 0, 16, 1024}, {Tiled2DThin2, 32, 16, 0, 3072}, {Tiled2DThin2, 32, 0, 32, 4608},
		{Tiled2DThin4, 16, 0, 32, 512}, {Tiled2DThin4, 16, 0, 64, 4096}, {Tiled2DThin4, 16, 8, 0, 2816},
	} {
		s := Surface{Mode: c.m, Bits: 32, Pitch: c.pitch}
		if err := s.Check(); err != nil {
			t.Fatal(err)
		}
		if got := s.Addr(c.x, c.y); got != c.addr {
			t.Errorf("%s pitch %d (%d,%d): %d, want %d", c.m, c.pitch, c.x, c.y, got, c.addr)
		}
	}
	if err := (Surface{Mode: Tiled2DThin4, Bits: 32, Pitch: 12}).Check(); err == nil || !strings.Contains(err.Error(), "8-element macro tile") {
		t.Errorf("thin4 pitch 12: %v", err)
	}
}
