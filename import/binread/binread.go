// Package binread holds the binary-reading helpers every importer shares:
// a bounds-checked cursor over a byte slice in either byte order, and the
// FormatError that carries the offset of what was wrong (as debug/elf does).
package binread

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// FormatError reports malformed input at a byte offset.
type FormatError struct {
	Off int64  // offset in the file (or in the decompressed stream named by Msg)
	Msg string // what was expected or found
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("offset 0x%x: %s", e.Off, e.Msg)
}

// Errorf builds a FormatError at off.
func Errorf(off int64, format string, args ...any) *FormatError {
	return &FormatError{Off: off, Msg: fmt.Sprintf(format, args...)}
}

// Reader is a cursor over a byte slice. Base is added to every offset it
// reports, so a reader over a sub-range still names file offsets.
type Reader struct {
	Data  []byte
	Order binary.ByteOrder
	Base  int64 // file offset of Data[0]
	Pos   int   // current position within Data
}

// New returns a reader over data in the given byte order.
func New(data []byte, order binary.ByteOrder) *Reader {
	return &Reader{Data: data, Order: order}
}

// Len is the number of bytes in the reader's range.
func (r *Reader) Len() int { return len(r.Data) }

// Remaining is the number of bytes left after the cursor.
func (r *Reader) Remaining() int { return len(r.Data) - r.Pos }

// Off is the file offset of the cursor.
func (r *Reader) Off() int64 { return r.Base + int64(r.Pos) }

// Errorf builds a FormatError at the cursor.
func (r *Reader) Errorf(format string, args ...any) *FormatError {
	return Errorf(r.Off(), format, args...)
}

// Check reports an error unless n bytes are available at the cursor;
// what names the thing about to be read.
func (r *Reader) Check(n int, what string) error {
	if n < 0 || n > r.Remaining() {
		return r.Errorf("%s needs %d bytes, only %d left", what, n, max(r.Remaining(), 0))
	}
	return nil
}

// Seek moves the cursor to pos within the range.
func (r *Reader) Seek(pos int, what string) error {
	if pos < 0 || pos > len(r.Data) {
		return Errorf(r.Base+int64(pos), "%s lies outside the data (0x%x bytes from 0x%x)", what, len(r.Data), r.Base)
	}
	r.Pos = pos
	return nil
}

// Skip advances the cursor by n bytes.
func (r *Reader) Skip(n int, what string) error {
	if err := r.Check(n, what); err != nil {
		return err
	}
	r.Pos += n
	return nil
}

// Bytes returns the next n bytes (sharing memory) and advances.
func (r *Reader) Bytes(n int, what string) ([]byte, error) {
	if err := r.Check(n, what); err != nil {
		return nil, err
	}
	b := r.Data[r.Pos : r.Pos+n : r.Pos+n]
	r.Pos += n
	return b, nil
}

// Sub returns a reader over the next n bytes and advances past them.
func (r *Reader) Sub(n int, what string) (*Reader, error) {
	off := r.Off()
	b, err := r.Bytes(n, what)
	if err != nil {
		return nil, err
	}
	return &Reader{Data: b, Order: r.Order, Base: off}, nil
}

// At returns a reader over Data[pos:pos+n] without moving the cursor.
func (r *Reader) At(pos, n int, what string) (*Reader, error) {
	if pos < 0 || n < 0 || pos > len(r.Data) || n > len(r.Data)-pos {
		return nil, Errorf(r.Base+int64(max(pos, 0)), "%s (0x%x bytes at 0x%x) lies outside the data (0x%x bytes from 0x%x)",
			what, n, r.Base+int64(pos), len(r.Data), r.Base)
	}
	return &Reader{Data: r.Data[pos : pos+n : pos+n], Order: r.Order, Base: r.Base + int64(pos)}, nil
}

// U8 reads one byte.
func (r *Reader) U8(what string) (uint8, error) {
	if err := r.Check(1, what); err != nil {
		return 0, err
	}
	v := r.Data[r.Pos]
	r.Pos++
	return v, nil
}

