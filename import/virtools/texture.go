package virtools

import (
	"strings"
)

// Section identifiers of CKTexture (CK_STATESAVE_TEX*).
const (
	identTexOldRaw     = 0x4000   // obsolete raw bitmaps (not read)
	identTexFileNames  = 0x10000  // one file name per slot
	identTexRaw        = 0x20000  // raw pixels per slot
	identTexSaveFormat = 0x80000  // the save format (not needed to read)
	identTexReader     = 0x100000 // an image file per slot, with its reader's extension
	identTexOptionsOld = 0x2ff000 // OLDTEXONLY: mipmap, flags, save options, colour key, slot, video format
	identTexOptions    = 0xfff000 // TEXONLY: the same, as later versions name it
)

// Texture save options (CK_TEXTURE_SAVEOPTIONS).
const (
	TexSaveRaw      = 0
	TexSaveExternal = 1
	TexSaveFormat   = 2
	TexSaveGlobal   = 3
	TexSaveInclude  = 4
)

// maxTexturePixels bounds a stored image (16384 × 16384): a larger size
// read from a damaged file is refused before any allocation.
const maxTexturePixels = 1 << 28

// Texture is a decoded CKTexture: per slot either pixels stored in the
// file, an image file stored in it, or only a file name.
type Texture struct {
	Index int
	Slots []TextureSlot
	// Options (the 0x2ff000 / 0xfff000 section).
	MipMap           bool
	Transparent      bool   // pixels of TransparentColor are see-through (colour key)
	TransparentColor uint32 // ARGB; alpha ignored
	SaveOptions      uint8
	CurrentSlot      int
	VideoFormat      uint32 // VX_PIXELFORMAT the engine converts to
	HasVideoFormat   bool
}

// TextureSlot is one image of a texture.
type TextureSlot struct {
	// Width and Height with RGBA (8-bit straight alpha, rows top to
	// bottom) when the pixels are stored raw or were decoded.
	Width, Height int
	RGBA          []byte
	// File holds an image file stored in the composition (its reader's
	// extension in Ext, lower case) when bake keeps it as is.
	File []byte
	Ext  string
	// FileName is the slot's file name as saved (may be a bare name or a
	// Windows path).
	FileName string
	// Problem says why stored data could not be used ("" when fine).
	Problem string
	// alpha is the alpha stored beside a file whose format has none: one
	// byte for every pixel, or a single byte for all.
	alpha []byte
}

// HasPixels reports whether the slot carries an image (pixels or file).
func (s *TextureSlot) HasPixels() bool { return s.RGBA != nil || s.File != nil }

// decodeTexture reads a texture's stored images, file names and options.
func decodeTexture(o *Object, refs refResolver, warn func(string, ...any)) (*Texture, error) {
	t := &Texture{Index: o.Index}
	c := o.Chunk
	if c == nil {
		return t, nil
	}
	if s, err := c.section(identTexReader, refs); err != nil {
		return nil, err
	} else if s != nil {
		if err := t.readFormatted(s); err != nil {
			return nil, err
		}
	} else if s, err := c.section(identTexRaw, refs); err != nil {
		return nil, err
	} else if s != nil {
		if err := t.readRaw(s); err != nil {
			return nil, err
		}
	} else if s, err := c.section(identTexOldRaw, refs); err != nil {
		return nil, err
	} else if s != nil {
		warn("texture %q: pixels in the obsolete raw layout are not read", o.Name)
	}
	if s, err := c.section(identTexFileNames, refs); err != nil {
		return nil, err
	} else if s != nil {
		n, err := s.U32("file name count")
		if err != nil {
			return nil, err
		}
		if uint64(n) > uint64(s.Left()) {
			return nil, s.errorf("%d file names need at least %d dwords, the section has %d left", n, n, s.Left())
		}
		t.grow(int(n))
		for i := range int(n) {
			if t.Slots[i].FileName, err = s.String("file name"); err != nil {
				return nil, err
			}
		}
	}
	if err := t.readOptions(c, refs); err != nil {
		return nil, err
	}
	return t, nil
}

