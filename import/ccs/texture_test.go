package ccs

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
)

// le builds a little-endian body from u32 words and raw byte slices, so
// the hand-worked cases below spell out every byte.
func le(parts ...any) []byte {
	var b []byte
	for _, p := range parts {
		switch v := p.(type) {
		case uint32:
			b = binary.LittleEndian.AppendUint32(b, v)
		case int:
			b = binary.LittleEndian.AppendUint32(b, uint32(v))
		case []byte:
			b = append(b, v...)
		default:
			panic("le: unsupported part")
		}
	}
	return b
}

// textureBody is a Texture chunk body after the id: CLUT id 7, blit 0,
// flags 1, the type, no mips, log2 sizes, then the data size in words.
func textureBody(typ, lw, lh byte, words uint32, data []byte) []byte {
	return le(7, 0, []byte{1, typ, 0, 0x70, lw, lh, 0xCD, 0xCD}, 0, words, data)
}

func TestPS2Alpha(t *testing.T) {
	// round(a·255/128), saturating at 0x80 (1.0) and above.
	for a, want := range map[byte]byte{0x00: 0, 0x01: 2, 0x40: 128, 0x7F: 253, 0x80: 255, 0x81: 255, 0xFF: 255} {
		if got := PS2Alpha(a); got != want {
			t.Errorf("PS2Alpha(0x%02x) = %d, want %d", a, got, want)
		}
	}
}

func TestCLUTIndexCSM1(t *testing.T) {
	// Bits 3 and 4 swap in a 256-colour CLUT: the second and third blocks
	// of 8 in every 32 change places; 16-colour CLUTs are linear.
	cases := map[int]int{0x00: 0x00, 0x07: 0x07, 0x08: 0x10, 0x0F: 0x17, 0x10: 0x08, 0x17: 0x0F, 0x18: 0x18,
		0x1F: 0x1F, 0x20: 0x20, 0x28: 0x30, 0x88: 0x90, 0xFF: 0xFF}
	for i, want := range cases {
		if got := CLUTIndex(i, 256); got != want {
			t.Errorf("CLUTIndex(0x%02x, 256) = 0x%02x, want 0x%02x", i, got, want)
		}
	}
	if got := CLUTIndex(0x08, 16); got != 0x08 {
		t.Errorf("16-colour CLUT reordered: %d", got)
	}
}

// A 2×2 4-bit texture with a 16-colour CLUT, worked by hand: data bytes
// 0x21 0x03 hold texels 1, 2 (stored row 0, the bottom) and 3, 0 (row 1,
// the top); the low nibble is the left texel.
func TestDecode4Bit(t *testing.T) {
	clutBody := le(0, 1, []byte{0xC0, 0x03, 0x80, 0x01}, 16,
		[]byte{0x00, 0x00, 0x00, 0x00}, // 0: transparent black
		[]byte{0xFF, 0x00, 0x00, 0x80}, // 1: opaque red
		[]byte{0x00, 0x10, 0x20, 0x40}, // 2: half alpha
		[]byte{0x01, 0x02, 0x03, 0x7F}, // 3
		bytes.Repeat([]byte{9, 9, 9, 0x80}, 12))
	cl, err := readCLUT(&RawChunk{ID: 7, Body: clutBody})
	if err != nil {
		t.Fatal(err)
	}
	tex, err := readTexture(&RawChunk{ID: 8, Body: textureBody(TexI4, 1, 1, 1, []byte{0x21, 0x03, 0, 0})})
	if err != nil {
		t.Fatal(err)
	}
	if tex.Width != 2 || tex.Height != 2 || tex.CLUT != 7 {
		t.Fatalf("texture %d×%d clut %d", tex.Width, tex.Height, tex.CLUT)
	}
	got, err := tex.Decode(cl, false)
	if err != nil {
		t.Fatal(err)
	}
	want := []byte{
		1, 2, 3, 253, 0, 0, 0, 0, // top row = stored row 1: texels 3, 0
		255, 0, 0, 255, 0, 0x10, 0x20, 128, // bottom row = stored row 0: texels 1, 2
	}
	if !bytes.Equal(got, want) {
		t.Errorf("RGBA\n got %v\nwant %v", got, want)
	}
}

