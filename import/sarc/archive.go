package sarc

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sort"

	"github.com/animbake/bake/import/binread"
)

// Layout sizes and constants of SARC version 0x0100 (docs/formats/sarc.md).
const (
	HeaderSize     = 0x14 // "SARC" header
	SFATHeaderSize = 0x0C // "SFAT" header
	NodeSize       = 0x10 // one SFAT node
	SFNTHeaderSize = 0x08 // "SFNT" header
	Version        = 0x0100
	// DefaultHashKey is the name hash multiplier of every official archive.
	DefaultHashKey = 101
	// MaxNodes is the most files an archive may list (the public docs give
	// 0x3FFF as the format's limit); a larger count is refused before any
	// allocation.
	MaxNodes = 0x3FFF
)

// Member is one file of an archive.
type Member struct {
	// Name is the member's path inside the archive ("timg/a.bntx"), or
	// for a node without a name its hash as "0x%08X".
	Name string
	Hash uint32
	// Node is the member's index in the SFAT table; Offset is where its
	// data starts in the archive image.
	Node   int
	Offset int64
	Data   []byte // shares the archive's memory
}

// Archive is a parsed SARC image.
type Archive struct {
	Order   binary.ByteOrder
	HashKey uint32
	// DataOffset is where the data section starts.
	DataOffset int64
	// Members are in SFAT order (ascending name hash).
	Members []Member
}

// IsSARC reports whether data starts with the SARC magic and a byte-order mark.
func IsSARC(data []byte) bool {
	return len(data) >= 8 && string(data[:4]) == "SARC" &&
		(data[6] == 0xFE && data[7] == 0xFF || data[6] == 0xFF && data[7] == 0xFE)
}

// Hash is the SFAT name hash: h = h*key + byte over the name's bytes,
// modulo 2^32 (the bytes taken unsigned).
func Hash(name string, key uint32) uint32 {
	var h uint32
	for i := 0; i < len(name); i++ {
		h = h*key + uint32(name[i])
	}
	return h
}

// Parse reads a SARC image. Every offset is checked against the image
// before use: the SFAT node count against the bytes that hold the nodes,
// names against the SFNT table, member data against the data section and
// against each other (no two members may share bytes), the node order
// against the name hashes. Errors are *binread.FormatError at the
// offending offset, naming the member when there is one.
func Parse(data []byte) (*Archive, error) {
	if len(data) < HeaderSize {
		return nil, binread.Errorf(0, "SARC header needs %d bytes, file has %d", HeaderSize, len(data))
	}
	if string(data[:4]) != "SARC" {
		return nil, binread.Errorf(0, "expected SARC magic, found %q", data[:4])
	}
	var order binary.ByteOrder
	switch {
	case data[6] == 0xFE && data[7] == 0xFF:
		order = binary.BigEndian
	case data[6] == 0xFF && data[7] == 0xFE:
		order = binary.LittleEndian
	default:
		return nil, binread.Errorf(6, "byte-order mark is % X, expected FE FF (big-endian) or FF FE (little-endian)", data[6:8])
	}
	r := binread.New(data, order)
	r.Pos = 4
	hdrLen, _ := r.U16("header size")
	if hdrLen != HeaderSize {
		return nil, binread.Errorf(4, "SARC header size is 0x%x, expected 0x%x", hdrLen, HeaderSize)
	}
	r.Pos = 8
	fileSize, _ := r.U32("file size")
	dataOff, _ := r.U32("data offset")
	version, _ := r.U16("version")
	if int64(fileSize) > int64(len(data)) {
		return nil, binread.Errorf(8, "SARC file size %d is larger than the %d bytes present (truncated archive)", fileSize, len(data))
	}
	if fileSize < HeaderSize+SFATHeaderSize+SFNTHeaderSize {
		return nil, binread.Errorf(8, "SARC file size %d is too small to hold the headers", fileSize)
	}
	if version != Version {
		return nil, binread.Errorf(0x10, "SARC version is 0x%04x, expected 0x%04x", version, Version)
	}
	img := data[:fileSize]
	r = binread.New(img, order)
	r.Pos = HeaderSize
	a := &Archive{Order: order, DataOffset: int64(dataOff)}
	nodes, err := readSFAT(r, a)
	if err != nil {
		return nil, err
	}
	namesAt := r.Pos // SFNT header
	if err := r.Check(SFNTHeaderSize, "SFNT header"); err != nil {
		return nil, err
	}
	if magic, _ := r.Bytes(4, "SFNT magic"); string(magic) != "SFNT" {
		return nil, binread.Errorf(int64(namesAt), "expected SFNT magic, found %q", magic)
	}
	if n, _ := r.U16("SFNT header size"); n != SFNTHeaderSize {
		return nil, binread.Errorf(int64(namesAt+4), "SFNT header size is 0x%x, expected 0x%x", n, SFNTHeaderSize)
	}
	tableAt := namesAt + SFNTHeaderSize
	if int64(dataOff) < int64(tableAt) || int64(dataOff) > int64(len(img)) {
		return nil, binread.Errorf(0x0C, "data offset 0x%x lies outside 0x%x..0x%x (after the name table, within the file)", dataOff, tableAt, len(img))
	}
	table := img[tableAt:dataOff]
	if err := a.readMembers(img, nodes, table, int64(tableAt)); err != nil {
		return nil, err
	}
	return a, nil
}

