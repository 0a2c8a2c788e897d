package virtools

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/animbake/bake/import/binread"
)

// Section names used in error messages: offsets inside Header1 and Data
// are offsets into the inflated section, and the message says which.
const (
	sectionHeader1 = "Header1"
	sectionData    = "Data"
)

// ReferenceBit marks a FileId whose object is saved by reference only
// (no chunk; resolved by name at load).
const ReferenceBit = 0x80000000

// Object is one entry of the Header1 object table together with the state
// chunk stored for it in the Data section.
type Object struct {
	Index     int    // position in the object table: what file references use
	FileID    uint32 // saved CK_ID, ReferenceBit cleared
	Reference bool   // the FileId had ReferenceBit set
	ClassID   int32  // the object's real class (never take the chunk's byte)
	FileIndex uint32 // 64 + Hdr1UnPackSize + offset of the block in Data
	Name      string // decoded from the saving machine's code page (see decodeName)
	Chunk     *Chunk // nil when the block size is 0
}

// PluginDep is one plugin-dependency entry of Header1.
type PluginDep struct {
	Category uint32      // CK_PLUGIN_TYPE
	GUIDs    [][2]uint32 // plugin GUIDs
}

// Manager is one manager block at the start of the Data section.
type Manager struct {
	GUID  [2]uint32
	Chunk *Chunk // nil when the block size is 0
}

// Container is a parsed composition file: header, object table and the raw
// state chunks, before any class is interpreted.
type Container struct {
	Header        Header
	CRC           uint32 // checksum computed over the file (see ComputeCRC)
	CRCMatches    bool   // CRC equals Header.CRC (or the data-only variant does)
	Objects       []Object
	Plugins       []PluginDep
	IncludedFiles uint32 // declared count; the trailing records are not read
	Managers      []Manager
	TrailingBytes int // bytes after the Data section (ignored)

	idToIndex map[uint32]int // FileId → table index, for raw-id references
}

// ParseContainer reads a whole file held in memory. warn receives non-fatal
// notices (CRC mismatch, reference-only objects); maxInflate caps each
// decompressed section.
func ParseContainer(data []byte, maxInflate int64, warn func(format string, args ...any)) (*Container, error) {
	h, err := parseHeader(data)
	if err != nil {
		return nil, err
	}
	c := &Container{Header: *h}
	dataStart := HeaderSize + int(h.Hdr1PackSize)
	switch {
	case h.FileVersion >= 8:
		c.CRC = ComputeCRC(data, h)
		c.CRCMatches = c.CRC == h.CRC || computeDataOnlyCRC(data, h) == h.CRC
		hdr1, err := inflateSection(data[HeaderSize:dataStart], h.header1Compressed(), h.Hdr1UnPackSize, HeaderSize, sectionHeader1, maxInflate)
		if err != nil {
			return nil, err
		}
		if err := c.parseHeader1(hdr1, warn); err != nil {
			return nil, err
		}
	case h.FileVersion == 7:
		// The object table follows the header, never compressed, and the
		// Data section follows the table.
		r := binread.New(data[HeaderSize:], binary.LittleEndian)
		r.Base = HeaderSize
		if err := c.parseObjectTable(r, warn); err != nil {
			return nil, err
		}
		dataStart = HeaderSize + r.Pos
		if uint64(dataStart)+uint64(h.DataPackSize) > uint64(len(data)) {
			return nil, binread.Errorf(0x20, "file header: Data (%d bytes) runs past the end of the file", h.DataPackSize)
		}
	}
	dataEnd := dataStart + int(h.DataPackSize)
	c.TrailingBytes = len(data) - dataEnd
	body, err := inflateSection(data[dataStart:dataEnd], h.dataCompressed(), h.DataUnPackSize, int64(dataStart), sectionData, maxInflate)
	if err != nil {
		return nil, err
	}
	if h.FileVersion < 8 {
		// Before version 8 the CRC covers the inflated Data section.
		c.CRC = adler32From(0, body)
		c.CRCMatches = c.CRC == h.CRC
	}
	if !c.CRCMatches {
		warn("CRC mismatch: the header says 0x%08x, the file sums to 0x%08x", h.CRC, c.CRC)
	}
	if err := c.parseData(body); err != nil {
		return nil, err
	}
	return c, nil
}

