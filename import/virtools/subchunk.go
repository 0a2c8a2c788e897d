package virtools

// subChunkFixedWords is the size of a sub-chunk's header after its size
// dword when the parent's ChunkVersion is above 4: class id, version word,
// N, hasFile, id count, chunk count, manager count.
const subChunkFixedWords = 7

// SubChunk reads a sub-chunk stored inline in a section (ReadSubChunk,
// virtools-container.md §7.5): `S` (the dwords that follow; 0 for a null
// sub-chunk, which returns nil), class id, DataVersion | ChunkVersion<<16,
// N, hasFile, id count, chunk count, manager count (only when the
// parent's ChunkVersion is above 4, always so here), then the N data
// dwords and the three position lists. S must equal 7 + N + the list
// sizes. References inside are table indices when hasFile is 1 and raw
// CK_IDs otherwise. Bake's classes store sub-chunks only in non-file saves
// (CKCurve 0xff000000, CKKeyedAnimation 0x200000), so the reader needs this
// only for completeness and for tests.
func (s *sectionReader) SubChunk(what string) (*Chunk, error) {
	start := s.pos
	size, err := s.U32(what + " size")
	if err != nil || size == 0 {
		return nil, err
	}
	if err := s.need(int(min(size, 1<<30)), what); err != nil {
		return nil, err
	}
	if size < subChunkFixedWords {
		return nil, s.errorf("%s: size %d is smaller than its %d-dword header", what, size, subChunkFixedWords)
	}
	h := make([]uint32, subChunkFixedWords)
	for i := range h {
		h[i], _ = s.U32(what + " header")
	}
	version, n, hasFile, ids, chunks, managers := h[1], h[2], h[3], h[4], h[5], h[6]
	total := uint64(subChunkFixedWords) + uint64(n) + uint64(ids) + uint64(chunks) + uint64(managers)
	if total != uint64(size) {
		return nil, s.errorf("%s: size %d does not equal 7 + data %d + lists %d, %d, %d", what, size, n, ids, chunks, managers)
	}
	c := &Chunk{
		DataVersion:  uint8(version),
		ClassByte:    uint8(h[0]),
		ChunkVersion: uint8(version >> 16),
		data:         s.c.data[4*s.pos : 4*(s.pos+int(n))],
		off:          s.c.wordOff(s.pos),
	}
	if hasFile != 0 {
		c.Options = ChunkOptFile
	}
	s.pos = start + 1 + int(size)
	return c, nil
}
