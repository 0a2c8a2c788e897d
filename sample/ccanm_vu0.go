package sample

import (
	"math"

	"github.com/animbake/bake/sample/ps2float"
)

// This file emulates the PS2 libvu0 routines ccAnm builds its rotation
// matrices with: _sceVu0ecossin (polynomial cosine, √(1−c²) sine) and
// sceVu0RotMatrix (Rx·Ry·Rz), in EE/VU0 arithmetic (ccs-container.md §6).

// The _sceVu0ecossin coefficients (ccs-container.md §6.1), one quadword
// x, y, z, w = k9, k7, k5, k3, and the EE FPU's π/2 literal.
const (
	vu0K9     uint32 = 0x362E9C14
	vu0K7     uint32 = 0xB94FB21F
	vu0K5     uint32 = 0x3C08873E
	vu0K3     uint32 = 0xBE2AAAA4
	vu0HalfPi uint32 = 0x3FC90FDB
)

// Vu0CosSin is _sceVu0ecossin (ccs-container.md §6.2) in EE/VU0
// arithmetic: the angle is folded to v = π/2 ∓ r, cos r is the odd sine
// polynomial of v (each term the coefficient times v, then times v² again
// and again, summed from the v term up), and sin r = ±√|1 − cos²| with the
// sign of r. Only |r| ≤ π is meaningful; nothing wraps larger angles.
func Vu0CosSin(r uint32) (cos, sin uint32) {
	neg := ps2float.Less(r, 0)
	var v uint32
	if neg {
		v = ps2float.Add(vu0HalfPi, r)
	} else {
		v = ps2float.Sub(vu0HalfPi, r)
	}
	mul := ps2float.Mul
	v2 := mul(v, v)
	t3 := mul(mul(vu0K3, v), v2)
	t5 := mul(mul(mul(vu0K5, v), v2), v2)
	t7 := mul(mul(mul(mul(vu0K7, v), v2), v2), v2)
	t9 := mul(mul(mul(mul(mul(vu0K9, v), v2), v2), v2), v2)
	p := ps2float.Add(0, v)
	p = ps2float.Add(p, t3)
	p = ps2float.Add(p, t5)
	p = ps2float.Add(p, t7)
	p = ps2float.Add(p, t9)
	d := ps2float.Sub(ps2float.One, mul(p, p))
	q := ps2float.Sqrt(ps2float.Abs(d))
	if neg {
		return p, ps2float.Sub(0, q)
	}
	return p, ps2float.Add(0, q)
}

// vu0Matrix is a sceVu0FMATRIX: four columns of four EE values (column
// vectors, the fourth column the translation).
type vu0Matrix [4][4]uint32

// vu0Unit is sceVu0UnitMatrix.
var vu0Unit = vu0Matrix{
	{ps2float.One, 0, 0, 0},
	{0, ps2float.One, 0, 0},
	{0, 0, ps2float.One, 0},
	{0, 0, 0, ps2float.One},
}

// vu0Rotate is sceVu0RotMatrix{X,Y,Z}(m0, m1, r): R·m1, each output
// column formed as col0·m.x + col1·m.y + col2·m.z + col3·m.w with the VU
// multiply-accumulate in that order (the R column is fs, m's component ft).
func vu0Rotate(axis byte, r uint32, m *vu0Matrix) vu0Matrix {
	c, s := Vu0CosSin(r)
	ns := ps2float.Sub(0, s)
	var rot vu0Matrix
	rot[3][3] = ps2float.One
	switch axis {
	case 'X':
		rot[0] = [4]uint32{ps2float.One, 0, 0, 0}
		rot[1] = [4]uint32{0, c, s, 0}
		rot[2] = [4]uint32{0, ns, c, 0}
	case 'Y':
		rot[0] = [4]uint32{c, 0, ns, 0}
		rot[1] = [4]uint32{0, ps2float.One, 0, 0}
		rot[2] = [4]uint32{s, 0, c, 0}
	default:
		rot[0] = [4]uint32{c, s, 0, 0}
		rot[1] = [4]uint32{ns, c, 0, 0}
		rot[2] = [4]uint32{0, 0, ps2float.One, 0}
	}
	var out vu0Matrix
	for j := range 4 {
		for i := range 4 {
			acc := ps2float.Mul(rot[0][i], m[j][0])
			acc = ps2float.Madd(acc, rot[1][i], m[j][1])
			acc = ps2float.Madd(acc, rot[2][i], m[j][2])
			out[j][i] = ps2float.Madd(acc, rot[3][i], m[j][3])
		}
	}
	return out
}

// Vu0RotMatrix is sceVu0RotMatrix(m0, unit, (rx, ry, rz)) in EE/VU0
// arithmetic: Rz applied first, then Ry, then Rx, so R = Rx·Ry·Rz
// (ccs-container.md §6.3). Angles are radians as EE bit patterns. The
// result is the 3×3 rotation part, row-major, widened to float64.
func Vu0RotMatrix(rx, ry, rz uint32) [9]float64 {
	m := vu0Rotate('Z', rz, &vu0Unit)
	m = vu0Rotate('Y', ry, &m)
	m = vu0Rotate('X', rx, &m)
	var out [9]float64
	for row := range 3 {
		for col := range 3 {
			out[row*3+col] = ps2float.ToFloat64(m[col][row])
		}
	}
	return out
}

// ccQuantScale is the degrees → 1/65536-turn factor as
// ccs-anime-playback.txt prints it: "s16(int(deg * 182.044))". The float32
// nearest 182.044 is used (not 65536/360 = 182.0444…); see
// docs/formats/ccs-semantics.md.
var ccQuantScale = ps2float.F32(182.044)

// ccTurnToRad is 2π/65536 as a float32: one quantum of a turn in radians.
var ccTurnToRad = ps2float.F32(float32(2 * math.Pi / 65536))

// ccQuantise is ccAnmCtrlRot_SetCtrl's key quantisation: s16(int(deg ·
// 182.044)), the product truncated by cvt.w.s and wrapped to 16 bits.
func ccQuantise(deg float32) int16 {
	return int16(ps2float.Ftoi(ps2float.Mul(ps2float.F32(deg), ccQuantScale)))
}

// ccQuantRadians turns a quantised angle back into radians (EE:
// cvt.s.w, then × 2π/65536).
func ccQuantRadians(q int16) uint32 {
	return ps2float.Mul(ps2float.Itof(int32(q)), ccTurnToRad)
}

// ccDegToRad is the record decoders' π · deg / 180 (single-value rotations
// and F_Obj), unquantised, in EE arithmetic with π as fs.
func ccDegToRad(deg float32) uint32 {
	return ps2float.Div(ps2float.Mul(ps2float.F32(math.Pi), ps2float.F32(deg)), ps2float.F32(180))
}
