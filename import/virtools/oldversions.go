package virtools

import (
	"fmt"

	"github.com/animbake/bake/import/binread"
)

// identObjectName is the CKObject section holding the name in chunks of
// files older than version 7, which have no object table.
const identObjectName = 0x1

// startTableFromData creates the object list of a version 5 or 6 file,
// whose object count is in the Data section; the blocks fill it in.
func (c *Container) startTableFromData(r *binread.Reader, n uint32) error {
	// Each block is at least a FileId and a size.
	count, err := r.Count(uint64(n), 8, "object blocks")
	if err != nil {
		return err
	}
	c.Objects = make([]Object, count)
	c.idToIndex = make(map[uint32]int, count)
	for i := range c.Objects {
		c.Objects[i].Index = i
	}
	return nil
}

// readOldObjectBlock reads a version 5 or 6 object block (`FileId, size,
// chunk`). The class is the chunk's class byte and the name its CKObject
// name section (a ReadString: length including the NUL, bytes padded to a
// dword), since these files have no object table.
func (c *Container) readOldObjectBlock(r *binread.Reader, o *Object) error {
	id, err := r.U32("object FileId")
	if err != nil {
		return err
	}
	o.FileID = id &^ ReferenceBit
	o.Reference = id&ReferenceBit != 0
	if _, dup := c.idToIndex[o.FileID]; !dup {
		c.idToIndex[o.FileID] = o.Index
	}
	if o.Chunk, err = readChunkBlock(r, fmt.Sprintf("object #%d", o.Index)); err != nil || o.Chunk == nil {
		return err
	}
	o.ClassID = int32(o.Chunk.ClassByte)
	s, err := o.Chunk.section(identObjectName, c)
	if err != nil || s == nil {
		return err
	}
	n, err := s.U32("name length")
	if err != nil || n == 0 {
		return err
	}
	words := int(min((uint64(n)+3)/4, 1<<30))
	if err := s.need(words, "name"); err != nil {
		return err
	}
	b := s.c.data[4*s.pos : 4*s.pos+int(n)]
	o.Name = decodeName(b)
	return nil
}
