package ccs

import (
	"github.com/animbake/bake/import/binread"
)

// ObjFrame is an F_Obj record (0x0101): an object's whole transform from its
// frame on. Generation 1 stores 13 words (object, an unused word, pos[3],
// rot[3] in degrees, scale[3], transparency, flags); later generations store
// only the components whose "absent" bit in Flags is clear, the others
// taking their defaults (position 0, rotation 0, scale 1, transparency 1).
type ObjFrame struct {
	Frame    int32
	Off      int64
	Object   uint32
	Unused   uint32 // generation 1's second word, never read by the game
	Position [3]float32
	Rotation [3]float32 // Euler degrees, R = Rx·Ry·Rz
	Scale    [3]float32
	Alpha    float32
	Flags    uint32
	// HasModel is the later generations' trailing word (present unless
	// flag 0x800).
	HasModel uint32
}

// F_Obj absent-component bits of later generations (blender_ccs_importer
// Anms.py objectFrame), in reading order: position x, y, z, rotation x, y,
// z, scale x, y, z, transparency, model word.
var objFrameAbsentBits = [11]uint32{0x2, 0x4, 0x8, 0x10, 0x20, 0x40, 0x80, 0x100, 0x200, 0x400, 0x800}

func readObjFrame(r *binread.Reader, frame int32, later bool) (ObjFrame, error) {
	f := ObjFrame{Frame: frame, Off: r.Off() - 8, Scale: [3]float32{1, 1, 1}, Alpha: 1}
	var err error
	if f.Object, err = r.U32("F_Obj object"); err != nil {
		return f, err
	}
	if !later {
		if f.Unused, err = r.U32("F_Obj unused word"); err != nil {
			return f, err
		}
		vals, err := r.F32s(10, "F_Obj transform")
		if err != nil {
			return f, err
		}
		copy(f.Position[:], vals[0:3])
		copy(f.Rotation[:], vals[3:6])
		copy(f.Scale[:], vals[6:9])
		f.Alpha = vals[9]
		f.Flags, err = r.U32("F_Obj flags")
		return f, err
	}
	if f.Flags, err = r.U32("F_Obj flags"); err != nil {
		return f, err
	}
	dst := []*float32{&f.Position[0], &f.Position[1], &f.Position[2], &f.Rotation[0], &f.Rotation[1], &f.Rotation[2],
		&f.Scale[0], &f.Scale[1], &f.Scale[2], &f.Alpha}
	for i, p := range dst {
		if f.Flags&objFrameAbsentBits[i] == 0 {
			if *p, err = r.F32("F_Obj component"); err != nil {
				return f, err
			}
		}
	}
	if f.Flags&objFrameAbsentBits[10] == 0 {
		f.HasModel, err = r.U32("F_Obj model word")
	}
	return f, err
}

// Note is an F_Note record (0x0108): an event handed to the character's
// note function when playback reaches its frame.
type Note struct {
	Frame  int32
	Off    int64
	Object uint32
	Event  uint32
	Param  uint32
}

func readNote(r *binread.Reader, frame int32) (Note, error) {
	n := Note{Frame: frame, Off: r.Off() - 8}
	var err error
	if n.Object, err = r.U32("F_Note object"); err != nil {
		return n, err
	}
	if n.Event, err = r.U32("F_Note event"); err != nil {
		return n, err
	}
	n.Param, err = r.U32("F_Note param")
	return n, err
}

// MorphFrame is an F_Morpher record (0x1901): the morpher's targets and
// their weights from this frame on.
type MorphFrame struct {
	Frame   int32
	Off     int64
	Morpher uint32
	Pad     uint16
	Targets []uint32
	Weights []float32
}

func readMorphFrame(r *binread.Reader, frame int32) (MorphFrame, error) {
	m := MorphFrame{Frame: frame, Off: r.Off() - 8}
	var err error
	if m.Morpher, err = r.U32("F_Morpher morpher"); err != nil {
		return m, err
	}
	cnt, err := r.U16("F_Morpher count")
	if err != nil {
		return m, err
	}
	if m.Pad, err = r.U16("F_Morpher pad"); err != nil {
		return m, err
	}
	n, err := r.Count(uint64(cnt), 8, "F_Morpher targets")
	if err != nil {
		return m, err
	}
	m.Targets = make([]uint32, n)
	m.Weights = make([]float32, n)
	for i := range n {
		if m.Targets[i], err = r.U32("F_Morpher target"); err != nil {
			return m, err
		}
		if m.Weights[i], err = r.F32("F_Morpher weight"); err != nil {
			return m, err
		}
	}
	return m, nil
}