// node is one raw SFAT entry.
type node struct {
	hash, attr, begin, end uint32
	off                    int64 // where the entry is
}

// readSFAT reads the SFAT header and nodes, checking the count against
// the bytes left before allocating.
func readSFAT(r *binread.Reader, a *Archive) ([]node, error) {
	at := r.Off()
	if err := r.Check(SFATHeaderSize, "SFAT header"); err != nil {
		return nil, err
	}
	if magic, _ := r.Bytes(4, "SFAT magic"); string(magic) != "SFAT" {
		return nil, binread.Errorf(at, "expected SFAT magic, found %q", magic)
	}
	if n, _ := r.U16("SFAT header size"); n != SFATHeaderSize {
		return nil, binread.Errorf(at+4, "SFAT header size is 0x%x, expected 0x%x", n, SFATHeaderSize)
	}
	count, _ := r.U16("node count")
	a.HashKey, _ = r.U32("hash key")
	if count > MaxNodes {
		return nil, binread.Errorf(at+6, "SFAT lists %d files, more than the format's %d", count, MaxNodes)
	}
	n, err := r.Count(uint64(count), NodeSize, "SFAT nodes")
	if err != nil {
		return nil, err
	}
	nodes := make([]node, n)
	for i := range nodes {
		nd := &nodes[i]
		nd.off = r.Off()
		nd.hash, _ = r.U32("name hash")
		nd.attr, _ = r.U32("name attributes")
		nd.begin, _ = r.U32("data start")
		nd.end, _ = r.U32("data end")
	}
	return nodes, nil
}

// readMembers resolves each node's name and data, checking names, hashes,
// the node order and the data ranges.
func (a *Archive) readMembers(img []byte, nodes []node, table []byte, tableAt int64) error {
	a.Members = make([]Member, len(nodes))
	seen := make(map[string]int, len(nodes))
	for i, nd := range nodes {
		m := &a.Members[i]
		m.Node, m.Hash = i, nd.hash
		if nd.attr>>24 == 0 {
			m.Name = fmt.Sprintf("0x%08X", nd.hash)
		} else {
			name, err := nameAt(table, tableAt, nd)
			if err != nil {
				return err
			}
			if h := Hash(name, a.HashKey); h != nd.hash {
				return binread.Errorf(nd.off, "member %q: name hash is 0x%08X, the name hashes to 0x%08X (key %d)", name, nd.hash, h, a.HashKey)
			}
			m.Name = name
		}
		if j, dup := seen[m.Name]; dup {
			return binread.Errorf(nd.off, "member %q is listed twice (nodes %d and %d)", m.Name, j, i)
		}
		seen[m.Name] = i
		if i > 0 && nd.hash < nodes[i-1].hash {
			return binread.Errorf(nd.off, "member %q: node %d's hash 0x%08X is below the previous node's 0x%08X (SFAT must be sorted by hash, the game looks members up by binary search)", m.Name, i, nd.hash, nodes[i-1].hash)
		}
		start, end := a.DataOffset+int64(nd.begin), a.DataOffset+int64(nd.end)
		if nd.end < nd.begin || end > int64(len(img)) {
			return binread.Errorf(nd.off+8, "member %q: data 0x%x..0x%x (data section +0x%x..+0x%x) lies outside the archive's 0x%x bytes", m.Name, start, end, nd.begin, nd.end, len(img))
		}
		m.Offset, m.Data = start, img[start:end:end]
	}
	return a.checkOverlaps(nodes)
}

// nameAt reads a node's NUL-terminated name from the SFNT table: the low
// 24 bits of the attributes are its offset in 4-byte units.
func nameAt(table []byte, tableAt int64, nd node) (string, error) {
	off := int64(nd.attr&0xFFFFFF) * 4
	if off >= int64(len(table)) {
		return "", binread.Errorf(nd.off+4, "name offset 0x%x lies outside the %d-byte name table at 0x%x", off, len(table), tableAt)
	}
	rest := table[off:]
	n := bytes.IndexByte(rest, 0)
	if n < 0 {
		return "", binread.Errorf(tableAt+off, "name at name-table offset 0x%x has no terminating NUL before the data section", off)
	}
	if n == 0 {
		return "", binread.Errorf(tableAt+off, "name at name-table offset 0x%x is empty", off)
	}
	return string(rest[:n]), nil
}

// checkOverlaps refuses two members whose data share bytes: each member
// owns its range, so nested archives can never multiply the work.
func (a *Archive) checkOverlaps(nodes []node) error {
	idx := make([]int, 0, len(a.Members))
	for i, m := range a.Members {
		if len(m.Data) > 0 {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(x, y int) bool { return a.Members[idx[x]].Offset < a.Members[idx[y]].Offset })
	for k := 1; k < len(idx); k++ {
		p, m := &a.Members[idx[k-1]], &a.Members[idx[k]]
		if m.Offset < p.Offset+int64(len(p.Data)) {
			return binread.Errorf(nodes[m.Node].off+8, "member %q: data 0x%x..0x%x overlaps member %q (0x%x..0x%x)",
				m.Name, m.Offset, m.Offset+int64(len(m.Data)), p.Name, p.Offset, p.Offset+int64(len(p.Data)))
		}
	}
	return nil
}
