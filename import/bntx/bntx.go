// Package bntx reads BNTX texture containers, the Nintendo Switch's
// nn::gfx texture files: standalone (a layout's timg/__Combined.bntx) or
// embedded in a Switch BFRES (its textures.bntx external file). It decodes
// level 0 of each texture, undoing the Tegra X1 block-linear layout
// (pixel.TegraSurface), into 8-bit RGBA with the texture's channel
// selectors applied (docs/formats/bntx.md).
//
// Other importers call Textures; the registered "bntx" format converts a
// standalone file into a glTF that holds its textures.
package bntx

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/animbake/bake/import/binread"
)

// Magic is the file's first 8 bytes.
const Magic = "BNTX\x00\x00\x00\x00"

// Sizes of the fixed parts (docs/formats/bntx.md).
const (
	HeaderSize    = 0x20 // nn::util::BinaryFileHeader
	ContainerSize = 0x38 // "NX  " texture container, after the header
	BRTISize      = 0xA0 // texture info header, before its two 0x100 regions
	blockHeadSize = 0x10 // BRTD, _STR, _RLT block headers
)

// Limits on what a texture info may ask for.
const (
	maxDim      = 16384 // the Tegra X1's largest 2D texture
	maxMips     = 15    // log2(16384) + 1
	maxTextures = 1 << 16
)

// File is a parsed BNTX.
type File struct {
	Name string
	// Version is major.minor.micro, as stored (major in the high 16 bits).
	Version  uint32
	Textures []*Texture
	data     []byte
}

// Texture is one BRTI: a texture's header, offsets resolved to file
// offsets within the BNTX.
type Texture struct {
	Name string
	Off  int // file offset of the BRTI
	// Flags, StorageDim (1 1D, 2 2D, 3 3D), TileMode (0 block-linear,
	// 1 pitch-linear), Swizzle (a GPU hint; not part of the address),
	// MipCount and SampleCount as stored.
	Flags       uint8
	StorageDim  uint8
	TileMode    uint16
	Swizzle     uint16
	MipCount    int
	SampleCount int
	Format      ImageFormat
	AccessFlags uint32
	Width       int
	Height      int
	Depth       int
	ArrayLayers int
	// BlockHeightLog2 is level 0's block height (texture layout bits 0–2).
	BlockHeightLog2 int
	Layout          [2]uint32
	ImageSize       int // bytes of every level and layer
	Alignment       uint32
	// ChannelSources are the nn::gfx channel sources of R, G, B, A
	// (0 zero, 1 one, 2 R, 3 G, 4 B, 5 A).
	ChannelSources [4]byte
	ImageDim       uint8 // nn::gfx ImageDimension (1 2D, 3 cube …)
	// Mips are the file offsets of each level's data. Only level 0 is
	// checked (it must lie in the file); the others are kept as stored
	// (clamped to the file's size), since a mip pointer bake never follows
	// must not cost the texture.
	Mips []int
}

// Parse reads the BNTX at the start of data (data may run on past the
// file's size, as when it is cut out of a BFRES). Every error is a
// *binread.FormatError at the offending offset.
func Parse(data []byte) (*File, error) {
	r := binread.New(data, binary.LittleEndian)
	if err := r.Check(HeaderSize+ContainerSize, "BNTX header and texture container"); err != nil {
		return nil, err
	}
	if string(data[:8]) != Magic {
		return nil, binread.Errorf(0, "expected the BNTX magic %q, found %q", Magic, data[:8])
	}
	if bom := binary.BigEndian.Uint16(data[0xC:]); bom != 0xFFFE {
		if bom == 0xFEFF {
			return nil, binread.Errorf(0xC, "big-endian BNTX (byte-order mark FE FF) is not supported; the Switch's files are little-endian (FF FE)")
		}
		return nil, binread.Errorf(0xC, "expected the byte-order mark FF FE, found %02X %02X", data[0xC], data[0xD])
	}
	f := &File{data: data}
	r.Pos = 8
	f.Version, _ = r.U32("version")
	if major := f.Version >> 16; major != 4 {
		return nil, binread.Errorf(8, "BNTX version %d.%d.%d is not supported (4.x is)", major, f.Version>>8&0xFF, f.Version&0xFF)
	}
	r.Pos = 0x10
	nameOff, _ := r.U32("file name offset")
	r.Pos = 0x16
	strOff, _ := r.U16("string table offset")
	rltOff, _ := r.U32("relocation table offset")
	size, _ := r.U32("file size")
	if int64(size) > int64(len(data)) || size < HeaderSize+ContainerSize {
		return nil, binread.Errorf(0x1C, "file size 0x%x is outside 0x%x..0x%x (the bytes given)", size, HeaderSize+ContainerSize, len(data))
	}
	f.data = data[:size]
	var err error
	if nameOff != 0 {
		if f.Name, err = f.stringBefore(int(nameOff), 0x10, "file name"); err != nil {
			return nil, err
		}
	}
	if err := f.checkBlock(int(strOff), "_STR", 0x16, "string table"); err != nil {
		return nil, err
	}
	if err := f.checkRelocations(int(rltOff)); err != nil {
		return nil, err
	}
	if err := f.readContainer(); err != nil {
		return nil, err
	}
	return f, nil
}

