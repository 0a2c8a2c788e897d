package bfres

import (
	"encoding/binary"
	"fmt"

	"github.com/animbake/bake/import/binread"
)

// Version3_4 is the binary version at which curves gained the delta field
// and the animation headers took their 4.x layout (bfres-container.md §1).
const Version3_4 = 0x03040000

// NumGroups is the number of index groups in a Wii U FRES header (§2).
const NumGroups = 12

// Index groups of the FRES header, in header order (§2).
const (
	GroupModels = iota
	GroupTextures
	GroupSkeletalAnims
	GroupShaderParamAnims
	GroupColorAnims
	GroupTexSRTAnims
	GroupTexPatternAnims
	GroupBoneVisAnims
	GroupMatVisAnims
	GroupShapeAnims
	GroupSceneAnims
	GroupEmbeddedFiles
)

// groupNames label the index groups in messages.
var groupNames = [NumGroups]string{
	"models", "textures", "skeletal animations", "shader-parameter animations",
	"color animations", "texture SRT animations", "texture pattern animations",
	"bone visibility animations", "material visibility animations",
	"shape animations", "scene animations", "embedded files",
}

// HeaderSize is the size of the Wii U FRES header (§2).
const HeaderSize = 0x6C

// Header is the Wii U FRES file header (bfres-container.md §2). Offsets are
// resolved to absolute file offsets; 0 means none.
type Header struct {
	Magic          [4]byte
	Version        uint32 // major.minor.micro.bugfix, one byte each
	ByteOrderMark  uint16 // 0xFEFF
	HeaderLength   uint16 // 0x10
	FileSize       uint32
	Alignment      uint32
	Name           string
	StringPoolSize uint32
	StringPool     int
	Groups         [NumGroups]int    // absolute offsets of the index groups
	GroupCounts    [NumGroups]uint16 // entry counts of the index groups
}

// VersionString formats the version as major.minor.micro.bugfix.
func (h *Header) VersionString() string {
	v := h.Version
	return fmt.Sprintf("%d.%d.%d.%d", v>>24, v>>16&0xFF, v>>8&0xFF, v&0xFF)
}

// resFile is a loaded FRES image with the helpers that follow its offsets
// and read its strings, all bounds-checked. The Wii U layout (big-endian,
// self-relative s32 offsets, a u32 length before each string) is the
// default; nx is set for the Switch layout (little-endian, u64 offsets from
// the start of the file, a u16 length before each string; nx_file.go).
type resFile struct {
	data   []byte
	r      *binread.Reader // over the whole image, in the file's byte order
	header Header
	nx     *nxHeader // the Switch header, nil for a Wii U file
}

// at returns a reader over n bytes at absolute offset pos.
func (f *resFile) at(pos, n int, what string) (*binread.Reader, error) {
	return f.r.At(pos, n, what)
}

// u32At reads a u32 in the file's byte order at pos (without building a
// reader: it is called for every offset and string in the file).
func (f *resFile) u32At(pos int, what string) (uint32, error) {
	if pos < 0 || pos > len(f.data)-4 {
		return 0, binread.Errorf(int64(max(pos, 0)), "%s (4 bytes at 0x%x) lies outside the file (0x%x bytes)", what, pos, len(f.data))
	}
	return f.r.Order.Uint32(f.data[pos:]), nil
}

// offsetAt follows the self-relative s32 offset stored at pos (§1): the
// target is pos plus the stored value, 0 meaning null (returned as 0 with
// ok false). A target outside the file is a FormatError.
func (f *resFile) offsetAt(pos int, what string) (target int, ok bool, err error) {
	if f.nx != nil {
		return f.nxOffsetAt(pos, what)
	}
	v, err := f.u32At(pos, what+" offset")
	if err != nil {
		return 0, false, err
	}
	if v == 0 {
		return 0, false, nil
	}
	t := int64(pos) + int64(int32(v))
	if t < 0 {
		return 0, false, binread.Errorf(int64(pos), "%s offset %+d points %d bytes before the start, outside the file", what, int32(v), -t)
	}
	if t >= int64(len(f.data)) {
		return 0, false, binread.Errorf(int64(pos), "%s offset %+d points to 0x%x, outside the file (0x%x bytes)", what, int32(v), t, len(f.data))
	}
	return int(t), true, nil
}

