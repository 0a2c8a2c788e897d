package virtools

import (
	"math"
	"strconv"

	"github.com/animbake/bake/import/binread"
)

// noRef is the table index of a null object reference.
const noRef = -1

// refResolver maps the object references of a chunk to table indices.
type refResolver interface {
	objectCount() int
	indexOfID(id uint32) (int, bool)
}

func (c *Container) objectCount() int { return len(c.Objects) }

func (c *Container) indexOfID(id uint32) (int, bool) {
	i, ok := c.idToIndex[id]
	return i, ok
}

// sectionReader reads one identified section of a chunk's data buffer, a
// dword at a time, never past the section's end.
type sectionReader struct {
	c     *Chunk
	refs  refResolver
	ident uint32
	pos   int // next dword to read
	end   int // first dword after the section
}

// section finds the section whose identifier equals ident exactly, walking
// the linked list from the first section (identifiers are unique within a
// chunk). It returns nil, nil when the chunk has no such section and an
// error when a link leaves the buffer or does not move forward.
func (c *Chunk) section(ident uint32, refs refResolver) (*sectionReader, error) {
	n := c.Words()
	if n == 0 {
		return nil, nil // an empty chunk has no section
	}
	for p := 0; ; {
		if p+2 > n {
			return nil, binread.Errorf(c.wordOff(p), "section header at dword %d runs past the chunk's %d data dwords", p, n)
		}
		id, next := c.word(p), c.word(p+1)
		end := int(next)
		if next == 0 {
			end = n
		} else if uint64(next) > uint64(n) || int(next) < p+2 {
			return nil, binread.Errorf(c.wordOff(p+1), "section 0x%x at dword %d links to dword %d, outside %d..%d", id, p, next, p+2, n)
		}
		if id == ident {
			return &sectionReader{c: c, refs: refs, ident: id, pos: p + 2, end: end}, nil
		}
		if next == 0 || end >= n {
			return nil, nil
		}
		p = end
	}
}

// Size is the section's payload size in dwords.
func (s *sectionReader) Size() int { return s.end - s.pos }

// Left is the number of dwords not yet read.
func (s *sectionReader) Left() int { return s.end - s.pos }

// Off is the section offset of the next dword.
func (s *sectionReader) Off() int64 { return s.c.wordOff(s.pos) }

// errorf builds a FormatError at the next dword.
func (s *sectionReader) errorf(format string, args ...any) *binread.FormatError {
	e := binread.Errorf(s.Off(), format, args...)
	e.Msg = "section 0x" + hex32(s.ident) + ": " + e.Msg
	return e
}

// hex32 formats an identifier in lower-case hex without a prefix.
func hex32(v uint32) string { return strconv.FormatUint(uint64(v), 16) }

// need checks that n more dwords are in the section.
func (s *sectionReader) need(n int, what string) error {
	if n < 0 || n > s.end-s.pos {
		return s.errorf("%s needs %d dwords, the section has %d left", what, n, max(s.end-s.pos, 0))
	}
	return nil
}

// U32 reads one dword.
func (s *sectionReader) U32(what string) (uint32, error) {
	if err := s.need(1, what); err != nil {
		return 0, err
	}
	v := s.c.word(s.pos)
	s.pos++
	return v, nil
}

// F32 reads one single-precision float.
func (s *sectionReader) F32(what string) (float32, error) {
	v, err := s.U32(what)
	return math.Float32frombits(v), err
}

// Vec3 reads three floats (ReadVector).
func (s *sectionReader) Vec3(what string) ([3]float32, error) {
	var v [3]float32
	if err := s.need(3, what); err != nil {
		return v, err
	}
	for i := range v {
		v[i] = math.Float32frombits(s.c.word(s.pos))
		s.pos++
	}
	return v, nil
}

// Skip passes over n dwords.
func (s *sectionReader) Skip(n int, what string) error {
	if err := s.need(n, what); err != nil {
		return err
	}
	s.pos += n
	return nil
}

