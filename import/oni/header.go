package oni

import (
	"encoding/binary"
	"fmt"

	"github.com/animbake/bake/import/binread"
)

// Sizes of the fixed parts of an instance file (oni-container.md §1.1–§1.4).
const (
	HeaderSize             = 0x40 // file header
	DescriptorSize         = 20   // one instance descriptor
	NameDescriptorSize     = 8    // one name descriptor (VR31 only)
	TemplateDescriptorSize = 16   // one template descriptor (VR31 only)
	InstanceHeaderSize     = 8    // instance id and file id before each payload
)

// Version values at offset 0x08 of the header.
const (
	VersionLevel uint32 = 0x56523331 // "VR31", a Bungie level file (levelN_Final.dat)
	VersionOni   uint32 = 0x56523332 // "VR32", an OniSplit single-instance .oni file
)

// Signature is the constant at header offset 0x0C: four u16 sizes
// (header, instance descriptor, template descriptor, name descriptor).
const Signature uint64 = 0x0008001000140040

// Template checksums at header offset 0x00 (oni-container.md §1.2).
const (
	ChecksumPC  uint64 = 0x0003BCDF33DC271F // PC retail templates
	ChecksumMac uint64 = 0x0003BCDF23C13061 // Mac and PC demo ("sep" layout)
)

// FileHeader is the 64-byte header shared by .dat (VR31) and .oni (VR32)
// files, little-endian on every platform.
type FileHeader struct {
	Checksum        uint64 // template checksum: ChecksumPC, ChecksumMac or another
	Version         uint32 // VersionLevel or VersionOni
	Signature       uint64 // always Signature
	InstanceCount   uint32 // descriptors at 0x40
	NameCount       uint32 // name descriptors (0 in .oni files)
	TemplateCount   uint32 // template descriptors (0 in .oni files)
	DataTableOffset uint32 // absolute offset of the data table
	DataTableSize   uint32
	NameTableOffset uint32 // absolute offset of the name table
	NameTableSize   uint32
	RawTableOffset  uint32 // VR32 only: the raw table inside the .oni
	RawTableSize    uint32
}

// VersionName is the version as the wiki spells it ("VR31", "VR32").
func (h *FileHeader) VersionName() string {
	switch h.Version {
	case VersionLevel:
		return "VR31"
	case VersionOni:
		return "VR32"
	}
	return fmt.Sprintf("0x%08x", h.Version)
}

// Platform names the template set the checksum stands for.
func (h *FileHeader) Platform() string {
	switch h.Checksum {
	case ChecksumPC:
		return "pc"
	case ChecksumMac:
		return "mac"
	}
	return "unknown"
}

// sniff reports whether head starts like an Oni instance file: a known
// version at 0x08 and the constant signature at 0x0C.
func sniff(head []byte) bool {
	if len(head) < 0x14 {
		return false
	}
	v := binary.LittleEndian.Uint32(head[0x08:])
	return (v == VersionLevel || v == VersionOni) && binary.LittleEndian.Uint64(head[0x0C:]) == Signature
}

// readHeader decodes and checks the file header.
func readHeader(data []byte) (FileHeader, error) {
	var h FileHeader
	if len(data) < HeaderSize {
		return h, binread.Errorf(int64(len(data)), "truncated header: an Oni instance file starts with a 0x40-byte header, the file has 0x%x bytes", len(data))
	}
	le := binary.LittleEndian
	h.Checksum = le.Uint64(data[0x00:])
	h.Version = le.Uint32(data[0x08:])
	h.Signature = le.Uint64(data[0x0C:])
	if h.Version != VersionLevel && h.Version != VersionOni {
		return h, binread.Errorf(0x08, "version 0x%08x: expected 0x%08x (VR31, level .dat) or 0x%08x (VR32, .oni)", h.Version, VersionLevel, VersionOni)
	}
	if h.Signature != Signature {
		return h, binread.Errorf(0x0C, "header signature 0x%016x: expected 0x%016x", h.Signature, Signature)
	}
	h.InstanceCount = le.Uint32(data[0x14:])
	h.NameCount = le.Uint32(data[0x18:])
	h.TemplateCount = le.Uint32(data[0x1C:])
	h.DataTableOffset = le.Uint32(data[0x20:])
	h.DataTableSize = le.Uint32(data[0x24:])
	h.NameTableOffset = le.Uint32(data[0x28:])
	h.NameTableSize = le.Uint32(data[0x2C:])
	if h.Version == VersionOni {
		h.RawTableOffset = le.Uint32(data[0x30:])
		h.RawTableSize = le.Uint32(data[0x34:])
	}
	size := uint64(len(data))
	if end := uint64(h.DataTableOffset) + uint64(h.DataTableSize); end > size {
		return h, binread.Errorf(0x20, "data table 0x%x+0x%x ends past the end of the file (0x%x bytes)", h.DataTableOffset, h.DataTableSize, size)
	}
	if end := uint64(h.NameTableOffset) + uint64(h.NameTableSize); end > size {
		return h, binread.Errorf(0x28, "name table 0x%x+0x%x ends past the end of the file (0x%x bytes)", h.NameTableOffset, h.NameTableSize, size)
	}
	tables := uint64(HeaderSize) + uint64(h.InstanceCount)*DescriptorSize
	if h.Version == VersionLevel {
		tables += uint64(h.NameCount)*NameDescriptorSize + uint64(h.TemplateCount)*TemplateDescriptorSize
	}
	if tables > size {
		return h, binread.Errorf(0x14, "%d instance, %d name and %d template descriptors need 0x%x bytes, the file has 0x%x",
			h.InstanceCount, h.NameCount, h.TemplateCount, tables, size)
	}
	return h, nil
}