// MatFrame is a material frame record (0x0201). Generation 1: U unless flag
// 1, V unless flag 2. Later generations: the offset pair unless flag 1, then
// the scale pair and two unknown floats unless flag 2.
type MatFrame struct {
	Frame    int32
	Off      int64
	Material uint32
	Flags    uint32
	HasU     bool
	HasV     bool
	U, V     float32
	HasScale bool
	ScaleU   float32
	ScaleV   float32
	Extra    [2]float32
}

func readMatFrame(r *binread.Reader, frame int32, later bool) (MatFrame, error) {
	m := MatFrame{Frame: frame, Off: r.Off() - 8}
	var err error
	if m.Material, err = r.U32("material frame material"); err != nil {
		return m, err
	}
	if m.Flags, err = r.U32("material frame flags"); err != nil {
		return m, err
	}
	if !later {
		if m.Flags&1 == 0 {
			m.HasU = true
			if m.U, err = r.F32("material frame U"); err != nil {
				return m, err
			}
		}
		if m.Flags&2 == 0 {
			m.HasV = true
			m.V, err = r.F32("material frame V")
		}
		return m, err
	}
	if m.Flags&1 == 0 {
		m.HasU, m.HasV = true, true
		v, err := r.F32s(2, "material frame offset")
		if err != nil {
			return m, err
		}
		m.U, m.V = v[0], v[1]
	}
	if m.Flags&2 == 0 {
		m.HasScale = true
		v, err := r.F32s(4, "material frame scale")
		if err != nil {
			return m, err
		}
		m.ScaleU, m.ScaleV, m.Extra[0], m.Extra[1] = v[0], v[1], v[2], v[3]
	}
	return m, nil
}

// CamFrame is a camera frame record (0x0502): each component is present
// unless its bit in Flags is set (position 0x2/0x4/0x8, rotation
// 0x10/0x20/0x40 in degrees, an unknown float 0x80, field of view 0x100).
type CamFrame struct {
	Frame    int32
	Off      int64
	Camera   uint32
	Flags    uint32
	Position [3]float32
	Rotation [3]float32
	Unknown  float32
	FOV      float32
	// Present has bit i set when component i (in the order above) was
	// stored.
	Present uint32
}

func readCamFrame(r *binread.Reader, frame int32) (CamFrame, error) {
	c := CamFrame{Frame: frame, Off: r.Off() - 8}
	var err error
	if c.Camera, err = r.U32("camera frame camera"); err != nil {
		return c, err
	}
	if c.Flags, err = r.U32("camera frame flags"); err != nil {
		return c, err
	}
	dst := []*float32{&c.Position[0], &c.Position[1], &c.Position[2], &c.Rotation[0], &c.Rotation[1], &c.Rotation[2], &c.Unknown, &c.FOV}
	for i, p := range dst {
		if c.Flags&(2<<uint(i)) == 0 {
			c.Present |= 1 << uint(i)
			if *p, err = r.F32("camera frame component"); err != nil {
				return c, err
			}
		}
	}
	return c, nil
}

// LightFrame is an ambient (0x0601) or distant-light (0x0602) frame record.
// The ambient frame holds only a colour (with a leading object word when its
// size says so); the distant frame holds the light, flags, rotation
// (degrees), colour and, when flag 0x20 is set, an intensity.
type LightFrame struct {
	Frame        int32
	Off          int64
	Code         uint16
	Light        uint32 // 0 for an ambient frame without an object word
	Flags        uint32
	Rotation     [3]float32
	Color        [4]uint8
	HasIntensity bool
	Intensity    float32
}

func readLightFrame(r *binread.Reader, frame int32, code uint16) (LightFrame, error) {
	l := LightFrame{Frame: frame, Off: r.Off() - 8, Code: code, Intensity: 1}
	var err error
	if code == CodeAmbientFrame {
		if r.Remaining() >= 8 {
			if l.Light, err = r.U32("ambient frame object"); err != nil {
				return l, err
			}
		}
		b, err := r.Bytes(4, "ambient colour")
		if err != nil {
			return l, err
		}
		copy(l.Color[:], b)
		return l, nil
	}
	if l.Light, err = r.U32("distant frame light"); err != nil {
		return l, err
	}
	if l.Flags, err = r.U32("distant frame flags"); err != nil {
		return l, err
	}
	v, err := r.F32s(3, "distant frame rotation")
	if err != nil {
		return l, err
	}
	copy(l.Rotation[:], v)
	b, err := r.Bytes(4, "distant frame colour")
	if err != nil {
		return l, err
	}
	copy(l.Color[:], b)
	if l.Flags&0x20 != 0 {
		l.HasIntensity = true
		l.Intensity, err = r.F32("distant frame intensity")
	}
	return l, err
}
