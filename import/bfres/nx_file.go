package bfres

import (
	"encoding/binary"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/binread"
)

// The Switch FRES layout (docs/formats/bfres-switch.md): "FRES" and four
// spaces, a little-endian image whose offsets are u64 counted from the
// start of the file and whose strings carry a u16 length. The sub-files
// hold the same data as on the Wii U in other records; the readers in the
// nx_*.go files decode them into the same types (Model, Skeleton,
// SkeletalAnim, …), so that one conversion serves both platforms.

// NX sub-file lists of the FRES header, in header order (the pairs of
// value-array and dictionary offsets from 0x28).
const (
	nxModels = iota
	nxSkeletalAnims
	nxMaterialAnims
	nxBoneVisAnims
	nxShapeAnims
	nxSceneAnims
	nxNumLists
)

// nxListNames label the sub-file lists in messages.
var nxListNames = [nxNumLists]string{"models", "skeletal animations", "material animations",
	"bone visibility animations", "shape animations", "scene animations"}

// nxHeaderSize is the size of the Switch FRES header up to version 8 (the
// samples' 0.8.0.0); version 9 inserts 32 reserved bytes and two more
// counts.
const nxHeaderSize = 0xD0

// nxDictMagic is the optional magic of a Switch dictionary ("_DIC"; 0 in
// many files).
const nxDictMagic = 0x4349445F

// nxHeader is the Switch FRES header: where each sub-file list and its
// dictionary lie, their counts, the buffer info (the GPU data block that
// vertex and index buffers count from) and the embedded files.
type nxHeader struct {
	AddressSize  uint8
	Lists        [nxNumLists]nxList
	BufferOffset int    // absolute offset of the GPU buffer data (0: none)
	External     nxList // embedded files (e.g. textures.bntx)
	Counts       [nxNumLists + 1]uint16
}

// nxList is one sub-file list: a values array and the dictionary of its names.
type nxList struct {
	Array, Dict int // absolute offsets, 0 for none
}

// nxVersionMajor2 is the byte of the version word the Switch layouts
// branch on (the samples: 8).
func nxVersionMajor2(v uint32) int { return int(v >> 16 & 0xFF) }

// readNXHeader decodes the Switch FRES header (BfresLibrary Switch/ResFileParser.cs
// read for the facts, version 8 and earlier).
func readNXHeader(data []byte) (*resFile, error) {
	f := &resFile{data: data, r: binread.New(data, binary.LittleEndian), nx: &nxHeader{}}
	h := &f.header
	if len(data) >= 12 {
		// The version first: a later layout is "not yet supported" (an
		// archive skips such a member with a warning), whatever follows.
		h.Version = binary.LittleEndian.Uint32(data[8:])
		if h.Version>>24 != 0 || nxVersionMajor2(h.Version) >= 9 {
			return nil, &format.NotYetSupported{Err: binread.Errorf(8, "Switch FRES version %s is not supported yet (the layouts of 0.x.0.0 up to 0.8 are)", h.VersionString())}
		}
	}
	r, err := f.at(0, nxHeaderSize, "Switch FRES header")
	if err != nil {
		return nil, err
	}
	copy(h.Magic[:], data[:4])
	bom := [2]byte{data[0x0C], data[0x0D]}
	if bom != [2]byte{0xFF, 0xFE} {
		return nil, binread.Errorf(0x0C, "expected byte-order mark FF FE (little-endian Switch), found %02X %02X", bom[0], bom[1])
	}
	h.ByteOrderMark = 0xFEFF
	r.Seek(0x0E, "alignment")
	align, _ := r.U8("alignment")
	f.nx.AddressSize, _ = r.U8("address size")
	h.Alignment = uint32(1) << (align & 31)
	r.Seek(0x1C, "file size")
	h.FileSize, _ = r.U32("file size")
	if h.FileSize > uint32(len(data)) {
		return nil, binread.Errorf(0x1C, "header gives a file size of %d bytes, only %d present", h.FileSize, len(data))
	}
	if h.Name, err = f.stringAt(0x20, "file"); err != nil {
		return nil, err
	}
	for i := range f.nx.Lists {
		l := &f.nx.Lists[i]
		if l.Array, _, err = f.offsetAt(0x28+16*i, nxListNames[i]+" array"); err != nil {
			return nil, err
		}
		if l.Dict, _, err = f.offsetAt(0x30+16*i, nxListNames[i]+" dictionary"); err != nil {
			return nil, err
		}
	}
	if info, ok, err := f.offsetAt(0x90, "buffer info"); err != nil {
		return nil, err
	} else if ok {
		br, err := f.at(info+8, 8, "buffer info")
		if err != nil {
			return nil, err
		}
		off, _ := br.U64("buffer offset")
		if off >= uint64(len(data)) {
			return nil, binread.Errorf(int64(info+8), "buffer data offset 0x%x lies outside the file (0x%x bytes)", off, len(data))
		}
		f.nx.BufferOffset = int(off)
	}
	if f.nx.External.Array, _, err = f.offsetAt(0x98, "embedded file array"); err != nil {
		return nil, err
	}
	if f.nx.External.Dict, _, err = f.offsetAt(0xA0, "embedded file dictionary"); err != nil {
		return nil, err
	}
	if h.StringPool, _, err = f.offsetAt(0xB0, "string pool"); err != nil {
		return nil, err
	}
	r.Seek(0xB8, "string pool size")
	h.StringPoolSize, _ = r.U32("string pool size")
	for i := range f.nx.Counts {
		f.nx.Counts[i], _ = r.U16("sub-file count")
	}
	return f, nil
}