// Ref reads an object reference (ReadObjectID) and returns the object's
// table index, or noRef for a null reference. With the FILE option the
// dword is a table index and 0xFFFFFFFF means none; without it, the dword
// is a saved CK_ID (0 means none) mapped through the object table's FileId
// column. Unlike the engine, which silently treats a reference it cannot
// find as null, this reader reports it: a dangling reference in a section
// bake needs means the file is damaged.
func (s *sectionReader) Ref(what string) (int, error) {
	off := s.Off()
	v, err := s.U32(what)
	if err != nil {
		return noRef, err
	}
	if s.c.FileRefs() {
		if v == math.MaxUint32 {
			return noRef, nil
		}
		if uint64(v) >= uint64(s.refs.objectCount()) {
			return noRef, binread.Errorf(off, "section 0x%s: %s refers to object #%d, the table has %d objects", hex32(s.ident), what, v, s.refs.objectCount())
		}
		return int(v), nil
	}
	if v == 0 {
		return noRef, nil
	}
	i, ok := s.refs.indexOfID(v &^ ReferenceBit)
	if !ok {
		return noRef, binread.Errorf(off, "section 0x%s: %s refers to CK_ID %d, which no object in the table has", hex32(s.ident), what, v)
	}
	return i, nil
}

// LenientRef reads an object reference the way the engine does: one that
// does not resolve is null. It is used for references bake does not need
// (a place, a character, the entity's own animation list), so that they
// cannot fail a file.
func (s *sectionReader) LenientRef(what string) (int, error) {
	pos := s.pos
	r, err := s.Ref(what)
	if err != nil && s.pos == pos+1 {
		return noRef, nil // the dword was there but did not resolve
	}
	return r, err
}

// LenientRefArray reads an object array whose unresolved entries are
// dropped, as XObjectPointerArray::Load does.
func (s *sectionReader) LenientRefArray(what string) ([]int, error) {
	n, err := s.U32(what + " count")
	if err != nil {
		return nil, err
	}
	if err := s.need(int(min(n, math.MaxInt32)), what); err != nil {
		return nil, err
	}
	var out []int
	for range n {
		r, _ := s.LenientRef(what)
		if r != noRef {
			out = append(out, r)
		}
	}
	return out, nil
}

// RefArray reads an object array: a count, then that many references.
func (s *sectionReader) RefArray(what string) ([]int, error) {
	n, err := s.U32(what + " count")
	if err != nil {
		return nil, err
	}
	if err := s.need(int(min(n, math.MaxInt32)), what); err != nil {
		return nil, err
	}
	out := make([]int, 0, n)
	for range n {
		r, err := s.Ref(what)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// finite reports an error, at the dword just read, unless every value is
// a finite number: bake's model holds only finite data, and the engine
// never writes NaN or infinities into these fields.
func (s *sectionReader) finite(what string, v ...float32) error {
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			e := binread.Errorf(s.c.wordOff(s.pos-1), "section 0x%s: %s holds a NaN or infinite number", hex32(s.ident), what)
			return e
		}
	}
	return nil
}

// Words returns the raw bytes of the next n dwords (LockReadBuffer with a
// size the caller knows), sharing the chunk's memory.
func (s *sectionReader) Words(n int, what string) ([]byte, error) {
	if err := s.need(n, what); err != nil {
		return nil, err
	}
	b := s.c.data[4*s.pos : 4*(s.pos+n)]
	s.pos += n
	return b, nil
}

// Buffer reads a length-prefixed buffer (ReadBuffer): a byte count, then
// the bytes padded to whole dwords. A count of 0 gives nil.
func (s *sectionReader) Buffer(what string) ([]byte, error) {
	n, err := s.U32(what + " size")
	if err != nil || n == 0 {
		return nil, err
	}
	words := (uint64(n) + 3) / 4
	if words > uint64(s.Left()) {
		return nil, s.errorf("%s of %d bytes needs %d dwords, the section has %d left", what, n, words, s.Left())
	}
	b, _ := s.Words(int(words), what)
	return b[:n], nil
}

// String reads a string (ReadString): a byte count that includes the
// terminating NUL, then the bytes padded to whole dwords. The name is
// decoded like object names (decodeName).
func (s *sectionReader) String(what string) (string, error) {
	b, err := s.Buffer(what)
	return decodeName(b), err
}
