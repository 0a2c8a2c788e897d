package model

// Assets are the visible parts of a file: meshes, their materials and
// textures, skins, cameras and lights. They are plain data like the curves:
// importers fill them, the sampler only converts their axes, and exporters
// write them without knowing the source format. Every cross-reference is by
// name (unique within its kind), like Channel.Node, so that a zero value means
// "none" and importers can build them in any order.
//
// Geometry is in the source axes and units of the node it hangs on
// (File.Axes), like node transforms; sample converts it with the nodes.
type Assets struct {
	Meshes    []Mesh
	Materials []Material
	Textures  []Texture
	Skins     []Skin
	Cameras   []Camera
	Lights    []Light
}

// Empty reports whether there is no asset at all.
func (a *Assets) Empty() bool {
	return len(a.Meshes) == 0 && len(a.Materials) == 0 && len(a.Textures) == 0 &&
		len(a.Skins) == 0 && len(a.Cameras) == 0 && len(a.Lights) == 0
}

// Primitive modes (glTF's numbering).
const (
	ModePoints        = 0
	ModeLines         = 1
	ModeLineLoop      = 2
	ModeLineStrip     = 3
	ModeTriangles     = 4
	ModeTriangleStrip = 5
	ModeTriangleFan   = 6
)

// Mesh is geometry drawn at the node(s) whose Node.Mesh names it.
type Mesh struct {
	Name       string
	Primitives []Primitive
	// TargetNames name the morph targets (the same in every primitive);
	// a weights channel on the mesh's node has one value per target.
	TargetNames []string
	// Weights are the default morph weights (nil: all zero).
	Weights []float64
	Extras  map[string]any
}

// Primitive is one draw: vertex attributes, optional indices, one material.
// Attributes are flat float32 arrays; all present attributes have the same
// vertex count (len(Positions)/3).
type Primitive struct {
	Positions []float32 // 3 per vertex, required
	Normals   []float32 // 3 per vertex, unit length, or nil
	Tangents  []float32 // 4 per vertex (xyz, w = ±1 handedness), or nil
	UVs       [][]float32
	// Colors are RGBA per vertex in linear 0..1, or nil.
	Colors []float32
	// Joints and Weights skin the vertex: 4 joint indices (into the node's
	// Skin.Joints) and 4 weights summing to 1 per vertex; nil when rigid.
	Joints  []uint16
	Weights []float32
	// Indices into the vertices; nil draws the vertices in order.
	Indices []uint32
	// Mode is one of the Mode constants; importers always set it (0 is
	// points, as in glTF).
	Mode int
	// Material names a File Material, or "" for the client's default.
	Material string
	Targets  []MorphTarget
}

// MorphTarget holds per-vertex displacements (nil when not displaced).
type MorphTarget struct {
	Positions []float32
	Normals   []float32
}

// Alpha modes (glTF's names).
const (
	AlphaOpaque = "OPAQUE"
	AlphaMask   = "MASK"
	AlphaBlend  = "BLEND"
)

// Material is a glTF-style metallic-roughness material. Importers map their
// engine's material here (the mapping documented per format) and keep the
// original values in Extras.
type Material struct {
	Name string
	// BaseColor is linear RGBA.
	BaseColor                [4]float64
	BaseColorTexture         TextureRef
	Metallic                 float64
	Roughness                float64
	MetallicRoughnessTexture TextureRef
	Normal                   TextureRef
	Occlusion                TextureRef
	Emissive                 [3]float64
	EmissiveTexture          TextureRef
	AlphaMode                string // AlphaOpaque ("" too), AlphaMask or AlphaBlend
	AlphaCutoff              float64
	DoubleSided              bool
	// Unlit asks for KHR_materials_unlit (prelit/unlit engine materials).
	Unlit  bool
	Extras map[string]any
}

// TextureRef binds a texture to a material slot. Offset/Scale/Rotation form
// a KHR_texture_transform (Scale zero means 1,1); Transform says whether to
// write one even when it is the identity (an animated UV needs the object).
type TextureRef struct {
	Texture   string // a File Texture's name, or "" for none
	UV        int    // which UV set
	Offset    [2]float64
	Scale     [2]float64
	Rotation  float64
	Transform bool
}

// Wrap and filter modes (glTF's numbering).
const (
	WrapRepeat         = 10497
	WrapClampToEdge    = 33071
	WrapMirroredRepeat = 33648
	FilterNearest      = 9728
	FilterLinear       = 9729
)

// Texture is an image with its sampler.
type Texture struct {
	Name  string
	Image Image
	// WrapS, WrapT, MinFilter, MagFilter use the constants above; 0 leaves
	// the glTF default.
	WrapS, WrapT         int
	MinFilter, MagFilter int
	Extras               map[string]any
}

// Image is either decoded pixels (RGBA, 8 bits per channel, rows top to
// bottom; the exporter encodes PNG) or an image file kept as is (MIME and
// Bytes, e.g. a JPEG stored in the source). URI names an external file
// when the pixels are not available (a texture the input only names).
type Image struct {
	Width, Height int
	RGBA          []byte
	MIME          string
	Bytes         []byte
	URI           string
}

// Skin binds a skeleton: the nodes that are its joints and, per joint, the
// inverse of the joint's world matrix in the bind pose (column-major, in
// the file's axes). Joint order is the order of Primitive.Joints indices.
type Skin struct {
	Name        string
	Joints      []string
	InverseBind [][16]float64
	// Skeleton names the common root node of the joints ("" unknown).
	Skeleton string
}

// Camera kinds.
const (
	CameraPerspective  = "perspective"
	CameraOrthographic = "orthographic"
)

// Camera is a camera hung on a node (looking down the node's −Z in glTF
// axes once converted). Yfov in radians; Aspect 0 means unknown.
type Camera struct {
	Name         string
	Type         string
	Yfov, Aspect float64
	// XMag, YMag are the orthographic half-extents.
	XMag, YMag float64
	Znear      float64
	Zfar       float64 // 0: infinite (perspective only)
	Extras     map[string]any
}

// Light kinds (KHR_lights_punctual).
const (
	LightPoint       = "point"
	LightSpot        = "spot"
	LightDirectional = "directional"
)

// Light is a punctual light hung on a node (pointing down −Z in glTF axes).
type Light struct {
	Name      string
	Type      string
	Color     [3]float64
	Intensity float64
	Range     float64 // 0: infinite
	// InnerCone and OuterCone are spot half-angles in radians.
	InnerCone, OuterCone float64
	Extras               map[string]any
}