// offsetSize is the size of a stored offset: 4 bytes on the Wii U, 8 on
// the Switch.
func (f *resFile) offsetSize() int {
	if f.nx != nil {
		return 8
	}
	return 4
}

// requiredOffsetAt is offsetAt for offsets that must not be null.
func (f *resFile) requiredOffsetAt(pos int, what string) (int, error) {
	t, ok, err := f.offsetAt(pos, what)
	if err == nil && !ok {
		err = binread.Errorf(int64(pos), "%s offset is null", what)
	}
	return t, err
}

// maxStringLen bounds a string's stored length (names are short).
const maxStringLen = 1 << 16

// stringAt reads the string whose offset is stored at pos: the offset
// points at the characters, a u32 byte count sits just before them and a
// NUL follows (§1). A null offset gives "".
func (f *resFile) stringAt(pos int, what string) (string, error) {
	p, ok, err := f.offsetAt(pos, what+" name")
	if err != nil || !ok {
		return "", err
	}
	if f.nx != nil {
		return f.nxStringAt(p, what)
	}
	if p < 4 {
		return "", binread.Errorf(int64(pos), "%s name at 0x%x has no room for its length before it", what, p)
	}
	n, err := f.u32At(p-4, what+" name length")
	if err != nil {
		return "", err
	}
	if n > maxStringLen || int64(p)+int64(n) >= int64(len(f.data)) {
		return "", binread.Errorf(int64(p-4), "%s name length %d runs past the end of the file", what, n)
	}
	if f.data[p+int(n)] != 0 {
		return "", binread.Errorf(int64(p+int(n)), "%s name of %d bytes is not NUL-terminated", what, n)
	}
	return string(f.data[p : p+int(n)]), nil
}

// nameAt is stringAt for names that must not be empty: bone, material,
// sampler and parameter names become node and channel targets.
func (f *resFile) nameAt(pos int, what string) (string, error) {
	s, err := f.stringAt(pos, what)
	if err == nil && s == "" {
		err = binread.Errorf(int64(pos), "%s has no name", what)
	}
	return s, err
}

// readHeader decodes the FRES header of a Wii U image.
func readHeader(data []byte) (*resFile, error) {
	f := &resFile{data: data, r: binread.New(data, binary.BigEndian)}
	r, err := f.at(0, HeaderSize, "FRES header")
	if err != nil {
		return nil, err
	}
	h := &f.header
	copy(h.Magic[:], data[:4])
	if string(h.Magic[:]) != "FRES" {
		return nil, binread.Errorf(0, "expected FRES magic, found %q", data[:4])
	}
	r.Skip(4, "magic")
	h.Version, _ = r.U32("version")
	h.ByteOrderMark, _ = r.U16("byte-order mark")
	if h.ByteOrderMark != 0xFEFF {
		return nil, binread.Errorf(8, "expected byte-order mark 0xFEFF (big-endian Wii U), found 0x%04X", h.ByteOrderMark)
	}
	h.HeaderLength, _ = r.U16("header length")
	h.FileSize, _ = r.U32("file size")
	h.Alignment, _ = r.U32("alignment")
	if h.FileSize > uint32(len(data)) {
		return nil, binread.Errorf(0x0C, "header gives a file size of %d bytes, only %d present", h.FileSize, len(data))
	}
	if h.Version < 0x02040000 {
		return nil, binread.Errorf(4, "FRES version %s is older than 2.4, whose layouts are not supported", h.VersionString())
	}
	if h.Name, err = f.stringAt(0x14, "file"); err != nil {
		return nil, err
	}
	h.StringPoolSize, _ = r.U32("string pool size")
	if h.StringPool, _, err = f.offsetAt(0x1C, "string pool"); err != nil {
		return nil, err
	}
	for i := range NumGroups {
		if h.Groups[i], _, err = f.offsetAt(0x20+4*i, groupNames[i]+" index group"); err != nil {
			return nil, err
		}
	}
	r.Seek(0x50, "group counts")
	for i := range NumGroups {
		h.GroupCounts[i], _ = r.U16("group count")
	}
	return f, nil
}
