package bfres

import (
	"bytes"
	"encoding/binary"
	"math"
	"strings"
	"testing"
)

// TestAttribFormats decodes one element of every GX2 attribute format the
// decoder accepts from hand-built big-endian bytes. The expected values are
// worked out by hand from the rules in docs/formats/bfres.md: unsigned
// normalised c/(2ⁿ−1), signed normalised max(c/(2ⁿ⁻¹−1), −1), integer and
// scaled formats the integer itself, 10_10_10_2 with x in the low bits and,
// in the signed normalised form, an unsigned w/3; halves widened exactly.
func TestAttribFormats(t *testing.T) {
	f32 := func(v float32) []byte { return binary.BigEndian.AppendUint32(nil, math.Float32bits(v)) }
	cat := func(bs ...[]byte) []byte { return bytes.Join(bs, nil) }
	cases := []struct {
		format uint32
		name   string
		in     []byte
		want   []float32
	}{
		{0x000, "8_unorm", []byte{0xFF}, []float32{1}},
		{0x000, "8_unorm", []byte{0x80}, []float32{float32(128) / 255}},
		{0x100, "8_uint", []byte{0xC8}, []float32{200}},
		{0x200, "8_snorm", []byte{0x40}, []float32{float32(64) / 127}},
		{0x200, "8_snorm", []byte{0x81}, []float32{-1}}, // −127/127
		{0x200, "8_snorm", []byte{0x80}, []float32{-1}}, // −128/127 clamps to −1
		{0x300, "8_sint", []byte{0xFE}, []float32{-2}},
		{0x800, "8_uint_to_float", []byte{0xFE}, []float32{254}},
		{0xA00, "8_sint_to_float", []byte{0xFE}, []float32{-2}},
		{0x001, "4_4_unorm", []byte{0x3C}, []float32{0.8, 0.2}}, // x = 0xC/15, y = 0x3/15
		{0x002, "16_unorm", []byte{0x80, 0x00}, []float32{float32(32768) / 65535}},
		{0x102, "16_uint", []byte{0x12, 0x34}, []float32{0x1234}},
		{0x202, "16_snorm", []byte{0xC0, 0x00}, []float32{float32(-16384) / 32767}},
		{0x302, "16_sint", []byte{0xFF, 0xFF}, []float32{-1}},
		{0x802, "16_uint_to_float", []byte{0xFF, 0xFF}, []float32{65535}},
		{0xA02, "16_sint_to_float", []byte{0xFF, 0xFF}, []float32{-1}},
		{0x803, "16_float", []byte{0x3C, 0x00}, []float32{1}},
		{0x803, "16_float", []byte{0xC0, 0x00}, []float32{-2}},
		{0x803, "16_float", []byte{0x35, 0x55}, []float32{0.333251953125}}, // 1.0101010101b × 2⁻²
		{0x803, "16_float", []byte{0x7B, 0xFF}, []float32{65504}},
		{0x803, "16_float", []byte{0x00, 0x01}, []float32{1.0 / (1 << 24)}}, // smallest subnormal
		{0x803, "16_float", []byte{0x83, 0xFF}, []float32{-1023.0 / (1 << 24)}},
		{0x004, "8_8_unorm", []byte{0x00, 0xFF}, []float32{0, 1}},
		{0x104, "8_8_uint", []byte{0x02, 0x05}, []float32{2, 5}},
		{0x204, "8_8_snorm", []byte{0x7F, 0xC1}, []float32{1, float32(-63) / 127}},
		{0x304, "8_8_sint", []byte{0x7F, 0x80}, []float32{127, -128}},
		{0x804, "8_8_uint_to_float", []byte{0x80, 0x01}, []float32{128, 1}},
		{0xA04, "8_8_sint_to_float", []byte{0x80, 0x01}, []float32{-128, 1}},
		{0x105, "32_uint", []byte{0x00, 0x01, 0x00, 0x00}, []float32{65536}},
		{0x305, "32_sint", []byte{0xFF, 0xFF, 0xFF, 0xFE}, []float32{-2}},
		{0x806, "32_float", []byte{0x3F, 0xC0, 0x00, 0x00}, []float32{1.5}},
		{0x007, "16_16_unorm", []byte{0xFF, 0xFF, 0x00, 0x01}, []float32{1, float32(1) / 65535}},
		{0x107, "16_16_uint", []byte{0x00, 0x07, 0x01, 0x00}, []float32{7, 256}},
		{0x207, "16_16_snorm", []byte{0x7F, 0xFF, 0x80, 0x00}, []float32{1, -1}},
		{0x307, "16_16_sint", []byte{0x80, 0x00, 0x00, 0x03}, []float32{-32768, 3}},
		{0x807, "16_16_uint_to_float", []byte{0x80, 0x00, 0x00, 0x03}, []float32{32768, 3}},
		{0xA07, "16_16_sint_to_float", []byte{0x80, 0x00, 0x00, 0x03}, []float32{-32768, 3}},
		{0x808, "16_16_float", []byte{0x38, 0x00, 0xBC, 0x00}, []float32{0.5, -1}},
		{0x00A, "8_8_8_8_unorm", []byte{0x00, 0x33, 0x66, 0xFF}, []float32{0, 0.2, 0.4, 1}},
		{0x10A, "8_8_8_8_uint", []byte{1, 2, 3, 250}, []float32{1, 2, 3, 250}},
		{0x20A, "8_8_8_8_snorm", []byte{0x7F, 0x81, 0x80, 0x00}, []float32{1, -1, -1, 0}},
		{0x30A, "8_8_8_8_sint", []byte{0x7F, 0x81, 0x80, 0x00}, []float32{127, -127, -128, 0}},
		{0x80A, "8_8_8_8_uint_to_float", []byte{0x7F, 0x81, 0x80, 0x00}, []float32{127, 129, 128, 0}},
		{0xA0A, "8_8_8_8_sint_to_float", []byte{0x7F, 0x81, 0x80, 0x00}, []float32{127, -127, -128, 0}},
		// x = 1023, y = 0, z = 512, w = 3: 0x3FF | 512<<20 | 3<<30 = 0xE00003FF
		{0x00B, "10_10_10_2_unorm", []byte{0xE0, 0x00, 0x03, 0xFF}, []float32{1, 0, float32(512) / 1023, 1}},
		// x = 0x1FF, y = 0x200, z = 0x3FF, w = 2: 0x1FF | 0x200<<10 | 0x3FF<<20 | 2<<30 = 0xBFF801FF
		{0x10B, "10_10_10_2_uint", []byte{0xBF, 0xF8, 0x01, 0xFF}, []float32{511, 512, 1023, 2}},
		{0x20B, "10_10_10_2_snorm", []byte{0xBF, 0xF8, 0x01, 0xFF}, []float32{1, -1, float32(-1) / 511, float32(2) / 3}},
		{0x30B, "10_10_10_2_sint", []byte{0xBF, 0xF8, 0x01, 0xFF}, []float32{511, -512, -1, -2}},
		{0x10C, "32_32_uint", cat([]byte{0, 0, 0, 9}, []byte{0x80, 0, 0, 0}), []float32{9, 2147483648}},
		{0x30C, "32_32_sint", cat([]byte{0, 0, 0, 9}, []byte{0x80, 0, 0, 0}), []float32{9, -2147483648}},
		{0x80D, "32_32_float", cat(f32(-0.25), f32(3)), []float32{-0.25, 3}},
		{0x00E, "16_16_16_16_unorm", []byte{0, 0, 0xFF, 0xFF, 0x80, 0, 0, 1}, []float32{0, 1, float32(32768) / 65535, float32(1) / 65535}},
		{0x10E, "16_16_16_16_uint", []byte{0, 1, 0, 2, 0, 3, 0xFF, 0xFF}, []float32{1, 2, 3, 65535}},
		{0x20E, "16_16_16_16_snorm", []byte{0x7F, 0xFF, 0x80, 0x01, 0x80, 0, 0, 0}, []float32{1, -1, -1, 0}},
		{0x30E, "16_16_16_16_sint", []byte{0x7F, 0xFF, 0x80, 0x01, 0x80, 0, 0, 0}, []float32{32767, -32767, -32768, 0}},
		{0x80E, "16_16_16_16_uint_to_float", []byte{0x7F, 0xFF, 0x80, 0x01, 0x80, 0, 0, 0}, []float32{32767, 32769, 32768, 0}},
		{0xA0E, "16_16_16_16_sint_to_float", []byte{0x7F, 0xFF, 0x80, 0x01, 0x80, 0, 0, 0}, []float32{32767, -32767, -32768, 0}},
		{0x80F, "16_16_16_16_float", []byte{0x3C, 0x00, 0x40, 0x00, 0x42, 0x00, 0xB8, 0x00}, []float32{1, 2, 3, -0.5}},
		{0x110, "32_32_32_uint", cat([]byte{0, 0, 0, 1}, []byte{0, 0, 1, 0}, []byte{0, 1, 0, 0}), []float32{1, 256, 65536}},
		{0x310, "32_32_32_sint", cat([]byte{0xFF, 0xFF, 0xFF, 0xFF}, []byte{0, 0, 1, 0}, []byte{0, 1, 0, 0}), []float32{-1, 256, 65536}},
		{0x811, "32_32_32_float", cat(f32(1), f32(-2), f32(0.125)), []float32{1, -2, 0.125}},
		{0x112, "32_32_32_32_uint", cat([]byte{0, 0, 0, 1}, []byte{0, 0, 0, 2}, []byte{0, 0, 0, 3}, []byte{0, 0, 0, 4}), []float32{1, 2, 3, 4}},
		{0x312, "32_32_32_32_sint", cat([]byte{0xFF, 0xFF, 0xFF, 0xFC}, []byte{0, 0, 0, 2}, []byte{0, 0, 0, 3}, []byte{0, 0, 0, 4}), []float32{-4, 2, 3, 4}},
		{0x813, "32_32_32_32_float", cat(f32(1), f32(2), f32(3), f32(4)), []float32{1, 2, 3, 4}},
	}
	for _, c := range cases {
		f := AttribFormat(c.format)
		if got := f.String(); got != c.name {
			t.Errorf("format 0x%x is named %q, want %q", c.format, got, c.name)
		}
		l, err := f.layout()
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if l.size != len(c.in) {
			t.Errorf("%s: size %d, the test gives %d bytes", c.name, l.size, len(c.in))
			continue
		}
		out := make([]float32, len(l.bits))
		decodeAttrib(f, &l, c.in, binary.BigEndian, out)
		for i := range c.want {
			if math.Float32bits(out[i]) != math.Float32bits(c.want[i]) {
				t.Errorf("%s % x: component %d = %v, want %v", c.name, c.in, i, out[i], c.want[i])
			}
		}
	}
}