// U16 reads an unsigned 16-bit integer.
func (r *Reader) U16(what string) (uint16, error) {
	if err := r.Check(2, what); err != nil {
		return 0, err
	}
	v := r.Order.Uint16(r.Data[r.Pos:])
	r.Pos += 2
	return v, nil
}

// U32 reads an unsigned 32-bit integer.
func (r *Reader) U32(what string) (uint32, error) {
	if err := r.Check(4, what); err != nil {
		return 0, err
	}
	v := r.Order.Uint32(r.Data[r.Pos:])
	r.Pos += 4
	return v, nil
}

// U64 reads an unsigned 64-bit integer.
func (r *Reader) U64(what string) (uint64, error) {
	if err := r.Check(8, what); err != nil {
		return 0, err
	}
	v := r.Order.Uint64(r.Data[r.Pos:])
	r.Pos += 8
	return v, nil
}

// I8 reads a signed byte.
func (r *Reader) I8(what string) (int8, error) { v, err := r.U8(what); return int8(v), err }

// I16 reads a signed 16-bit integer.
func (r *Reader) I16(what string) (int16, error) { v, err := r.U16(what); return int16(v), err }

// I32 reads a signed 32-bit integer.
func (r *Reader) I32(what string) (int32, error) { v, err := r.U32(what); return int32(v), err }

// F32 reads an IEEE single.
func (r *Reader) F32(what string) (float32, error) {
	v, err := r.U32(what)
	return math.Float32frombits(v), err
}

// F32s reads n singles into a new slice, checking the size first.
func (r *Reader) F32s(n int, what string) ([]float32, error) {
	if n < 0 || n > r.Remaining()/4 {
		return nil, r.Errorf("%s: %d floats do not fit in the %d bytes left", what, n, r.Remaining())
	}
	out := make([]float32, n)
	for i := range out {
		out[i] = math.Float32frombits(r.Order.Uint32(r.Data[r.Pos:]))
		r.Pos += 4
	}
	return out, nil
}

// CString reads a NUL-terminated string of at most max bytes (the NUL
// included); a missing NUL is an error.
func (r *Reader) CString(max int, what string) (string, error) {
	end := min(len(r.Data), r.Pos+max)
	for i := r.Pos; i < end; i++ {
		if r.Data[i] == 0 {
			s := string(r.Data[r.Pos:i])
			r.Pos = i + 1
			return s, nil
		}
	}
	return "", r.Errorf("%s: no terminating NUL within %d bytes", what, max)
}

// FixedString reads an n-byte field and returns the text before its first NUL.
func (r *Reader) FixedString(n int, what string) (string, error) {
	b, err := r.Bytes(n, what)
	if err != nil {
		return "", err
	}
	for i, c := range b {
		if c == 0 {
			return string(b[:i]), nil
		}
	}
	return string(b), nil
}

// Count checks that count elements of elemSize bytes fit in the bytes left
// at the cursor, so that a hostile count never drives an allocation.
func (r *Reader) Count(count uint64, elemSize int, what string) (int, error) {
	if elemSize <= 0 {
		elemSize = 1
	}
	if count > uint64(r.Remaining()/elemSize) {
		return 0, r.Errorf("%s: count %d of %d-byte elements does not fit in the %d bytes left", what, count, elemSize, r.Remaining())
	}
	return int(count), nil
}

// ErrTooLarge is wrapped by ReadAllLimited when the cap is exceeded.
var ErrTooLarge = errors.New("decompressed data exceeds the size limit")

// ReadAllLimited reads r to the end but refuses to produce more than limit
// bytes: the guard against decompression bombs.
func ReadAllLimited(r io.Reader, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return data, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%w (%d bytes; raise --max-inflate to allow more)", ErrTooLarge, limit)
	}
	return data, nil
}

// ReadFile reads all size bytes of r into memory.
func ReadFile(r io.ReaderAt, size int64) ([]byte, error) {
	if size < 0 || size > math.MaxInt32*2 {
		return nil, fmt.Errorf("file size %d is out of range", size)
	}
	data := make([]byte, size)
	n, err := r.ReadAt(data, 0)
	if n == len(data) {
		return data, nil
	}
	if err == nil {
		err = io.ErrUnexpectedEOF
	}
	return nil, err
}
