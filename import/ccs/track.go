package ccs

import (
	"math"

	"github.com/animbake/bake/import/binread"
)

// Track kinds: the 3-bit fields of a controller record's flags word
// (ccs-container.md §4.2, ccs-anime-playback.txt "Controller kinds").
const (
	KindAbsent   = 0 // no data; the field keeps its default
	KindConstant = 1 // one value inline
	KindKeyed    = 2 // u32 n, then n × (u32 frame, value)
	KindQuat     = 4 // later generations, rotations only: n × (u32 frame, x, y, z, w)
)

// Track is one controller field exactly as stored.
type Track struct {
	// Kind is KindAbsent, KindConstant, KindKeyed or KindQuat.
	Kind uint8
	// Width is the number of components of one value (3 for vectors and
	// Euler degrees, 1 for floats, 4 for quaternions and colours).
	Width int
	// Frames holds the key frames of a keyed track, as stored (u32).
	Frames []uint32
	// Values holds Width components per key (keyed) or one value
	// (constant). Colours are their bytes 0..255.
	Values []float32
	// Off is the file offset of the track's data.
	Off int64
}

// Present reports whether the track carries data.
func (t *Track) Present() bool { return t.Kind != KindAbsent }

// trackField is the 3-bit kind of field i of a flags word.
func trackField(flags uint32, i int) uint8 { return uint8(flags>>(3*uint(i))) & 7 }

// valueFormat says how one value of a track is stored.
type valueFormat struct {
	width int
	color bool // 4 bytes (RGBA) instead of floats
}

func (f valueFormat) bytes() int {
	if f.color {
		return 4
	}
	return 4 * f.width
}

var (
	fmtFloat = valueFormat{width: 1}
	fmtVec3  = valueFormat{width: 3}
	fmtQuat  = valueFormat{width: 4}
	fmtColor = valueFormat{width: 4, color: true}
)

// unknownKindError marks a track kind this reader does not know; the record
// holding it is skipped by size.
type unknownKindError struct{ *binread.FormatError }

// readTrack reads one field of kind k. A keyed count is checked against the
// bytes left in the record before anything is allocated. Kind 4
// (quaternion keys) is accepted only where quat is true (rotations).
func readTrack(r *binread.Reader, k uint8, f valueFormat, quat bool, what string) (Track, error) {
	t := Track{Kind: k, Width: f.width, Off: r.Off()}
	switch k {
	case KindAbsent:
		return t, nil
	case KindConstant:
		t.Values = make([]float32, 0, f.width)
		return t, readValue(r, f, &t.Values, what)
	case KindKeyed:
	case KindQuat:
		if !quat {
			return t, unknownKindError{r.Errorf("%s: track kind 4 (quaternion keys) is only valid for rotations", what)}
		}
		f = fmtQuat
		t.Width = 4
	default:
		return t, unknownKindError{r.Errorf("%s: unknown track kind %d (expected 0, 1, 2 or 4)", what, k)}
	}
	if r.Remaining() < 4 {
		return t, r.Errorf("%s: key count needs 4 bytes, only %d left", what, r.Remaining())
	}
	n32, _ := r.U32("key count")
	if uint64(n32) > uint64(r.Remaining()/(4+f.bytes())) {
		return t, r.Errorf("%s keys: count %d of %d-byte keys does not fit in the %d bytes left", what, n32, 4+f.bytes(), r.Remaining())
	}
	n := int(n32)
	t.Frames = make([]uint32, n)
	t.Values = make([]float32, 0, n*f.width)
	for i := range t.Frames {
		// The count check above guarantees these reads succeed.
		t.Frames[i], _ = r.U32("key frame")
		if err := readValue(r, f, &t.Values, what); err != nil {
			return t, err
		}
	}
	return t, nil
}

// readValue appends one value of format f; what names the track in errors.
func readValue(r *binread.Reader, f valueFormat, out *[]float32, what string) error {
	if r.Remaining() < f.bytes() {
		return r.Errorf("%s: a value needs %d bytes, only %d left", what, f.bytes(), r.Remaining())
	}
	if f.color {
		b, _ := r.Bytes(4, "colour")
		for _, c := range b {
			*out = append(*out, float32(c))
		}
		return nil
	}
	for range f.width {
		v, _ := r.U32("value")
		*out = append(*out, math.Float32frombits(v))
	}
	return nil
}
