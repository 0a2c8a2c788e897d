package sample

import "math"

// Bend implements Bender for Oni's keys (oni-oban.txt "The matrix at a
// frame"; docs/formats/oni.md "Interpolation"): held before the first key
// and from the last; between keys i and i+1, d frames apart, a position
// is MUrPoint3D_Lerp's straight blend, moving at |b − a|/d without
// bending, and a rotation MUrQuat_Lerp's normalised lerp the short way
// (the sign of the float32 dot), bounded by lerpQuatBend. A key's own
// frame gives its value as stored (not normalised): that frame is a key,
// which the consumer probes. The float32 rounding of each product is a
// few units in the last place of the value, not a slope (fidelity's
// rounding allowance).
func (e *oniEval) Bend(f0, f1 float64) (float64, float64, bool) {
	if keyInside(e.frames, f0, f1) {
		return 0, 0, false
	}
	n, w := len(e.frames), e.width
	i := segment(e.frames, (f0+f1)/2)
	if i < 0 || i >= n-1 {
		return 0, 0, true
	}
	d := e.frames[i+1] - e.frames[i]
	if !(d > 0) {
		return 0, 0, false
	}
	var a, b [4]float64
	for j := range w {
		a[j], b[j] = float64(e.vals[i*w+j]), float64(e.vals[(i+1)*w+j])
	}
	if w == 3 {
		return math.Sqrt((b[0]-a[0])*(b[0]-a[0])+(b[1]-a[1])*(b[1]-a[1])+(b[2]-a[2])*(b[2]-a[2])) / d, 0, true
	}
	// The sign MUrQuat_Lerp picks: the float32 dot's.
	x, y := e.vals[i*w:i*w+w], e.vals[(i+1)*w:(i+1)*w+w]
	s := 1.0
	if float32(x[0]*y[0])+float32(x[1]*y[1])+float32(x[2]*y[2])+float32(x[3]*y[3]) < 0 {
		s = -1
	}
	u0, u1 := max((f0-e.frames[i])/d, 0), min((f1-e.frames[i])/d, 1)
	d1, d2, ok := lerpQuatBend(a[:], b[:], s, u0, u1)
	return d1 / d, d2 / (d * d), ok
}
