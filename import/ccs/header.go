package ccs

import (
	"encoding/binary"

	"github.com/animbake/bake/import/binread"
)

// Chunk codes: the low 16 bits of a chunk or record type word, whose high
// half is always 0xCCCC (ccs-container.md §2.0, §2.4, §4.2).
const (
	CodeHeader = 0x0001
	CodeIndex  = 0x0002
	CodeSetup  = 0x0003
	CodeStream = 0x0005

	CodeObject        = 0x0100
	CodeMaterial      = 0x0200
	CodeTexture       = 0x0300
	CodeCLUT          = 0x0400
	CodeCamera        = 0x0500
	CodeLight         = 0x0600
	CodeAnime         = 0x0700
	CodeModel         = 0x0800
	CodeClump         = 0x0900
	CodeExternal      = 0x0A00
	CodeEffect        = 0x0E00
	CodeMorpher       = 0x1900
	CodeAnimeObject   = 0x2000
	CodeFrame         = 0xFF01 // the frame marker "Top"
	CodeObjCtrl       = 0x0102
	CodeObjFrame      = 0x0101 // F_Obj
	CodeNote          = 0x0108 // F_Note
	CodeMatFrame      = 0x0201
	CodeMatCtrl       = 0x0202
	CodeCamFrame      = 0x0502
	CodeCamCtrl       = 0x0503
	CodeAmbientFrame  = 0x0601
	CodeDistantFrame  = 0x0602
	CodeDistantCtrl   = 0x0603
	CodeDirectFrame   = 0x0604
	CodeDirectCtrl    = 0x0605
	CodeSpotFrame     = 0x0606
	CodeSpotCtrl      = 0x0607
	CodeOmniFrame     = 0x0608
	CodeOmniCtrl      = 0x0609
	CodeMorphFrame    = 0x1901 // F_Morpher
	CodeMorphCtrl     = 0x1902
	chunkMagic        = 0xCCCC
	headerBodyBytes   = 0x34 // "CCSF", name[32], version, three words
	indexEntryBytes   = 32
	objectNameBytes   = 30
	textureExtraWords = 50 // the Texture chunk's size trap (§2.5)
)

// Versions of the CCSF header (ccs-container.md §2.1). Generation 1 is
// .hack//Infection; later generations change several record layouts.
const (
	VersionGen1 = 0x110
	VersionGen2 = 0x120
	VersionGen3 = 0x125
)

// Header is the CCSF header chunk (0xCCCC0001), the first in every file.
type Header struct {
	// Name is the file's internal name (offset 0x0C), NUL-padded on disk.
	Name string
	// Version is the format generation word at 0x2C: 0x110 for
	// .hack//Infection, 0x120 and above for later games.
	Version uint32
	// Unknown holds the three words after the version (a chunk count and
	// two words readers do not use).
	Unknown [3]uint32
}

// Later reports whether the file uses the later-generation layouts (F_Obj
// with presence flags, material frames with scales): version 0x120 and up.
func (h Header) Later() bool { return h.Version >= VersionGen2 }

// Index is the index chunk (0xCCCC0002): the file table and the object
// table. Object ids in chunks and records are direct indices into Objects;
// slot 0 of both tables is a reserved null entry (ccs-container.md §2.2).
type Index struct {
	Files   []string
	Objects []IndexObject
}

// IndexObject is one object-table entry: a name of at most 30 bytes and the
// file-table index of the source scene it came from.
type IndexObject struct {
	Name string
	File uint16
}

// ObjectName returns the name of object id, or "" when id is outside the
// table.
func (x *Index) ObjectName(id uint32) string {
	if uint64(id) >= uint64(len(x.Objects)) {
		return ""
	}
	return x.Objects[id].Name
}

// FileOf returns the source file name of object id, or "".
func (x *Index) FileOf(id uint32) string {
	if uint64(id) >= uint64(len(x.Objects)) {
		return ""
	}
	f := x.Objects[id].File
	if int(f) >= len(x.Files) {
		return ""
	}
	return x.Files[f]
}

// order is the byte order of every CCSF file (the PS2 EE is little-endian).
var order = binary.LittleEndian

