package bfres

import (
	"math"

	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/model"
)

// animHeader holds the frame-control fields every animation sub-file has,
// and the magic of the sub-file it came from when that is not the Wii U's
// (FMAA, FBVS on the Switch), for extras.subfiles.
type animHeader struct {
	Name       string
	Flags      uint32
	FrameCount int32
	Magic      string
}

// subfile names the sub-file kind: its own magic, else the Wii U's (def).
func (h *animHeader) subfile(def string) []string {
	if h.Magic != "" {
		return []string{h.Magic}
	}
	return []string{def}
}

// ShaderParamAnim is a decoded FSHU (shader-parameter, color or
// texture-SRT animation, §10.1).
type ShaderParamAnim struct {
	animHeader
	Group     int // GroupShaderParamAnims, GroupColorAnims or GroupTexSRTAnims
	Materials []ShaderParamMatAnim
}

// ShaderParamMatAnim is one material's part of an FSHU.
type ShaderParamMatAnim struct {
	Material string
	Params   []ParamAnim
}

// ParamAnim is one animated shader parameter: its curves (float curves
// first, then int curves) and constants, each with its byte target within
// the parameter (§10.1).
type ParamAnim struct {
	Name      string
	Curves    []*model.NW4FCurve
	Targets   []uint32
	NumFloat  int
	Constants []AnimConstant
}

// AnimConstant is a constant written to a parameter at a byte offset; Bits
// is the raw 32-bit value (f32 or s32 depending on the field).
type AnimConstant struct {
	Target uint32
	Bits   uint32
}

// Sizes of the material animation records (§10.1, §10.2).
const (
	shuMatAnimSize   = 0x20
	paramAnimSize    = 0x10
	constantSize     = 8
	txpMatAnimSize   = 0x1C
	patAnimInfoSize  = 8
	animHeaderLength = 0x34
)

// readAnimHeader reads magic, name, flags and frame count of an FSHU,
// FTXP or FVIS, whose frame count moved between versions (§10).
func (f *resFile) readAnimHeader(off int, magic, what string) (animHeader, *binread.Reader, error) {
	var h animHeader
	if err := f.expectMagic(off, magic, what); err != nil {
		return h, nil, err
	}
	r, err := f.at(off, animHeaderLength, what+" header")
	if err != nil {
		return h, nil, err
	}
	if h.Name, err = f.stringAt(off+4, what); err != nil {
		return h, nil, err
	}
	r.Seek(0x0C, "flags")
	newLayout := f.header.Version >= Version3_4
	switch {
	case magic == "FSHU":
		h.Flags, _ = r.U32("flags")
		if newLayout {
			h.FrameCount, _ = r.I32("frame count")
		} else {
			fc, _ := r.I16("frame count")
			h.FrameCount = int32(fc)
		}
	default: // FTXP and FVIS: u16 flags, then s16 frame count (old) or u16 + s32 (new)
		fl, _ := r.U16("flags")
		h.Flags = uint32(fl)
		if newLayout {
			r.Skip(2, "user data count")
			h.FrameCount, _ = r.I32("frame count")
		} else {
			fc, _ := r.I16("frame count")
			h.FrameCount = int32(fc)
		}
	}
	if err := checkFrameCount(off+0x10, what, h.FrameCount); err != nil {
		return h, nil, err
	}
	return h, r, nil
}

