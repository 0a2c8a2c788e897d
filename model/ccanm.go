package model

import (
	"fmt"
	"math"
)

// This file holds the plain-data form of CyberConnect2 ccAnm controllers
// (ccs-anime-playback.txt). The values are kept exactly as the file stores
// them (u32 key frames, float32 values, degrees) because ccAnm's playback is
// defined on those raw numbers in PS2 EE single precision; package sample
// compiles them into segments and evaluates them bit for bit.

// CcAnmKind says how a ccAnm controller stores its value. The file kinds are
// the 3-bit fields of a 0x0102 / 0x0202 record's flags.
type CcAnmKind uint8

// Controller kinds. Absent, Constant and Keyed are the file's kinds 0, 1, 2;
// QuatKeyed is kind 4 of later generations (ccs-container.md §4.2).
// Stepped is not a file kind: it is how per-frame records (F_Obj poses)
// travel as a controller, each record holding from its frame on.
const (
	// CcAnmAbsent: no controller; Values holds the path's default
	// (position 0, scale 1, transparency 1; rotation needs no value).
	CcAnmAbsent CcAnmKind = 0
	// CcAnmConstant: one value, Values holds Width components, no keys.
	CcAnmConstant CcAnmKind = 1
	// CcAnmKeyed: n ≥ 1 keys (u32 frame, value); linear playback on
	// 1/256-frame segments, rotations as axis-angle steps.
	CcAnmKeyed CcAnmKind = 2
	// CcAnmQuatKeyed: later generations' rotation keys as quaternions
	// (x, y, z, w), four floats per key.
	CcAnmQuatKeyed CcAnmKind = 4
	// CcAnmStepped: per-frame records, each value held from its frame on
	// (F_Obj). Key frames are increasing. Not a file kind.
	CcAnmStepped CcAnmKind = 0x80
)

// CcAnmTiming is what an Anime chunk says about its playback: its frame
// count N and whether its end Top is −2 (loop) or −1 (play once).
type CcAnmTiming struct {
	// Frames is N, the chunk's frame count. Time is clamped to (N−1)·256.
	Frames uint32
	// Loop is true for an end Top of −2.
	Loop bool
}

// End is the last frame playback reaches: N−1 (0 for N ≤ 1). A loop is
// posed at N−1 and then reset to 0, so a loop's period is also N−1 frames.
func (t CcAnmTiming) End() float64 {
	if t.Frames <= 1 {
		return 0
	}
	return float64(t.Frames - 1)
}

// LoopMode is LoopRepeat for a −2 end Top with a positive period, LoopOnce
// otherwise (a loop of N ≤ 1 frames has nothing to repeat).
func (t CcAnmTiming) LoopMode() string {
	if t.Loop && t.End() > 0 {
		return LoopRepeat
	}
	return LoopOnce
}

// Period is the repeat period of a looping clip: N−1 frames (the pose at
// N−1 is shown, then playback resets to 0). Zero for play-once clips.
func (t CcAnmTiming) Period() float64 {
	if t.LoopMode() != LoopRepeat {
		return 0
	}
	return t.End()
}

// CcAnmTrack is one float or vector controller (position, scale,
// transparency, material U or V, camera and light values), or a stepped
// series of per-frame values. It evaluates to Width float32 values widened
// to float64.
type CcAnmTrack struct {
	// Timing is the owning Anime chunk's; the final hold runs to N·256.
	Timing CcAnmTiming
	Kind   CcAnmKind // Absent, Constant, Keyed or Stepped
	Width  int       // components per value: 1 (float) or 3 (vector), any ≥ 1 allowed
	// Frames holds the key frames as stored (u32). Keyed frames need not
	// increase: a frame that goes back makes a wrapped (≈2^32) segment and a
	// repeated frame a zero one; both are part of the semantics.
	Frames []uint32
	// Values holds Width components per key (Keyed, Stepped), or Width
	// components for Constant and Absent.
	Values []float32
}

