package pixel

import (
	"bytes"
	"strings"
	"testing"
)

// px returns pixel i of a decoded block.
func px(b *[64]byte, i int) [4]byte { return [4]byte(b[i*4 : i*4+4]) }

// checkBlock decodes one block and compares chosen pixels with values
// worked out by hand.
func checkBlock(t *testing.T, f Format, block []byte, want map[int][4]byte) {
	t.Helper()
	var out [64]byte
	DecodeBlock(f, block, &out)
	for i, w := range want {
		if got := px(&out, i); got != w {
			t.Errorf("%s pixel %d = %v, want %v", f, i, got, w)
		}
	}
}

// BC1, c0 > c1: four opaque colours. c0 = 0xF800 is red 31 → 255, c1 =
// 0x001F is blue 31 → 255; c2 = round((2·255+0)/3) = 170 red, round(255/3)
// = 85 blue; c3 the mirror. Indices E4 = 11 10 01 00: pixels 0..3 take
// colours 0..3, the rest colour 0.
func TestBC1FourColours(t *testing.T) {
	checkBlock(t, BC1, []byte{0x00, 0xF8, 0x1F, 0x00, 0xE4, 0, 0, 0}, map[int][4]byte{
		0: {255, 0, 0, 255}, 1: {0, 0, 255, 255}, 2: {170, 0, 85, 255}, 3: {85, 0, 170, 255}, 15: {255, 0, 0, 255},
	})
	// Rounding: c0 = 0x8410 is r 16, g 32, b 16 → 132, 130, 132 by bit
	// replication (16<<3 | 16>>2, 32<<2 | 32>>4); c1 black.
	// c2 = round(2/3·(132, 130, 132)) = (88, 86.67→87, 88);
	// c3 = round(1/3·…) = (44, 43.33→43, 44).
	checkBlock(t, BC1, []byte{0x10, 0x84, 0x00, 0x00, 0xE4, 0, 0, 0}, map[int][4]byte{
		0: {132, 130, 132, 255}, 1: {0, 0, 0, 255}, 2: {88, 87, 88, 255}, 3: {44, 43, 44, 255},
	})
}

// BC1, c0 ≤ c1: three colours and transparent black. c0 blue, c1 red;
// c2 = (255+0)/2 = 127.5 → 128 in red and blue; index 3 is (0,0,0,0).
// Index word 0xC00000E4: pixels 0..3 → 0..3, pixel 15 (bits 30–31) → 3.
func TestBC1ThreeColoursAndTransparent(t *testing.T) {
	want := map[int][4]byte{
		0: {0, 0, 255, 255}, 1: {255, 0, 0, 255}, 2: {128, 0, 128, 255}, 3: {0, 0, 0, 0}, 14: {0, 0, 255, 255}, 15: {0, 0, 0, 0},
	}
	checkBlock(t, BC1, []byte{0x1F, 0x00, 0x00, 0xF8, 0xE4, 0, 0, 0xC0}, want)
	// c0 == c1 is the 3-colour mode too: index 3 transparent.
	checkBlock(t, BC1, []byte{0x1F, 0x00, 0x1F, 0x00, 0xC0, 0, 0, 0}, map[int][4]byte{
		3: {0, 0, 0, 0}, 0: {0, 0, 255, 255},
	})
}

// BC2: explicit alpha nibbles (pixel 0 = 0 → 0, pixel 1 = F → 255, pixel 2
// = 8 → 8·17 = 136) and a colour block that always has four colours, even
// with c0 < c1 (blue < red here): c2 = (85, 0, 170), c3 = (170, 0, 85).
func TestBC2(t *testing.T) {
	b := []byte{0xF0, 0x08, 0, 0, 0, 0, 0, 0, 0x1F, 0x00, 0x00, 0xF8, 0xE4, 0, 0, 0}
	checkBlock(t, BC2, b, map[int][4]byte{
		0: {0, 0, 255, 0}, 1: {255, 0, 0, 255}, 2: {85, 0, 170, 136}, 3: {170, 0, 85, 0},
	})
}

// Indices 0..7 for pixels 0..7 and again for 8..15: Σ k<<3k = 0xFAC688.
var rampIndices = []byte{0x88, 0xC6, 0xFA, 0x88, 0xC6, 0xFA}

