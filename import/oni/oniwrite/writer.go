// Package oniwrite writes Oni instance files (oni-container.md): level
// files ("VR31", levelN_Final.dat) with several instances, OBOA/DOOR/TRIG/
// OBDC referrers and placeholders, and OniSplit-style single-instance .oni
// files ("VR32"). There are no real Oni files to test against, so the
// importer's tests, the demo inputs and the benchmark corpus come from
// here. It is written from the spec alone and shares no code with the
// reader, so that the two check each other.
package oniwrite

import (
	"encoding/binary"
	"math"
	"sort"
)

// Header constants (oni-container.md §1.2).
const (
	versionVR31  uint32 = 0x56523331
	versionVR32  uint32 = 0x56523332
	signature    uint64 = 0x0008001000140040
	ChecksumPC   uint64 = 0x0003BCDF33DC271F // PC retail templates
	ChecksumMac  uint64 = 0x0003BCDF23C13061 // Mac and demo templates
	obanChecksum uint64 = 0x00000000004E0C24 // OBAN template checksum (5114916)
)

// Kind chooses the container layout.
type Kind int

// Container kinds.
const (
	LevelFile Kind = iota // VR31 levelN_Final.dat
	OniFile               // VR32 OniSplit .oni
)

// Instance is one instance to write.
type Instance struct {
	Tag string // four characters: "OBAN", "OBOA", ...
	// Name is the name without the tag prefix; "" writes an unnamed
	// instance (descriptor flag 0x01).
	Name string
	// Placeholder writes a name-only stub (flag 0x02, offset and size 0).
	Placeholder bool
	// Data is the template payload, past the 8-byte instance header.
	Data []byte
}

// File is an instance file to write.
type File struct {
	Kind Kind
	// Level is N of levelN_Final, which sets the file id of a VR31 file.
	Level int
	// Checksum is the template checksum; 0 writes ChecksumPC.
	Checksum  uint64
	Instances []Instance
}

// Link returns the link value of the instance at index i: (i << 8) | 1.
func Link(i int) uint32 { return uint32(i)<<8 | 1 }

// FileID is the id OniSplit gives levelN_Final: ((N << 24) << 1) | 1.
func FileID(level int) uint32 { return uint32(level)<<25 | 1 }

func align32(n int) int { return (n + 31) &^ 31 }

// tagValue is a FourCC as the little-endian u32 the file stores.
func tagValue(tag string) uint32 {
	return uint32(tag[0])<<24 | uint32(tag[1])<<16 | uint32(tag[2])<<8 | uint32(tag[3])
}

// Bytes lays the file out: header, descriptors, (VR31) name and template
// descriptors, then the data table and the name table, each 32-byte
// aligned, in OniSplit's order for the kind. Instance data are padded to
// 32 bytes.
func (f *File) Bytes() []byte {
	le := binary.LittleEndian
	n := len(f.Instances)
	type desc struct{ dataOff, nameOff, dataSize, flags uint32 }
	descs := make([]desc, n)

	// Name table: the full names of named instances, in descriptor order.
	var names []byte
	for i, in := range f.Instances {
		if in.Name == "" {
			descs[i].flags |= 0x01
			continue
		}
		descs[i].nameOff = uint32(len(names))
		names = append(append(names, in.Tag+in.Name...), 0)
	}
	// Data table: instance header (id, file id) and payload, padded.
	fileID := uint32(0)
	if f.Kind == LevelFile {
		fileID = FileID(f.Level)
	}
	var data []byte
	for i, in := range f.Instances {
		if in.Placeholder {
			descs[i].flags |= 0x02
			continue
		}
		start := len(data)
		data = le.AppendUint32(data, Link(i))
		data = le.AppendUint32(data, fileID)
		data = append(data, in.Data...)
		for len(data)%32 != 0 {
			data = append(data, 0)
		}
		descs[i].dataOff = uint32(start + 8)
		descs[i].dataSize = uint32(len(data) - start)
	}

	tables := 0x40 + 20*n
	var nameDescs, templDescs []byte
	if f.Kind == LevelFile {
		nameDescs, templDescs = levelIndexes(f.Instances)
		tables += len(nameDescs) + len(templDescs)
	}
	var dataOff, nameOff, rawOff int
	if f.Kind == LevelFile {
		dataOff = align32(tables)
		nameOff = align32(dataOff + len(data))
	} else {
		nameOff = align32(tables)
		dataOff = align32(nameOff + len(names))
		rawOff = align32(dataOff + len(data))
	}
	size := max(dataOff+len(data), nameOff+len(names), rawOff)
	out := make([]byte, size)

	checksum := f.Checksum
	if checksum == 0 {
		checksum = ChecksumPC
	}
	le.PutUint64(out[0x00:], checksum)
	if f.Kind == LevelFile {
		le.PutUint32(out[0x08:], versionVR31)
		le.PutUint32(out[0x18:], uint32(len(nameDescs)/8))
		le.PutUint32(out[0x1C:], uint32(len(templDescs)/16))
	} else {
		le.PutUint32(out[0x08:], versionVR32)
		le.PutUint32(out[0x30:], uint32(rawOff))
	}
	le.PutUint64(out[0x0C:], signature)
	le.PutUint32(out[0x14:], uint32(n))
	le.PutUint32(out[0x20:], uint32(dataOff))
	le.PutUint32(out[0x24:], uint32(len(data)))
	le.PutUint32(out[0x28:], uint32(nameOff))
	le.PutUint32(out[0x2C:], uint32(len(names)))
	for i, in := range f.Instances {
		b := out[0x40+20*i:]
		le.PutUint32(b[0:], tagValue(in.Tag))
		le.PutUint32(b[4:], descs[i].dataOff)
		le.PutUint32(b[8:], descs[i].nameOff)
		le.PutUint32(b[12:], descs[i].dataSize)
		le.PutUint32(b[16:], descs[i].flags)
	}
	p := 0x40 + 20*n
	p += copy(out[p:], nameDescs)
	copy(out[p:], templDescs)
	copy(out[dataOff:], data)
	copy(out[nameOff:], names)
	return out
}

// levelIndexes builds a VR31 file's name descriptors (one per named
// instance, sorted by full name) and template descriptors (one per tag,
// sorted by tag, with the instance count).
func levelIndexes(ins []Instance) (nameDescs, templDescs []byte) {
	le := binary.LittleEndian
	var named []int
	counts := map[string]uint32{}
	for i, in := range ins {
		if in.Name != "" {
			named = append(named, i)
		}
		counts[in.Tag]++
	}
	sort.SliceStable(named, func(a, b int) bool {
		return ins[named[a]].Tag+ins[named[a]].Name < ins[named[b]].Tag+ins[named[b]].Name
	})
	for _, i := range named {
		nameDescs = le.AppendUint32(nameDescs, uint32(i))
		nameDescs = le.AppendUint32(nameDescs, 0)
	}
	tags := make([]string, 0, len(counts))
	for t := range counts {
		tags = append(tags, t)
	}
	sort.Strings(tags)
	for _, t := range tags {
		sum := uint64(0)
		if t == "OBAN" {
			sum = obanChecksum
		}
		templDescs = le.AppendUint64(templDescs, sum)
		templDescs = le.AppendUint32(templDescs, tagValue(t))
		templDescs = le.AppendUint32(templDescs, counts[t])
	}
	return nameDescs, templDescs
}

// appendF32 appends little-endian singles.
func appendF32(b []byte, v ...float32) []byte {
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return b
}