// grow makes sure there are at least n slots.
func (t *Texture) grow(n int) {
	for len(t.Slots) < n {
		t.Slots = append(t.Slots, TextureSlot{})
	}
}

// slotCount reads a slot count that the section can hold (each slot takes
// at least min dwords).
func slotCount(s *sectionReader, min int) (int, error) {
	n, err := s.U32("slot count")
	if err != nil {
		return 0, err
	}
	if uint64(n)*uint64(min) > uint64(s.Left()) {
		return 0, s.errorf("%d slots need at least %d dwords, the section has %d left", n, uint64(n)*uint64(min), s.Left())
	}
	return int(n), nil
}

// readRaw reads raw bitmaps (0x20000): a slot count, then per slot the
// bits per pixel (0: an empty slot, nothing follows), width, height, the
// alpha, red, green and blue masks, a compression dword (low 4 bits 0:
// plain planes), then the blue, green, red and alpha planes as buffers of
// one byte per pixel (an empty alpha buffer means opaque). Rows are stored
// bottom to top. Compressed planes are not read; the slot keeps its file
// name and the rest of the section is left alone.
func (t *Texture) readRaw(s *sectionReader) error {
	n, err := slotCount(s, 1)
	if err != nil {
		return err
	}
	t.grow(n)
	for i := range n {
		slot := &t.Slots[i]
		bpp, err := s.U32("bits per pixel")
		if err != nil {
			return err
		}
		if bpp == 0 {
			continue
		}
		if bpp > 32 {
			return s.errorf("raw bitmap of %d bits per pixel (at most 32)", bpp)
		}
		var h [8]uint32 // width, height, 4 masks, compression
		off := s.Off()
		for k := range 7 {
			if h[k], err = s.U32("raw bitmap header"); err != nil {
				return err
			}
		}
		w, ht, comp := h[0], h[1], h[6]
		px := uint64(w) * uint64(ht)
		if w == 0 || ht == 0 || px > maxTexturePixels {
			e := s.errorf("raw bitmap of %d × %d pixels", w, ht)
			e.Off = off
			return e
		}
		if comp&0xf != 0 {
			slot.Problem = "its pixels are stored JPEG-compressed per channel, which bake does not read"
			return nil // the compressed layout's size is unknown: stop here
		}
		var planes [4][]byte
		for k, name := range []string{"blue plane", "green plane", "red plane", "alpha plane"} {
			if planes[k], err = s.Buffer(name); err != nil {
				return err
			}
			if (k < 3 || planes[k] != nil) && uint64(len(planes[k])) != px {
				return s.errorf("%s holds %d bytes for %d × %d pixels", name, len(planes[k]), w, ht)
			}
		}
		slot.Width, slot.Height = int(w), int(ht)
		slot.RGBA = make([]byte, 4*px)
		for y := range slot.Height {
			src := (slot.Height - 1 - y) * slot.Width // bottom-up rows
			dst := 4 * y * slot.Width
			for x := range slot.Width {
				p := dst + 4*x
				slot.RGBA[p], slot.RGBA[p+1], slot.RGBA[p+2] = planes[2][src+x], planes[1][src+x], planes[0][src+x]
				slot.RGBA[p+3] = 0xff
				if planes[3] != nil {
					slot.RGBA[p+3] = planes[3][src+x]
				}
			}
		}
	}
	return nil
}

// Transparency markers of a stored image file.
const (
	formattedNoAlpha  = 1 // the file format holds the alpha
	formattedHasAlpha = 2 // an alpha block follows the file
)

