package bfres

import (
	"strings"

	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/model"
)

// Switch material and bone-visibility animation records (version 8;
// BfresLibrary Shared/MaterialAnim/*.cs and
// Switch/VisibilityAnim/VisibilityAnimParser.cs read for the facts,
// checked on BombHei's FMAA and FBVS).
const (
	nxFMAASize        = 0x78
	nxMatAnimSize     = 0x40 // name, param and pattern infos, curves, constants, indices, counts
	nxParamAnimSize   = 0x18 // name, u16 begin curve, float and int curve counts, begin constant, constant count, sub-bind index
	nxPatAnimInfoSize = 0x10 // name, s16 curve index, u16 begin constant, s8 sub-bind index
	nxFBVSSize        = 0x68
)

// readNXFMAA decodes the Switch material animation at off: name (0x10),
// material-anim array (0x30), texture-name array (0x40), then u16 flags
// (0x60: bit 2 loop), u16 material-anim count (0x64), s32 frame count
// (0x68) and u16 texture-name count (0x76). The Switch merges what the
// Wii U keeps in FSHU (shader parameters, colours, texture SRT) and FTXP
// (texture patterns) into one sub-file: its parameter anims give a
// ShaderParamAnim, its pattern anims a TexPatternAnim, each with the FMAA's
// name and timing (build merges them back into one clip). The FSHU group
// comes from the name's suffix, as the tools name them: _fst texture SRT,
// _fcl colour, otherwise shader parameters (texture-SRT parameters are
// also found by name, isTexSRT).
func (f *resFile) readNXFMAA(off int, warn func(string, ...any)) (*ShaderParamAnim, *TexPatternAnim, error) {
	what := "material animation"
	r, err := f.nxBlockHeader(off, "FMAA", what, nxFMAASize)
	if err != nil {
		return nil, nil, err
	}
	var h animHeader
	if h.Name, err = f.stringAt(off+0x10, what); err != nil {
		return nil, nil, err
	}
	what += " " + h.Name
	h.Magic = "FMAA"
	r.Seek(0x60, "flags")
	fl, _ := r.U16("flags")
	h.Flags = uint32(fl)
	r.Seek(0x64, "material anim count")
	numMat, _ := r.U16("material anim count")
	r.Skip(2, "curve count")
	h.FrameCount, _ = r.I32("frame count")
	r.Seek(0x76, "texture count")
	numTex, _ := r.U16("texture count")
	if err := checkFrameCount(off+0x68, what, h.FrameCount); err != nil {
		return nil, nil, err
	}
	group := GroupShaderParamAnims
	switch {
	case strings.HasSuffix(h.Name, "_fst"):
		group = GroupTexSRTAnims
	case strings.HasSuffix(h.Name, "_fcl"):
		group = GroupColorAnims
	}
	shu := &ShaderParamAnim{animHeader: h, Group: group}
	txp := &TexPatternAnim{animHeader: h}
	if txp.Textures, err = f.nxStrings(off+0x40, int(numTex), what+" texture names"); err != nil {
		return nil, nil, err
	}
	if numMat > 0 {
		arr, err := f.requiredOffsetAt(off+0x30, what+" material anim array")
		if err != nil {
			return nil, nil, err
		}
		if _, err := f.arrayFits(arr, int(numMat), nxMatAnimSize, what+" material anims"); err != nil {
			return nil, nil, err
		}
		for i := range int(numMat) {
			if err := f.readNXMatAnim(arr+i*nxMatAnimSize, shu, txp, what, warn); err != nil {
				return nil, nil, err
			}
		}
	}
	return shu, txp, nil
}

