package bfres

import (
	"math"

	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/model"
)

// Curve header sizes (bfres-container.md §4.1): 3.4 added the delta field;
// the Switch curve (§11) puts its two u64 array offsets first and pads to
// 0x30.
const (
	curveSizeOld = 0x20
	curveSizeNew = 0x24
	curveSizeNX  = 0x30
)

// curveSize is the curve header stride of the file.
func (f *resFile) curveSize() int {
	switch {
	case f.nx != nil:
		return curveSizeNX
	case f.header.Version >= Version3_4:
		return curveSizeNew
	}
	return curveSizeOld
}

// Curve flag fields (§4.2).
const (
	curveFrameTypeMask = 0x0003
	curveKeyTypeShift  = 2
	curveTypeShift     = 4
	curvePreWrapShift  = 8
	curvePostWrapShift = 12
)

// CurveHeader is a decoded ResAnimCurve header (§4.1), offsets resolved.
type CurveHeader struct {
	Flags        uint16
	NumKeys      uint16
	TargetOffset uint32
	StartFrame   float32
	EndFrame     float32
	ScaleBits    uint32 // f32 scale for float curves; unused s32 for int curves
	OffsetBits   uint32 // f32 for float curves, s32 for int curves
	Delta        float32
	FrameArray   int // absolute offset, 0 if null
	KeyArray     int
}

// readCurves reads n consecutive curve headers at off and their arrays.
func (f *resFile) readCurves(off, n int, what string) ([]*model.NW4FCurve, []uint32, error) {
	size := f.curveSize()
	if n == 0 {
		return nil, nil, nil
	}
	r, err := f.at(off, len(f.data)-off, what+" curves")
	if err != nil {
		return nil, nil, err
	}
	if _, err := r.Count(uint64(n), size, what+" curves"); err != nil {
		return nil, nil, err
	}
	curves := make([]*model.NW4FCurve, n)
	targets := make([]uint32, n)
	for i := range curves {
		c, h, err := f.readCurve(off+i*size, what)
		if err != nil {
			return nil, nil, err
		}
		curves[i], targets[i] = c, h.TargetOffset
	}
	return curves, targets, nil
}

// readCurve decodes the curve header at pos and copies its frame and key
// arrays as raw numbers into a model.NW4FCurve.
func (f *resFile) readCurve(pos int, what string) (*model.NW4FCurve, *CurveHeader, error) {
	what += " curve"
	size := f.curveSize()
	r, err := f.at(pos, size, what)
	if err != nil {
		return nil, nil, err
	}
	h := &CurveHeader{}
	// The frame and key array offsets follow the fields on the Wii U (at
	// 0x18 before 3.4, 0x1C from 3.4) and lead them on the Switch.
	arrays := pos + 0x18
	switch {
	case f.nx != nil:
		arrays = pos
		r.Seek(0x10, "flags")
	case size == curveSizeNew:
		arrays = pos + 0x1C
	}
	h.Flags, _ = r.U16("flags")
	h.NumKeys, _ = r.U16("key count")
	h.TargetOffset, _ = r.U32("target offset")
	h.StartFrame, _ = r.F32("start frame")
	h.EndFrame, _ = r.F32("end frame")
	h.ScaleBits, _ = r.U32("scale")
	h.OffsetBits, _ = r.U32("offset")
	if size != curveSizeOld {
		h.Delta, _ = r.F32("delta")
	}
	c := &model.NW4FCurve{
		FrameType:  int(h.Flags & curveFrameTypeMask),
		KeyType:    int(h.Flags >> curveKeyTypeShift & 3),
		CurveType:  int(h.Flags >> curveTypeShift & 7),
		PreWrap:    int(h.Flags >> curvePreWrapShift & 3),
		PostWrap:   int(h.Flags >> curvePostWrapShift & 3),
		NumKeys:    int(h.NumKeys),
		StartFrame: h.StartFrame,
		EndFrame:   h.EndFrame,
		Scale:      math.Float32frombits(h.ScaleBits),
		Offset:     math.Float32frombits(h.OffsetBits),
		IntOffset:  int32(h.OffsetBits),
		Delta:      h.Delta,
	}
	bad := func(off int, format string, args ...any) error {
		return binread.Errorf(int64(off), what+": "+format, args...)
	}
	switch {
	case c.CurveType == 3:
		return nil, nil, bad(pos, "curve type 3 is undefined (flags 0x%04X)", h.Flags)
	case c.FrameType == 3:
		return nil, nil, bad(pos, "frame type 3 is undefined (flags 0x%04X)", h.Flags)
	case c.KeyType == 3:
		return nil, nil, bad(pos, "key type 3 is undefined (flags 0x%04X)", h.Flags)
	case h.NumKeys == 0:
		return nil, nil, bad(pos+2, "curve has no keys")
	case !finite32(h.StartFrame) || !finite32(h.EndFrame):
		return nil, nil, bad(pos+8, "start/end frame %v/%v is not finite", h.StartFrame, h.EndFrame)
	}
	if c.IsFloat() && (!finite32(c.Scale) || !finite32(c.Offset)) {
		return nil, nil, bad(pos+0x10, "scale/offset %v/%v is not finite", c.Scale, c.Offset)
	}
	if h.FrameArray, _, err = f.offsetAt(arrays, what+" frame array"); err != nil {
		return nil, nil, err
	}
	if h.KeyArray, err = f.requiredOffsetAt(arrays+f.offsetSize(), what+" key array"); err != nil {
		return nil, nil, err
	}
	if c.UsesFrames() {
		if h.FrameArray == 0 {
			return nil, nil, bad(arrays, "frame array offset is null")
		}
		if c.Frames, err = f.readFrames(h.FrameArray, c.NumKeys, c.FrameType, what); err != nil {
			return nil, nil, err
		}
	}
	if c.Keys, err = f.readKeys(h.KeyArray, c, what); err != nil {
		return nil, nil, err
	}
	return c, h, nil
}

