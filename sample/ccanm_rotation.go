package sample

import (
	"fmt"

	"github.com/animbake/bake/model"
)

func init() {
	RegisterCompiler("ccanm-rotation", compileCcAnmRotation)
}

// ccRotEval plays a ccAnm rotation controller and gives its orientation as
// a quaternion (ccs-anime-playback.txt "Rotations").
//
// Keyed Euler controllers run ccAnmCtrlRot_SetCtrl / _Set: key matrices from
// quantised angles through the emulated VU0 (float32, bit for bit as far as
// the model goes), steps between keys as axis and angle (m2a), and a
// running matrix in float64 (the port's precision; the game's drifts in
// float by about 1e-7 per key passed).
type ccRotEval struct {
	timing model.CcAnmTiming
	kind   model.CcAnmKind
	keys   []float64

	// Keyed Euler: segment durations, each segment's axis and angle, and
	// the running matrix after k segments passed (len(durs)+1 entries).
	durs   []uint32
	axes   [][3]float64
	angles []float64
	prefix [][9]float64

	// Constant, Stepped and QuatKeyed: one quaternion per key (the
	// stepped records' frames in stepFrames). QuatKeyed segments go from
	// key from[k] to key to[k].
	quats      [][4]float64
	stepFrames []uint32
	from, to   []int
}

func compileCcAnmRotation(c model.Curve) (Evaluator, error) {
	rc := c.(*model.CcAnmRotation)
	if err := rc.Validate(); err != nil {
		return nil, err
	}
	e := &ccRotEval{timing: rc.Timing, kind: rc.Kind}
	switch rc.Kind {
	case model.CcAnmAbsent:
		e.quats = [][4]float64{{0, 0, 0, 1}}
		e.stepFrames = []uint32{0}
	case model.CcAnmConstant:
		m := ccSingleValueMatrix(rc.Degrees)
		e.quats = [][4]float64{MatrixToQuat(&m)}
		e.stepFrames = []uint32{0}
	case model.CcAnmStepped:
		e.stepFrames = rc.Frames
		for i := range rc.Frames {
			m := ccSingleValueMatrix(rc.Degrees[3*i : 3*i+3])
			e.quats = append(e.quats, MatrixToQuat(&m))
		}
		e.keys = ccKeyFrames(rc.Frames, rc.Timing)
	case model.CcAnmKeyed:
		e.compileKeyed(rc)
	case model.CcAnmQuatKeyed:
		e.compileQuatKeyed(rc)
	default:
		return nil, fmt.Errorf("ccanm rotation kind %d", rc.Kind)
	}
	return e, nil
}

// ccSingleValueMatrix is a single-value rotation (and an F_Obj record's):
// sceVu0RotMatrix(π·deg/180), not quantised.
func ccSingleValueMatrix(deg []float32) [9]float64 {
	return Vu0RotMatrix(ccDegToRad(deg[0]), ccDegToRad(deg[1]), ccDegToRad(deg[2]))
}

// ccKeyMatrix is a keyed rotation's key matrix: each angle quantised to
// 1/65536 turn, then sceVu0RotMatrix.
func ccKeyMatrix(deg []float32) [9]float64 {
	return Vu0RotMatrix(
		ccQuantRadians(ccQuantise(deg[0])),
		ccQuantRadians(ccQuantise(deg[1])),
		ccQuantRadians(ccQuantise(deg[2])))
}