// readNXMatAnim decodes one material of an FMAA: name (0x00), param-anim
// infos (0x08), pattern-anim infos (0x10), curves (0x18), constants
// (0x20), then u16 counts of param anims (0x32), pattern anims (0x34),
// constants (0x36) and curves (0x38). Curve and constant indices in the
// infos count within this material's arrays. A material's visibility
// (the curve and constant indices at 0x2C–0x30) is not converted: a
// warning.
func (f *resFile) readNXMatAnim(pos int, shu *ShaderParamAnim, txp *TexPatternAnim, what string, warn func(string, ...any)) error {
	name, err := f.nameAt(pos, what+" material")
	if err != nil {
		return err
	}
	what += " material " + name
	r, _ := f.at(pos, nxMatAnimSize, what)
	r.Seek(0x2C, "visibility indices")
	visConst, _ := r.U16("visibility constant")
	visCurve, _ := r.U16("visibility curve")
	r.Skip(2, "begin visibility constant")
	numParam, _ := r.U16("param anim count")
	numPat, _ := r.U16("pattern anim count")
	numConst, _ := r.U16("constant count")
	numCurve, _ := r.U16("curve count")
	if visConst != 0xFFFF || visCurve != 0xFFFF {
		warn("%s animates the material's visibility, which is not converted", what)
	}
	var curves []*model.NW4FCurve
	var targets []uint32
	if numCurve > 0 {
		c, err := f.requiredOffsetAt(pos+0x18, what+" curve array")
		if err != nil {
			return err
		}
		if curves, targets, err = f.readCurves(c, int(numCurve), what); err != nil {
			return err
		}
	}
	consts, err := f.readConstants(pos+0x20, int(numConst), what)
	if err != nil {
		return err
	}
	if numParam > 0 {
		m := ShaderParamMatAnim{Material: name, Params: make([]ParamAnim, numParam)}
		info, err := f.requiredOffsetAt(pos+0x08, what+" param anim infos")
		if err != nil {
			return err
		}
		if _, err := f.arrayFits(info, int(numParam), nxParamAnimSize, what+" param anim infos"); err != nil {
			return err
		}
		for i := range m.Params {
			if err := f.paramAnim(&m.Params[i], info+i*nxParamAnimSize, info+i*nxParamAnimSize+8, curves, targets, consts, what); err != nil {
				return err
			}
		}
		shu.Materials = append(shu.Materials, m)
	}
	if numPat > 0 {
		m := TexPatternMatAnim{Material: name, Patterns: make([]PatternAnim, numPat)}
		info, err := f.requiredOffsetAt(pos+0x10, what+" pattern anim infos")
		if err != nil {
			return err
		}
		if _, err := f.arrayFits(info, int(numPat), nxPatAnimInfoSize, what+" pattern anim infos"); err != nil {
			return err
		}
		for i := range m.Patterns {
			ip := info + i*nxPatAnimInfoSize
			p := &m.Patterns[i]
			if p.Sampler, err = f.nameAt(ip, what+" sampler"); err != nil {
				return err
			}
			ir, _ := f.at(ip+8, 4, "pattern anim info")
			idx, _ := ir.I16("curve index")
			beginConst, _ := ir.U16("begin constant")
			if beginConst != 0xFFFF {
				if int(beginConst) >= len(consts) {
					return binread.Errorf(int64(ip+0x0A), "%s sampler %s uses constant %d of %d", what, p.Sampler, beginConst, len(consts))
				}
				p.Base = uint16(consts[beginConst].Bits)
			}
			if idx >= 0 {
				if int(idx) >= len(curves) {
					return binread.Errorf(int64(ip+8), "%s sampler %s uses curve %d of %d", what, p.Sampler, idx, len(curves))
				}
				p.Curve = curves[idx]
			}
		}
		txp.Materials = append(txp.Materials, m)
	}
	return nil
}

// readNXFBVS decodes the Switch bone visibility animation at off: name
// (0x10), curve array (0x30), base-value bit array (0x38), name array
// (0x40, u64 string offsets), then u16 flags (0x58: bit 2 loop), s32 frame
// count (0x5C), u16 name and curve counts (0x60, 0x62). As in an FVIS
// (§10.3), each entry starts from its base bit and a curve overwrites the
// entry whose index is its target offset.
func (f *resFile) readNXFBVS(off int) (*VisibilityAnim, error) {
	what := "bone visibility animation"
	r, err := f.nxBlockHeader(off, "FBVS", what, nxFBVSSize)
	if err != nil {
		return nil, err
	}
	a := &VisibilityAnim{animHeader: animHeader{Magic: "FBVS"}}
	if a.Name, err = f.stringAt(off+0x10, what); err != nil {
		return nil, err
	}
	what += " " + a.Name
	r.Seek(0x58, "flags")
	fl, _ := r.U16("flags")
	a.Flags = uint32(fl)
	r.Skip(2, "user data count")
	a.FrameCount, _ = r.I32("frame count")
	numAnim, _ := r.U16("name count")
	numCurve, _ := r.U16("curve count")
	if err := checkFrameCount(off+0x5C, what, a.FrameCount); err != nil {
		return nil, err
	}
	if a.Names, err = f.nxStrings(off+0x40, int(numAnim), what+" names"); err != nil {
		return nil, err
	}
	if a.Base, err = f.readBaseBits(off+0x38, int(numAnim), what); err != nil {
		return nil, err
	}
	if numCurve > 0 {
		curves, err := f.requiredOffsetAt(off+0x30, what+" curve array")
		if err != nil {
			return nil, err
		}
		if a.Curves, a.Targets, err = f.readCurves(curves, int(numCurve), what); err != nil {
			return nil, err
		}
	}
	return a, nil
}