// readFSHU decodes the FSHU at off.
func (f *resFile) readFSHU(off int, name string, group int) (*ShaderParamAnim, error) {
	what := groupNames[group][:len(groupNames[group])-1] + " " + name
	h, r, err := f.readAnimHeader(off, "FSHU", what)
	if err != nil {
		return nil, err
	}
	a := &ShaderParamAnim{animHeader: h, Group: group}
	var numMat uint16
	if f.header.Version >= Version3_4 {
		r.Seek(0x14, "material anim count")
	} else {
		r.Seek(0x12, "material anim count")
	}
	numMat, _ = r.U16("material anim count")
	if numMat == 0 {
		return a, nil
	}
	arr, err := f.requiredOffsetAt(off+0x2C, what+" material anim array")
	if err != nil {
		return nil, err
	}
	if err := f.checkArray(arr, int(numMat), shuMatAnimSize, what+" material anims"); err != nil {
		return nil, err
	}
	a.Materials = make([]ShaderParamMatAnim, numMat)
	for i := range a.Materials {
		if err := f.readShuMatAnim(arr+i*shuMatAnimSize, &a.Materials[i], what); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// checkArray checks that n records of size bytes fit at off.
func (f *resFile) checkArray(off, n, size int, what string) error {
	r, err := f.at(off, len(f.data)-off, what)
	if err != nil {
		return err
	}
	_, err = r.Count(uint64(n), size, what)
	return err
}

// readShuMatAnim decodes one FSHU material anim: its params, curves and constants.
func (f *resFile) readShuMatAnim(pos int, m *ShaderParamMatAnim, what string) error {
	r, _ := f.at(pos, shuMatAnimSize, what+" material anim")
	numParam, _ := r.U16("param count")
	numCurve, _ := r.U16("curve count")
	numConst, _ := r.U16("constant count")
	var err error
	if m.Material, err = f.nameAt(pos+0x10, what+" material"); err != nil {
		return err
	}
	what += " material " + m.Material
	var curves []*model.NW4FCurve
	var targets []uint32
	if numCurve > 0 {
		off, err := f.requiredOffsetAt(pos+0x18, what+" curve array")
		if err != nil {
			return err
		}
		if curves, targets, err = f.readCurves(off, int(numCurve), what); err != nil {
			return err
		}
	}
	consts, err := f.readConstants(pos+0x1C, int(numConst), what)
	if err != nil {
		return err
	}
	if numParam == 0 {
		return nil
	}
	info, err := f.requiredOffsetAt(pos+0x14, what+" param anim infos")
	if err != nil {
		return err
	}
	if err := f.checkArray(info, int(numParam), paramAnimSize, what+" param anim infos"); err != nil {
		return err
	}
	m.Params = make([]ParamAnim, numParam)
	for i := range m.Params {
		ip := info + i*paramAnimSize
		if err := f.paramAnim(&m.Params[i], ip+0x0C, ip, curves, targets, consts, what); err != nil {
			return err
		}
	}
	return nil
}

// readConstants reads the n animation constants (u32 target, 32-bit
// value) of the array whose offset is stored at pos.
func (f *resFile) readConstants(pos, n int, what string) ([]AnimConstant, error) {
	if n == 0 {
		return nil, nil
	}
	off, err := f.requiredOffsetAt(pos, what+" constant array")
	if err != nil {
		return nil, err
	}
	cr, err := f.at(off, n*constantSize, what+" constants")
	if err != nil {
		return nil, err
	}
	consts := make([]AnimConstant, n)
	for i := range consts {
		consts[i].Target, _ = cr.U32("constant target")
		consts[i].Bits, _ = cr.U32("constant value")
	}
	return consts, nil
}

// paramAnim reads one ParamAnimInfo (its name offset stored at namePos;
// u16 begin curve, float and int curve counts, begin constant and constant
// count at fields) and takes its curves and constants from the material
// anim's (§10.1; the same on the Switch).
func (f *resFile) paramAnim(p *ParamAnim, namePos, fields int, curves []*model.NW4FCurve, targets []uint32, consts []AnimConstant, what string) error {
	ir, err := f.at(fields, 10, "param anim info")
	if err != nil {
		return err
	}
	beginCurve, _ := ir.U16("begin curve")
	numFloat, _ := ir.U16("float curve count")
	numInt, _ := ir.U16("int curve count")
	beginConst, _ := ir.U16("begin constant")
	nConst, _ := ir.U16("constant count")
	if p.Name, err = f.nameAt(namePos, what+" param"); err != nil {
		return err
	}
	end := int(beginCurve) + int(numFloat) + int(numInt)
	if end > len(curves) {
		return binread.Errorf(int64(fields), "%s param %s uses curves %d..%d of %d", what, p.Name, beginCurve, end, len(curves))
	}
	p.Curves, p.Targets, p.NumFloat = curves[beginCurve:end], targets[beginCurve:end], int(numFloat)
	cend := int(beginConst) + int(nConst)
	if cend > len(consts) {
		return binread.Errorf(int64(fields+6), "%s param %s uses constants %d..%d of %d", what, p.Name, beginConst, cend, len(consts))
	}
	p.Constants = consts[beginConst:cend]
	return nil
}

// TexPatternAnim is a decoded FTXP (§10.2).
type TexPatternAnim struct {
	animHeader
	Textures  []string // texture references, indexed by curve values
	Materials []TexPatternMatAnim
}

// TexPatternMatAnim is one material's part of an FTXP.
type TexPatternMatAnim struct {
	Material string
	Patterns []PatternAnim
}

// PatternAnim animates one sampler: a base texture index and, when
// present, a StepInt curve that overrides it (§10.2).
type PatternAnim struct {
	Sampler string
	Base    uint16
	Curve   *model.NW4FCurve // nil when the curve index is −1
}

// readFTXP decodes the FTXP at off.
func (f *resFile) readFTXP(off int, name string) (*TexPatternAnim, error) {
	what := "texture pattern animation " + name
	h, r, err := f.readAnimHeader(off, "FTXP", what)
	if err != nil {
		return nil, err
	}
	a := &TexPatternAnim{animHeader: h}
	if f.header.Version >= Version3_4 {
		r.Seek(0x14, "counts")
	} else {
		r.Seek(0x10, "counts")
	}
	numTex, _ := r.U16("texture reference count")
	numMat, _ := r.U16("material anim count")
	if a.Textures, err = f.readTextureRefs(off+0x30, int(numTex), what); err != nil {
		return nil, err
	}
	if numMat == 0 {
		return a, nil
	}
	arr, err := f.requiredOffsetAt(off+0x2C, what+" material anim array")
	if err != nil {
		return nil, err
	}
	if err := f.checkArray(arr, int(numMat), txpMatAnimSize, what+" material anims"); err != nil {
		return nil, err
	}
	a.Materials = make([]TexPatternMatAnim, numMat)
	for i := range a.Materials {
		if err := f.readTxpMatAnim(arr+i*txpMatAnimSize, &a.Materials[i], what); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// readTextureRefs reads an FTXP's texture names: an index group from 3.4,
// an array of {name, FTEX} offset pairs before (§10.2).
func (f *resFile) readTextureRefs(pos, n int, what string) ([]string, error) {
	off, ok, err := f.offsetAt(pos, what+" texture references")
	if err != nil || !ok || n == 0 {
		return nil, err
	}
	if f.header.Version >= Version3_4 {
		entries, err := f.readDict(off, what+" texture references")
		if err != nil {
			return nil, err
		}
		names := make([]string, len(entries))
		for i, e := range entries {
			names[i] = e.Name
		}
		return names, nil
	}
	if err := f.checkArray(off, n, 8, what+" texture references"); err != nil {
		return nil, err
	}
	names := make([]string, n)
	for i := range names {
		if names[i], err = f.stringAt(off+8*i, what+" texture reference"); err != nil {
			return nil, err
		}
	}
	return names, nil
}

// readTxpMatAnim decodes one FTXP material anim.
func (f *resFile) readTxpMatAnim(pos int, m *TexPatternMatAnim, what string) error {
	r, _ := f.at(pos, txpMatAnimSize, what+" material anim")
	numPat, _ := r.U16("pattern count")
	numCurve, _ := r.U16("curve count")
	var err error
	if m.Material, err = f.nameAt(pos+0x0C, what+" material"); err != nil {
		return err
	}
	what += " material " + m.Material
	var curves []*model.NW4FCurve
	if numCurve > 0 {
		off, err := f.requiredOffsetAt(pos+0x14, what+" curve array")
		if err != nil {
			return err
		}
		if curves, _, err = f.readCurves(off, int(numCurve), what); err != nil {
			return err
		}
	}
	if numPat == 0 {
		return nil
	}
	info, err := f.requiredOffsetAt(pos+0x10, what+" pattern infos")
	if err != nil {
		return err
	}
	if err := f.checkArray(info, int(numPat), patAnimInfoSize, what+" pattern infos"); err != nil {
		return err
	}
	base, hasBase, err := f.offsetAt(pos+0x18, what+" base values")
	if err != nil {
		return err
	}
	if hasBase {
		if err := f.checkArray(base, int(numPat), 2, what+" base values"); err != nil {
			return err
		}
	}
	m.Patterns = make([]PatternAnim, numPat)
	for i := range m.Patterns {
		ip := info + i*patAnimInfoSize
		p := &m.Patterns[i]
		idx := int8(f.data[ip])
		if p.Sampler, err = f.nameAt(ip+4, what+" sampler"); err != nil {
			return err
		}
		if hasBase {
			br, _ := f.at(base+2*i, 2, "base value")
			p.Base, _ = br.U16("base value")
		}
		if idx >= 0 {
			if int(idx) >= len(curves) {
				return binread.Errorf(int64(ip), "%s sampler %s uses curve %d of %d", what, p.Sampler, idx, len(curves))
			}
			p.Curve = curves[idx]
		}
	}
	return nil
}

// VisibilityAnim is a decoded FVIS (§10.3).
type VisibilityAnim struct {
	animHeader
	Material bool     // flag bit 8: material (true) or bone visibility
	Names    []string // the animated bones or materials
	Base     []bool   // initial visibility per name
	Curves   []*model.NW4FCurve
	Targets  []uint32 // index into Names, per curve
}

// fvisMaterial is the FVIS flag bit that marks material visibility.
const fvisMaterial = 1 << 8

// readFVIS decodes the FVIS at off.
func (f *resFile) readFVIS(off int, name string) (*VisibilityAnim, error) {
	what := "visibility animation " + name
	h, r, err := f.readAnimHeader(off, "FVIS", what)
	if err != nil {
		return nil, err
	}
	a := &VisibilityAnim{animHeader: h, Material: h.Flags&fvisMaterial != 0}
	if f.header.Version >= Version3_4 {
		r.Seek(0x14, "counts")
	} else {
		r.Seek(0x10, "counts")
	}
	numAnim, _ := r.U16("name count")
	numCurve, _ := r.U16("curve count")
	if numAnim > 0 {
		names, err := f.requiredOffsetAt(off+0x24, what+" name array")
		if err != nil {
			return nil, err
		}
		if err := f.checkArray(names, int(numAnim), 4, what+" names"); err != nil {
			return nil, err
		}
		a.Names = make([]string, numAnim)
		for i := range a.Names {
			if a.Names[i], err = f.nameAt(names+4*i, what+" entry"); err != nil {
				return nil, err
			}
		}
		if a.Base, err = f.readBaseBits(off+0x2C, int(numAnim), what); err != nil {
			return nil, err
		}
	}
	if numCurve > 0 {
		curves, err := f.requiredOffsetAt(off+0x28, what+" curve array")
		if err != nil {
			return nil, err
		}
		if a.Curves, a.Targets, err = f.readCurves(curves, int(numCurve), what); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// readBaseBits reads the n initial visibilities of a visibility animation:
// a bit array of 32-bit words (least significant bit first) whose offset
// is stored at pos; a null offset means all hidden.
func (f *resFile) readBaseBits(pos, n int, what string) ([]bool, error) {
	bits := make([]bool, n)
	base, ok, err := f.offsetAt(pos, what+" base values")
	if err != nil || !ok {
		return bits, err
	}
	words := (n + 31) / 32
	br, err := f.at(base, 4*words, what+" base values")
	if err != nil {
		return nil, err
	}
	for w := range words {
		v, _ := br.U32("base word")
		for b := 0; b < 32 && 32*w+b < n; b++ {
			bits[32*w+b] = v>>b&1 != 0
		}
	}
	return bits, nil
}

// f32bits reinterprets a raw word as a float32 widened to float64.
func f32bits(v uint32) float64 { return float64(math.Float32frombits(v)) }
