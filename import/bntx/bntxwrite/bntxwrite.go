// Package bntxwrite writes BNTX texture containers (version 4.0,
// little-endian) from a small description: the project's own test and demo
// inputs for import/bntx and the Switch BFRES importer. Level 0 of each
// texture is laid out block-linear (or pitch-linear) with
// pixel.TegraSurface, exactly as the reader expects; docs/formats/bntx.md
// describes the layout.
package bntxwrite

import (
	"encoding/binary"
	"fmt"

	"github.com/animbake/bake/import/bntx"
	"github.com/animbake/bake/pixel"
)

// Texture describes one texture.
type Texture struct {
	Name          string
	Format        bntx.ImageFormat
	Width, Height int
	// BlockHeightLog2 is level 0's block height in GOBs (log2); Linear
	// stores pitch-linear rows instead.
	BlockHeightLog2 int
	Linear          bool
	// ChannelSources are the nn::gfx sources of R, G, B, A (2 3 4 5 is
	// the identity; zero value means the identity).
	ChannelSources [4]byte
	// Packed holds level 0 as packed rows of elements (pixels, or 4×4
	// blocks), which the writer tiles. Raw, when set, is stored as is
	// instead (hostile tests).
	Packed []byte
	Raw    []byte
	// MipCount is stored as given (default 1); only level 0 has data.
	MipCount int
	// ArrayLayers and Depth default to 1, StorageDim to 2 (2D).
	ArrayLayers, Depth int
	StorageDim         uint8
}

// File describes a BNTX.
type File struct {
	Name     string
	Textures []Texture
}

// Layout constants of the files written (those of the game's files).
const (
	memoryPoolSize = 0x140
	regionsSize    = 0x200 // in-place texture and texture view regions
	dataAlign      = 0x200
	infoSize       = bntx.BRTISize + regionsSize
)

// builder accumulates the file and the positions of its pointers.
type builder struct {
	b        []byte
	pointers []int // offsets of 64-bit pointers into the main part
	dataPtrs []int // offsets of pointers into the data block
}

func (w *builder) align(n int) {
	for len(w.b)%n != 0 {
		w.b = append(w.b, 0)
	}
}

func (w *builder) u16(at int, v uint16) { binary.LittleEndian.PutUint16(w.b[at:], v) }
func (w *builder) u32(at int, v uint32) { binary.LittleEndian.PutUint32(w.b[at:], v) }
func (w *builder) ptr(at, v int) {
	binary.LittleEndian.PutUint64(w.b[at:], uint64(v))
	w.pointers = append(w.pointers, at)
}

func (w *builder) grow(n int) int {
	at := len(w.b)
	w.b = append(w.b, make([]byte, n)...)
	return at
}

// Bytes writes the file.
func (f File) Bytes() ([]byte, error) {
	levels := make([][]byte, len(f.Textures))
	for i, t := range f.Textures {
		d, err := t.level0()
		if err != nil {
			return nil, fmt.Errorf("texture %s: %w", t.Name, err)
		}
		levels[i] = d
	}
	w := &builder{}
	n := len(f.Textures)
	w.grow(bntx.HeaderSize + bntx.ContainerSize + memoryPoolSize)
	copy(w.b, bntx.Magic)
	w.u32(8, 0x00040000)
	w.b[0xC], w.b[0xD] = 0xFF, 0xFE
	w.b[0xE], w.b[0xF] = 12, 64 // alignment 2^12, 64-bit addresses
	copy(w.b[bntx.HeaderSize:], "NX  ")
	w.u32(bntx.HeaderSize+4, uint32(n))
	infoArr := w.grow(8 * n)
	w.ptr(bntx.HeaderSize+8, infoArr)
	w.ptr(bntx.HeaderSize+0x20, bntx.HeaderSize+bntx.ContainerSize) // memory pool

	// String table: the file name, then each texture name.
	w.align(8)
	strOff := w.grow(0x14)
	copy(w.b[strOff:], "_STR")
	w.u32(strOff+0x10, uint32(n+1))
	w.grow(4) // the empty string
	names := append([]string{f.Name}, textureNames(f.Textures)...)
	nameAt := make([]int, len(names))
	for i, s := range names {
		nameAt[i] = w.grow(2 + len(s) + 1)
		w.u16(nameAt[i], uint16(len(s)))
		copy(w.b[nameAt[i]+2:], s)
		w.align(2)
	}
	w.align(8)
	w.u32(strOff+4, uint32(len(w.b)-strOff))
	w.u32(strOff+8, uint32(len(w.b)-strOff))
	w.u32(0x10, uint32(nameAt[0]+2))
	w.u16(0x16, uint16(strOff))

	dicOff := writeDict(w, names[1:], nameAt[1:])
	w.ptr(bntx.HeaderSize+0x18, dicOff)

	infos := make([]int, n)
	for i, t := range f.Textures {
		w.align(8)
		infos[i] = w.writeInfo(t, nameAt[i+1])
		w.ptr(infoArr+8*i, infos[i])
	}

	// Data block: level 0 of each texture, 0x200-aligned after a 0x10
	// header that ends on a 0x1000 boundary.
	for (len(w.b)+0x10)%0x1000 != 0 {
		w.b = append(w.b, 0)
	}
	brtd := w.grow(0x10)
	copy(w.b[brtd:], "BRTD")
	w.ptr(bntx.HeaderSize+0x10, brtd)
	for i := range f.Textures {
		w.align(dataAlign)
		at := w.grow(len(levels[i]))
		copy(w.b[at:], levels[i])
		w.u32(infos[i]+0x50, uint32(len(levels[i])))
		mipArr := int(binary.LittleEndian.Uint64(w.b[infos[i]+0x70:]))
		binary.LittleEndian.PutUint64(w.b[mipArr:], uint64(at))
		w.dataPtrs = append(w.dataPtrs, mipArr)
	}
	w.align(8)
	w.u32(brtd+8, uint32(len(w.b)-brtd))
	w.writeRelocations(brtd)
	w.u32(0x1C, uint32(len(w.b)))
	return w.b, nil
}

