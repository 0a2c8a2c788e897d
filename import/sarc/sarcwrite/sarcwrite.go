// Package sarcwrite builds SARC archives (version 0x0100, either byte
// order): the test and demo inputs of package sarc. Members are laid out
// as Nintendo's tools do: SFAT nodes sorted by name hash, names in the
// SFNT table padded to 4 bytes, each member's data aligned.
package sarcwrite

import (
	"encoding/binary"
	"sort"

	"github.com/animbake/bake/import/bfres/bfreswrite"
)

// File is one member: its path inside the archive and its bytes.
type File struct {
	Name string
	Data []byte
	// Align is the member's data alignment in bytes (a power of two); 0
	// means the archive's default.
	Align int
}

// Options shape the archive.
type Options struct {
	// LittleEndian writes the Switch byte order (BOM FF FE); the default
	// is big-endian (Wii U, BOM FE FF).
	LittleEndian bool
	// Align is the default member alignment (0: 4 bytes).
	Align int
	// HashKey is the name hash multiplier (0: 101, as official archives).
	HashKey uint32
}

// Hash is the SFAT name hash (docs/formats/sarc.md): h = h*key + byte.
func Hash(name string, key uint32) uint32 {
	var h uint32
	for i := 0; i < len(name); i++ {
		h = h*key + uint32(name[i])
	}
	return h
}

// Write builds the archive image.
func Write(files []File, o Options) []byte {
	var order binary.AppendByteOrder = binary.BigEndian
	if o.LittleEndian {
		order = binary.LittleEndian
	}
	key := o.HashKey
	if key == 0 {
		key = 101
	}
	defAlign := o.Align
	if defAlign <= 0 {
		defAlign = 4
	}
	sorted := append([]File(nil), files...)
	sort.SliceStable(sorted, func(i, j int) bool { return Hash(sorted[i].Name, key) < Hash(sorted[j].Name, key) })

	// Name table: each name NUL-terminated, padded to 4 bytes.
	var names []byte
	nameOff := make([]int, len(sorted))
	for i, f := range sorted {
		nameOff[i] = len(names)
		names = append(names, f.Name...)
		names = append(names, 0)
		names = pad(names, 4)
	}
	maxAlign := defAlign
	for _, f := range sorted {
		maxAlign = max(maxAlign, f.Align)
	}
	headers := 0x14 + 0x0C + 0x10*len(sorted) + 0x08 + len(names)
	dataOff := roundUp(headers, maxAlign)

	// Data section, each member aligned from the start of the file.
	var data []byte
	begin := make([]int, len(sorted))
	for i, f := range sorted {
		a := f.Align
		if a <= 0 {
			a = defAlign
		}
		data = append(data, make([]byte, roundUp(dataOff+len(data), a)-dataOff-len(data))...)
		begin[i] = len(data)
		data = append(data, f.Data...)
	}

	out := make([]byte, 0, dataOff+len(data))
	out = append(out, "SARC"...)
	out = order.AppendUint16(out, 0x14)
	out = order.AppendUint16(out, 0xFEFF)
	out = order.AppendUint32(out, uint32(dataOff+len(data)))
	out = order.AppendUint32(out, uint32(dataOff))
	out = order.AppendUint16(out, 0x0100)
	out = order.AppendUint16(out, 0)
	out = append(out, "SFAT"...)
	out = order.AppendUint16(out, 0x0C)
	out = order.AppendUint16(out, uint16(len(sorted)))
	out = order.AppendUint32(out, key)
	for i, f := range sorted {
		out = order.AppendUint32(out, Hash(f.Name, key))
		out = order.AppendUint32(out, 0x01000000|uint32(nameOff[i]/4))
		out = order.AppendUint32(out, uint32(begin[i]))
		out = order.AppendUint32(out, uint32(begin[i]+len(f.Data)))
	}
	out = append(out, "SFNT"...)
	out = order.AppendUint16(out, 0x08)
	out = order.AppendUint16(out, 0)
	out = append(out, names...)
	out = append(out, make([]byte, dataOff-len(out))...)
	return append(out, data...)
}

// Compressed builds the archive and compresses it as Yaz0 (.szs).
func Compressed(files []File, o Options) []byte {
	return bfreswrite.Yaz0(Write(files, o))
}

func roundUp(n, a int) int { return (n + a - 1) / a * a }

func pad(b []byte, a int) []byte {
	for len(b)%a != 0 {
		b = append(b, 0)
	}
	return b
}
