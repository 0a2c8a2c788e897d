// Package fidelity measures how exactly a glTF client plays an engine's
// animation, with the object-space metric of the animation-compression
// industry (ACL's): every node carries virtual vertices at its origin and
// at a shell distance (default 3 cm) along each of its axes; the error at a
// time is the largest distance between where the engine's pose and the
// client's pose put any of them, through the whole hierarchy, in glTF
// metres. Probes cover every key, several times per source frame, every
// source key and both sides of every discontinuity (see Probes and
// docs/fidelity.md).
//
// The engine side comes from package sample (the compiled curves with each
// format's exact rules); the client side is glTF playback of keys: LINEAR
// rotations as slerp (the glTF specification) and as nlerp (Blender), STEP
// held. Building (NewMeter, NewEngine, NewKeyPlayer) allocates; Measure's
// per-probe loop does not.
package fidelity

import (
	"math"

	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// DefaultShell is ACL's default shell distance: virtual vertices 3 cm from
// each node's origin.
const DefaultShell = 0.03

// DefaultTolerance is ACL's default precision, 0.01 cm at the shell
// distance, in metres.
const DefaultTolerance = 0.0001

// ProbesPerFrame is how many evenly spaced probes each source frame gets
// (at least 4, the floor).
const ProbesPerFrame = 4

// TRS is a local transform: translation, rotation (x, y, z, w), scale.
type TRS struct {
	T [3]float64
	R [4]float64
	S [3]float64
}

// Hierarchy is a bake's node tree in its output axes, parents before
// children.
type Hierarchy struct {
	Names  []string
	Parent []int
	Rest   []TRS
	// Static holds the fixed matrix of nodes that have one (their TRS
	// channels do not move them), nil for the others.
	Static []*[16]float64
	index  map[string]int
}

// NewHierarchy builds the hierarchy of baked nodes (sample.Baked.Nodes:
// already in the output axes, rests normalised).
func NewHierarchy(nodes []model.Node) *Hierarchy {
	h := &Hierarchy{Names: make([]string, len(nodes)), Parent: make([]int, len(nodes)),
		Rest: make([]TRS, len(nodes)), Static: make([]*[16]float64, len(nodes)), index: make(map[string]int, len(nodes))}
	for i, n := range nodes {
		h.Names[i], h.Parent[i] = n.Name, n.Parent
		h.Rest[i] = TRS{T: n.Translation, R: n.Rotation, S: n.Scale}
		h.Static[i] = n.Matrix
		h.index[n.Name] = i
	}
	return h
}

// Index returns the index of the node with the given name.
func (h *Hierarchy) Index(name string) (int, bool) {
	if name == "" {
		return -1, false
	}
	i, ok := h.index[name]
	return i, ok
}

// World composes every node's world matrix (column-major) from locals.
func (h *Hierarchy) World(locals []TRS, world [][16]float64) {
	for i := range h.Parent {
		var local [16]float64
		if h.Static[i] != nil {
			local = *h.Static[i]
		} else {
			l := &locals[i]
			local = sample.TRS(l.T, l.R, l.S)
		}
		if p := h.Parent[i]; p >= 0 {
			world[i] = affineMul(&world[p], &local)
		} else {
			world[i] = local
		}
	}
}

// AffineMul multiplies two column-major affine matrices (bottom row 0 0 0
// 1), for callers that compose part of a hierarchy themselves.
func AffineMul(a, b *[16]float64) [16]float64 { return affineMul(a, b) }

// affineMul multiplies two column-major affine matrices (bottom row 0 0 0
// 1, as every TRS and every glTF node matrix is).
func affineMul(a, b *[16]float64) [16]float64 {
	var m [16]float64
	for col := range 4 {
		b0, b1, b2 := b[col*4], b[col*4+1], b[col*4+2]
		for row := range 3 {
			m[col*4+row] = a[row]*b0 + a[4+row]*b1 + a[8+row]*b2
		}
	}
	m[12] += a[12]
	m[13] += a[13]
	m[14] += a[14]
	m[15] = 1
	return m
}

// VertexError is the metric between two world matrices of one node: the
// largest distance between the positions they give the node's origin and
// the points shell along its local x, y and z axes.
func VertexError(a, b *[16]float64, shell float64) float64 {
	var d [16]float64
	for k := range d {
		d[k] = a[k] - b[k]
	}
	o := [3]float64{d[12], d[13], d[14]}
	worst := o[0]*o[0] + o[1]*o[1] + o[2]*o[2]
	for axis := range 3 {
		var s float64
		for r := range 3 {
			v := o[r] + shell*d[axis*4+r]
			s += v * v
		}
		worst = max(worst, s)
	}
	return math.Sqrt(worst)
}

// RotationDisplacement is how far a rotation error moves a point at unit
// distance from the rotation's centre: 2·sin(θ/2) for the angle θ between
// unit quaternions a and b (either sign), computed from the vector part of
// conj(a)·b so that small angles keep their precision.
func RotationDisplacement(a, b []float64) float64 {
	// r = conj(a) * b; |r.xyz| = sin(θ/2).
	ax, ay, az, aw := -a[0], -a[1], -a[2], a[3]
	bx, by, bz, bw := b[0], b[1], b[2], b[3]
	x := aw*bx + ax*bw + ay*bz - az*by
	y := aw*by - ax*bz + ay*bw + az*bx
	z := aw*bz + ax*by - ay*bx + az*bw
	s := math.Sqrt(x*x + y*y + z*z)
	w := aw*bw - ax*bx - ay*by - az*bz
	// sin(θ/2) with θ the short way: when |w| is small the angle is near
	// 180° and the displacement near 2.
	ln := math.Sqrt(s*s + w*w)
	if ln == 0 {
		return 0
	}
	return 2 * s / ln
}
