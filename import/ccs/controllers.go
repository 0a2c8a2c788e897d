package ccs

import (
	"github.com/animbake/bake/import/binread"
)

// ObjectController is an object controller record (0x0102): one track per
// 3-bit field of Flags, in the order position, rotation (Euler degrees, or
// quaternion keys in later generations), scale, transparency.
type ObjectController struct {
	Off      int64
	Object   uint32
	Flags    uint32
	Position Track
	Rotation Track
	Scale    Track
	Alpha    Track
}

func readObjectController(r *binread.Reader) (ObjectController, error) {
	c := ObjectController{Off: r.Off() - 8}
	var err error
	if c.Object, err = r.U32("object controller object"); err != nil {
		return c, err
	}
	if c.Flags, err = r.U32("object controller flags"); err != nil {
		return c, err
	}
	if c.Position, err = readTrack(r, trackField(c.Flags, 0), fmtVec3, false, "position track"); err != nil {
		return c, err
	}
	if c.Rotation, err = readTrack(r, trackField(c.Flags, 1), fmtVec3, true, "rotation track"); err != nil {
		return c, err
	}
	if c.Scale, err = readTrack(r, trackField(c.Flags, 2), fmtVec3, false, "scale track"); err != nil {
		return c, err
	}
	c.Alpha, err = readTrack(r, trackField(c.Flags, 3), fmtFloat, false, "transparency track")
	return c, err
}

// MaterialController is a material controller record (0x0202): float
// tracks U and V (generation 1), followed in later generations by the
// texture scales and further float fields, one per 3-bit field of Flags.
type MaterialController struct {
	Off      int64
	Material uint32
	Flags    uint32
	// Fields holds the tracks in flag order: U, V, then (later
	// generations) scale U, scale V and any further fields.
	Fields []Track
}

// MaterialFieldNames names the fields of a material controller in order.
var MaterialFieldNames = []string{"u", "v", "scaleU", "scaleV", "field4", "field5", "field6", "field7", "field8", "field9"}

func readMaterialController(r *binread.Reader, later bool) (MaterialController, error) {
	c := MaterialController{Off: r.Off() - 8}
	var err error
	if c.Material, err = r.U32("material controller material"); err != nil {
		return c, err
	}
	if c.Flags, err = r.U32("material controller flags"); err != nil {
		return c, err
	}
	n := 2 // generation 1: exactly U and V (ccs-anime-playback.txt)
	if later {
		n = usedFields(c.Flags)
	}
	c.Fields = make([]Track, n)
	for i := range c.Fields {
		if c.Fields[i], err = readTrack(r, trackField(c.Flags, i), fmtFloat, false, "material "+MaterialFieldNames[i]+" track"); err != nil {
			return c, err
		}
	}
	return c, nil
}

// usedFields is the number of 3-bit fields up to the highest non-zero one.
func usedFields(flags uint32) int {
	n := 0
	for i := range 10 {
		if trackField(flags, i) != 0 {
			n = i + 1
		}
	}
	return n
}

// LightController is a light controller record (distant 0x0603, direct
// 0x0605, spot 0x0607, omni 0x0609). Its fields, as SetAnmCtrlWork reads
// the direct light's (ccs-anime-playback.txt "Unknown"): position,
// rotation (Euler degrees), colour (RGBA bytes), then float fields:
// intensity, beam start, beam end, inner radius, outer radius.
type LightController struct {
	Off      int64
	Code     uint16
	Light    uint32
	Flags    uint32
	Position Track
	Rotation Track
	Color    Track
	// Floats holds fields 3 and up in flag order.
	Floats []Track
}

// LightFloatNames names LightController.Floats in order.
var LightFloatNames = []string{"intensity", "beamStart", "beamEnd", "radiusInner", "radiusOuter", "field8", "field9"}

func readLightController(r *binread.Reader, code uint16) (LightController, error) {
	c := LightController{Off: r.Off() - 8, Code: code}
	var err error
	if c.Light, err = r.U32("light controller light"); err != nil {
		return c, err
	}
	if c.Flags, err = r.U32("light controller flags"); err != nil {
		return c, err
	}
	if c.Position, err = readTrack(r, trackField(c.Flags, 0), fmtVec3, false, "light position track"); err != nil {
		return c, err
	}
	if c.Rotation, err = readTrack(r, trackField(c.Flags, 1), fmtVec3, false, "light rotation track"); err != nil {
		return c, err
	}
	if c.Color, err = readTrack(r, trackField(c.Flags, 2), fmtColor, false, "light colour track"); err != nil {
		return c, err
	}
	for i := 3; i < max(usedFields(c.Flags), 3); i++ {
		t, err := readTrack(r, trackField(c.Flags, i), fmtFloat, false, "light "+LightFloatNames[i-3]+" track")
		if err != nil {
			return c, err
		}
		c.Floats = append(c.Floats, t)
	}
	return c, nil
}

// CameraController is a camera controller record (0x0503): position,
// rotation (Euler degrees or quaternion keys) and then float fields, the
// first of which is taken to be the field of view.
type CameraController struct {
	Off      int64
	Camera   uint32
	Flags    uint32
	Position Track
	Rotation Track
	Floats   []Track
}

// CameraFloatNames names CameraController.Floats in order.
var CameraFloatNames = []string{"fov", "field3", "field4", "field5", "field6", "field7", "field8", "field9"}

func readCameraController(r *binread.Reader) (CameraController, error) {
	c := CameraController{Off: r.Off() - 8}
	var err error
	if c.Camera, err = r.U32("camera controller camera"); err != nil {
		return c, err
	}
	if c.Flags, err = r.U32("camera controller flags"); err != nil {
		return c, err
	}
	if c.Position, err = readTrack(r, trackField(c.Flags, 0), fmtVec3, false, "camera position track"); err != nil {
		return c, err
	}
	if c.Rotation, err = readTrack(r, trackField(c.Flags, 1), fmtVec3, true, "camera rotation track"); err != nil {
		return c, err
	}
	for i := 2; i < usedFields(c.Flags); i++ {
		t, err := readTrack(r, trackField(c.Flags, i), fmtFloat, false, "camera "+CameraFloatNames[i-2]+" track")
		if err != nil {
			return c, err
		}
		c.Floats = append(c.Floats, t)
	}
	return c, nil
}

// MorphController is a later-generation morph controller record (0x1902):
// a morpher, then per target a float track of its weight.
type MorphController struct {
	Off     int64
	Morpher uint32
	Targets []uint32
	Weights []Track
}

func readMorphController(r *binread.Reader) (MorphController, error) {
	c := MorphController{Off: r.Off() - 8}
	var err error
	if c.Morpher, err = r.U32("morph controller morpher"); err != nil {
		return c, err
	}
	n32, err := r.U32("morph controller target count")
	if err != nil {
		return c, err
	}
	n, err := r.Count(uint64(n32), 8, "morph controller targets")
	if err != nil {
		return c, err
	}
	c.Targets = make([]uint32, n)
	c.Weights = make([]Track, n)
	for i := range n {
		if c.Targets[i], err = r.U32("morph target"); err != nil {
			return c, err
		}
		flags, err := r.U32("morph target flags")
		if err != nil {
			return c, err
		}
		if c.Weights[i], err = readTrack(r, trackField(flags, 0), fmtFloat, false, "morph weight track"); err != nil {
			return c, err
		}
	}
	return c, nil
}