// BC3 alpha, 8-value mode (a0 = 200 > a1 = 100): code k ≥ 2 is
// ((8−k)·200 + (k−1)·100)/7: 1300/7 = 185.71 → 186, 171.43 → 171,
// 157.14 → 157, 142.86 → 143, 128.57 → 129, 114.29 → 114.
func TestBC3AlphaEightValues(t *testing.T) {
	b := append([]byte{200, 100}, rampIndices...)
	b = append(b, 0x00, 0xF8, 0x00, 0xF8, 0, 0, 0, 0) // colour: red everywhere
	want := []byte{200, 100, 186, 171, 157, 143, 129, 114}
	m := map[int][4]byte{}
	for i := range 16 {
		m[i] = [4]byte{255, 0, 0, want[i%8]}
	}
	checkBlock(t, BC3, b, m)
}

// BC3 alpha, 6-value mode (a0 = 10 ≤ a1 = 13): codes 2..5 are
// ((6−k)·10 + (k−1)·13)/5 = 10.6 → 11, 11.2 → 11, 11.8 → 12, 12.4 → 12;
// code 6 is 0 and code 7 is 255.
func TestBC3AlphaSixValues(t *testing.T) {
	b := append([]byte{10, 13}, rampIndices...)
	b = append(b, 0x00, 0xF8, 0x00, 0xF8, 0, 0, 0, 0)
	want := []byte{10, 13, 11, 11, 12, 12, 0, 255}
	m := map[int][4]byte{}
	for i := range 16 {
		m[i] = [4]byte{255, 0, 0, want[i%8]}
	}
	checkBlock(t, BC3, b, m)
}

// BC4 unsigned is the BC3 alpha block in red, green and blue 0, alpha 255:
// 6-value mode with a0 = 100, a1 = 200 gives 120, 140, 160, 180, 0, 255.
func TestBC4Unsigned(t *testing.T) {
	b := append([]byte{100, 200}, rampIndices...)
	want := []byte{100, 200, 120, 140, 160, 180, 0, 255}
	m := map[int][4]byte{}
	for i := range 16 {
		m[i] = [4]byte{want[i%8], 0, 0, 255}
	}
	checkBlock(t, BC4, b, m)
}

// BC4 signed, 8-value mode: e0 = 0x7F = 127, e1 = 0x81 = −127. Code k is
// n/7 with n = (8−k)·127 − (k−1)·127 = 635, 381, 127, −127, −381, −635 for
// k = 2..7, and the byte is round((n/7 + 127)·255/254): 218.57 → 219,
// 182.14 → 182, 145.71 → 146, 109.29 → 109, 72.86 → 73, 36.43 → 36; the
// endpoints give 255 and 0.
func TestBC4SignedEightValues(t *testing.T) {
	b := append([]byte{0x7F, 0x81}, rampIndices...)
	want := []byte{255, 0, 219, 182, 146, 109, 73, 36}
	m := map[int][4]byte{}
	for i := range 16 {
		m[i] = [4]byte{want[i%8], 0, 0, 255}
	}
	checkBlock(t, BC4S, b, m)
}

// BC4 signed, 6-value mode: e0 = 0xC0 = −64 ≤ e1 = 0x40 = 64. Endpoints:
// (−64+127)·255/254 = 63.25 → 63 and 191·255/254 = 191.75 → 192. Codes
// 2..5: n/5 with n = (6−k)(−64) + (k−1)·64 = −192, −64, 64, 192, so
// (n/5 + 127)·255/254 = 88.95 → 89, 114.65 → 115, 140.35 → 140,
// 166.05 → 166; code 6 is −1 → 0,
// code 7 is +1 → 255. And −128 (0x80) reads as −127.
func TestBC4SignedSixValues(t *testing.T) {
	b := append([]byte{0xC0, 0x40}, rampIndices...)
	want := []byte{63, 192, 89, 115, 140, 166, 0, 255}
	m := map[int][4]byte{}
	for i := range 16 {
		m[i] = [4]byte{want[i%8], 0, 0, 255}
	}
	checkBlock(t, BC4S, b, m)
	// e0 = −128 → −127 → 0, e1 = 0 → 127.5 → 128 (0x80 ≤ 0: 6-value mode).
	checkBlock(t, BC4S, []byte{0x80, 0x00, 0x08, 0, 0, 0, 0, 0}, map[int][4]byte{
		0: {0, 0, 0, 255}, 1: {128, 0, 0, 255}, 2: {0, 0, 0, 255},
	})
}