// inflateSection returns a section's bytes, inflating them when stored as
// zlib, and checks the result has exactly the size the header states.
func inflateSection(stored []byte, compressed bool, unpacked uint32, fileOff int64, name string, maxInflate int64) ([]byte, error) {
	if !compressed {
		if uint64(len(stored)) != uint64(unpacked) {
			return nil, binread.Errorf(fileOff, "%s section: stored raw with %d bytes, the header says %d", name, len(stored), unpacked)
		}
		return stored, nil
	}
	if int64(unpacked) > maxInflate {
		return nil, binread.Errorf(fileOff, "%s section: inflated size %d exceeds the limit of %d bytes", name, unpacked, maxInflate)
	}
	zr, err := zlib.NewReader(bytes.NewReader(stored))
	if err != nil {
		return nil, binread.Errorf(fileOff, "%s section: not a zlib stream: %v", name, err)
	}
	out, err := binread.ReadAllLimited(zr, int64(unpacked))
	if err != nil {
		if errors.Is(err, binread.ErrTooLarge) {
			return nil, binread.Errorf(fileOff, "%s section: inflates to more than the %d bytes the header states", name, unpacked)
		}
		return nil, binread.Errorf(fileOff, "%s section: corrupt zlib data: %v", name, err)
	}
	if uint64(len(out)) != uint64(unpacked) {
		return nil, binread.Errorf(fileOff, "%s section: inflates to %d bytes, the header states %d", name, len(out), unpacked)
	}
	return out, nil
}

// sectionError prefixes a FormatError raised inside an inflated section so
// the message says whose offsets it gives.
func sectionError(name string, err error) error {
	var fe *binread.FormatError
	if errors.As(err, &fe) {
		fe.Msg = fmt.Sprintf("%s section (inflated): %s", name, fe.Msg)
	}
	return err
}

// parseHeader1 reads the object table, the plugin dependencies and the
// included-file block.
func (c *Container) parseHeader1(b []byte, warn func(string, ...any)) (err error) {
	defer func() { err = sectionError(sectionHeader1, err) }()
	r := binread.New(b, binary.LittleEndian)
	if err := c.parseObjectTable(r, warn); err != nil {
		return err
	}
	return c.parsePluginsAndIncludes(r, warn)
}

// parseObjectTable reads ObjectCount entries of FileId, ClassId, FileIndex
// and name.
func (c *Container) parseObjectTable(r *binread.Reader, warn func(string, ...any)) error {
	// Each entry is at least 16 bytes, so the count cannot outgrow the data.
	n, err := r.Count(uint64(c.Header.ObjectCount), 16, "object table")
	if err != nil {
		return err
	}
	c.Objects = make([]Object, n)
	c.idToIndex = make(map[uint32]int, n)
	for i := range c.Objects {
		o := &c.Objects[i]
		o.Index = i
		id, err := r.U32("object FileId")
		if err != nil {
			return err
		}
		cls, err := r.I32("object ClassId")
		if err != nil {
			return err
		}
		if o.FileIndex, err = r.U32("object FileIndex"); err != nil {
			return err
		}
		nameLen, err := r.U32("object name length")
		if err != nil {
			return err
		}
		name, err := r.Bytes(int(min(nameLen, 1<<30)), fmt.Sprintf("name of object #%d", i))
		if err != nil {
			return err
		}
		if id&ReferenceBit != 0 {
			o.Reference = true
			id &^= ReferenceBit
			warn("object #%d %q is saved by reference only (FileId has the sign bit)", i, decodeName(name))
		} else if id&0x800000 != 0 && id > c.Header.MaxIDSaved {
			warn("object #%d has FileId 0x%x with bit 0x800000 set beyond MaxIDSaved", i, id)
		}
		if cls < 0 || cls > maxClassID {
			return binread.Errorf(r.Off()-int64(len(name))-12, "object #%d: class id %d is outside 0..%d", i, cls, maxClassID)
		}
		o.FileID, o.ClassID, o.Name = id, cls, decodeName(name)
		if _, dup := c.idToIndex[id]; !dup {
			c.idToIndex[id] = i
		}
	}
	return nil
}