// readContainer reads the "NX  " texture container and every BRTI its
// pointer array names.
func (f *File) readContainer() error {
	r := binread.New(f.data, binary.LittleEndian)
	r.Pos = HeaderSize
	if plat, _ := r.Bytes(4, "platform"); string(plat) != "NX  " {
		return binread.Errorf(HeaderSize, "expected the texture container's platform %q, found %q", "NX  ", plat)
	}
	count, _ := r.U32("texture count")
	infos, _ := r.U64("texture info array pointer")
	dataBlk, _ := r.U64("texture data pointer")
	if count > maxTextures {
		return binread.Errorf(HeaderSize+4, "texture count %d exceeds %d", count, maxTextures)
	}
	if err := f.checkBlock64(dataBlk, "BRTD", HeaderSize+0x10, "texture data block"); err != nil {
		return err
	}
	arr, err := f.at64(infos, 8*uint64(count), HeaderSize+8, "texture info pointer array")
	if err != nil {
		return err
	}
	f.Textures = make([]*Texture, 0, count)
	for i := range int(count) {
		p, _ := arr.U64("texture info pointer")
		t, err := f.readBRTI(p, int(infos)+8*i, i)
		if err != nil {
			return err
		}
		f.Textures = append(f.Textures, t)
	}
	return nil
}

// readBRTI reads the texture info that the pointer at ptrAt names.
func (f *File) readBRTI(p uint64, ptrAt, index int) (*Texture, error) {
	what := fmt.Sprintf("texture %d info", index)
	r, err := f.at64(p, BRTISize, ptrAt, what)
	if err != nil {
		return nil, err
	}
	off := int(p)
	if magic, _ := r.Bytes(4, "magic"); string(magic) != "BRTI" {
		return nil, binread.Errorf(int64(off), "%s: expected the magic \"BRTI\", found %q", what, magic)
	}
	t := &Texture{Off: off}
	r.Pos = 0x10
	t.Flags, _ = r.U8("flags")
	t.StorageDim, _ = r.U8("storage dimension")
	t.TileMode, _ = r.U16("tile mode")
	t.Swizzle, _ = r.U16("swizzle")
	mips, _ := r.U16("mip count")
	samples, _ := r.U16("sample count")
	r.Skip(2, "reserved")
	format, _ := r.U32("format")
	t.Format = ImageFormat(format)
	t.AccessFlags, _ = r.U32("GPU access flags")
	var dims [4]int32
	for i := range dims {
		dims[i], _ = r.I32("dimension")
	}
	t.Layout[0], _ = r.U32("texture layout")
	t.Layout[1], _ = r.U32("texture layout 2")
	r.Pos = 0x50
	imageSize, _ := r.U32("texture size")
	t.Alignment, _ = r.U32("alignment")
	src, _ := r.Bytes(4, "channel sources")
	copy(t.ChannelSources[:], src)
	t.ImageDim, _ = r.U8("image dimension")
	r.Pos = 0x60
	namePtr, _ := r.U64("name pointer")
	r.Skip(8, "parent pointer")
	mipPtrs, _ := r.U64("mip pointer array pointer")

	if t.Name, err = f.lengthString(namePtr, off+0x60, what+" name"); err != nil {
		return nil, err
	}
	what = "texture " + t.Name
	if mips == 0 || mips > maxMips {
		return nil, binread.Errorf(int64(off+0x16), "%s: mip count %d is outside 1..%d", what, mips, maxMips)
	}
	t.MipCount, t.SampleCount = int(mips), int(samples)
	t.Width, t.Height, t.Depth, t.ArrayLayers = int(dims[0]), int(dims[1]), int(dims[2]), int(dims[3])
	if t.Width < 1 || t.Height < 1 || t.Width > maxDim || t.Height > maxDim {
		return nil, binread.Errorf(int64(off+0x24), "%s: size %d×%d is outside 1..%d", what, t.Width, t.Height, maxDim)
	}
	if t.Depth < 1 || t.Depth > maxDim || t.ArrayLayers < 1 || t.ArrayLayers > maxDim {
		return nil, binread.Errorf(int64(off+0x2C), "%s: depth %d or array layer count %d is outside 1..%d", what, t.Depth, t.ArrayLayers, maxDim)
	}
	t.BlockHeightLog2 = int(t.Layout[0] & 7)
	t.ImageSize = int(imageSize)
	arr, err := f.at64(mipPtrs, 8*uint64(mips), off+0x70, what+" mip pointer array")
	if err != nil {
		return nil, err
	}
	t.Mips = make([]int, mips)
	for i := range t.Mips {
		m, _ := arr.U64("mip pointer")
		if i > 0 {
			t.Mips[i] = int(min(m, uint64(len(f.data)))) // not read: level 0 is all bake uses
			continue
		}
		if m == 0 || m >= uint64(len(f.data)) {
			return nil, binread.Errorf(int64(int(mipPtrs)+8*i), "%s: level %d data pointer 0x%x lies outside the file (0x%x bytes)", what, i, m, len(f.data))
		}
		t.Mips[i] = int(m)
	}
	return t, nil
}