// BC5: red block 8-value (255 > 0, all indices 0 → 255), green block
// 6-value (0 ≤ 255, all indices 2: (4·0 + 1·255)/5 = 51). Index 2 for every
// pixel is the 24-bit pattern 0x492492.
func TestBC5(t *testing.T) {
	b := []byte{255, 0, 0, 0, 0, 0, 0, 0, 0, 255, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49}
	checkBlock(t, BC5, b, map[int][4]byte{0: {255, 51, 0, 255}, 7: {255, 51, 0, 255}, 15: {255, 51, 0, 255}})
	// Signed: red 0x7F → 255 everywhere; green e0 = 0, e1 = 0x7F in
	// 6-value mode, code 2 = 127/5 → (25.4 + 127)·255/254 = 153.0 → 153.
	b = []byte{0x7F, 0, 0, 0, 0, 0, 0, 0, 0, 0x7F, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49}
	checkBlock(t, BC5S, b, map[int][4]byte{0: {255, 153, 0, 255}, 15: {255, 153, 0, 255}})
}

// A 5×3 BC1 image is two blocks wide and one high; Decode places each
// block's pixels and crops what overhangs.
func TestDecodeBlocksCrop(t *testing.T) {
	red := []byte{0x00, 0xF8, 0x00, 0xF8, 0, 0, 0, 0}  // all red
	blue := []byte{0x1F, 0x00, 0x1F, 0x00, 0, 0, 0, 0} // all blue
	out, err := Decode(BC1, append(red, blue...), 5, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 5*3*4 {
		t.Fatalf("len %d", len(out))
	}
	for y := range 3 {
		for x := range 5 {
			want := [4]byte{255, 0, 0, 255}
			if x == 4 {
				want = [4]byte{0, 0, 255, 255}
			}
			if got := [4]byte(out[(y*5+x)*4:]); got != want {
				t.Errorf("(%d,%d) = %v, want %v", x, y, got, want)
			}
		}
	}
}

// Direct formats, bit patterns worked by hand (little-endian words).
func TestDirectFormats(t *testing.T) {
	cases := []struct {
		f    Format
		in   []byte
		want []byte
	}{
		{RGBA8, []byte{1, 2, 3, 4}, []byte{1, 2, 3, 4}},
		{R8, []byte{0x7F}, []byte{0x7F, 0, 0, 255}},
		{RG8, []byte{1, 2}, []byte{1, 2, 0, 255}},
		// 0xF800: bits 11–15 are blue. 0x07E0: green 63. 0x0010: red 16 → 132.
		{RGB565, []byte{0x00, 0xF8}, []byte{0, 0, 255, 255}},
		{RGB565, []byte{0xE0, 0x07}, []byte{0, 255, 0, 255}},
		{RGB565, []byte{0x10, 0x00}, []byte{132, 0, 0, 255}},
		// 0x8000: alpha only. 0x7C00: blue. 0x03E0: green. 0x0001: red 1 → 8.
		{RGB5A1, []byte{0x00, 0x80}, []byte{0, 0, 0, 255}},
		{RGB5A1, []byte{0x00, 0x7C}, []byte{0, 0, 255, 0}},
		{RGB5A1, []byte{0xE0, 0x03}, []byte{0, 255, 0, 0}},
		{RGB5A1, []byte{0x01, 0x00}, []byte{8, 0, 0, 0}},
		// 0x1234: R 4 → 0x44, G 3 → 0x33, B 2 → 0x22, A 1 → 0x11.
		{RGBA4, []byte{0x34, 0x12}, []byte{0x44, 0x33, 0x22, 0x11}},
	}
	for _, c := range cases {
		got, err := Decode(c.f, c.in, 1, 1)
		if err != nil {
			t.Fatalf("%s: %v", c.f, err)
		}
		if !bytes.Equal(got, c.want) {
			t.Errorf("%s % x = %v, want %v", c.f, c.in, got, c.want)
		}
	}
}

func TestSizesAndBadInput(t *testing.T) {
	for _, c := range []struct {
		f    Format
		w, h int
		n    int
	}{{BC1, 5, 3, 16}, {BC3, 8, 8, 64}, {BC5S, 1, 1, 16}, {RGBA8, 3, 2, 24}, {RGB565, 3, 3, 18}, {R8, 7, 1, 7}} {
		if n, err := c.f.Size(c.w, c.h); err != nil || n != c.n {
			t.Errorf("%s %d×%d: size %d, %v; want %d", c.f, c.w, c.h, n, err, c.n)
		}
	}
	if _, err := BC1.Size(MaxDim+1, 4); err == nil {
		t.Error("width beyond MaxDim accepted")
	}
	if _, err := BC1.Size(0, 4); err == nil {
		t.Error("zero width accepted")
	}
	if _, err := Format(99).Size(4, 4); err == nil {
		t.Error("unknown format accepted")
	}
	if _, err := Decode(BC1, make([]byte, 15), 5, 3); err == nil || !strings.Contains(err.Error(), "needs 16 bytes") {
		t.Errorf("short BC1 input: %v", err)
	}
}

// Palette expansion: 4-bit indices 0x21 0x03 are pixels 1, 2, 3 with the
// low nibble first and 2, 1, 0 with the high nibble first.
func TestExpand(t *testing.T) {
	pal := []byte{0, 0, 0, 0, 10, 11, 12, 13, 20, 21, 22, 23, 30, 31, 32, 33}
	got, err := Expand([]byte{0x21, 0x03}, 3, 1, 4, LowNibbleFirst, pal)
	if err != nil || !bytes.Equal(got, []byte{10, 11, 12, 13, 20, 21, 22, 23, 30, 31, 32, 33}) {
		t.Errorf("low first: %v %v", got, err)
	}
	got, err = Expand([]byte{0x21, 0x03}, 3, 1, 4, HighNibbleFirst, pal)
	if err != nil || !bytes.Equal(got, []byte{20, 21, 22, 23, 10, 11, 12, 13, 0, 0, 0, 0}) {
		t.Errorf("high first: %v %v", got, err)
	}
	got, err = Expand([]byte{3, 0}, 1, 2, 8, LowNibbleFirst, pal)
	if err != nil || !bytes.Equal(got, []byte{30, 31, 32, 33, 0, 0, 0, 0}) {
		t.Errorf("8-bit: %v %v", got, err)
	}
	if _, err := Expand([]byte{4}, 1, 1, 8, LowNibbleFirst, pal); err == nil || !strings.Contains(err.Error(), "entry 4") {
		t.Errorf("index past the palette: %v", err)
	}
	if _, err := Expand([]byte{1}, 3, 1, 4, LowNibbleFirst, pal); err == nil {
		t.Error("short 4-bit data accepted")
	}
	if _, err := Expand([]byte{1}, 1, 1, 2, LowNibbleFirst, pal); err == nil {
		t.Error("2-bit indices accepted")
	}
	if _, err := Expand([]byte{1}, 1, 1, 8, LowNibbleFirst, pal[:5]); err == nil {
		t.Error("ragged palette accepted")
	}
}

// PS2 alpha: round(a·255/128): 0x40 → 127.5 → 128, 0x7F → 253.01 → 253,
// 1 → 1.99 → 2; 0x80 and above are opaque.
func TestPS2Alpha(t *testing.T) {
	for in, want := range map[byte]byte{0: 0, 1: 2, 0x40: 128, 0x7F: 253, 0x80: 255, 0xFF: 255} {
		if got := PS2Alpha(in); got != want {
			t.Errorf("PS2Alpha(0x%02X) = %d, want %d", in, got, want)
		}
	}
}

func TestSwizzle(t *testing.T) {
	p := []byte{1, 2, 3, 4, 5, 6, 7, 8}
	if err := Swizzle(p, Selector{ChanG, ChanR, Chan1, Chan0}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(p, []byte{2, 1, 255, 0, 6, 5, 255, 0}) {
		t.Errorf("got %v", p)
	}
	p = []byte{1, 2, 3, 4}
	if err := Swizzle(p, Selector{ChanR, ChanR, ChanR, ChanA}); err != nil || !bytes.Equal(p, []byte{1, 1, 1, 4}) {
		t.Errorf("grey from red: %v %v", p, err)
	}
	if err := Swizzle(p, Selector{6, 0, 0, 0}); err == nil {
		t.Error("selector 6 accepted")
	}
	if s := (Selector{ChanB, ChanG, ChanR, Chan1}).String(); s != "BGR1" {
		t.Errorf("String = %q", s)
	}
}

// Normal Z from X and Y: (128, 128) is x = y = 1/255 → z = 0.99998 →
// 254.998 → 255; (255, 128) has x = 1, so z = 0 → 127.5 → 128; (218, 128)
// has x = 0.70980, y = 0.00392 → z = √(1 − 0.50382 − 0.00002) = 0.70439 →
// 217.31 → 217; (0, 0) is outside the unit disc and clamps to z = 0.
func TestReconstructNormalZ(t *testing.T) {
	p := []byte{128, 128, 0, 9, 255, 128, 0, 9, 218, 128, 0, 9, 0, 0, 0, 9}
	ReconstructNormalZ(p)
	want := []byte{128, 128, 255, 9, 255, 128, 128, 9, 218, 128, 217, 9, 0, 0, 128, 9}
	if !bytes.Equal(p, want) {
		t.Errorf("got %v, want %v", p, want)
	}
}