// parsePluginsAndIncludes reads the rest of a version 8 Header1: the plugin
// dependencies and the included-file block.
func (c *Container) parsePluginsAndIncludes(r *binread.Reader, warn func(string, ...any)) error {
	deps, err := r.U32("plugin dependency count")
	if err != nil {
		return err
	}
	nd, err := r.Count(uint64(deps), 8, "plugin dependencies")
	if err != nil {
		return err
	}
	c.Plugins = make([]PluginDep, nd)
	for i := range c.Plugins {
		p := &c.Plugins[i]
		if p.Category, err = r.U32("plugin category"); err != nil {
			return err
		}
		g, err := r.U32("plugin GUID count")
		if err != nil {
			return err
		}
		ng, err := r.Count(uint64(g), 8, "plugin GUIDs")
		if err != nil {
			return err
		}
		p.GUIDs = make([][2]uint32, ng)
		for j := range p.GUIDs {
			p.GUIDs[j][0], _ = r.U32("GUID")
			p.GUIDs[j][1], _ = r.U32("GUID")
		}
	}
	block, err := r.I32("included-file block size")
	if err != nil {
		return err
	}
	if block > 0 {
		if c.IncludedFiles, err = r.U32("included-file count"); err != nil {
			return err
		}
		if err := r.Skip(int(block)-4, "included-file block"); err != nil {
			return err
		}
	}
	if r.Remaining() != 0 {
		warn("Header1 has %d bytes after the included-file block", r.Remaining())
	}
	return nil
}

// parseData reads the manager blocks and then one object block per table
// entry, each a size-prefixed CKStateChunk.
func (c *Container) parseData(b []byte) (err error) {
	defer func() { err = sectionError(sectionData, err) }()
	r := binread.New(b, binary.LittleEndian)
	v := c.Header.FileVersion
	if v < 8 {
		// Before version 8 the Data section starts with SaveIDMax and the
		// object count.
		if _, err := r.U32("SaveIDMax"); err != nil {
			return err
		}
		n, err := r.U32("object count")
		if err != nil {
			return err
		}
		switch {
		case v == 7 && n != uint32(len(c.Objects)):
			return binread.Errorf(4, "object count %d differs from the table's %d entries", n, len(c.Objects))
		case v < 7:
			if err := c.startTableFromData(r, n); err != nil {
				return err
			}
		}
	}
	managers := c.Header.ManagerCount
	if v < 6 {
		managers = 0 // manager blocks exist from version 6 on
	}
	nm, err := r.Count(uint64(managers), 12, "manager blocks")
	if err != nil {
		return err
	}
	c.Managers = make([]Manager, nm)
	for i := range c.Managers {
		m := &c.Managers[i]
		if m.GUID[0], err = r.U32("manager GUID"); err != nil {
			return err
		}
		if m.GUID[1], err = r.U32("manager GUID"); err != nil {
			return err
		}
		if m.Chunk, err = readChunkBlock(r, fmt.Sprintf("manager %08x:%08x", m.GUID[0], m.GUID[1])); err != nil {
			return err
		}
	}
	if _, err := r.Count(uint64(len(c.Objects)), 4, "object blocks"); err != nil {
		return err
	}
	for i := range c.Objects {
		o := &c.Objects[i]
		if v < 7 {
			if err := c.readOldObjectBlock(r, o); err != nil {
				return err
			}
			continue
		}
		if o.Chunk, err = readChunkBlock(r, fmt.Sprintf("object #%d %q", i, o.Name)); err != nil {
			return err
		}
	}
	return nil
}

// readChunkBlock reads `u32 size` and a state chunk of that many bytes.
func readChunkBlock(r *binread.Reader, owner string) (*Chunk, error) {
	size, err := r.U32("chunk size of " + owner)
	if err != nil {
		return nil, err
	}
	if size == 0 {
		return nil, nil
	}
	sub, err := r.Sub(int(min(size, 1<<31-1)), "chunk of "+owner)
	if err != nil {
		return nil, err
	}
	ch, err := parseChunk(sub)
	if err != nil {
		var fe *binread.FormatError
		if errors.As(err, &fe) {
			fe.Msg = owner + ": " + fe.Msg
		}
		return nil, err
	}
	return ch, nil
}

// ObjectByIndex returns the table entry at i, or nil when i is out of range.
func (c *Container) ObjectByIndex(i int) *Object {
	if i < 0 || i >= len(c.Objects) {
		return nil
	}
	return &c.Objects[i]
}
