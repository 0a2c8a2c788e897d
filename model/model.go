// Package model is bake's neutral keyframe model: plain data that every
// importer produces and that the sampler and exporters consume. It has no
// behaviour beyond validation; evaluation lives in package sample.
package model

// File is one converted source file: its nodes, animations and curves.
type File struct {
	// Name is the output base name for files that come out of an archive
	// holding several (a CCS DATA.BIN member, a SARC member); empty for
	// ordinary files. "/" separates folders (a member inside an archive
	// folder or a nested archive: "layout/timg/__Combined").
	Name string
	// Source says where the data came from.
	Source Source
	// Axes is the coordinate convention the node transforms and channel
	// values are expressed in.
	Axes Axes
	// Nodes are the file's nodes, parents before children.
	Nodes []Node
	// Animations are the file's animations, in file order.
	Animations []Animation
	// Curves are 3D paths (Virtools CKCurve), exported as data and followers.
	Curves []PathCurve
	// Assets are the meshes, materials, textures, skins, cameras and lights
	// the nodes refer to by name.
	Assets
	// Extras carries format facts worth keeping that the model has no field
	// for; exporters copy it to the file-level extras. Keys are sorted on output.
	Extras map[string]any
}

// Source identifies the input a File was read from.
type Source struct {
	Path   string // path as given on the command line
	Format string // registered format name, e.g. "oni"
	SHA256 string // hex digest of the whole input file
}

// Axes describes a coordinate convention: how to map the source's
// positions to glTF's right-handed, Y-up, metre space.
type Axes struct {
	// Name is a short label such as "oni" or "gltf".
	Name string
	// Basis is the 3×3 matrix C (row-major) mapping source axes to glTF axes.
	// A determinant of −1 means the source is mirrored (left-handed).
	Basis [9]float64
	// Scale is metres per source unit (k in axes.md §0.1); 0 means 1.
	Scale float64
}

// Identity reports whether the convention is already glTF's.
func (a Axes) Identity() bool {
	return a.Basis == IdentityBasis && (a.Scale == 0 || a.Scale == 1)
}

// IdentityBasis is the 3×3 identity, row-major.
var IdentityBasis = [9]float64{1, 0, 0, 0, 1, 0, 0, 0, 1}

// GLTFAxes is glTF's own convention.
var GLTFAxes = Axes{Name: "gltf", Basis: IdentityBasis, Scale: 1}

// Node is a transform in the hierarchy. Rotations are unit quaternions
// (x, y, z, w) in the Hamilton, column-vector convention, in the file's axes.
type Node struct {
	Name   string // unique within the file
	Parent int    // index into File.Nodes, or -1 for a root
	// Rest transform. When Matrix is set the node is static and its
	// transform is that matrix (column-major 4×4), TRS being ignored.
	Translation [3]float64
	Rotation    [4]float64
	Scale       [3]float64
	Matrix      *[16]float64
	// Kind tells what the node stands for: "" (a plain transform), "bone",
	// "camera", "light", "curve", "follower".
	Kind string
	// Mesh, Skin, Camera and Light name what hangs on the node (File.Assets);
	// "" for none. Skin is only meaningful with Mesh.
	Mesh, Skin, Camera, Light string
	// Extras carries format facts about the node.
	Extras map[string]any
}

// Loop modes of an animation.
const (
	LoopOnce     = "once"
	LoopRepeat   = "repeat"
	LoopPingPong = "pingpong"
)

// Animation is one clip: channels evaluated over a span of source frames.
type Animation struct {
	Name string
	// FPS is the source frame rate: source frames per second.
	FPS float64
	// Frames is the length in source frames as the source states it
	// (reported as sourceFrames).
	Frames float64
	// End is the last frame a play-once bake reaches (usually Frames-1).
	End float64
	// Period is, for LoopRepeat, the frame at which playback is back at
	// frame 0 (usually Frames); the bake adds a seam sample there. Unused
	// otherwise. A ping-pong cycle is always 2*End long.
	Period float64
	// Loop is LoopOnce, LoopRepeat or LoopPingPong.
	Loop     string
	Channels []Channel
	Events   []Event
	// Extras carries format facts about the clip (flags, what drives it).
	Extras map[string]any
}

// Channel paths. Node paths (translation, rotation, scale, weights) become
// glTF animation channels; the others go to JSON and glTF extras.
const (
	PathTranslation    = "translation" // 3 components
	PathRotation       = "rotation"    // 4 components, quaternion x,y,z,w
	PathScale          = "scale"       // 3 components
	PathWeights        = "weights"     // one per morph target
	PathVisibility     = "visibility"  // 1 component, 0 or 1
	PathAlpha          = "alpha"       // 1 component
	PathUVOffset       = "uvOffset"    // 2 components
	PathUVScale        = "uvScale"     // 2 components
	PathUVRotation     = "uvRotation"  // 1 component, radians
	PathTexturePattern = "texturePattern"
)

// Channel animates one property of one target.
type Channel struct {
	// Node names the target node; for material channels it is empty and
	// Material is set instead.
	Node     string
	Material string
	// TextureSlot says which of the material's textures a uv* channel moves:
	// "" or "baseColor", "normal", "emissive", "occlusion",
	// "metallicRoughness" (model.Material's TextureRef fields).
	TextureSlot string
	// Path is one of the Path constants or a format-specific property name
	// (for example "fov" on a camera node).
	Path string
	// Curve gives the value over source frames.
	Curve Curve
	// Labels name the integer values of a stepped channel (texture names of
	// a texture pattern); nil otherwise.
	Labels []string
}

// Event is a timed notification carried with an animation (a ccAnm note).
type Event struct {
	Frame float64
	Name  string
	Node  string
	Args  map[string]any
}

// Curve is any keyframe representation. Each concrete type is plain data
// defined in this package; package sample holds its evaluator.
type Curve interface {
	// CurveKind names the representation, e.g. "keyed" or "nw4f".
	CurveKind() string
}

// PathCurve is a 3D path (Virtools CKCurve) with its control points.
type PathCurve struct {
	Name   string
	Node   string // the node whose world transform places the curve
	Closed bool
	Length float64
	Curve  Curve // evaluates to a position per progression in [0,1]
	Extras map[string]any
}
