package oni

import (
	"math"

	"github.com/animbake/bake/import/binread"
)

// ObanFlags are the flags of an OBAN (oni-oban.txt "Flags").
type ObanFlags uint32

// OBAN flag bits.
const (
	ObanLoop        ObanFlags = 0x01 // back to frame 0 after the last frame
	ObanPingPong    ObanFlags = 0x02 // back and forth; wins over ObanLoop
	ObanRandomStart ObanFlags = 0x04 // starts at a random frame
	ObanAutostart   ObanFlags = 0x08 // starts by itself
	ObanLocalized   ObanFlags = 0x10 // turned a quarter about x (3ds Max Z-up data: the doors)
)

// Layout of the OBAN payload (offsets past the 8-byte instance header).
const (
	obanFlagsOff  = 0x0C
	obanStartOff  = 0x10
	obanBaseOff   = 0x40
	obanTicksOff  = 0x70
	obanKeysOff   = 0x78 // first key; the fixed part ends here
	obanKeySize   = 0x20
	obanFixedSize = obanKeysOff
)

// Matrix4x3 is a 3×4 affine matrix stored by columns: the images of the
// x, y and z axes, then the translation (12 floats in file order).
type Matrix4x3 [12]float32

// ObanKey is one key as stored.
type ObanKey struct {
	// Quaternion is (x, y, z, w) as stored: the conjugate of the Hamilton
	// quaternion of the rotation (oni-container.md §4.2).
	Quaternion [4]float32
	Position   [3]float32
	Frame      uint32
	Off        int64 // file offset of the key
}

// Oban is a decoded OBAN payload.
type Oban struct {
	Off           int64 // file offset of the payload
	Flags         ObanFlags
	Start         Matrix4x3 // where the object stands before it plays
	Base          Matrix4x3 // applied under every frame's transform
	TicksPerFrame uint16    // 80 on the CD; has no effect
	Frames        uint16    // frame count
	HalfStopFrame uint16    // a door's open frame
	Keys          []ObanKey
}

// parseOban decodes and validates an OBAN payload: at least one key, every
// key inside the payload, a frame count above zero, strictly increasing key
// frames and finite numbers everywhere.
func parseOban(r *binread.Reader) (*Oban, error) {
	if err := r.Check(obanFixedSize, "OBAN header (flags, matrices, frame and key counts)"); err != nil {
		return nil, err
	}
	o := &Oban{Off: r.Base}
	r.Pos = obanFlagsOff
	flags, _ := r.U32("OBAN flags")
	o.Flags = ObanFlags(flags)
	if err := readMatrix(r, &o.Start, "start matrix"); err != nil {
		return nil, err
	}
	if err := readMatrix(r, &o.Base, "base matrix"); err != nil {
		return nil, err
	}
	o.TicksPerFrame, _ = r.U16("ticks per frame")
	framesOff := r.Off()
	o.Frames, _ = r.U16("frame count")
	o.HalfStopFrame, _ = r.U16("half-stop frame")
	countOff := r.Off()
	count, _ := r.U16("key count")
	if o.Frames == 0 {
		return nil, binread.Errorf(framesOff, "OBAN frame count is 0: expected at least one frame")
	}
	if count == 0 {
		return nil, binread.Errorf(countOff, "OBAN key count is 0: expected at least one key")
	}
	n, err := r.Count(uint64(count), obanKeySize, "OBAN keys")
	if err != nil {
		return nil, binread.Errorf(countOff, "OBAN key count %d needs 0x%x bytes of keys, the instance has 0x%x", count, int(count)*obanKeySize, r.Remaining())
	}
	o.Keys = make([]ObanKey, n)
	for i := range o.Keys {
		k := &o.Keys[i]
		k.Off = r.Off()
		for j := range k.Quaternion {
			k.Quaternion[j], _ = r.F32("key quaternion")
		}
		for j := range k.Position {
			k.Position[j], _ = r.F32("key position")
		}
		k.Frame, _ = r.U32("key frame")
		if !finite32(k.Quaternion[:]) || !finite32(k.Position[:]) {
			return nil, binread.Errorf(k.Off, "OBAN key %d holds a NaN or infinite value: expected finite floats", i)
		}
		if i > 0 && k.Frame <= o.Keys[i-1].Frame {
			return nil, binread.Errorf(k.Off+0x1C, "OBAN key %d is at frame %d, not after key %d at frame %d: expected strictly increasing key frames",
				i, k.Frame, i-1, o.Keys[i-1].Frame)
		}
	}
	return o, nil
}

// readMatrix reads 12 finite floats.
func readMatrix(r *binread.Reader, m *Matrix4x3, what string) error {
	off := r.Off()
	for i := range m {
		m[i], _ = r.F32(what)
	}
	if !finite32(m[:]) {
		return binread.Errorf(off, "OBAN %s holds a NaN or infinite value: expected finite floats", what)
	}
	return nil
}

func finite32(v []float32) bool {
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return false
		}
	}
	return true
}