// A 4×2 8-bit texture over a 256-colour CLUT whose entry i is
// (i, 255−i, i XOR 0x55, 0x80): linear order reads entry idx, CSM1 order
// entry CLUTIndex(idx) (0x08↔0x10, 0x17→0x0F, 0x88→0x90).
func TestDecode8Bit(t *testing.T) {
	var pal []byte
	for i := range 256 {
		pal = append(pal, byte(i), byte(255-i), byte(i)^0x55, 0x80)
	}
	cl, err := readCLUT(&RawChunk{ID: 7, Body: le(0, 5, []byte{0, 0, 0, 3}, 256, pal)})
	if err != nil {
		t.Fatal(err)
	}
	idx := []byte{0x00, 0x08, 0x10, 0x1F, 0x20, 0x88, 0xFF, 0x17} // row 0 (bottom), row 1 (top)
	tex, err := readTexture(&RawChunk{ID: 8, Body: textureBody(TexI8, 2, 1, 2, idx)})
	if err != nil {
		t.Fatal(err)
	}
	entry := func(i byte) []byte { return []byte{i, 255 - i, i ^ 0x55, 255} }
	cat := func(es ...byte) []byte {
		var b []byte
		for _, e := range es {
			b = append(b, entry(e)...)
		}
		return b
	}
	for _, c := range []struct {
		csm1 bool
		want []byte
	}{
		{false, cat(0x20, 0x88, 0xFF, 0x17, 0x00, 0x08, 0x10, 0x1F)},
		{true, cat(0x20, 0x90, 0xFF, 0x0F, 0x00, 0x10, 0x08, 0x1F)},
	} {
		got, err := tex.Decode(cl, c.csm1)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, c.want) {
			t.Errorf("csm1=%v\n got %v\nwant %v", c.csm1, got, c.want)
		}
	}
}

func TestDecodeRGBA32(t *testing.T) {
	tex, err := readTexture(&RawChunk{ID: 8, Body: textureBody(TexRGBA32, 0, 1, 2, []byte{1, 2, 3, 0x80, 4, 5, 6, 0x20})})
	if err != nil {
		t.Fatal(err)
	}
	got, err := tex.Decode(nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if want := []byte{4, 5, 6, 64, 1, 2, 3, 255}; !bytes.Equal(got, want) {
		t.Errorf("got %v want %v", got, want)
	}
}

// Hostile textures and CLUTs: clear errors, no allocation beyond the
// chunk, no panic.
func TestTextureHostile(t *testing.T) {
	small := le(0, 1, []byte{0, 0, 0, 0}, 16, bytes.Repeat([]byte{1, 2, 3, 0x80}, 16))
	for _, c := range []struct {
		name, want string
		run        func() error
	}{
		{"CLUT count 0", "expected 1..256 colours", func() error {
			_, err := readCLUT(&RawChunk{Body: le(0, 1, 0, 0)})
			return err
		}},
		{"CLUT count 4096", "expected 1..256 colours", func() error {
			_, err := readCLUT(&RawChunk{Body: le(0, 1, 0, 4096)})
			return err
		}},
		{"CLUT beyond chunk", "CLUT colours", func() error {
			_, err := readCLUT(&RawChunk{Body: le(0, 1, 0, 200, []byte{1, 2, 3, 4})})
			return err
		}},
		{"texture log2 size 20", "exceeds 4096", func() error {
			_, err := readTexture(&RawChunk{Body: textureBody(TexI8, 20, 20, 1, nil)})
			return err
		}},
		{"explicit size 65535", "outside 1..4096", func() error {
			_, err := readTexture(&RawChunk{Body: le(7, 0, []byte{1, TexI8, 0, 0, 0xFF, 0xFF, 0, 0}, []byte{0xFF, 0xFF, 0xFF, 0xFF, 0, 0})})
			return err
		}},
		{"data size short of the texels", "needs 4096 bytes", func() error {
			_, err := readTexture(&RawChunk{Body: textureBody(TexI8, 6, 6, 4, make([]byte, 16))})
			return err
		}},
		{"data size beyond chunk", "overruns the chunk", func() error {
			_, err := readTexture(&RawChunk{Body: textureBody(TexI8, 1, 1, 0x40000000, make([]byte, 4))})
			return err
		}},
		{"index beyond the CLUT", "beyond its CLUT's 16 colours", func() error {
			cl, err := readCLUT(&RawChunk{Body: small})
			if err != nil {
				return err
			}
			tex, err := readTexture(&RawChunk{Body: textureBody(TexI8, 1, 1, 1, []byte{1, 2, 3, 200})})
			if err != nil {
				return err
			}
			_, err = tex.Decode(cl, false)
			return err
		}},
		{"missing CLUT", "CLUT 7 is missing", func() error {
			tex, err := readTexture(&RawChunk{Body: textureBody(TexI4, 1, 1, 1, []byte{0, 0, 0, 0})})
			if err != nil {
				return err
			}
			_, err = tex.Decode(nil, false)
			return err
		}},
		{"DXT type", "pixel format 0x87 is not supported", func() error {
			tex, err := readTexture(&RawChunk{Body: textureBody(0x87, 1, 1, 1, []byte{0, 0, 0, 0})})
			if err != nil {
				return err
			}
			_, err = tex.Decode(nil, false)
			return err
		}},
	} {
		err := c.run()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to mention %q", c.name, err, c.want)
		}
	}
}
