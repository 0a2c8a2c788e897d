package bntx_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/import/bntx"
	"github.com/animbake/bake/import/bntx/bntxwrite"
)

func write(t *testing.T, f bntxwrite.File) []byte {
	t.Helper()
	b, err := f.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// pixelAt returns pixel (x, y) of an RGBA image w pixels wide.
func pixelAt(rgba []byte, w, x, y int) [4]byte {
	i := (y*w + x) * 4
	return [4]byte(rgba[i : i+4])
}

// bc1Solid returns a BC1 block whose 16 pixels all take colour index k
// of endpoints c0 = red (0xF800), c1 = blue (0x001F): c0 > c1, 4-colour
// mode; index 0 is c0, 1 is c1.
func bc1Solid(k byte) []byte {
	idx := k | k<<2 | k<<4 | k<<6
	return []byte{0x00, 0xF8, 0x1F, 0x00, idx, idx, idx, idx}
}

// TestDecodeByHand decodes textures the writer lays out block-linear and
// compares pixels worked out by hand from the formats' bit layouts and the
// nn::gfx channel sources.
func TestDecodeByHand(t *testing.T) {
	data := write(t, bntxwrite.File{Name: "hand", Textures: []bntxwrite.Texture{
		// RGBA8 3×2, identity sources.
		{Name: "rgba", Format: 0x0B01, Width: 3, Height: 2, BlockHeightLog2: 1,
			Packed: []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24}},
		// BGRA8 sRGB 1×1: bytes B, G, R, A = 10, 20, 30, 40 → (30, 20, 10, 40).
		{Name: "bgra", Format: 0x0C06, Width: 1, Height: 1, Packed: []byte{10, 20, 30, 40}},
		// BC1 8×4: block 0 all red, block 1 all blue; sources B G R A
		// (4 3 2 5) swap red and blue.
		{Name: "bc1", Format: 0x1A01, Width: 8, Height: 4, BlockHeightLog2: 2, ChannelSources: [4]byte{4, 3, 2, 5},
			Packed: append(bc1Solid(0), bc1Solid(1)...)},
		// BC4 4×4, e0 = 200 > e1 = 100, all index 0 → 200; sources
		// 1 1 1 R → (255, 255, 255, 200).
		{Name: "bc4", Format: 0x1D01, Width: 4, Height: 4, ChannelSources: [4]byte{1, 1, 1, 2},
			Packed: []byte{200, 100, 0, 0, 0, 0, 0, 0}},
		// R8 5×3 pitch-linear: rows of 32 bytes.
		{Name: "r8lin", Format: 0x0201, Width: 5, Height: 3, Linear: true,
			Packed: []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}},
	}})
	var warns []string
	texs, err := bntx.Textures(data, &format.Options{Warn: func(m string) { warns = append(warns, m) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(texs) != 5 || len(warns) != 0 {
		t.Fatalf("%d textures, warnings %q", len(texs), warns)
	}
	check := func(i, x, y int, want [4]byte) {
		t.Helper()
		tx := texs[i]
		if got := pixelAt(tx.Image.RGBA, tx.Image.Width, x, y); got != want {
			t.Errorf("%s (%d,%d) = %v, want %v", tx.Name, x, y, got, want)
		}
	}
	check(0, 0, 0, [4]byte{1, 2, 3, 4})
	check(0, 2, 1, [4]byte{21, 22, 23, 24})
	check(1, 0, 0, [4]byte{30, 20, 10, 40})
	check(2, 0, 0, [4]byte{0, 0, 255, 255}) // red with R and B exchanged
	check(2, 7, 3, [4]byte{255, 0, 0, 255}) // blue likewise
	check(3, 3, 3, [4]byte{255, 255, 255, 200})
	check(4, 4, 2, [4]byte{15, 0, 0, 255}) // R8: (r, 0, 0, 1)
	if texs[1].Extras["srgb"] != true || texs[0].Extras["srgb"] != nil {
		t.Errorf("srgb extras: %v, %v", texs[1].Extras["srgb"], texs[0].Extras["srgb"])
	}
	bx := texs[2].Extras["bntx"].(map[string]any)
	if bx["format"] != "BC1_UNORM" || bx["channelSources"] != "BGRA" || bx["blockHeightLog2"] != 2 {
		t.Errorf("extras %v", bx)
	}
}

// TestStoredLayoutByHand places R8 pixels at the block-linear offsets
// worked out by hand (one GOB: x at byte x, row 1 at 16, row 2 at 64) in a
// raw surface, so the reader's untiling is checked without the writer's.
func TestStoredLayoutByHand(t *testing.T) {
	raw := make([]byte, 512)
	raw[0], raw[1], raw[16], raw[64+3] = 11, 22, 33, 44
	data := write(t, bntxwrite.File{Textures: []bntxwrite.Texture{
		{Name: "r8", Format: 0x0201, Width: 4, Height: 3, Raw: raw, ChannelSources: [4]byte{2, 2, 2, 1}},
	}})
	texs, err := bntx.Textures(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	rgba := texs[0].Image.RGBA
	for _, c := range []struct {
		x, y int
		v    byte
	}{{0, 0, 11}, {1, 0, 22}, {0, 1, 33}, {3, 2, 44}, {2, 2, 0}} {
		if got := pixelAt(rgba, 4, c.x, c.y); got != [4]byte{c.v, c.v, c.v, 255} {
			t.Errorf("(%d,%d) = %v, want grey %d", c.x, c.y, got, c.v)
		}
	}
}

// TestParseHeader checks the header facts and the texture info fields.
func TestParseHeader(t *testing.T) {
	data := write(t, bntxwrite.File{Name: "__Combined", Textures: []bntxwrite.Texture{
		{Name: "a", Format: 0x1A06, Width: 12, Height: 8, BlockHeightLog2: 0, MipCount: 4, Packed: make([]byte, 6*8)},
	}})
	f, err := bntx.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	tx := f.Textures[0]
	if f.Name != "__Combined" || f.Version != 0x40000 || tx.Name != "a" || tx.Format.String() != "BC1_SRGB" ||
		tx.Width != 12 || tx.Height != 8 || tx.MipCount != 4 || tx.ChannelSources != [4]byte{2, 3, 4, 5} {
		t.Errorf("parsed %+v / %+v", f, tx)
	}
}

// TestUnsupportedFormatWarns: an R5G6B5 texture (a format whose bit order
// the references leave open) is left out with a warning naming it and its
// format; the other texture still decodes.
func TestUnsupportedFormatWarns(t *testing.T) {
	data := write(t, bntxwrite.File{Textures: []bntxwrite.Texture{
		{Name: "r565", Format: 0x0701, Width: 4, Height: 4, Raw: make([]byte, 512)},
		{Name: "ok", Format: 0x0201, Width: 1, Height: 1, Packed: []byte{9}},
	}})
	var warns []string
	texs, err := bntx.Textures(data, &format.Options{Warn: func(m string) { warns = append(warns, m) }})
	if err != nil || len(texs) != 1 || texs[0].Name != "ok" {
		t.Fatalf("textures %v, err %v", texs, err)
	}
	if len(warns) != 1 || !strings.Contains(warns[0], "r565") || !strings.Contains(warns[0], "R5_G6_B5_UNORM") {
		t.Errorf("warnings %q", warns)
	}
	f, _ := bntx.Parse(data)
	if _, err := f.Decode(f.Textures[0]); !errors.Is(err, bntx.ErrUnsupported) {
		t.Errorf("Decode error %v does not match ErrUnsupported", err)
	}
}

// TestBadInput checks that malformed files end in a FormatError at the
// offending offset, naming what was expected.
func TestBadInput(t *testing.T) {
	good := write(t, bntxwrite.File{Name: "f", Textures: []bntxwrite.Texture{
		{Name: "t", Format: 0x0B01, Width: 2, Height: 2, Packed: make([]byte, 16)},
	}})
	f, err := bntx.Parse(good)
	if err != nil {
		t.Fatal(err)
	}
	info := f.Textures[0].Off
	le32 := func(b []byte, at int, v uint32) {
		b[at], b[at+1], b[at+2], b[at+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
	}
	cases := []struct {
		name   string
		edit   func(b []byte) []byte
		off    int64
		substr string
	}{
		{"magic", func(b []byte) []byte { b[0] = 'X'; return b }, 0, "BNTX magic"},
		{"big-endian", func(b []byte) []byte { b[0xC], b[0xD] = 0xFE, 0xFF; return b }, 0xC, "big-endian"},
		{"version", func(b []byte) []byte { le32(b, 8, 0x30000); return b }, 8, "version 3.0.0"},
		{"truncated", func(b []byte) []byte { return b[:0x40] }, 0, "needs"},
		{"file size", func(b []byte) []byte { le32(b, 0x1C, uint32(len(b)+1)); return b }, 0x1C, "file size"},
		{"platform", func(b []byte) []byte { b[0x20] = 'W'; return b }, 0x20, "NX"},
		{"count", func(b []byte) []byte { le32(b, 0x24, 1000); return b }, 0x28, "texture info pointer array"},
		{"brti magic", func(b []byte) []byte { b[info] = 'X'; return b }, int64(info), "BRTI"},
		{"mip count", func(b []byte) []byte { b[info+0x16] = 0; return b }, int64(info + 0x16), "mip count 0"},
		{"width", func(b []byte) []byte { le32(b, info+0x24, 0); return b }, int64(info + 0x24), "size 0×2"},
		{"relocation", func(b []byte) []byte { le32(b, 0x18, 0x30); return b }, 0x30, "_RLT"},
	}
	for _, c := range cases {
		b := c.edit(append([]byte(nil), good...))
		_, err := bntx.Parse(b)
		var fe *binread.FormatError
		if !errors.As(err, &fe) {
			t.Errorf("%s: error %v is not a FormatError", c.name, err)
			continue
		}
		if fe.Off != c.off || !strings.Contains(fe.Msg, c.substr) {
			t.Errorf("%s: error at 0x%x %q, want 0x%x containing %q", c.name, fe.Off, fe.Msg, c.off, c.substr)
		}
	}
}

// TestBadTexture checks the errors of well-formed headers whose texture
// cannot be read: channel source out of range and data past the end.
func TestBadTexture(t *testing.T) {
	good := write(t, bntxwrite.File{Textures: []bntxwrite.Texture{
		{Name: "t", Format: 0x0B01, Width: 64, Height: 64, BlockHeightLog2: 3, Packed: make([]byte, 64*64*4)},
	}})
	f, _ := bntx.Parse(good)
	info := f.Textures[0].Off
	b := append([]byte(nil), good...)
	b[info+0x58] = 7
	if _, err := bntx.Textures(b, nil); err == nil || !strings.Contains(err.Error(), "channel sources") {
		t.Errorf("channel source 7: %v", err)
	}
	b = append([]byte(nil), good...)
	b[info+0x34] = 5 // block height 32 GOBs: 256 rows, past the data
	_, err := bntx.Textures(b, nil)
	var fe *binread.FormatError
	if !errors.As(err, &fe) || fe.Off != int64(info+0x70) && fe.Off != int64(info+0x50) {
		t.Errorf("block height 2^5: %v", err)
	}
	// The decoded-size cap: 64×64×4 = 16384 bytes > 16000.
	if _, err := bntx.Textures(good, &format.Options{MaxInflate: 16000}); err == nil || !strings.Contains(err.Error(), "cap") {
		t.Errorf("cap: %v", err)
	}
}

// TestWriterDeterministic: the same description gives the same bytes.
func TestWriterDeterministic(t *testing.T) {
	d := bntxwrite.File{Name: "x", Textures: []bntxwrite.Texture{{Name: "a", Format: 0x0201, Width: 3, Height: 3, Packed: make([]byte, 9)}}}
	if !bytes.Equal(write(t, d), write(t, d)) {
		t.Error("writer output differs between runs")
	}
}

// TestDemo decodes the demo file and checks pixels worked out by hand:
// demo_mask's BC4 indices 0..7 (bytes 88 C6 FA, 3 bits each from the
// least significant) over e0 = 255 > e1 = 0 give 255, 0, 219 (6·255/7 =
// 218.6), 182, 146, 109, 73, 36 as alpha; demo_nrm's BC5 SNORM red +127 →
// 255, green −127 → 0, sources R G 1 1; demo_bgra's first pixel stored
// B G R A = 0 0 255 255 is red.
func TestDemo(t *testing.T) {
	texs, err := bntx.Textures(bntxwrite.Demo()[0].Data, nil)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]int{}
	for i, tx := range texs {
		byName[tx.Name] = i
	}
	check := func(name string, x, y int, want [4]byte) {
		t.Helper()
		tx := texs[byName[name]]
		if got := pixelAt(tx.Image.RGBA, tx.Image.Width, x, y); got != want {
			t.Errorf("%s (%d,%d) = %v, want %v", name, x, y, got, want)
		}
	}
	for i, a := range []byte{255, 0, 219, 182, 146, 109, 73, 36} {
		check("demo_mask", i%4, i/4, [4]byte{255, 255, 255, a})
	}
	check("demo_nrm", 2, 3, [4]byte{255, 0, 255, 255})
	check("demo_bgra", 0, 0, [4]byte{255, 0, 0, 255})
	check("demo_bgra", 1, 1, [4]byte{20, 30, 40, 10})
	check("demo_bc1", 4, 31, [4]byte{0, 0, 255, 255}) // block column 1: blue
	check("demo_bc1", 31, 0, [4]byte{0, 0, 255, 255}) // column 7
	check("demo_bc1", 8, 9, [4]byte{255, 0, 0, 255})  // column 2: red
	check("demo_rgba", 15, 3, [4]byte{240, 48, 128, 135})
}

// TestBPTCFormats: BC7 and BC6H textures decode through the BNTX formats
// 0x2006 (BC7 sRGB) and 0x1F0A (BC6H UFLOAT). The BC7 block is all mode 6
// with both endpoints (127, 0, 0, 127) and p = 1 → (255, 1, 1, 255); the
// BC6H block is mode 11 with every endpoint 0 → black.
func TestBPTCFormats(t *testing.T) {
	bc7 := make([]byte, 16)
	// mode 6 (bit 6), R0 = R1 = 127 (bits 7–20), A0 = A1 = 127 (bits
	// 49–62), p-bits 1 (bits 63, 64).
	set := func(b []byte, from, n int) {
		for k := from; k < from+n; k++ {
			b[k/8] |= 1 << (k % 8)
		}
	}
	set(bc7, 6, 1)
	set(bc7, 7, 14)
	set(bc7, 49, 16)
	bc6 := make([]byte, 16)
	bc6[0] = 0x03
	data := write(t, bntxwrite.File{Textures: []bntxwrite.Texture{
		{Name: "bc7", Format: 0x2006, Width: 4, Height: 4, Packed: bc7},
		{Name: "bc6", Format: 0x1F0A, Width: 4, Height: 4, Packed: bc6},
	}})
	texs, err := bntx.Textures(data, nil)
	if err != nil || len(texs) != 2 {
		t.Fatalf("%d textures, %v", len(texs), err)
	}
	if got := pixelAt(texs[0].Image.RGBA, 4, 3, 3); got != [4]byte{255, 1, 1, 255} {
		t.Errorf("bc7 (3,3) = %v", got)
	}
	if got := pixelAt(texs[1].Image.RGBA, 4, 1, 2); got != [4]byte{0, 0, 0, 255} {
		t.Errorf("bc6 (1,2) = %v", got)
	}
	if texs[0].Extras["srgb"] != true || texs[0].Extras["bntx"].(map[string]any)["format"] != "BC7_SRGB" {
		t.Errorf("bc7 extras %v", texs[0].Extras)
	}
}

// TestASTCFormat: an ASTC 5×5 texture of 7×3 pixels (2×1 blocks) decodes
// through format 0x2F01. Both blocks are void extents (bits 0–8 = 0x1FC,
// LDR, reserved bits 11, no extent) of UNORM16 (0xFFFF, 0x8000, 0,
// 0x4000): 8-bit (255, 128, 0, 64), as worked out in pixel's
// TestASTCVoidExtent.
func TestASTCFormat(t *testing.T) {
	block := []byte{0xFC, 0xFD, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x80, 0x00, 0x00, 0x00, 0x40}
	data := write(t, bntxwrite.File{Textures: []bntxwrite.Texture{
		{Name: "astc", Format: 0x2F01, Width: 7, Height: 3, Packed: append(append([]byte(nil), block...), block...)},
	}})
	texs, err := bntx.Textures(data, nil)
	if err != nil || len(texs) != 1 {
		t.Fatalf("%d textures, %v", len(texs), err)
	}
	if got := pixelAt(texs[0].Image.RGBA, 7, 6, 2); got != [4]byte{255, 128, 0, 64} {
		t.Errorf("(6,2) = %v", got)
	}
	if f := texs[0].Extras["bntx"].(map[string]any)["format"]; f != "ASTC_5x5_UNORM" {
		t.Errorf("format %v", f)
	}
}
