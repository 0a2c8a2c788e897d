package bfreswrite

// Frame and key storage formats (bfres-container.md §4.2).
const (
	FramesF32  = 0 // f32 frames
	FramesS10  = 1 // s16 fixed point 10.5 (raw/32)
	FramesU8   = 2 // u8 whole frames
	KeysF32    = 0 // f32 (float curves) or s32 (int curves)
	KeysS16    = 1
	KeysS8     = 2
	TypeCubic  = 0
	TypeLinear = 1
	TypeBaked  = 2
	TypeStepI  = 4
	TypeStepB  = 6
)

// Hermite builds a cubic float curve with u8 frames and f32 keys through
// the values at the frames with the given slopes (value per frame): each
// segment's coefficients are BfresLibrary's HermiteToCubicKey with the
// tangents multiplied by the segment length (§5.3): c0 = p0, c1 = s0,
// c2 = −3p0 + 3p1 − 2s0 − s1, c3 = 2p0 − 2p1 + s0 + s1. The last key is
// (p, 0, 0, 0). Delta is the last value minus the first (§4.5).
func Hermite(target uint32, frames, values, slopes []float64) Curve {
	c := Curve{Type: TypeCubic, FrameFormat: FramesU8, KeyFormat: KeysF32, Target: target, Scale: 1,
		Start: float32(frames[0]), End: float32(frames[len(frames)-1]), Frames: frames,
		Delta: float32(values[len(values)-1] - values[0])}
	for i := range frames {
		p0 := values[i]
		if i == len(frames)-1 {
			c.Keys = append(c.Keys, p0, 0, 0, 0)
			break
		}
		d := frames[i+1] - frames[i]
		p1, s0, s1 := values[i+1], slopes[i]*d, slopes[i+1]*d
		c.Keys = append(c.Keys, p0, s0, -3*p0+3*p1-2*s0-s1, 2*p0-2*p1+s0+s1)
	}
	return c
}

// Linear builds a linear float curve with u8 frames and f32 keys: each
// key is (value, change up to the next key), the last (value, 0) (§4.4).
func Linear(target uint32, frames, values []float64) Curve {
	c := Curve{Type: TypeLinear, FrameFormat: FramesU8, KeyFormat: KeysF32, Target: target, Scale: 1,
		Start: float32(frames[0]), End: float32(frames[len(frames)-1]), Frames: frames,
		Delta: float32(values[len(values)-1] - values[0])}
	for i, v := range values {
		next := v
		if i+1 < len(values) {
			next = values[i+1]
		}
		c.Keys = append(c.Keys, v, next-v)
	}
	return c
}

// StepBool builds a step bool curve (for FVIS, target = the entry index)
// with 10.5 frames: the value at each frame holds until the next (§5.5).
func StepBool(target uint32, frames []float64, values []bool) Curve {
	c := Curve{Type: TypeStepB, FrameFormat: FramesS10, Target: target, IsInt: true, Scale: 1,
		Start: float32(frames[0]), End: float32(frames[len(frames)-1])}
	words := make([]float64, (len(values)+31)/32)
	for i, v := range values {
		c.Frames = append(c.Frames, frames[i]*32)
		if v {
			words[i/32] += float64(uint32(1) << (i % 32))
		}
	}
	c.Keys = words
	return c
}
