package vtwrite

import (
	"encoding/binary"
	"math"
)

// Section is one identified section of a chunk: its identifier and its
// payload dwords.
type Section struct {
	ID    uint32
	Words []uint32
}

// Chunk is a CKStateChunk to write. Zero DataVersion, ChunkVersion and
// Options mean 10, 7 and ChunkOptFile.
type Chunk struct {
	DataVersion, ClassByte, ChunkVersion, Options uint8
	Sections                                      []Section
	// ExtraWords are raw dwords appended after the sections (corruption
	// tests).
	ExtraWords []uint32
}

// Data builds the chunk's data buffer: per section its id, the index of
// the next section's id (0 for the last), then the payload.
func (c *Chunk) Data() []uint32 {
	var buf []uint32
	for i, s := range c.Sections {
		start := len(buf)
		buf = append(buf, s.ID, 0)
		buf = append(buf, s.Words...)
		if i < len(c.Sections)-1 {
			buf[start+1] = uint32(len(buf))
		}
	}
	return append(buf, c.ExtraWords...)
}

// Bytes serialises the chunk in the ChunkVersion 7 layout; the position
// lists its options announce are written empty.
func (c *Chunk) Bytes() []byte {
	cv := c.ChunkVersion
	if cv == 0 {
		cv = 7
	}
	dv := c.DataVersion
	if dv == 0 {
		dv = 10
	}
	opts := c.Options
	if opts == 0 {
		opts = ChunkOptFile
	}
	d := c.Data()
	out := LE32(nil, uint32(dv)|uint32(c.ClassByte)<<8|uint32(cv)<<16|uint32(opts)<<24, uint32(len(d)))
	out = LE32(out, d...)
	for _, bit := range []uint8{ChunkOptIDs, ChunkOptChunks, ChunkOptManagers} {
		if opts&bit != 0 {
			out = LE32(out, 0)
		}
	}
	return out
}

// LE32 appends little-endian dwords to b.
func LE32(b []byte, v ...uint32) []byte {
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, x)
	}
	return b
}

// F32 is a float32's bit pattern as a dword.
func F32(v float32) uint32 { return math.Float32bits(v) }

// F32s converts floats to dwords.
func F32s(v ...float32) []uint32 {
	out := make([]uint32, len(v))
	for i, x := range v {
		out[i] = F32(x)
	}
	return out
}
