package vtwrite

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
)

// headerSize is the size of the file header (virtools-container.md §2).
const headerSize = 64

// Object is one object-table entry with its chunk (nil: size 0).
type Object struct {
	FileID  uint32
	ClassID int32
	Name    string
	Chunk   *Chunk
}

// File is a whole file to write.
type File struct {
	Objects  []Object
	Managers []Chunk
	// RawData stores Header1 and Data uncompressed (write mode 0).
	RawData bool
	// BadCRC corrupts the stored checksum.
	BadCRC bool
	// Trailing bytes follow the Data section.
	Trailing []byte
	// CKVersion is the header's CK version (0: CKVersion21).
	CKVersion uint32
	// Header1Extra bytes follow the included-file block.
	Header1Extra []byte
	// OverrideHeader may alter the 64-byte header before the checksum.
	OverrideHeader func(h []byte)
	// Version is the file version; 0 means 8.
	Version uint32
}

// Bytes writes the file: header, Header1 (object table, no plugin
// dependencies, an empty included-file block), Data (managers, then each
// object's chunk), compressed unless RawData, with the checksum.
func (f *File) Bytes() []byte {
	version := f.Version
	if version == 0 {
		version = 8
	}
	var hdr1 []byte
	var data []byte
	maxID := uint32(0)
	for _, o := range f.Objects {
		maxID = max(maxID, o.FileID&^ReferenceBit)
	}
	if version < 8 {
		data = LE32(data, maxID, uint32(len(f.Objects)))
	}
	if version >= 6 {
		for _, m := range f.Managers {
			data = LE32(data, 0x3d242466, 0)
			cb := m.Bytes()
			data = LE32(data, uint32(len(cb)))
			data = append(data, cb...)
		}
	}
	offs := make([]int, len(f.Objects))
	for i, o := range f.Objects {
		offs[i] = len(data)
		if version < 7 {
			data = LE32(data, o.FileID)
		}
		if o.Chunk == nil {
			data = LE32(data, 0)
			continue
		}
		ch := *o.Chunk
		if version < 7 {
			// No object table: the name goes in section 1, the class in
			// the chunk's class byte.
			ch.Sections = append([]Section{{IdentObjectName, nameWords(o.Name)}}, ch.Sections...)
			ch.ClassByte = uint8(o.ClassID)
		}
		cb := ch.Bytes()
		data = LE32(data, uint32(len(cb)))
		data = append(data, cb...)
	}
	// Header1's size is needed for the file indices; entries have a fixed
	// size given the names.
	h1size := 0
	for _, o := range f.Objects {
		h1size += 16 + len(o.Name)
	}
	if version >= 8 {
		h1size += 4 + 4 + 4 + len(f.Header1Extra)
	}
	for i, o := range f.Objects {
		hdr1 = LE32(hdr1, o.FileID, uint32(o.ClassID), uint32(headerSize+h1size+offs[i]), uint32(len(o.Name)))
		hdr1 = append(hdr1, o.Name...)
	}
	if version >= 8 {
		hdr1 = LE32(hdr1, 0)    // no plugin dependencies
		hdr1 = LE32(hdr1, 4, 0) // included-file block: size 4, count 0
		hdr1 = append(hdr1, f.Header1Extra...)
	}

	mode := uint32(WriteWholeCompressed)
	storedHdr1, storedData := zlibBytes(hdr1), zlibBytes(data)
	if f.RawData {
		mode = 0
		storedHdr1, storedData = hdr1, data
	}
	if version == 7 {
		storedHdr1 = hdr1 // the table is never compressed
	}
	ck := f.CKVersion
	if ck == 0 {
		ck = CKVersion21
	}
	hdr1Pack, hdr1Unpack := uint32(len(storedHdr1)), uint32(len(hdr1))
	if version < 8 {
		hdr1Pack, hdr1Unpack = 0, 0
	}
	h := make([]byte, 0, headerSize)
	h = append(h, Magic...)
	h = LE32(h, 0, ck, version, 0, mode, hdr1Pack,
		uint32(len(storedData)), uint32(len(data)), uint32(len(f.Managers)), uint32(len(f.Objects)),
		maxID, 0, 0x02010001, hdr1Unpack)
	if f.OverrideHeader != nil {
		f.OverrideHeader(h)
	}
	out := h
	if version >= 7 {
		out = append(out, storedHdr1...)
	}
	out = append(out, storedData...)
	var crc uint32
	if version >= 8 {
		crc = CRC(out)
	} else {
		crc = adler32From(0, data)
	}
	if f.BadCRC {
		crc ^= 1
	}
	binary.LittleEndian.PutUint32(out[8:], crc)
	return append(out, f.Trailing...)
}

// CRC is the checksum Virtools 2.x/3.x stores at offset 8: Adler-32 seeded
// with 0 over the header with the checksum field zeroed, then the stored
// Header1 and Data (whose sizes the header gives, clamped to the file).
func CRC(file []byte) uint32 {
	var head [headerSize]byte
	copy(head[:], file)
	head[8], head[9], head[10], head[11] = 0, 0, 0, 0
	crc := adler32From(0, head[:])
	end := uint64(headerSize) + uint64(binary.LittleEndian.Uint32(head[0x1c:])) + uint64(binary.LittleEndian.Uint32(head[0x20:]))
	end = min(end, uint64(len(file)))
	if end <= headerSize {
		return crc
	}
	return adler32From(crc, file[headerSize:end])
}

// adler32From continues an Adler-32 checksum from prev; Virtools seeds it
// with 0, not 1, so hash/adler32 cannot be used.
func adler32From(prev uint32, p []byte) uint32 {
	const mod = 65521
	s1, s2 := prev&0xffff, prev>>16
	for _, b := range p {
		s1 = (s1 + uint32(b)) % mod
		s2 = (s2 + s1) % mod
	}
	return s2<<16 | s1
}

// nameWords is a version-6 name section: length with the NUL, then the
// bytes padded to dwords.
func nameWords(name string) []uint32 {
	b := append([]byte(name), 0)
	w := []uint32{uint32(len(b))}
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	for j := 0; j < len(b); j += 4 {
		w = append(w, binary.LittleEndian.Uint32(b[j:]))
	}
	return w
}

func zlibBytes(b []byte) []byte {
	var buf bytes.Buffer
	w, _ := zlib.NewWriterLevel(&buf, zlib.BestCompression)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}