// CurveKind implements Curve.
func (*CcAnmTrack) CurveKind() string { return "ccanm-track" }

// Validate checks the sizes of a track.
func (c *CcAnmTrack) Validate() error {
	if c.Width <= 0 {
		return fmt.Errorf("ccanm track has width %d", c.Width)
	}
	switch c.Kind {
	case CcAnmAbsent, CcAnmConstant:
		if len(c.Values) != c.Width {
			return fmt.Errorf("ccanm constant track has %d values, want %d", len(c.Values), c.Width)
		}
	case CcAnmKeyed, CcAnmStepped:
		if len(c.Frames) == 0 {
			return fmt.Errorf("ccanm keyed track has no keys")
		}
		if len(c.Values) != len(c.Frames)*c.Width {
			return fmt.Errorf("ccanm track has %d values for %d keys of width %d", len(c.Values), len(c.Frames), c.Width)
		}
		if c.Kind == CcAnmStepped {
			for i := 1; i < len(c.Frames); i++ {
				if c.Frames[i] <= c.Frames[i-1] {
					return fmt.Errorf("ccanm stepped track: record %d at frame %d does not come after frame %d", i, c.Frames[i], c.Frames[i-1])
				}
			}
		}
	default:
		return fmt.Errorf("ccanm track kind %d is not a float kind", c.Kind)
	}
	return nil
}

// CcAnmRotation is one rotation controller. It evaluates to a unit
// quaternion (x, y, z, w), Hamilton convention, from the engine's rotation
// matrix R = Rx·Ry·Rz (sceVu0RotMatrix).
type CcAnmRotation struct {
	// Timing is the owning Anime chunk's.
	Timing CcAnmTiming
	// Kind: Absent (identity), Constant (one Euler triple, not quantised),
	// Keyed (Euler keys quantised to 1/65536 turn, axis-angle steps),
	// QuatKeyed (quaternion keys) or Stepped (F_Obj: each Euler triple held
	// from its frame on, not quantised).
	Kind CcAnmKind
	// Frames holds the key frames as stored (u32), as in CcAnmTrack.
	Frames []uint32
	// Degrees holds (x, y, z) Euler angles in degrees: three per key, or
	// three for Constant. Used by every kind except QuatKeyed.
	Degrees []float32
	// Quats holds (x, y, z, w) per key for QuatKeyed.
	Quats []float32
}

// CurveKind implements Curve.
func (*CcAnmRotation) CurveKind() string { return "ccanm-rotation" }

// Validate checks the sizes of a rotation controller.
func (c *CcAnmRotation) Validate() error {
	switch c.Kind {
	case CcAnmAbsent:
	case CcAnmConstant:
		if len(c.Degrees) != 3 {
			return fmt.Errorf("ccanm single-value rotation has %d angles, want 3", len(c.Degrees))
		}
	case CcAnmKeyed, CcAnmStepped:
		if len(c.Frames) == 0 || len(c.Degrees) != 3*len(c.Frames) {
			return fmt.Errorf("ccanm rotation has %d angles for %d keys", len(c.Degrees), len(c.Frames))
		}
		if c.Kind == CcAnmStepped {
			for i := 1; i < len(c.Frames); i++ {
				if c.Frames[i] <= c.Frames[i-1] {
					return fmt.Errorf("ccanm stepped rotation: record %d at frame %d does not come after frame %d", i, c.Frames[i], c.Frames[i-1])
				}
			}
		}
	case CcAnmQuatKeyed:
		if len(c.Frames) == 0 || len(c.Quats) != 4*len(c.Frames) {
			return fmt.Errorf("ccanm quaternion rotation has %d values for %d keys", len(c.Quats), len(c.Frames))
		}
		for _, v := range c.Quats {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return fmt.Errorf("ccanm quaternion rotation holds a NaN or infinite value")
			}
		}
	default:
		return fmt.Errorf("ccanm rotation kind %d is not a rotation kind", c.Kind)
	}
	return nil
}