// readFormatted reads image files stored with a bitmap reader (0x100000):
// slot count, width, height, bits per pixel, then per slot (when the size
// is not empty) the transparency marker, the reader's 4-byte extension, its
// GUID (2 dwords), the file size and the file padded to dwords; with marker
// 2 and a nonzero file, an alpha count (1: one alpha dword for every pixel,
// else a buffer of one alpha byte per pixel) follows.
func (t *Texture) readFormatted(s *sectionReader) error {
	n, err := slotCount(s, 0)
	if err != nil {
		return err
	}
	var wh [3]uint32
	for k := range wh {
		if wh[k], err = s.U32("image size"); err != nil {
			return err
		}
	}
	if uint64(n)*5 > uint64(s.Left()) {
		return s.errorf("%d image slots need at least %d dwords, the section has %d left", n, uint64(n)*5, s.Left())
	}
	t.grow(n)
	if wh[0] == 0 || wh[1] == 0 {
		return nil
	}
	for i := range n {
		slot := &t.Slots[i]
		marker, _ := s.U32("transparency marker")
		ext, _ := s.Words(1, "reader extension")
		_ = s.Skip(2, "reader GUID")
		size, err := s.U32("image file size")
		if err != nil {
			return err
		}
		words := (uint64(size) + 3) / 4
		if words > uint64(s.Left()) {
			return s.errorf("image file of %d bytes does not fit the %d dwords left", size, s.Left())
		}
		if size == 0 {
			continue
		}
		b, _ := s.Words(int(words), "image file")
		slot.File = b[:size]
		slot.Ext = strings.ToLower(strings.TrimRight(string(ext), "\x00"))
		if marker == formattedHasAlpha {
			cnt, err := s.U32("alpha count")
			if err != nil {
				return err
			}
			if cnt == 1 {
				a, err := s.U32("global alpha")
				if err != nil {
					return err
				}
				slot.alpha = []byte{byte(a)}
			} else if slot.alpha, err = s.Buffer("alpha plane"); err != nil {
				return err
			}
		}
	}
	return nil
}

// readOptions reads the options dword (mipmap in byte 0; transparent 0x1,
// video format present 0x2, cube map 0x4 in byte 1; save options in byte
// 2) and the one to three dwords after it, whose meaning depends on their
// number, the slot count and the video-format bit: colour key, current
// slot, video format.
func (t *Texture) readOptions(c *Chunk, refs refResolver) error {
	s, err := c.section(identTexOptionsOld, refs)
	if err == nil && s == nil {
		s, err = c.section(identTexOptions, refs)
	}
	if err != nil || s == nil {
		return err
	}
	v, err := s.U32("texture options")
	if err != nil {
		return err
	}
	t.MipMap = v&0xff != 0
	flags := v >> 8 & 0xff
	t.Transparent, t.HasVideoFormat = flags&0x1 != 0, flags&0x2 != 0
	t.SaveOptions = uint8(v >> 16)
	slots := len(t.Slots)
	read := func(p *uint32, what string) error {
		var err error
		*p, err = s.U32(what)
		return err
	}
	var cur uint32
	switch s.Left() {
	case 0:
	case 1:
		switch {
		case t.HasVideoFormat:
			err = read(&t.VideoFormat, "video format")
		case slots <= 1:
			err = read(&t.TransparentColor, "transparent colour")
		default:
			err = read(&cur, "current slot")
		}
	case 2:
		if slots <= 1 || !t.HasVideoFormat {
			if err = read(&t.TransparentColor, "transparent colour"); err != nil {
				return err
			}
		}
		if slots > 1 {
			if err = read(&cur, "current slot"); err != nil {
				return err
			}
		}
		if t.HasVideoFormat {
			err = read(&t.VideoFormat, "video format")
		}
	default:
		if err = read(&t.TransparentColor, "transparent colour"); err != nil {
			return err
		}
		if err = read(&cur, "current slot"); err != nil {
			return err
		}
		err = read(&t.VideoFormat, "video format")
	}
	if int64(cur) < int64(max(slots, 1)) {
		t.CurrentSlot = int(cur)
	}
	return err
}