// nxOffsetAt follows the u64 offset stored at pos: an absolute file
// offset, 0 meaning null. A target outside the file is a FormatError.
func (f *resFile) nxOffsetAt(pos int, what string) (int, bool, error) {
	if pos < 0 || pos > len(f.data)-8 {
		return 0, false, binread.Errorf(int64(max(pos, 0)), "%s offset (8 bytes at 0x%x) lies outside the file (0x%x bytes)", what, pos, len(f.data))
	}
	v := binary.LittleEndian.Uint64(f.data[pos:])
	if v == 0 {
		return 0, false, nil
	}
	if v >= uint64(len(f.data)) {
		return 0, false, binread.Errorf(int64(pos), "%s offset 0x%x points outside the file (0x%x bytes)", what, v, len(f.data))
	}
	return int(v), true, nil
}

// nxStringAt reads a Switch string at p: a u16 byte count, the
// characters, then a NUL.
func (f *resFile) nxStringAt(p int, what string) (string, error) {
	if p > len(f.data)-2 {
		return "", binread.Errorf(int64(p), "%s name at 0x%x has no room for its length", what, p)
	}
	n := int(binary.LittleEndian.Uint16(f.data[p:]))
	end := p + 2 + n
	if end >= len(f.data) {
		return "", binread.Errorf(int64(p), "%s name length %d runs past the end of the file", what, n)
	}
	if f.data[end] != 0 {
		return "", binread.Errorf(int64(end), "%s name of %d bytes is not NUL-terminated", what, n)
	}
	return string(f.data[p+2 : end]), nil
}

// nxDictValues reads the dictionary whose offset is stored at dictPos and
// pairs its entries with the records of the values array whose offset is
// stored at arrayPos (entry i is record i, of stride bytes). count is the
// count the owner gives, which the dictionary must match.
func (f *resFile) nxDictValues(arrayPos, dictPos, stride, count int, what string) ([]dictEntry, error) {
	arr, hasArr, err := f.offsetAt(arrayPos, what+" array")
	if err != nil {
		return nil, err
	}
	d, hasDict, err := f.offsetAt(dictPos, what+" dictionary")
	if err != nil {
		return nil, err
	}
	return f.nxPair(nxList{arr, d}, hasArr, hasDict, stride, count, int64(dictPos), what)
}

// nxPair pairs a dictionary's names with the records of its values array.
func (f *resFile) nxPair(l nxList, hasArr, hasDict bool, stride, count int, at int64, what string) ([]dictEntry, error) {
	if !hasDict {
		if count > 0 {
			return nil, binread.Errorf(at, "%s: %d entries counted but the dictionary offset is null", what, count)
		}
		return nil, nil
	}
	entries, err := f.readDict(l.Dict, what)
	if err != nil {
		return nil, err
	}
	if count >= 0 && len(entries) != count {
		return nil, binread.Errorf(int64(l.Dict+4), "%s dictionary holds %d entries, the header counts %d", what, len(entries), count)
	}
	if len(entries) == 0 {
		return entries, nil
	}
	if !hasArr {
		return nil, binread.Errorf(at, "%s: %d entries but the values array offset is null", what, len(entries))
	}
	if _, err := f.arrayFits(l.Array, len(entries), stride, what); err != nil {
		return nil, err
	}
	for i := range entries {
		entries[i].Data = l.Array + i*stride
	}
	return entries, nil
}

// nxList reads header list i: its dictionary entries paired with the
// sub-file records (stride bytes each) of its values array.
func (f *resFile) nxListEntries(i, stride int) ([]dictEntry, error) {
	l := f.nx.Lists[i]
	return f.nxPair(l, l.Array != 0, l.Dict != 0, stride, int(f.nx.Counts[i]), 0x30+16*int64(i), nxListNames[i])
}

// nxBlockHeader checks a sub-file's magic and skips its block header
// (magic, u32 next-block offset, u64 size; 0x10 bytes up to version 8).
func (f *resFile) nxBlockHeader(off int, magic, what string, size int) (*binread.Reader, error) {
	if err := f.expectMagic(off, magic, what); err != nil {
		return nil, err
	}
	return f.at(off, size, what+" header")
}