// readFrames reads n raw frames of the given frame type (§4.3).
func (f *resFile) readFrames(off, n, frameType int, what string) ([]float64, error) {
	elem := [...]int{4, 2, 1}[frameType]
	r, err := f.at(off, len(f.data)-off, what+" frame array")
	if err != nil {
		return nil, err
	}
	if _, err := r.Count(uint64(n), elem, what+" frame array"); err != nil {
		return nil, err
	}
	out := make([]float64, n)
	for i := range out {
		switch frameType {
		case model.NW4FFrameF32:
			v, _ := r.F32("frame")
			if !finite32(v) {
				return nil, binread.Errorf(r.Off()-4, "%s frame %d is not finite", what, i)
			}
			out[i] = float64(v)
		case model.NW4FFrameFixed:
			v, _ := r.I16("frame")
			out[i] = float64(v)
		default:
			v, _ := r.U8("frame")
			out[i] = float64(v)
		}
	}
	return out, nil
}

// readKeys reads a curve's key elements (§4.4): f32/s32, s16 or s8 per
// element, or 32-bit words for the bit-packed bool curves.
func (f *resFile) readKeys(off int, c *model.NW4FCurve, what string) ([]float64, error) {
	n := c.KeyElements()
	elem := [...]int{4, 2, 1}[c.KeyType]
	words := c.ElementsPerKey() == 0
	if words {
		elem = 4
	}
	r, err := f.at(off, len(f.data)-off, what+" key array")
	if err != nil {
		return nil, err
	}
	if _, err := r.Count(uint64(n), elem, what+" key array"); err != nil {
		return nil, err
	}
	out := make([]float64, n)
	for i := range out {
		switch {
		case words:
			v, _ := r.U32("key word")
			out[i] = float64(v)
		case elem == 4 && c.IsFloat():
			v, _ := r.F32("key")
			if !finite32(v) {
				return nil, binread.Errorf(r.Off()-4, "%s key element %d is not finite", what, i)
			}
			out[i] = float64(v)
		case elem == 4:
			v, _ := r.I32("key")
			out[i] = float64(v)
		case elem == 2:
			v, _ := r.I16("key")
			out[i] = float64(v)
		default:
			v, _ := r.I8("key")
			out[i] = float64(v)
		}
	}
	return out, nil
}

func finite32(v float32) bool {
	return !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0)
}