func newReader(data []byte) *binread.Reader { return binread.New(data, order) }

// chunkHead reads a chunk or record header: the type word, whose high half
// must be 0xCCCC, and the size in words.
func chunkHead(r *binread.Reader, what string) (code uint16, size uint32, err error) {
	off := r.Off()
	if r.Remaining() < 4 {
		return 0, 0, r.Errorf("%s type needs 4 bytes, only %d left", what, r.Remaining())
	}
	t, _ := r.U32("type")
	if t>>16 != chunkMagic {
		return 0, 0, binread.Errorf(off, "%s: expected a type word 0xCCCCxxxx, found 0x%08x", what, t)
	}
	if r.Remaining() < 4 {
		return 0, 0, r.Errorf("%s size needs 4 bytes, only %d left", what, r.Remaining())
	}
	size, _ = r.U32("size")
	return uint16(t), size, nil
}

// readHeader reads the header chunk at the start of a CCSF file.
func readHeader(r *binread.Reader) (Header, error) {
	var h Header
	off := r.Off()
	code, _, err := chunkHead(r, "header chunk")
	if err != nil {
		return h, err
	}
	if code != CodeHeader {
		return h, binread.Errorf(off, "expected the header chunk 0xCCCC0001, found code 0x%04x", code)
	}
	// The size word is not trusted (ccs-container.md §2.1): read the fields.
	magicOff := r.Off()
	magic, err := r.Bytes(4, "CCSF magic")
	if err != nil {
		return h, err
	}
	if string(magic) != "CCSF" {
		return h, binread.Errorf(magicOff, "expected magic \"CCSF\", found %q", magic)
	}
	if h.Name, err = r.FixedString(32, "file name"); err != nil {
		return h, err
	}
	if h.Version, err = r.U32("version"); err != nil {
		return h, err
	}
	for i := range h.Unknown {
		if h.Unknown[i], err = r.U32("header word"); err != nil {
			return h, err
		}
	}
	return h, nil
}

// readIndex reads the index chunk. Its size word is ignored, as
// CCSFileExplorer's arithmetic shows it cannot be trusted; the two counts
// drive the read, each checked against the bytes present.
func readIndex(r *binread.Reader) (Index, error) {
	var x Index
	off := r.Off()
	code, _, err := chunkHead(r, "index chunk")
	if err != nil {
		return x, err
	}
	if code != CodeIndex {
		return x, binread.Errorf(off, "expected the index chunk 0xCCCC0002, found code 0x%04x", code)
	}
	nf, err := r.U32("file count")
	if err != nil {
		return x, err
	}
	no, err := r.U32("object count")
	if err != nil {
		return x, err
	}
	n, err := r.Count(uint64(nf), indexEntryBytes, "file table")
	if err != nil {
		return x, err
	}
	x.Files = make([]string, n)
	for i := range x.Files {
		if x.Files[i], err = r.FixedString(indexEntryBytes, "file name"); err != nil {
			return x, err
		}
	}
	n, err = r.Count(uint64(no), indexEntryBytes, "object table")
	if err != nil {
		return x, err
	}
	x.Objects = make([]IndexObject, n)
	for i := range x.Objects {
		o := &x.Objects[i]
		if o.Name, err = r.FixedString(objectNameBytes, "object name"); err != nil {
			return x, err
		}
		if o.File, err = r.U16("object file index"); err != nil {
			return x, err
		}
	}
	return x, nil
}

// readSetup reads the setup chunk that follows the index: 0xCCCC0003 with
// size 0. Later-generation files (S01.CCS, version 0x123) write it as the
// bare words 3, 0 without the 0xCCCC half; both are accepted.
func readSetup(r *binread.Reader) error {
	off := r.Off()
	t, err := r.U32("setup chunk type")
	if err != nil {
		return err
	}
	if t != 0xCCCC0000|CodeSetup && t != CodeSetup {
		return binread.Errorf(off, "expected the setup chunk 0xCCCC0003 (or 0x00000003), found 0x%08x", t)
	}
	size, err := r.U32("setup chunk size")
	if err != nil {
		return err
	}
	return r.Skip(int(size)*4, "setup chunk body")
}
