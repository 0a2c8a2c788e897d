package model

// Interp names how a Keyed curve goes from one key to the next.
type Interp string

// Interpolations of a Keyed curve. Values between keys are described by
// the key on the left of the segment.
const (
	// InterpStep holds the left key's value until the next key.
	InterpStep Interp = "step"
	// InterpLinear lerps every component.
	InterpLinear Interp = "linear"
	// InterpSlerp is spherical linear interpolation of unit quaternions
	// (x,y,z,w), taking the short way (the right key is negated when the dot
	// product is negative).
	InterpSlerp Interp = "slerp"
	// InterpNlerp lerps quaternion components (short way) and normalises.
	InterpNlerp Interp = "nlerp"
	// InterpHermite is a cubic Hermite segment between the left key's value
	// with its OutTangent and the right key's value with its InTangent.
	// Tangents are in value units per source frame.
	InterpHermite Interp = "hermite"
)

// Keyed is the generic keyframe curve: sorted key frames, a value of Width
// components per key, and an interpolation per curve. Before the first key
// and after the last the nearest end is held.
type Keyed struct {
	Interp Interp
	Width  int
	// Frames holds the key times in source frames, strictly increasing.
	Frames []float64
	// Values holds len(Frames)*Width components, key after key.
	Values []float64
	// InTangents and OutTangents hold len(Frames)*Width components each
	// for InterpHermite (per source frame); nil otherwise.
	InTangents  []float64
	OutTangents []float64
}

// CurveKind implements Curve.
func (*Keyed) CurveKind() string { return "keyed" }

// Constant is a value that never changes.
type Constant struct {
	Value []float64
}

// CurveKind implements Curve.
func (*Constant) CurveKind() string { return "constant" }

// Sampled holds one value per step of a uniform grid of source frames,
// lerped between samples (or held when Step is set).
type Sampled struct {
	Width int
	Start float64 // frame of the first sample
	Step  float64 // frames between samples, > 0
	// Values holds n*Width components.
	Values []float64
	Hold   bool // hold each sample instead of lerping
}

// CurveKind implements Curve.
func (*Sampled) CurveKind() string { return "sampled" }

// EulerRotation composes three scalar angle curves (radians) into a
// rotation quaternion. Order names the matrix product for column vectors,
// e.g. "ZYX" means R = Rz·Ry·Rx (x applied first).
type EulerRotation struct {
	X, Y, Z Curve
	Order   string
}

// CurveKind implements Curve.
func (*EulerRotation) CurveKind() string { return "euler" }

// Vector composes scalar curves into one vector value, component by
// component (a translation from three separate curves, for example).
type Vector struct {
	Components []Curve
}

// CurveKind implements Curve.
func (*Vector) CurveKind() string { return "vector" }
