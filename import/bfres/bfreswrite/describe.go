package bfreswrite

// Curve is one animation curve (bfres-container.md §4): its flag fields,
// target offset, frame range, scale/offset and raw stored arrays.
type Curve struct {
	// Type is the curve type (0 cubic float … 7 baked bool); FrameFormat
	// and KeyFormat are the frame and key storage types; Pre and Post the
	// wrap modes.
	Type, FrameFormat, KeyFormat, Pre, Post int
	// Target is the byte offset of the animated value in its record.
	Target uint32
	// Start and End are the curve's frame range.
	Start, End float32
	// Scale and Offset map stored keys to values.
	Scale, Offset float32
	// IOffset is written instead of Offset when IsInt (integer curves).
	IOffset int32
	IsInt   bool
	// Delta is the 3.4+ delta field.
	Delta float32
	// Frames and Keys are the raw values as stored; with no Frames the
	// key count is len(Keys) (baked curves: End-Start+1 for type 7).
	Frames, Keys []float64
}

// Bone is one FSKL bone: name, parent index (-1 for a root), flags and
// the bind pose (scale, rotation as stored, translation).
type Bone struct {
	Name   string
	Parent int16
	Flags  uint32
	S      [3]float32
	R      [4]float32
	T      [3]float32
	// InverseModel, when set, makes the bone a smooth-skinning bone with
	// this stored inverse model matrix (3×4, row-major): the next smooth
	// index and matrix-to-bone entry, the matrix in the FSKL's array (3.4+)
	// or in the bone record (before 3.4).
	InverseModel *[12]float32
}

// Model is an FMDL: its skeleton and, optionally, meshes (fmdl.go).
type Model struct {
	Name string
	// SkelFlags is the FSKL flags word (scale and rotation modes).
	SkelFlags uint32
	Bones     []Bone
	// SmoothMatrices and RigidMatrices give the bone of each matrix of
	// the skinning palette (smooth ones first); InverseModel holds one
	// 3×4 row-major inverse model matrix per smooth matrix.
	SmoothMatrices, RigidMatrices []uint16
	InverseModel                  [][12]float32
	VertexBuffers                 []VertexBuffer
	Shapes                        []Shape
	Materials                     []Material
}

// BoneAnim is one bone of a skeletal animation: flags (base values
// present, curve targets), base values and curves.
type BoneAnim struct {
	Name   string
	Flags  uint32
	Base   []float32
	Curves []Curve
}

// FSKA is a skeletal animation.
type FSKA struct {
	Name   string
	Flags  uint32
	Frames int32
	Bones  []BoneAnim
}

// Const is a constant of a shader-parameter animation: target offset and
// value bits.
type Const struct{ Target, Bits uint32 }

// Param is one animated shader parameter: its curves (the NumFloat float
// curves first) and constants.
type Param struct {
	Name     string
	Curves   []Curve
	NumFloat int
	Consts   []Const
}

// ShuMat is one material of an FSHU.
type ShuMat struct {
	Name   string
	Params []Param
}

// FSHU is a shader-parameter, colour or texture-SRT animation; Group is
// GroupShaderParamAnims, GroupColorAnims or GroupTexSRTAnims.
type FSHU struct {
	Name   string
	Group  int
	Flags  uint32
	Frames int32
	Mats   []ShuMat
}

// Pat is one sampler of a texture pattern animation: base texture index
// and an optional curve.
type Pat struct {
	Sampler string
	Base    uint16
	Curve   *Curve
}

// TxpMat is one material of an FTXP.
type TxpMat struct {
	Name string
	Pats []Pat
}

// FTXP is a texture pattern animation.
type FTXP struct {
	Name     string
	Flags    uint16
	Frames   int32
	Textures []string
	Mats     []TxpMat
}

// FVIS is a bone (or, with Material, material) visibility animation:
// names, base visibility bits and bool curves.
type FVIS struct {
	Name     string
	Flags    uint16
	Frames   int32
	Names    []string
	Base     []bool
	Curves   []Curve
	Material bool
}

// File describes a whole FRES image: the Wii U layout, or with Switch the
// Switch layout (Version then VSwitch; nxfile.go).
type File struct {
	Switch  bool
	Version uint32
	Name    string
	Models  []Model
	FSKA    []FSKA
	FSHU    []FSHU
	FTXP    []FTXP
	FVIS    []FVIS
	// Textures are the FTEX of the textures group.
	Textures []Texture
	// Embedded are the Switch layout's embedded files (a model's
	// textures.bntx).
	Embedded []Embedded
}

// Embedded is a file a Switch FRES embeds: its name and bytes.
type Embedded struct {
	Name string
	Data []byte
}
