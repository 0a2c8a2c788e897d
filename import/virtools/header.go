package virtools

import (
	"encoding/binary"

	"github.com/animbake/bake/import/binread"
)

// Magic is the 8-byte signature every Virtools composition file starts with.
const Magic = "Nemo Fi\x00"

// HeaderSize is the size of both header parts of a version ≥ 5 file.
const HeaderSize = 64

// File versions this reader accepts. Every Ballance file and every
// 2.x/3.x writer sample is version 8; versions 5 to 7 (older writers,
// virtools-container.md §2.4) differ in where the object table lives and
// how the Data section starts. Below 5 the header has no part 1 and the
// object blocks use a legacy layout, which is not supported.
const (
	MinFileVersion = 5
	MaxFileVersion = 8
)

// Write-mode flags of Header.WriteMode (CK_FILE_WRITEMODE).
const (
	WriteChunkCompressedOld = 0x1 // Data section is zlib (old writers)
	WriteExternalTextures   = 0x2 // obsolete
	WriteForViewer          = 0x4 // no interface data
	WriteWholeCompressed    = 0x8 // Header1 and Data are zlib
)

// Header is the 64-byte file header: part 0 (bytes 0x00–0x1F) and part 1
// (bytes 0x20–0x3F), field for field as on disk.
type Header struct {
	Signature      [8]byte
	CRC            uint32 // Adler-32 seeded with 0, see ComputeCRC
	CKVersion      uint32 // engine version, date-coded 0xDDMMYYYY
	FileVersion    uint32 // MinFileVersion..MaxFileVersion
	Zero           uint32 // "FileVersion2", must be 0
	WriteMode      uint32 // Write* flags
	Hdr1PackSize   uint32 // stored size of the Header1 section
	DataPackSize   uint32 // stored size of the Data section
	DataUnPackSize uint32 // size of the Data section after inflating
	ManagerCount   uint32 // manager blocks at the start of Data
	ObjectCount    uint32 // entries of the object table and object blocks
	MaxIDSaved     uint32 // highest saved CK_ID
	ProductVersion uint32 // informational
	ProductBuild   uint32 // informational, e.g. 0x02010001 for Dev 2.1
	Hdr1UnPackSize uint32 // size of Header1 after inflating
}

// parseHeader decodes and checks the 64-byte header at the start of data.
func parseHeader(data []byte) (*Header, error) {
	if len(data) < HeaderSize {
		return nil, binread.Errorf(int64(len(data)), "file header: need %d bytes, the file has %d", HeaderSize, len(data))
	}
	h := &Header{}
	copy(h.Signature[:], data[:8])
	if string(h.Signature[:]) != Magic {
		return nil, binread.Errorf(0, "file header: signature %q is not %q", h.Signature[:], Magic)
	}
	words := []*uint32{&h.CRC, &h.CKVersion, &h.FileVersion, &h.Zero, &h.WriteMode, &h.Hdr1PackSize,
		&h.DataPackSize, &h.DataUnPackSize, &h.ManagerCount, &h.ObjectCount, &h.MaxIDSaved,
		&h.ProductVersion, &h.ProductBuild, &h.Hdr1UnPackSize}
	for i, w := range words {
		*w = binary.LittleEndian.Uint32(data[8+4*i:])
	}
	if h.FileVersion < MinFileVersion || h.FileVersion > MaxFileVersion {
		return nil, binread.Errorf(0x10, "file header: file version %d is not supported (only %d..%d)", h.FileVersion, MinFileVersion, MaxFileVersion)
	}
	if h.Zero != 0 {
		return nil, binread.Errorf(0x14, "file header: reserved field is 0x%x, expected 0", h.Zero)
	}
	if h.FileVersion < 8 {
		// Header1 sizes are meaningless before version 8 (libcmo zeroes
		// them); the sections are bounds-checked as they are found.
		h.Hdr1PackSize, h.Hdr1UnPackSize = 0, 0
	}
	end := uint64(HeaderSize) + uint64(h.Hdr1PackSize) + uint64(h.DataPackSize)
	if end > uint64(len(data)) {
		return nil, binread.Errorf(0x1c, "file header: Header1 (%d bytes) and Data (%d bytes) run past the end of the %d-byte file",
			h.Hdr1PackSize, h.DataPackSize, len(data))
	}
	return h, nil
}

// dataCompressed reports whether the Data section is stored as zlib: the
// write mode says so and the stored size differs from the inflated size
// (a writer may fall back to raw bytes but keep the flag).
func (h *Header) dataCompressed() bool {
	return h.WriteMode&(WriteChunkCompressedOld|WriteWholeCompressed) != 0 && h.DataPackSize != h.DataUnPackSize
}

// header1Compressed reports whether Header1 is stored as zlib.
func (h *Header) header1Compressed() bool { return h.Hdr1PackSize != h.Hdr1UnPackSize }
