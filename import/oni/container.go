package oni

import (
	"encoding/binary"
	"fmt"

	"github.com/animbake/bake/import/binread"
)

// Tag is a template FourCC, stored as a little-endian u32 whose big-endian
// character reading is the tag: 'OBAN' = 0x4F42414E shows as "NABO".
type Tag uint32

// Template tags the importer reads.
const (
	TagOBAN Tag = 0x4F42414E // object animation
	TagOBOA Tag = 0x4F424F41 // starting object array (level props)
	TagDOOR Tag = 0x444F4F52 // door class
	TagTRIG Tag = 0x54524947 // laser trigger class
	TagOBDC Tag = 0x4F424443 // door class array
)

// String returns the four characters of the tag.
func (t Tag) String() string {
	b := []byte{byte(t >> 24), byte(t >> 16), byte(t >> 8), byte(t)}
	for i, c := range b {
		if c < 0x20 || c > 0x7e {
			b[i] = '?'
		}
	}
	return string(b)
}

// DescriptorFlags are the low byte of a descriptor's flags word.
type DescriptorFlags uint8

// Descriptor flag bits (oni-container.md §1.3).
const (
	FlagUnnamed     DescriptorFlags = 0x01 // no name-table entry
	FlagPlaceholder DescriptorFlags = 0x02 // no data: the instance lives in another file, found by name
	FlagShared      DescriptorFlags = 0x08 // de-duplicated data used by other instances
)

// Descriptor is one 20-byte instance descriptor.
type Descriptor struct {
	Index      int    // position in the descriptor array
	Off        int64  // file offset of the descriptor
	Tag        Tag    // template
	DataOffset uint32 // relative to the data table, past the 8-byte instance header
	NameOffset uint32 // relative to the name table
	DataSize   uint32 // including the 8-byte instance header
	FlagWord   uint32 // the whole word; only the low byte holds flags
	// Name is the full name from the name table, tag prefix included
	// ("OBANdoor_open"); empty for unnamed instances.
	Name string
}

// Flags returns the flag bits (the low byte of the flags word).
func (d *Descriptor) Flags() DescriptorFlags { return DescriptorFlags(d.FlagWord & 0xFF) }

// Placeholder reports whether the descriptor has no data here: flag 0x02,
// a zero size or a zero offset, as OniSplit decides.
func (d *Descriptor) Placeholder() bool {
	return d.Flags()&FlagPlaceholder != 0 || d.DataSize == 0 || d.DataOffset == 0
}

// ShortName is the name without its tag prefix, as OniSplit shows it.
func (d *Descriptor) ShortName() string {
	if t := d.Tag.String(); len(d.Name) >= 4 && d.Name[:4] == t {
		return d.Name[4:]
	}
	return d.Name
}

// InstanceID is the link value other instances use for this one.
func (d *Descriptor) InstanceID() uint32 { return uint32(d.Index)<<8 | 1 }

// Container is a parsed instance file: its header and descriptors over the
// file's bytes.
type Container struct {
	Header      FileHeader
	Descriptors []Descriptor
	data        []byte
}

// parseContainer reads the header, every descriptor and the names, and
// checks that every descriptor with data lies inside the data table.
func parseContainer(data []byte) (*Container, error) {
	h, err := readHeader(data)
	if err != nil {
		return nil, err
	}
	c := &Container{Header: h, data: data, Descriptors: make([]Descriptor, h.InstanceCount)}
	le := binary.LittleEndian
	for i := range c.Descriptors {
		off := HeaderSize + i*DescriptorSize
		b := data[off : off+DescriptorSize]
		d := Descriptor{
			Index:      i,
			Off:        int64(off),
			Tag:        Tag(le.Uint32(b[0:])),
			DataOffset: le.Uint32(b[4:]),
			NameOffset: le.Uint32(b[8:]),
			DataSize:   le.Uint32(b[12:]),
			FlagWord:   le.Uint32(b[16:]),
		}
		if d.Flags()&FlagUnnamed == 0 {
			if d.Name, err = c.readName(&d); err != nil {
				return nil, err
			}
		}
		if !d.Placeholder() {
			if err := c.checkData(&d); err != nil {
				return nil, err
			}
		}
		c.Descriptors[i] = d
	}
	return c, nil
}

// readName reads a named descriptor's NUL-terminated name.
func (c *Container) readName(d *Descriptor) (string, error) {
	h := &c.Header
	if d.NameOffset >= h.NameTableSize {
		return "", binread.Errorf(d.Off+8, "instance %d (%s): name offset 0x%x lies outside the 0x%x-byte name table", d.Index, d.Tag, d.NameOffset, h.NameTableSize)
	}
	start := int(h.NameTableOffset) + int(d.NameOffset)
	r := binread.New(c.data[start:int(h.NameTableOffset)+int(h.NameTableSize)], binary.LittleEndian)
	r.Base = int64(start)
	name, err := r.CString(r.Len(), fmt.Sprintf("name of instance %d (%s)", d.Index, d.Tag))
	if err != nil {
		return "", err
	}
	return name, nil
}

// checkData checks that a descriptor's instance lies inside the data table.
func (c *Container) checkData(d *Descriptor) error {
	h := &c.Header
	if d.DataOffset < InstanceHeaderSize || d.DataSize < InstanceHeaderSize ||
		uint64(d.DataOffset)-InstanceHeaderSize+uint64(d.DataSize) > uint64(h.DataTableSize) {
		return binread.Errorf(d.Off+4, "instance %d (%s): data at 0x%x, 0x%x bytes with its 8-byte header, does not fit in the 0x%x-byte data table",
			d.Index, d.Tag, d.DataOffset, d.DataSize, h.DataTableSize)
	}
	return nil
}

// Payload returns a reader over a descriptor's template payload (past the
// instance header), naming file offsets. The descriptor must have data.
func (c *Container) Payload(d *Descriptor) *binread.Reader {
	start := int(c.Header.DataTableOffset) + int(d.DataOffset)
	r := binread.New(c.data[start:start+int(d.DataSize)-InstanceHeaderSize], binary.LittleEndian)
	r.Base = int64(start)
	return r
}

// InstanceHeader returns the instance id and file id stored in the 8 bytes
// before a descriptor's payload.
func (c *Container) InstanceHeader(d *Descriptor) (id, fileID uint32) {
	start := int(c.Header.DataTableOffset) + int(d.DataOffset) - InstanceHeaderSize
	return binary.LittleEndian.Uint32(c.data[start:]), binary.LittleEndian.Uint32(c.data[start+4:])
}

// Resolve returns the descriptor a link value points at, or nil for a null
// or malformed link.
func (c *Container) Resolve(link uint32) *Descriptor {
	if link&0xFF != 1 {
		return nil
	}
	i := int(link >> 8)
	if i >= len(c.Descriptors) {
		return nil
	}
	return &c.Descriptors[i]
}
