package bfres

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/animbake/bake/import/binread"
)

// AttribFormat is a GX2 vertex attribute format word (GX2AttribFormat): the
// low byte names the component layout, bits 8–11 how the components read.
// Flag 0x100 marks integer data given to the shader as integers, 0x200
// signed data, 0x800 data converted to float without normalising ("scaled",
// and every float layout). Without 0x100 or 0x800 an integer layout is
// normalised: unsigned c/(2ⁿ−1), signed max(c/(2ⁿ⁻¹−1), −1), as the Wii U's
// GPU does (the R600 rule, which Cemu's vertex decoder follows). See
// docs/formats/bfres.md for the table and its sources.
type AttribFormat uint32

// GX2 attribute format flags.
const (
	attribInteger = 0x100
	attribSigned  = 0x200
	attribScaled  = 0x800
)

// attribLayout describes one GX2 component layout: its size in bytes and
// the bit width of each component (low bits first within a packed word).
type attribLayout struct {
	name  string
	size  int
	bits  []int // component widths; for unpacked layouts each is 8, 16 or 32
	float bool  // components are IEEE floats (16 or 32 bits)
	// packed layouts (4_4, 10_10_10_2) share one word, read in the file's
	// byte order; x sits in the lowest bits.
	packed bool
	// intOnly layouts (32-bit integers) exist only as integer or scaled data.
	intOnly bool
}

// attribLayouts is indexed by the low byte of the format (GX2AttribFormat).
var attribLayouts = map[uint32]attribLayout{
	0x00: {name: "8", size: 1, bits: []int{8}},
	0x01: {name: "4_4", size: 1, bits: []int{4, 4}, packed: true},
	0x02: {name: "16", size: 2, bits: []int{16}},
	0x03: {name: "16_float", size: 2, bits: []int{16}, float: true},
	0x04: {name: "8_8", size: 2, bits: []int{8, 8}},
	0x05: {name: "32", size: 4, bits: []int{32}, intOnly: true},
	0x06: {name: "32_float", size: 4, bits: []int{32}, float: true},
	0x07: {name: "16_16", size: 4, bits: []int{16, 16}},
	0x08: {name: "16_16_float", size: 4, bits: []int{16, 16}, float: true},
	0x0A: {name: "8_8_8_8", size: 4, bits: []int{8, 8, 8, 8}},
	0x0B: {name: "10_10_10_2", size: 4, bits: []int{10, 10, 10, 2}, packed: true},
	0x0C: {name: "32_32", size: 8, bits: []int{32, 32}, intOnly: true},
	0x0D: {name: "32_32_float", size: 8, bits: []int{32, 32}, float: true},
	0x0E: {name: "16_16_16_16", size: 8, bits: []int{16, 16, 16, 16}},
	0x0F: {name: "16_16_16_16_float", size: 8, bits: []int{16, 16, 16, 16}, float: true},
	0x10: {name: "32_32_32", size: 12, bits: []int{32, 32, 32}, intOnly: true},
	0x11: {name: "32_32_32_float", size: 12, bits: []int{32, 32, 32}, float: true},
	0x12: {name: "32_32_32_32", size: 16, bits: []int{32, 32, 32, 32}, intOnly: true},
	0x13: {name: "32_32_32_32_float", size: 16, bits: []int{32, 32, 32, 32}, float: true},
}

// layout returns the format's component layout and checks that its flags
// form one of the GX2 formats (GX2AttribFormat's values): float layouts
// carry exactly the scaled flag; 32-bit integer layouts are integer (or
// scaled) only; 4_4 is unsigned normalised only; 10_10_10_2 has no scaled
// form. Layout 0x09 (10_11_11 float) is a GX2 format no BFRES we know uses;
// it is rejected as unsupported rather than guessed.
func (f AttribFormat) layout() (attribLayout, error) {
	l, ok := attribLayouts[uint32(f)&0xFF]
	flags := uint32(f) &^ 0xFF
	switch {
	case uint32(f)&0xFF == 0x09:
		return l, fmt.Errorf("GX2 attribute format 0x%x (10_11_11 float) is not supported", uint32(f))
	case !ok || flags&^(attribInteger|attribSigned|attribScaled) != 0:
		return l, fmt.Errorf("unknown GX2 attribute format 0x%x", uint32(f))
	case l.float:
		ok = flags == attribScaled
	case flags&attribInteger != 0 && flags&attribScaled != 0:
		ok = false
	case l.intOnly:
		ok = flags&attribInteger != 0 || flags&attribScaled != 0
	case l.name == "4_4":
		ok = flags == 0
	case l.name == "10_10_10_2":
		ok = flags&attribScaled == 0
	}
	if !ok {
		return l, fmt.Errorf("unknown GX2 attribute format 0x%x (flags 0x%x do not go with layout %s)", uint32(f), flags, l.name)
	}
	return l, nil
}

// String names the format as GX2 does, e.g. "16_16_snorm".
func (f AttribFormat) String() string {
	l, err := f.layout()
	if err != nil {
		return fmt.Sprintf("0x%x", uint32(f))
	}
	if l.float {
		return l.name
	}
	kind := "unorm"
	switch uint32(f) & (attribInteger | attribSigned | attribScaled) {
	case attribInteger:
		kind = "uint"
	case attribSigned:
		kind = "snorm"
	case attribInteger | attribSigned:
		kind = "sint"
	case attribScaled:
		kind = "uint_to_float"
	case attribScaled | attribSigned:
		kind = "sint_to_float"
	}
	return l.name + "_" + kind
}

