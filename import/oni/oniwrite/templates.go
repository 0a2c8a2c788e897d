package oniwrite

import "encoding/binary"

// Matrix is a 3×4 matrix stored by columns: x, y and z axis images, then
// the translation.
type Matrix [12]float32

// Identity is the identity Matrix.
var Identity = Matrix{1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}

// Scale returns a pure scale Matrix.
func Scale(sx, sy, sz float32) Matrix { return Matrix{sx, 0, 0, 0, sy, 0, 0, 0, sz, 0, 0, 0} }

// OBAN flag bits (oni-oban.txt "Flags").
const (
	FlagLoop        uint32 = 0x01
	FlagPingPong    uint32 = 0x02
	FlagRandomStart uint32 = 0x04
	FlagAutostart   uint32 = 0x08
	FlagLocalized   uint32 = 0x10 // quarter turn about x (doors)
)

// Key is one OBAN key as the file stores it.
type Key struct {
	// Quaternion is (x, y, z, w) as stored: the conjugate of the Hamilton
	// quaternion of the rotation. See Stored.
	Quaternion [4]float32
	Position   [3]float32
	Frame      uint32
}

// Stored turns a Hamilton quaternion (x, y, z, w) into the form an OBAN
// stores, (x, y, z, −w) (oni-container.md §4.2).
func Stored(q [4]float32) [4]float32 { return [4]float32{q[0], q[1], q[2], -q[3]} }

// Oban is one object animation.
type Oban struct {
	Flags         uint32
	Start         Matrix // pose before it plays
	Base          Matrix // applied under every frame
	TicksPerFrame uint16 // 80 on the CD
	Frames        uint16
	HalfStopFrame uint16
	Keys          []Key
}

// Payload encodes the OBAN template payload: 12 zero bytes, flags, start
// and base matrices, ticks, frames, half-stop frame, key count, keys.
func (o *Oban) Payload() []byte {
	le := binary.LittleEndian
	b := make([]byte, 12, 0x78+32*len(o.Keys))
	b = le.AppendUint32(b, o.Flags)
	b = appendF32(b, o.Start[:]...)
	b = appendF32(b, o.Base[:]...)
	b = le.AppendUint16(b, o.TicksPerFrame)
	b = le.AppendUint16(b, o.Frames)
	b = le.AppendUint16(b, o.HalfStopFrame)
	b = le.AppendUint16(b, uint16(len(o.Keys)))
	for _, k := range o.Keys {
		b = appendF32(b, k.Quaternion[:]...)
		b = appendF32(b, k.Position[:]...)
		b = le.AppendUint32(b, k.Frame)
	}
	return b
}

// ObanInstance wraps an OBAN as an instance; name "" leaves it unnamed.
func ObanInstance(name string, o *Oban) Instance {
	return Instance{Tag: "OBAN", Name: name, Data: o.Payload()}
}

// Placeholder is a name-only stub for an instance stored in another file.
func Placeholder(tag, name string) Instance {
	return Instance{Tag: tag, Name: name, Placeholder: true}
}

// ObjectSetup is one 240-byte OBOA element: an object that plays the OBAN
// at instance index Anim (-1 for none).
type ObjectSetup struct {
	Anim int
	Name string // object name at +0x70 (up to 63 bytes)
}

func linkOrNull(i int) uint32 {
	if i < 0 {
		return 0
	}
	return Link(i)
}

// OBOAInstance builds a Starting Object Array: 22 unused bytes, an i16
// count, then the elements with the OBAN link at +0x04, the flags "in use"
// (0x200) and physics type 3 (animated) when animated, and the name at +0x70.
func OBOAInstance(name string, objects []ObjectSetup) Instance {
	le := binary.LittleEndian
	b := make([]byte, 0x18+240*len(objects))
	le.PutUint16(b[0x16:], uint16(len(objects)))
	for i, o := range objects {
		e := b[0x18+240*i:]
		le.PutUint32(e[0x04:], linkOrNull(o.Anim))
		le.PutUint32(e[0x0C:], 0x200)
		if o.Anim >= 0 {
			le.PutUint32(e[0x18:], 3)
		}
		copy(e[0x3C:], appendF32(nil, 1)) // scale
		copy(e[0x40:], appendF32(nil, Identity[:]...))
		copy(e[0x70:0x70+63], o.Name)
	}
	return Instance{Tag: "OBOA", Name: name, Data: b}
}

// DOORInstance builds a door class whose OBAN link (+0x08) is instance anim.
func DOORInstance(name string, anim int) Instance {
	b := make([]byte, 0x64)
	binary.LittleEndian.PutUint32(b[0x08:], linkOrNull(anim))
	return Instance{Tag: "DOOR", Name: name, Data: b}
}

// TRIGInstance builds a trigger class whose OBAN link (+0x20) is instance anim.
func TRIGInstance(name string, anim int) Instance {
	b := make([]byte, 0x64)
	binary.LittleEndian.PutUint32(b[0x20:], linkOrNull(anim))
	return Instance{Tag: "TRIG", Name: name, Data: b}
}

// OBDCInstance builds a door class array: an i16 count at +0x16, then
// 24-byte elements with the OBAN link at +0x04.
func OBDCInstance(name string, anims []int) Instance {
	le := binary.LittleEndian
	b := make([]byte, 0x18+24*len(anims))
	le.PutUint16(b[0x16:], uint16(len(anims)))
	for i, a := range anims {
		le.PutUint32(b[0x18+24*i+4:], linkOrNull(a))
	}
	return Instance{Tag: "OBDC", Name: name, Data: b}
}
