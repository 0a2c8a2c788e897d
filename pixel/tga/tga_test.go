package tga

import (
	"errors"
	"slices"
	"testing"
)

// header builds an 18-byte TGA header.
func header(kind byte, w, h uint16, depth, desc byte) []byte {
	return []byte{0, 0, kind, 0, 0, 0, 0, 0, 0, 0, 0, 0, byte(w), byte(w >> 8), byte(h), byte(h >> 8), depth, desc}
}

// A 2 × 2 24-bit image stored bottom-up (descriptor bit 5 clear): the
// file's first row (blue, green) is the image's bottom row. Pixels are
// BGR: 0xff0000 is blue.
func TestTrueColourBottomUp(t *testing.T) {
	b := append(header(2, 2, 2, 24, 0),
		255, 0, 0, 0, 255, 0, // bottom: blue, green
		0, 0, 255, 255, 255, 255) // top: red, white
	img, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	want := []byte{255, 0, 0, 255, 255, 255, 255, 255, 0, 0, 255, 255, 0, 255, 0, 255}
	if !slices.Equal(img.Pix, want) {
		t.Errorf("pixels %v, want %v", img.Pix, want)
	}
}

// A 32-bit top-down image with alpha, run-length encoded: one run packet
// of 3 pixels (0x82) of BGRA (1, 2, 3, 4), then a raw packet of 1 pixel
// (0x00) of (5, 6, 7, 8).
func TestRLE32TopDown(t *testing.T) {
	b := append(header(10, 4, 1, 32, 0x28), 0x82, 1, 2, 3, 4, 0x00, 5, 6, 7, 8)
	img, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	want := []byte{3, 2, 1, 4, 3, 2, 1, 4, 3, 2, 1, 4, 7, 6, 5, 8}
	if !slices.Equal(img.Pix, want) {
		t.Errorf("pixels %v, want %v", img.Pix, want)
	}
}

// 16-bit ARGB1555 with one attribute bit: 0x7c00 is opaque-bit-clear red
// (alpha 0), 0x83e0 is green with the alpha bit (255); 5-bit 31 → 255.
func TestARGB1555(t *testing.T) {
	b := append(header(2, 2, 1, 16, 0x21), 0x00, 0x7c, 0xe0, 0x83)
	img, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if want := []byte{255, 0, 0, 0, 0, 255, 0, 255}; !slices.Equal(img.Pix, want) {
		t.Errorf("pixels %v, want %v", img.Pix, want)
	}
}

// Hostile headers fail with an offset before allocating: a size past
// MaxPixels, data shorter than the size, a run past the image, an unknown
// type.
func TestBadFiles(t *testing.T) {
	for _, c := range []struct {
		name string
		b    []byte
		off  int
	}{
		{"short header", []byte{1, 2, 3}, 0},
		{"huge", header(2, 65535, 65535, 24, 0), 12},
		{"truncated pixels", append(header(2, 4, 4, 24, 0), 1, 2, 3), 18},
		{"run past the image", append(header(10, 2, 1, 24, 0), 0x85, 1, 2, 3), 18},
		{"type", header(32, 1, 1, 24, 0), 2},
		{"colour index past the map", append([]byte{0, 1, 1, 0, 0, 1, 0, 24, 0, 0, 0, 0, 1, 0, 1, 0, 8, 0}, 1, 2, 3, 5), 21},
	} {
		_, err := Decode(c.b)
		var e *Error
		if !errors.As(err, &e) || e.Off != c.off {
			t.Errorf("%s: %v, want an error at offset %d", c.name, err, c.off)
		}
	}
}