// at64 returns a reader over n bytes at the file offset p, named by the
// pointer stored at ptrAt.
func (f *File) at64(p, n uint64, ptrAt int, what string) (*binread.Reader, error) {
	if p > uint64(len(f.data)) || n > uint64(len(f.data))-p {
		return nil, binread.Errorf(int64(ptrAt), "%s (0x%x bytes at 0x%x) lies outside the file (0x%x bytes)", what, n, p, len(f.data))
	}
	r := binread.New(f.data[p:p+n], binary.LittleEndian)
	r.Base = int64(p)
	return r, nil
}

// lengthString reads the string table entry at p: a u16 length, then the
// bytes (a NUL follows them).
func (f *File) lengthString(p uint64, ptrAt int, what string) (string, error) {
	r, err := f.at64(p, 2, ptrAt, what)
	if err != nil {
		return "", err
	}
	n, _ := r.U16("length")
	b, err := f.at64(p+2, uint64(n), ptrAt, what)
	if err != nil {
		return "", err
	}
	return string(b.Data), nil
}

// stringBefore reads a string whose offset points at its first byte (the
// file name), its u16 length just before it.
func (f *File) stringBefore(p int, ptrAt int, what string) (string, error) {
	if p < 2 {
		return "", binread.Errorf(int64(ptrAt), "%s offset 0x%x leaves no room for its length", what, p)
	}
	return f.lengthString(uint64(p-2), ptrAt, what)
}

// checkBlock checks that a block with the given magic starts at off,
// named by the field at fieldAt.
func (f *File) checkBlock(off int, magic string, fieldAt int, what string) error {
	return f.checkBlock64(uint64(off), magic, fieldAt, what)
}

func (f *File) checkBlock64(off uint64, magic string, fieldAt int, what string) error {
	r, err := f.at64(off, blockHeadSize, fieldAt, what)
	if err != nil {
		return err
	}
	if got := string(r.Data[:4]); got != magic {
		return binread.Errorf(int64(off), "%s: expected the magic %q, found %q", what, magic, got)
	}
	return nil
}

// Relocation table layout (nn::util::RelocationTable).
const (
	rltSectionSize = 0x18
	rltEntrySize   = 8
)

// checkRelocations checks the relocation table's header and that its
// sections and entries lie inside the file. The pointers the table lists
// already hold file offsets in a stored file, so nothing is relocated.
func (f *File) checkRelocations(off int) error {
	if err := f.checkBlock(off, "_RLT", 0x18, "relocation table"); err != nil {
		return err
	}
	r, _ := f.at64(uint64(off), blockHeadSize, 0x18, "relocation table")
	r.Pos = 4
	self, _ := r.U32("table offset")
	sections, _ := r.U32("section count")
	if int(self) != off {
		return binread.Errorf(int64(off+4), "relocation table: its own offset reads 0x%x, expected 0x%x", self, off)
	}
	rest, _ := f.at64(uint64(off)+blockHeadSize, uint64(len(f.data)-off-blockHeadSize), 0x18, "relocation sections")
	n, err := rest.Count(uint64(sections), rltSectionSize, "relocation sections")
	if err != nil {
		return err
	}
	entries := 0
	for range n {
		rest.Skip(0x10, "section pointer, offset and size")
		first, _ := rest.U32("first entry")
		count, _ := rest.U32("entry count")
		if uint64(first)+uint64(count) > uint64(maxTextures)*64 {
			return rest.Errorf("relocation section lists entries %d..%d, too many", first, uint64(first)+uint64(count))
		}
		entries = max(entries, int(first+count))
	}
	if _, err := rest.Count(uint64(entries), rltEntrySize, "relocation entries"); err != nil {
		return err
	}
	return nil
}

// errUnsupported marks a well-formed texture that this package does not
// decode (a format, tile mode or dimension outside what it handles).
type errUnsupported struct{ error }

// ErrUnsupported is matched (errors.Is) by the error of a texture that is
// well formed but not decodable here.
var ErrUnsupported = errors.New("unsupported texture")

func (e errUnsupported) Is(target error) bool { return target == ErrUnsupported }

func unsupported(format string, args ...any) error {
	return errUnsupported{fmt.Errorf(format, args...)}
}

// isUnsupported reports whether err marks an undecodable texture.
func isUnsupported(err error) bool { return errors.Is(err, ErrUnsupported) }