// Components returns the number of components the format holds.
func (f AttribFormat) Components() int {
	l, err := f.layout()
	if err != nil {
		return 0
	}
	return len(l.bits)
}

// Size returns the format's size in bytes (0 for an invalid format).
func (f AttribFormat) Size() int {
	l, err := f.layout()
	if err != nil {
		return 0
	}
	return l.size
}

// decodeAttrib decodes one element of format f from b (at least f.Size()
// bytes, in the given byte order) into out (one value per component).
func decodeAttrib(f AttribFormat, l *attribLayout, b []byte, order binary.ByteOrder, out []float32) {
	flags := uint32(f) &^ 0xFF
	signed := flags&attribSigned != 0
	normalised := flags&(attribInteger|attribScaled) == 0
	if l.packed {
		var word uint32
		if l.size == 1 {
			word = uint32(b[0])
		} else {
			word = order.Uint32(b)
		}
		shift := 0
		for i, n := range l.bits {
			raw := word >> shift & (1<<n - 1)
			shift += n
			// The 2-bit w of 10_10_10_2 stays unsigned in the
			// normalised signed form (GX2 and Cemu: w = c/3).
			compSigned := signed && !(n == 2 && normalised)
			out[i] = intComponent(raw, n, compSigned, normalised)
		}
		return
	}
	off := 0
	for i, n := range l.bits {
		var raw uint32
		switch n {
		case 8:
			raw = uint32(b[off])
		case 16:
			raw = uint32(order.Uint16(b[off:]))
		case 32:
			raw = order.Uint32(b[off:])
		}
		off += n / 8
		switch {
		case l.float && n == 16:
			out[i] = halfToFloat(uint16(raw))
		case l.float:
			out[i] = math.Float32frombits(raw)
		default:
			out[i] = intComponent(raw, n, signed, normalised)
		}
	}
}

// intComponent converts an n-bit integer component: sign-extended when
// signed, then normalised (unsigned c/(2ⁿ−1); signed max(c/(2ⁿ⁻¹−1), −1))
// or kept as its integer value.
func intComponent(raw uint32, n int, signed, normalised bool) float32 {
	if !signed {
		if normalised {
			// Both operands are exact in float32 (n ≤ 16 for normalised
			// layouts), so the float32 quotient is correctly rounded.
			return float32(raw) / float32(uint32(1)<<n-1)
		}
		return float32(raw)
	}
	v := int64(int32(raw<<(32-n)) >> (32 - n))
	if !normalised {
		return float32(v)
	}
	return max(float32(v)/float32(int32(1)<<(n-1)-1), -1)
}

// halfToFloat widens an IEEE 754 binary16 value exactly.
func halfToFloat(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h >> 10 & 0x1F)
	mant := uint32(h & 0x3FF)
	switch {
	case exp == 0x1F: // infinity or NaN
		return math.Float32frombits(sign | 0xFF<<23 | mant<<13)
	case exp != 0: // normal
		return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
	case mant == 0: // zero
		return math.Float32frombits(sign)
	}
	// subnormal: mant × 2⁻²⁴, exact in float32
	v := float32(mant) * (1.0 / (1 << 24))
	if sign != 0 {
		v = -v
	}
	return v
}

// VertexAttrib is one FVTX attribute (§ model section of docs/formats/bfres.md):
// its name (_p0, _n0, _u0 …), the buffer holding it, its byte offset in a
// vertex and its format.
type VertexAttrib struct {
	Name   string
	Buffer int
	Offset int
	Format AttribFormat
	pos    int // file offset of the attribute record, for messages
}

// VertexBufferData is one GX2 vertex buffer of an FVTX: its stride and bytes.
type VertexBufferData struct {
	Stride int
	Data   []byte
	Off    int // file offset of Data
}

// decodeAttribute decodes attribute a of count vertices from its buffer into
// a flat slice of a.Format.Components() values per vertex. The attribute must
// lie inside every vertex (offset + size ≤ stride) and the last vertex inside
// the buffer, so the output is bounded by the buffer's size.
func decodeAttribute(a *VertexAttrib, buffers []VertexBufferData, count int, order binary.ByteOrder) ([]float32, error) {
	l, err := a.Format.layout()
	if err != nil {
		return nil, binread.Errorf(int64(a.pos+8), "vertex attribute %s: %v", a.Name, err)
	}
	if a.Buffer < 0 || a.Buffer >= len(buffers) {
		return nil, binread.Errorf(int64(a.pos+4), "vertex attribute %s reads buffer %d of %d", a.Name, a.Buffer, len(buffers))
	}
	buf := &buffers[a.Buffer]
	if count == 0 {
		return nil, nil
	}
	end := a.Offset + l.size
	if count > 1 && end > buf.Stride {
		return nil, binread.Errorf(int64(a.pos+6), "vertex attribute %s (%s at byte %d, %d bytes) does not fit in the buffer's %d-byte stride", a.Name, a.Format, a.Offset, l.size, buf.Stride)
	}
	if need := int64(count-1)*int64(buf.Stride) + int64(end); need > int64(len(buf.Data)) {
		return nil, binread.Errorf(int64(a.pos+6), "vertex attribute %s of %d vertices needs %d bytes of buffer %d, which holds %d", a.Name, count, need, a.Buffer, len(buf.Data))
	}
	n := len(l.bits)
	out := make([]float32, count*n)
	for v := range count {
		p := v*buf.Stride + a.Offset
		decodeAttrib(a.Format, &l, buf.Data[p:p+l.size], order, out[v*n:v*n+n])
	}
	return out, nil
}
