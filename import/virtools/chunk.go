package virtools

import (
	"encoding/binary"

	"github.com/animbake/bake/import/binread"
)

// Chunk option bits (CK_STATECHUNK_CHUNKOPTIONS), byte 3 of a chunk's word 0.
const (
	ChunkOptIDs      = 0x01 // an ID-position list follows the data
	ChunkOptManagers = 0x02 // a manager-int-position list follows
	ChunkOptChunks   = 0x04 // a sub-chunk-position list follows
	ChunkOptFile     = 0x08 // object references are object-table indices
	ChunkOptAllowDyn = 0x10 // dynamic objects may be referenced
)

// Chunk versions this reader understands (CHUNK_VERSION3 and CHUNK_VERSION4).
const (
	chunkVersionMin = 6
	chunkVersionMax = 7
)

// DataVersion 5 (CHUNK_MAJORCHANGE_VERSION) separates the old and the
// current section layouts of many classes.
const dataVersionMajorChange = 5

// Chunk is one serialized CKStateChunk: a header word, a buffer of data
// dwords organised as a linked list of identified sections, and three
// position lists (which a reader does not need, see §6.4 of the spec).
type Chunk struct {
	DataVersion  uint8 // class data version (10 = CHUNK_DEV_2_1)
	ClassByte    uint8 // low 8 bits of the class that wrote the chunk; informational
	ChunkVersion uint8 // serialisation version (6 or 7)
	Options      uint8 // ChunkOpt* bits

	// data holds the N data dwords, little-endian, sharing the section's memory.
	data []byte
	// off is the section offset of data[0], for error messages.
	off int64
}

// Words is the number of data dwords.
func (c *Chunk) Words() int { return len(c.data) / 4 }

// word returns data dword i (the caller checks the bound).
func (c *Chunk) word(i int) uint32 { return binary.LittleEndian.Uint32(c.data[4*i:]) }

// wordOff is the section offset of data dword i.
func (c *Chunk) wordOff(i int) int64 { return c.off + 4*int64(i) }

// FileRefs reports whether object references in this chunk are
// object-table indices (the FILE option) rather than raw CK_IDs.
func (c *Chunk) FileRefs() bool { return c.Options&ChunkOptFile != 0 }

// parseChunk decodes a chunk in the current format (ChunkVersion 6 or 7)
// from exactly the bytes of its block.
func parseChunk(r *binread.Reader) (*Chunk, error) {
	if r.Len()%4 != 0 {
		return nil, r.Errorf("chunk size %d is not a multiple of 4", r.Len())
	}
	w0, err := r.U32("chunk header word")
	if err != nil {
		return nil, err
	}
	c := &Chunk{
		DataVersion:  uint8(w0),
		ClassByte:    uint8(w0 >> 8),
		ChunkVersion: uint8(w0 >> 16),
		Options:      uint8(w0 >> 24),
	}
	if c.ChunkVersion < chunkVersionMin || c.ChunkVersion > chunkVersionMax {
		return nil, binread.Errorf(r.Off()-4, "chunk version %d is not supported (only %d..%d)", c.ChunkVersion, chunkVersionMin, chunkVersionMax)
	}
	n, err := r.U32("chunk data size")
	if err != nil {
		return nil, err
	}
	nw, err := r.Count(uint64(n), 4, "chunk data dwords")
	if err != nil {
		return nil, err
	}
	c.off = r.Off()
	c.data, _ = r.Bytes(4*nw, "chunk data")
	// The position lists come in the order IDS, CHN, MAN whatever the bits.
	for _, l := range []struct {
		bit  uint8
		name string
	}{{ChunkOptIDs, "ID list"}, {ChunkOptChunks, "sub-chunk list"}, {ChunkOptManagers, "manager list"}} {
		if c.Options&l.bit == 0 {
			continue
		}
		cnt, err := r.U32("chunk " + l.name + " size")
		if err != nil {
			return nil, err
		}
		k, err := r.Count(uint64(cnt), 4, "chunk "+l.name)
		if err != nil {
			return nil, err
		}
		_ = r.Skip(4*k, l.name)
	}
	if r.Remaining() != 0 {
		return nil, r.Errorf("chunk has %d bytes after its data and lists", r.Remaining())
	}
	return c, nil
}