// TestAttribFormatsRejected: layouts and flag combinations GX2 does not
// define, and 10_11_11 float, are errors, not guesses.
func TestAttribFormatsRejected(t *testing.T) {
	for _, f := range []uint32{
		0x809,  // 10_11_11 float (unsupported)
		0x005,  // 32-bit normalised does not exist
		0x003,  // a float layout without the scaled flag
		0x203,  // signed float
		0x101,  // 4_4 integer
		0x80B,  // 10_10_10_2 scaled
		0x900,  // integer and scaled together
		0x400,  // degamma flag
		0x014,  // unknown layout
		0x1000, // unknown flag
	} {
		if _, err := AttribFormat(f).layout(); err == nil {
			t.Errorf("format 0x%x accepted", f)
		}
	}
}

// TestDecodeAttributeBounds: an attribute that leaves its stride or whose
// last vertex leaves the buffer is a FormatError naming the attribute, and
// nothing is allocated for it.
func TestDecodeAttributeBounds(t *testing.T) {
	bufs := []VertexBufferData{{Stride: 8, Data: make([]byte, 8*10)}}
	ok := &VertexAttrib{Name: "_p0", Buffer: 0, Offset: 4, Format: 0x806}
	if v, err := decodeAttribute(ok, bufs, 10, binary.BigEndian); err != nil || len(v) != 10 {
		t.Fatalf("in-bounds attribute: %d values, %v", len(v), err)
	}
	for _, c := range []struct {
		name  string
		a     VertexAttrib
		count int
	}{
		{"past the stride", VertexAttrib{Name: "_n0", Offset: 6, Format: 0x806}, 2},
		{"past the buffer", VertexAttrib{Name: "_u0", Offset: 4, Format: 0x806}, 11},
		{"huge count", VertexAttrib{Name: "_u0", Offset: 0, Format: 0x000}, math.MaxInt32},
		{"missing buffer", VertexAttrib{Name: "_c0", Buffer: 3, Format: 0x000}, 1},
		{"bad format", VertexAttrib{Name: "_w0", Format: 0x809}, 1},
	} {
		_, err := decodeAttribute(&c.a, bufs, c.count, binary.BigEndian)
		if err == nil || !strings.Contains(err.Error(), c.a.Name) {
			t.Errorf("%s: got %v, want an error naming %s", c.name, err, c.a.Name)
		}
	}
}
