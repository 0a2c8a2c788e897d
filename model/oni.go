package model

import "fmt"

// OniKeys is one track of an Oni OBAN object animation: the rotations
// (Width 4, Hamilton quaternions x,y,z,w) or the positions (Width 3) of its
// keys, evaluated as OBrAnimation_GetMatrix does in single precision
// (oni-oban.txt "The matrix at a frame"): a key at the frame gives its value
// unchanged; between keys the position goes through MUrPoint3D_Lerp and the
// rotation through MUrQuat_Lerp (short-way lerp, then normalise); before
// the first key and after the last the nearest end is held.
//
// Values hold float32 numbers widened to float64, so the evaluator can redo
// the engine's single-precision arithmetic exactly. The quaternions are
// already converted from the file's conjugate convention (w negated,
// oni-container.md §4.2); that conversion commutes with MUrQuat_Lerp.
type OniKeys struct {
	Width int // 3 for positions, 4 for rotations
	// Frames holds the integer key frames, strictly increasing.
	Frames []float64
	// Values holds len(Frames)*Width components, key after key.
	Values []float64
}

// CurveKind implements Curve.
func (*OniKeys) CurveKind() string { return "oni" }

// Validate checks the sizes, the key order and that every number is finite.
func (k *OniKeys) Validate() error {
	if k.Width != 3 && k.Width != 4 {
		return fmt.Errorf("oni keys have width %d, want 3 (positions) or 4 (rotations)", k.Width)
	}
	if len(k.Frames) == 0 {
		return fmt.Errorf("oni keys: no keys")
	}
	if len(k.Values) != len(k.Frames)*k.Width {
		return fmt.Errorf("oni keys: %d values for %d keys of width %d", len(k.Values), len(k.Frames), k.Width)
	}
	if !finite(k.Frames) || !finite(k.Values) {
		return fmt.Errorf("oni keys hold a NaN or infinite value")
	}
	for i := 1; i < len(k.Frames); i++ {
		if !(k.Frames[i] > k.Frames[i-1]) {
			return fmt.Errorf("oni key %d at frame %v does not come after key %d at frame %v", i, k.Frames[i], i-1, k.Frames[i-1])
		}
	}
	return nil
}
