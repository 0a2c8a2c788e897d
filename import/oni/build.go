package oni

import (
	"math"

	"github.com/animbake/bake/model"
)

// NativeFPS is the rate OBAN frames play at: one frame per 60 Hz game tick
// (oni-oban.txt "Playing": the ticks-per-frame field changes nothing).
const NativeFPS = 60

// Suffixes of the helper nodes around the node named after an animation
// (docs/formats/oni.md "Node layout").
const (
	MotionSuffix = "_motion" // animated T·R
	LocalSuffix  = "_local"  // static quarter turn about x for flag 0x10
)

// quarterTurnX is the rotation of π/2 about +x (MUrMatrix_FromMax builds
// BuildRotateX(+π/2) and multiplies it in front) as a Hamilton quaternion.
var quarterTurnX = [4]float64{math.Sqrt2 / 2, 0, 0, math.Sqrt2 / 2}

// addOban appends the nodes and the animation of one OBAN to f. The node
// called name gets the world matrix [Rx(π/2)]·T(position)·R(rotation)·Base
// at every frame: an optional static root name_local for the quarter turn,
// the animated name_motion carrying T·R, and the leaf name carrying Base.
func addOban(f *model.File, o *Oban, name string, extras map[string]any) {
	parent := -1
	if o.Flags&ObanLocalized != 0 {
		f.Nodes = append(f.Nodes, model.Node{
			Name: name + LocalSuffix, Parent: parent,
			Rotation: quarterTurnX, Scale: [3]float64{1, 1, 1},
			Extras: map[string]any{"role": "quarterTurnX"},
		})
		parent = len(f.Nodes) - 1
	}
	pos, rot := keyTracks(o)
	motion := model.Node{Name: name + MotionSuffix, Parent: parent, Scale: [3]float64{1, 1, 1},
		Extras: map[string]any{"role": "motion"}}
	copy(motion.Translation[:], pos.Values[:3])
	copy(motion.Rotation[:], rot.Values[:4])
	f.Nodes = append(f.Nodes, motion)
	leaf := baseNode(o.Base)
	leaf.Name, leaf.Parent = name, len(f.Nodes)-1
	f.Nodes = append(f.Nodes, leaf)

	a := model.Animation{
		Name:   name,
		FPS:    NativeFPS,
		Frames: float64(o.Frames),
		End:    float64(o.Frames) - 1,
		Period: float64(o.Frames),
		Loop:   loopMode(o),
		Channels: []model.Channel{
			{Node: motion.Name, Path: model.PathTranslation, Curve: pos},
			{Node: motion.Name, Path: model.PathRotation, Curve: rot},
		},
		Extras: extras,
	}
	// Facts at their usual values are left out (docs/formats/oni.md): the
	// flag bits' names only when set, the ticks when not the CD's 80, the
	// half-stop frame when not 0, the matrices when not the identity.
	extras["flags"] = uint32(o.Flags)
	for _, b := range []struct {
		name string
		bit  ObanFlags
	}{{"randomStart", ObanRandomStart}, {"autostart", ObanAutostart}, {"quarterTurnX", ObanLocalized}} {
		if o.Flags&b.bit != 0 {
			extras[b.name] = true
		}
	}
	if o.TicksPerFrame != usualTicksPerFrame {
		extras["ticksPerFrame"] = int(o.TicksPerFrame)
	}
	if o.HalfStopFrame != 0 {
		extras["halfStopFrame"] = int(o.HalfStopFrame)
	}
	extras["keys"] = len(o.Keys)
	if o.Start != identity34 {
		extras["startMatrix"] = widen(o.Start[:])
	}
	if o.Base != identity34 {
		extras["baseMatrix"] = widen(o.Base[:])
	}
	if a.Loop == model.LoopPingPong {
		// The engine shows frames−1 and 0 for two ticks each on the way back.
		extras["engineCycleFrames"] = 2 * int(o.Frames)
	}
	f.Animations = append(f.Animations, a)
}

// loopMode maps the flags to the model's loop modes: ping-pong wins over
// loop (PHrPhysics_Update_Animation tests it first). A one-frame ping-pong
// has nowhere to go and is kept as a repeat.
func loopMode(o *Oban) string {
	switch {
	case o.Flags&ObanPingPong != 0 && o.Frames > 1:
		return model.LoopPingPong
	case o.Flags&(ObanLoop|ObanPingPong) != 0:
		return model.LoopRepeat
	}
	return model.LoopOnce
}

// keyTracks splits the keys into a position track and a rotation track,
// turning each stored quaternion (x, y, z, w) into the Hamilton (x, y, z, −w).
func keyTracks(o *Oban) (pos, rot *model.OniKeys) {
	n := len(o.Keys)
	frames := make([]float64, n)
	pos = &model.OniKeys{Width: 3, Frames: frames, Values: make([]float64, 0, 3*n)}
	rot = &model.OniKeys{Width: 4, Frames: frames, Values: make([]float64, 0, 4*n)}
	for i, k := range o.Keys {
		frames[i] = float64(k.Frame)
		pos.Values = append(pos.Values, float64(k.Position[0]), float64(k.Position[1]), float64(k.Position[2]))
		q := k.Quaternion
		rot.Values = append(rot.Values, float64(q[0]), float64(q[1]), float64(q[2]), -float64(q[3]))
	}
	return pos, rot
}

// baseNode returns a node whose local transform is exactly the Base matrix:
// TRS when its linear part is diagonal (a pure scale, as on the CD), else a
// static column-major matrix.
func baseNode(m Matrix4x3) model.Node {
	n := model.Node{Rotation: [4]float64{0, 0, 0, 1}, Extras: map[string]any{"role": "base"}}
	if m[1] == 0 && m[2] == 0 && m[3] == 0 && m[5] == 0 && m[6] == 0 && m[7] == 0 {
		n.Scale = [3]float64{float64(m[0]), float64(m[4]), float64(m[8])}
		n.Translation = [3]float64{float64(m[9]), float64(m[10]), float64(m[11])}
		return n
	}
	n.Scale = [3]float64{1, 1, 1}
	n.Matrix = MatrixColumnMajor(m)
	return n
}

// MatrixColumnMajor widens a stored 3×4 matrix to glTF's column-major 4×4.
func MatrixColumnMajor(m Matrix4x3) *[16]float64 {
	var g [16]float64
	for c := range 4 {
		for r := range 3 {
			g[4*c+r] = float64(m[3*c+r])
		}
	}
	g[15] = 1
	return &g
}

// usualTicksPerFrame is the ticks-per-frame field of every OBAN on the CD
// (it has no effect), left out of the extras.
const usualTicksPerFrame = 80

// identity34 is the 3×4 identity in file order (three columns, then the
// translation), a matrix left out of the extras.
var identity34 = Matrix4x3{1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}

func widen(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}
