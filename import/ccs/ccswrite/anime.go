package ccswrite

// Record is one Anime sub-record: a code and its body words.
type Record struct {
	Code uint16
	Body []uint32
	// Size overrides the size word when non-nil (hostile input).
	Size *uint32
}

// Top is the frame marker of frame f (or an end marker, -1 or -2).
func Top(f int32) Record { return Record{Code: 0xFF01, Body: []uint32{uint32(f)}} }

// Anime appends an Anime chunk (0x0700) for object id with frame count n.
// frames[0] holds the records under Top 0 (the controllers); frames[f] the
// records of frame f. Every frame 0 .. n-1 gets its Top, then the end
// marker: -2 when loop, else -1.
func (b *Builder) Anime(id, n uint32, loop bool, frames ...[]Record) {
	var recs []Record
	for f := uint32(0); f < max(n, uint32(len(frames))); f++ {
		recs = append(recs, Top(int32(f)))
		if int(f) < len(frames) {
			recs = append(recs, frames[f]...)
		}
	}
	end := int32(-1)
	if loop {
		end = -2
	}
	b.AnimeRecords(id, n, append(recs, Top(end))...)
}

// AnimeRecords appends an Anime chunk holding exactly recs (Tops
// included), with a consistent size and record-length word.
func (b *Builder) AnimeRecords(id, n uint32, recs ...Record) {
	body := EncodeRecords(recs...)
	b.Chunk(0x0700, append([]uint32{id, n, uint32(len(body))}, body...)...)
}

// EncodeRecords lays records out as words.
func EncodeRecords(recs ...Record) []uint32 {
	var out []uint32
	for _, r := range recs {
		size := uint32(len(r.Body))
		if r.Size != nil {
			size = *r.Size
		}
		out = append(out, 0xCCCC0000|uint32(r.Code), size)
		out = append(out, r.Body...)
	}
	return out
}

// Track is one controller field: its 3-bit kind and its words.
type Track struct {
	Kind  uint8
	Words []uint32
}

// Absent is a kind-0 track.
var Absent = Track{}

// Const is a kind-1 track holding one value.
func Const(v ...float32) Track { return Track{Kind: 1, Words: Fs(v...)} }

// Key is one key of a keyed track: a u32 frame and its value.
type Key struct {
	Frame uint32
	V     []float32
}

// K builds a key.
func K(frame uint32, v ...float32) Key { return Key{Frame: frame, V: v} }

// Keyed is a kind-2 track: u32 n, then n × (u32 frame, value).
func Keyed(keys ...Key) Track { return keyed(2, keys) }

// QuatKeyed is a later generation's kind-4 rotation track: quaternion
// (x, y, z, w) keys.
func QuatKeyed(keys ...Key) Track { return keyed(4, keys) }

func keyed(kind uint8, keys []Key) Track {
	t := Track{Kind: kind, Words: []uint32{uint32(len(keys))}}
	for _, k := range keys {
		t.Words = append(t.Words, k.Frame)
		t.Words = append(t.Words, Fs(k.V...)...)
	}
	return t
}

// ColorConst is a kind-1 colour track (RGBA bytes).
func ColorConst(r, g, b, a uint8) Track {
	return Track{Kind: 1, Words: []uint32{uint32(r) | uint32(g)<<8 | uint32(b)<<16 | uint32(a)<<24}}
}

// controller lays out a controller record: target, flags, then the tracks
// in field order.
func controller(code uint16, target uint32, tracks ...Track) Record {
	var flags uint32
	var body []uint32
	for i, t := range tracks {
		flags |= uint32(t.Kind&7) << (3 * uint(i))
		body = append(body, t.Words...)
	}
	return Record{Code: code, Body: append([]uint32{target, flags}, body...)}
}

// ObjCtrl is an object controller (0x0102): position, rotation (degrees),
// scale, transparency.
func ObjCtrl(obj uint32, pos, rot, scale, alpha Track) Record {
	return controller(0x0102, obj, pos, rot, scale, alpha)
}

// MatCtrl is a material controller (0x0202): U, V and, for later
// generations, further float fields.
func MatCtrl(mat uint32, fields ...Track) Record { return controller(0x0202, mat, fields...) }

// LightCtrl is a light controller (code 0x0603, 0x0605, 0x0607 or 0x0609):
// position, rotation, colour, then float fields.
func LightCtrl(code uint16, light uint32, fields ...Track) Record {
	return controller(code, light, fields...)
}

// CamCtrl is a camera controller (0x0503): position, rotation, then float
// fields (field of view first).
func CamCtrl(cam uint32, fields ...Track) Record { return controller(0x0503, cam, fields...) }

// FObj is a generation-1 F_Obj record (0x0101, 13 words).
func FObj(obj uint32, pos, rot, scale [3]float32, alpha float32, flags uint32) Record {
	body := []uint32{obj, 0}
	body = append(body, Fs(pos[0], pos[1], pos[2], rot[0], rot[1], rot[2], scale[0], scale[1], scale[2], alpha)...)
	return Record{Code: 0x0101, Body: append(body, flags)}
}

// FObjLater is a later generation's F_Obj: flags mark absent components;
// vals holds the present ones in order (position, rotation, scale,
// transparency as floats; the model word as a float's bits).
func FObjLater(obj, flags uint32, vals ...float32) Record {
	return Record{Code: 0x0101, Body: append([]uint32{obj, flags}, Fs(vals...)...)}
}

// Note is an F_Note record (0x0108).
func Note(obj, event, param uint32) Record {
	return Record{Code: 0x0108, Body: []uint32{obj, event, param}}
}

// MorphWeight is one (target, weight) pair of an F_Morpher record.
type MorphWeight struct {
	Target uint32
	Weight float32
}

// Morph is an F_Morpher record (0x1901): u16 count, pad, then the pairs.
func Morph(morpher uint32, ws ...MorphWeight) Record {
	body := []uint32{morpher, uint32(len(ws))}
	for _, w := range ws {
		body = append(body, w.Target, F(w.Weight))
	}
	return Record{Code: 0x1901, Body: body}
}

// MatFrame is a generation-1 material frame (0x0201): U unless flag 1, V
// unless flag 2; vals holds the present ones.
func MatFrame(mat, flags uint32, vals ...float32) Record {
	return Record{Code: 0x0201, Body: append([]uint32{mat, flags}, Fs(vals...)...)}
}

// CamFrame is a camera frame (0x0502): components absent where flags has
// their bit; vals holds the present ones.
func CamFrame(cam, flags uint32, vals ...float32) Record {
	return Record{Code: 0x0502, Body: append([]uint32{cam, flags}, Fs(vals...)...)}
}

// Ambient is an ambient frame (0x0601) naming a light object.
func Ambient(light uint32, r, g, b, a uint8) Record {
	return Record{Code: 0x0601, Body: []uint32{light, uint32(r) | uint32(g)<<8 | uint32(b)<<16 | uint32(a)<<24}}
}