func textureNames(ts []Texture) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name
	}
	return out
}

// level0 returns the stored bytes of level 0.
func (t Texture) level0() ([]byte, error) {
	if t.Raw != nil {
		return t.Raw, nil
	}
	cols, rows, bytes, err := t.Format.Elements(t.Width, t.Height)
	if err != nil {
		return nil, fmt.Errorf("the writer tiles only decodable formats (give Raw bytes): %w", err)
	}
	s := pixel.TegraSurface{Cols: cols, Rows: rows, Bytes: bytes, Linear: t.Linear, BlockHeightLog2: t.BlockHeightLog2}
	return s.Tile(t.Packed)
}

// writeInfo writes a BRTI with its regions and a mip pointer array (level
// 0's pointer is filled in with the data).
func (w *builder) writeInfo(t Texture, nameAt int) int {
	mips := max(t.MipCount, 1)
	at := w.grow(infoSize + 8*mips)
	copy(w.b[at:], "BRTI")
	size := uint32(infoSize + 8*mips)
	w.u32(at+4, size)
	w.u32(at+8, size)
	w.b[at+0x10] = 1 // flags
	w.b[at+0x11] = 2
	if t.StorageDim != 0 {
		w.b[at+0x11] = t.StorageDim
	}
	if t.Linear {
		w.u16(at+0x12, bntx.TileLinear)
	}
	w.u16(at+0x16, uint16(mips))
	w.u16(at+0x18, 1) // samples
	w.u32(at+0x1C, uint32(t.Format))
	w.u32(at+0x20, 0x20) // GPU access: texture
	w.u32(at+0x24, uint32(t.Width))
	w.u32(at+0x28, uint32(t.Height))
	w.u32(at+0x2C, uint32(max(t.Depth, 1)))
	w.u32(at+0x30, uint32(max(t.ArrayLayers, 1)))
	w.u32(at+0x34, uint32(t.BlockHeightLog2))
	w.u32(at+0x38, 0x10007)
	w.u32(at+0x54, dataAlign)
	src := t.ChannelSources
	if src == ([4]byte{}) {
		src = [4]byte{2, 3, 4, 5}
	}
	copy(w.b[at+0x58:], src[:])
	w.b[at+0x5C] = 1 // 2D
	w.ptr(at+0x60, nameAt)
	w.ptr(at+0x68, bntx.HeaderSize)
	w.ptr(at+0x70, at+infoSize)
	w.ptr(at+0x80, at+bntx.BRTISize)
	w.ptr(at+0x88, at+bntx.BRTISize+0x100)
	return at
}

// writeRelocations appends the relocation table: one section for the
// pointers into the headers, one for those into the data block, one entry
// per pointer.
func (w *builder) writeRelocations(brtd int) {
	w.align(8)
	off := w.grow(0x10 + 2*0x18)
	copy(w.b[off:], "_RLT")
	w.u32(0x18, uint32(off))
	w.u32(off+4, uint32(off))
	w.u32(off+8, 2)
	sec := off + 0x10
	w.u32(sec+0x8, 0)
	w.u32(sec+0xC, uint32(brtd))
	w.u32(sec+0x10, 0)
	w.u32(sec+0x14, uint32(len(w.pointers)))
	sec += 0x18
	w.u32(sec+0x8, uint32(brtd))
	w.u32(sec+0xC, uint32(len(w.b)-brtd))
	w.u32(sec+0x10, uint32(len(w.pointers)))
	w.u32(sec+0x14, uint32(len(w.dataPtrs)))
	for _, p := range append(w.pointers, w.dataPtrs...) {
		e := w.grow(8)
		w.u32(e, uint32(p))
		w.u16(e+4, 1)
		w.b[e+6] = 1
	}
}
