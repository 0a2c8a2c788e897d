// Package tga decodes Truevision TGA images, the second image format of
// Ballance's texture folder (beside BMP). It reads what game data uses:
// uncompressed and run-length-encoded true-colour (16, 24 and 32 bits),
// greyscale (8 bits) and colour-mapped (8-bit indices into a 15/16, 24 or
// 32-bit map) images, in either vertical order. Sizes are checked before
// anything is allocated.
package tga

import (
	"encoding/binary"
	"fmt"
	"image"
)

// MaxPixels bounds the images Decode accepts (8192 × 8192).
const MaxPixels = 1 << 26

// headerSize is the fixed TGA header.
const headerSize = 18

// Error is a decoding error at a byte offset of the file.
type Error struct {
	Off int
	Msg string
}

func (e *Error) Error() string { return fmt.Sprintf("tga: offset %d: %s", e.Off, e.Msg) }

func errorf(off int, f string, args ...any) error {
	return &Error{Off: off, Msg: fmt.Sprintf(f, args...)}
}

// Decode decodes a whole TGA file into straight-alpha RGBA, rows top to
// bottom.
func Decode(b []byte) (*image.NRGBA, error) {
	if len(b) < headerSize {
		return nil, errorf(0, "%d bytes, shorter than the %d-byte header", len(b), headerSize)
	}
	idLen, cmapType, kind := int(b[0]), b[1], b[2]
	cmapStart, cmapLen, cmapDepth := int(binary.LittleEndian.Uint16(b[3:])), int(binary.LittleEndian.Uint16(b[5:])), int(b[7])
	w, h := int(binary.LittleEndian.Uint16(b[12:])), int(binary.LittleEndian.Uint16(b[14:]))
	depth, desc := int(b[16]), b[17]
	if w == 0 || h == 0 || w*h > MaxPixels {
		return nil, errorf(12, "image size %d × %d (at most %d pixels)", w, h, MaxPixels)
	}
	rle := kind&8 != 0
	base := kind &^ 8
	pos := headerSize + idLen
	var cmap [][4]byte
	if cmapType == 1 {
		bytesPer := (cmapDepth + 7) / 8
		if cmapDepth != 15 && cmapDepth != 16 && cmapDepth != 24 && cmapDepth != 32 {
			return nil, errorf(7, "colour map depth %d (need 15, 16, 24 or 32)", cmapDepth)
		}
		if pos+cmapLen*bytesPer > len(b) {
			return nil, errorf(pos, "colour map of %d entries runs past the file's %d bytes", cmapLen, len(b))
		}
		cmap = make([][4]byte, cmapStart+cmapLen)
		for i := range cmapLen {
			cmap[cmapStart+i] = color(b[pos+i*bytesPer:], cmapDepth, true)
		}
		pos += cmapLen * bytesPer
	} else if cmapType != 0 {
		return nil, errorf(1, "colour map type %d", cmapType)
	}
	switch {
	case base == 1 && cmap != nil && depth == 8:
	case base == 2 && (depth == 15 || depth == 16 || depth == 24 || depth == 32):
	case base == 3 && depth == 8:
	default:
		return nil, errorf(2, "image type %d with %d bits per pixel is not supported", kind, depth)
	}
	alpha := desc&0xf != 0 || depth == 32
	bytesPer := (depth + 7) / 8
	n := w * h
	if !rle && pos+n*bytesPer > len(b) {
		return nil, errorf(pos, "%d × %d pixels of %d bytes run past the file's %d bytes", w, h, bytesPer, len(b))
	}
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	pixel := func(p []byte) ([4]byte, error) {
		switch base {
		case 1:
			if int(p[0]) >= len(cmap) {
				return [4]byte{}, fmt.Errorf("colour index %d past the %d-entry map", p[0], len(cmap))
			}
			return cmap[p[0]], nil
		case 3:
			return [4]byte{p[0], p[0], p[0], 255}, nil
		}
		return color(p, depth, alpha), nil
	}
	put := func(i int, c [4]byte) {
		x, y := i%w, i/w
		if desc&0x10 != 0 {
			x = w - 1 - x
		}
		if desc&0x20 == 0 { // bottom-up
			y = h - 1 - y
		}
		copy(img.Pix[img.PixOffset(x, y):], c[:])
	}
	for i := 0; i < n; {
		if !rle {
			c, err := pixel(b[pos:])
			if err != nil {
				return nil, errorf(pos, "%v", err)
			}
			put(i, c)
			pos += bytesPer
			i++
			continue
		}
		if pos >= len(b) {
			return nil, errorf(pos, "run-length data ends after %d of %d pixels", i, n)
		}
		head := b[pos]
		pos++
		count := int(head&0x7f) + 1
		if i+count > n {
			return nil, errorf(pos-1, "a run of %d pixels passes the image's %d", count, n)
		}
		if head&0x80 != 0 {
			if pos+bytesPer > len(b) {
				return nil, errorf(pos, "run value past the end of the file")
			}
			c, err := pixel(b[pos:])
			if err != nil {
				return nil, errorf(pos, "%v", err)
			}
			pos += bytesPer
			for range count {
				put(i, c)
				i++
			}
			continue
		}
		if pos+count*bytesPer > len(b) {
			return nil, errorf(pos, "raw packet of %d pixels past the end of the file", count)
		}
		for range count {
			c, err := pixel(b[pos:])
			if err != nil {
				return nil, errorf(pos, "%v", err)
			}
			put(i, c)
			pos += bytesPer
			i++
		}
	}
	return img, nil
}

// color decodes one little-endian BGR(A) or 16-bit ARGB1555 value.
func color(p []byte, depth int, alpha bool) [4]byte {
	switch depth {
	case 15, 16:
		v := binary.LittleEndian.Uint16(p)
		c := [4]byte{expand5(v >> 10), expand5(v >> 5), expand5(v), 255}
		if depth == 16 && alpha && v&0x8000 == 0 {
			c[3] = 0
		}
		return c
	case 24:
		return [4]byte{p[2], p[1], p[0], 255}
	}
	a := p[3]
	if !alpha {
		a = 255
	}
	return [4]byte{p[2], p[1], p[0], a}
}

// expand5 widens a 5-bit channel to 8 bits (v·255/31, rounded).
func expand5(v uint16) byte {
	v &= 0x1f
	return byte((uint32(v)*255 + 15) / 31)
}
