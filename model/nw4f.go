package model

import (
	"fmt"
	"math"
)

// NW4F curve types: the CCC bits of a BFRES curve's flags
// (bfres-container.md §4.2). Types below NW4FStepInt are float curves.
const (
	NW4FCubic      = 0 // 4 elements per key: cubic coefficients c0..c3 over t in [0,1)
	NW4FLinear     = 1 // 2 elements per key: value and change to the next key
	NW4FBakedFloat = 2 // one sample per integer frame, lerped
	NW4FStepInt    = 4 // one integer per key, held
	NW4FBakedInt   = 5 // one integer per integer frame, held
	NW4FStepBool   = 6 // one bit per key, held
	NW4FBakedBool  = 7 // one bit per integer frame, held
)

// NW4F frame types: the FF bits, how the frame array is stored.
const (
	NW4FFrameF32   = 0 // IEEE single
	NW4FFrameFixed = 1 // signed 16-bit fixed point "10.5" (raw/32)
	NW4FFrameU8    = 2 // whole frames 0..255
)

// NW4F key types: the KK bits, how key elements are stored.
const (
	NW4FKey32 = 0 // f32 for float curves, s32 for int curves
	NW4FKey16 = 1 // s16
	NW4FKey8  = 2 // s8
)

// NW4F wrap modes: what a curve does before its start and after its end frame.
const (
	NW4FClamp  = 0
	NW4FRepeat = 1
	NW4FMirror = 2
)

// NW4FCurve is one Wii U BFRES animation curve (ResAnimCurve) kept as the
// file stores it, so that package sample can evaluate it exactly as the G3D
// runtime does, in float32 (bfres-container.md §4–§5). It yields one value.
//
// Frames and Keys hold the raw stored numbers, widened to float64 without
// loss: for FrameType NW4FFrameFixed a frame of 10.5 is stored as 336. For
// the bool curve types Keys holds the 32-bit words of the bit array (bit i of
// the curve is bit i&31 of word i>>5).
type NW4FCurve struct {
	CurveType int // NW4FCubic ... NW4FBakedBool
	FrameType int // NW4FFrameF32, NW4FFrameFixed or NW4FFrameU8
	KeyType   int // NW4FKey32, NW4FKey16 or NW4FKey8
	PreWrap   int // NW4FClamp, NW4FRepeat or NW4FMirror (3 is kept as read)
	PostWrap  int
	// NumKeys is the key count from the header.
	NumKeys int
	// StartFrame and EndFrame bound the keys; the wrap modes apply outside.
	StartFrame float32
	EndFrame   float32
	// Scale and Offset map a float curve's raw result to its value:
	// raw·Scale + Offset.
	Scale  float32
	Offset float32
	// IntOffset is the offset word read as s32, added to int and bool curves.
	IntOffset int32
	// Delta is the last-minus-first value the file records (3.4 and later);
	// informational, not used in evaluation.
	Delta float32
	// Frames holds NumKeys raw frames (nil for baked curves' unused array).
	Frames []float64
	// Keys holds the raw key elements (4 per key cubic, 2 linear, 1 otherwise;
	// words for bool curves).
	Keys []float64
}

// CurveKind implements Curve.
func (*NW4FCurve) CurveKind() string { return "nw4f" }

// IsFloat reports whether the curve yields floats (types below StepInt).
func (c *NW4FCurve) IsFloat() bool { return c.CurveType < NW4FStepInt }

// ElementsPerKey is the number of key elements each key stores, or 0 for
// the bit-packed bool types.
func (c *NW4FCurve) ElementsPerKey() int {
	switch c.CurveType {
	case NW4FCubic:
		return 4
	case NW4FLinear:
		return 2
	case NW4FStepBool, NW4FBakedBool:
		return 0
	}
	return 1
}

// KeyElements is the number of entries Keys must hold for NumKeys keys.
func (c *NW4FCurve) KeyElements() int {
	if e := c.ElementsPerKey(); e > 0 {
		return e * c.NumKeys
	}
	return (c.NumKeys + 31) / 32
}

// UsesFrames reports whether the curve type reads its frame array (baked
// curves sample at whole frames instead).
func (c *NW4FCurve) UsesFrames() bool {
	switch c.CurveType {
	case NW4FBakedFloat, NW4FBakedInt, NW4FBakedBool:
		return false
	}
	return true
}

// Validate checks that the types are known and the arrays match the key count.
func (c *NW4FCurve) Validate() error {
	switch c.CurveType {
	case NW4FCubic, NW4FLinear, NW4FBakedFloat, NW4FStepInt, NW4FBakedInt, NW4FStepBool, NW4FBakedBool:
	default:
		return fmt.Errorf("nw4f curve type %d is unknown", c.CurveType)
	}
	if c.FrameType < 0 || c.FrameType > NW4FFrameU8 {
		return fmt.Errorf("nw4f frame type %d is unknown", c.FrameType)
	}
	if c.KeyType < 0 || c.KeyType > NW4FKey8 {
		return fmt.Errorf("nw4f key type %d is unknown", c.KeyType)
	}
	if c.PreWrap < 0 || c.PreWrap > 3 || c.PostWrap < 0 || c.PostWrap > 3 {
		return fmt.Errorf("nw4f wrap modes %d/%d are out of range", c.PreWrap, c.PostWrap)
	}
	if c.NumKeys <= 0 {
		return fmt.Errorf("nw4f curve has %d keys", c.NumKeys)
	}
	if c.UsesFrames() && len(c.Frames) != c.NumKeys {
		return fmt.Errorf("nw4f curve has %d frames for %d keys", len(c.Frames), c.NumKeys)
	}
	if len(c.Keys) != c.KeyElements() {
		return fmt.Errorf("nw4f curve has %d key elements, want %d", len(c.Keys), c.KeyElements())
	}
	header := []float32{c.StartFrame, c.EndFrame}
	if c.IsFloat() { // int curves reuse the offset word as an s32
		header = append(header, c.Scale, c.Offset)
	}
	for _, v := range header {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return fmt.Errorf("nw4f curve header holds a NaN or infinite value")
		}
	}
	if !finite(c.Frames) || !finite(c.Keys) {
		return fmt.Errorf("nw4f curve holds a NaN or infinite frame or key")
	}
	return nil
}

// NW4FQuaternion composes four scalar curves (x, y, z, w) into a rotation
// and normalises the result, as the G3D runtime does when it builds a bone
// matrix from an interpolated quaternion (bfres-container.md §8 step 4).
type NW4FQuaternion struct {
	X, Y, Z, W Curve
}

// CurveKind implements Curve.
func (*NW4FQuaternion) CurveKind() string { return "nw4fquat" }

// Validate checks that all four components are present and valid.
func (q *NW4FQuaternion) Validate() error {
	for _, c := range []Curve{q.X, q.Y, q.Z, q.W} {
		if c == nil {
			return fmt.Errorf("nw4f quaternion is missing a component")
		}
		if err := validateCurve(c); err != nil {
			return err
		}
	}
	return nil
}