// compileKeyed is ccAnmCtrlRot_SetCtrl: segments as for floats, each key's
// step R_i·R_{i−1}ᵀ stored as axis and angle, and the final hold reusing the
// last step over the wrapped duration (last − N)·256.
func (e *ccRotEval) compileKeyed(rc *model.CcAnmRotation) {
	n := len(rc.Frames)
	final := (rc.Frames[n-1] - rc.Timing.Frames) * ccTicksPerFrame
	durs, lead := ccDurations(rc.Frames, final)
	e.durs = durs
	if lead {
		e.axes = append(e.axes, [3]float64{1, 0, 0})
		e.angles = append(e.angles, 0)
	}
	prev := ccKeyMatrix(rc.Degrees[0:3])
	first := prev
	lastAxis, lastAngle := [3]float64{1, 0, 0}, 0.0
	for i := 1; i < n; i++ {
		cur := ccKeyMatrix(rc.Degrees[3*i : 3*i+3])
		step := mat3MulT(&cur, &prev)
		lastAxis, lastAngle = matrixAxisAngle(&step)
		e.axes = append(e.axes, lastAxis)
		e.angles = append(e.angles, lastAngle)
		prev = cur
	}
	e.axes = append(e.axes, lastAxis)
	e.angles = append(e.angles, lastAngle)
	e.prefix = make([][9]float64, len(durs)+1)
	e.prefix[0] = first
	for k := range durs {
		a := axisAngleMatrix(e.axes[k], e.angles[k])
		e.prefix[k+1] = mat3Mul(&a, &e.prefix[k])
	}
	e.keys = ccKeyFrames(rc.Frames, rc.Timing)
}

// compileQuatKeyed lays later generations' quaternion keys on the same
// segments as floats (hold before the first key, u32 durations, the final
// hold N·256 − last·256); each segment slerps from its left key to its
// right one. See docs/formats/ccs-semantics.md: inferred, not documented.
func (e *ccRotEval) compileQuatKeyed(rc *model.CcAnmRotation) {
	n := len(rc.Frames)
	final := rc.Timing.Frames*ccTicksPerFrame - rc.Frames[n-1]*ccTicksPerFrame
	durs, lead := ccDurations(rc.Frames, final)
	e.durs = durs
	for i := range n {
		q := [4]float64{float64(rc.Quats[4*i]), float64(rc.Quats[4*i+1]), float64(rc.Quats[4*i+2]), float64(rc.Quats[4*i+3])}
		normalize4(q[:])
		e.quats = append(e.quats, q)
	}
	if lead {
		e.from, e.to = append(e.from, 0), append(e.to, 0)
	}
	for i := 1; i < n; i++ {
		e.from, e.to = append(e.from, i-1), append(e.to, i)
	}
	e.from, e.to = append(e.from, n-1), append(e.to, n-1)
	e.keys = ccKeyFrames(rc.Frames, rc.Timing)
}

func (e *ccRotEval) Width() int { return 4 }

// Stepped implements Stepper: single values and F_Obj records hold.
func (e *ccRotEval) Stepped() bool {
	return e.kind != model.CcAnmKeyed && e.kind != model.CcAnmQuatKeyed
}

func (e *ccRotEval) KeyFrames() []float64 { return e.keys }

// Eval implements Evaluator.
func (e *ccRotEval) Eval(frame float64, out []float64) {
	t := ccTicks(frame, e.timing)
	switch e.kind {
	case model.CcAnmKeyed:
		m := e.matrixAt(t)
		q := MatrixToQuat(&m)
		copy(out[:4], q[:])
	case model.CcAnmQuatKeyed:
		passed, rem := ccWalk(e.durs, t)
		if passed == len(e.durs) {
			copy(out[:4], e.quats[len(e.quats)-1][:])
			return
		}
		a, b := e.quats[e.from[passed]][:], e.quats[e.to[passed]][:]
		Slerp(out[:4], a, b, float64(rem)/float64(e.durs[passed]))
	default:
		copy(out[:4], e.quats[ccStepIndex(e.stepFrames, t)][:])
	}
}

// matrixAt is _Set for a keyed rotation at time t (ticks): the running
// matrix after the passed steps, with the current step's axis turned by
// angle · rem / dur multiplied on the left.
func (e *ccRotEval) matrixAt(t uint32) [9]float64 {
	passed, rem := ccWalk(e.durs, t)
	if passed == len(e.durs) {
		return e.prefix[passed]
	}
	frac := float64(rem) / float64(e.durs[passed])
	a := axisAngleMatrix(e.axes[passed], e.angles[passed]*frac)
	return mat3Mul(&a, &e.prefix[passed])
}
