package bfres

import (
	"encoding/binary"

	"github.com/animbake/bake/import/binread"
)

// Material is a decoded FMAT: what the model file says about a material.
// The shading itself lives in a shader archive that is not part of the
// file, so the glTF material is derived from sampler names, render state
// and render info (fmatbuild.go).
type Material struct {
	Name        string
	Flags       uint32
	RenderInfo  []RenderInfo
	RenderState *RenderState // nil when the file has none (BotW uses render info)
	Shader      ShaderAssign
	// Samplers and Textures go together: sampler i samples texture i (the
	// counts are equal in the files we know; extra ones pair with nothing).
	Samplers []Sampler
	Textures []string // FTEX names
	Params   []ShaderParam
	Off      int
}

// RenderInfo is a named list of ints, floats or strings (e.g.
// gsys_render_state_mode = ["translucent"]).
type RenderInfo struct {
	Name    string
	Ints    []int32
	Floats  []float32
	Strings []string
}

// RenderState holds the GX2 render registers of a material (Wii U):
// flags (mode in bits 0–1), polygon control (cull front bit 0, cull back
// bit 1), alpha control (function bits 0–2, test enable bit 3), the alpha
// reference value, colour control (blend enable mask bits 8–15) and blend
// control.
type RenderState struct {
	Flags          uint32
	PolygonControl uint32
	DepthControl   uint32
	AlphaControl   uint32
	AlphaRef       float32
	ColorControl   uint32
	BlendTarget    uint32
	BlendControl   uint32
	BlendColor     [4]float32
}

// ShaderAssign names the shader a material uses and maps the shader's
// sampler names to the material's (SamplerAssign: shader name → material).
type ShaderAssign struct {
	Archive, Model string
	SamplerAssign  map[string]string
	Options        map[string]string
}

// Sampler is a material sampler: its name (_a0, _n0 …) and its GX2
// sampler words (Wii U) or Switch sampler (NX, nx_fmat.go).
type Sampler struct {
	Name  string
	Words [3]uint32
	NX    *NXSampler
}

// ShaderParam is a raw material shader parameter: its GX2 type and bytes.
type ShaderParam struct {
	Name string
	Type uint8
	Data []byte
}

// Record sizes of the FMAT parts (Wii U).
const (
	fmatHeaderSize    = 0x4C
	samplerSize       = 0x18
	textureRefSize    = 8
	renderStateSize   = 0x30
	shaderAssignSize  = 0x1C
	renderInfoTypeInt = 0
	renderInfoTypeF32 = 1
	renderInfoTypeStr = 2
)

// shaderParamSize returns the record size of a shader parameter for a
// file version: type, size, data offset, uniform offset; from 3.3 a
// callback pointer and two dependency indices (and, in 3.3 only, another
// word); then the name.
func shaderParamSize(version uint32) (size, nameAt int) {
	switch {
	case version >= Version3_4:
		return 0x14, 0x10
	case version >= 0x03030000:
		return 0x18, 0x14
	}
	return 0x0C, 0x08
}

// readFMAT reads the FMAT at off. Layout (Wii U): magic, name (0x04), u32
// flags (0x08), u16 index, u16 render-info count, u8 sampler count, u8
// texture-ref count, u16 shader-param count, u16 volatile count, u16
// param-data size, u16 raw size, u16 user-data count (0x0C–0x1A); offsets
// to render-info dict (0x1C), render state (0x20), shader assign (0x24),
// texture refs (0x28), sampler array (0x2C), sampler dict (0x30), param
// array (0x34), param dict (0x38), param data (0x3C).
func (f *resFile) readFMAT(off int, name string) (*Material, error) {
	what := "material " + name
	if err := f.expectMagic(off, "FMAT", what); err != nil {
		return nil, err
	}
	r, err := f.at(off, fmatHeaderSize, what+" header")
	if err != nil {
		return nil, err
	}
	m := &Material{Name: name, Off: off}
	r.Seek(8, "flags")
	m.Flags, _ = r.U32("flags")
	r.Skip(2, "index")
	numInfo, _ := r.U16("render info count")
	numSampler, _ := r.U8("sampler count")
	numTex, _ := r.U8("texture count")
	numParam, _ := r.U16("shader param count")
	r.Skip(2, "volatile count")
	paramSize, _ := r.U16("shader param data size")
	if err := f.eachDictEntry(off+0x1C, int(numInfo), what+" render info", func(i int, e dictEntry) error {
		ri, err := f.readRenderInfo(e.Data, e.Name)
		m.RenderInfo = append(m.RenderInfo, ri)
		return err
	}); err != nil {
		return nil, err
	}
	if p, ok, err := f.offsetAt(off+0x20, what+" render state"); err != nil {
		return nil, err
	} else if ok {
		rr, err := f.at(p, renderStateSize, what+" render state")
		if err != nil {
			return nil, err
		}
		rs := &RenderState{}
		rs.Flags, _ = rr.U32("flags")
		rs.PolygonControl, _ = rr.U32("polygon control")
		rs.DepthControl, _ = rr.U32("depth control")
		rs.AlphaControl, _ = rr.U32("alpha control")
		rs.AlphaRef, _ = rr.F32("alpha reference")
		rs.ColorControl, _ = rr.U32("color control")
		rs.BlendTarget, _ = rr.U32("blend target")
		rs.BlendControl, _ = rr.U32("blend control")
		for i := range rs.BlendColor {
			rs.BlendColor[i], _ = rr.F32("blend color")
		}
		m.RenderState = rs
	}
	if p, ok, err := f.offsetAt(off+0x24, what+" shader assign"); err != nil {
		return nil, err
	} else if ok {
		if m.Shader, err = f.readShaderAssign(p, what); err != nil {
			return nil, err
		}
	}
	if numTex > 0 {
		p, err := f.requiredOffsetAt(off+0x28, what+" texture references")
		if err != nil {
			return nil, err
		}
		if _, err := f.arrayFits(p, int(numTex), textureRefSize, what+" texture references"); err != nil {
			return nil, err
		}
		for i := range int(numTex) {
			name, err := f.nameAt(p+i*textureRefSize, what+" texture reference")
			if err != nil {
				return nil, err
			}
			m.Textures = append(m.Textures, name)
		}
	}
	if numSampler > 0 {
		sa, err := f.requiredOffsetAt(off+0x2C, what+" sampler array")
		if err != nil {
			return nil, err
		}
		if _, err := f.arrayFits(sa, int(numSampler), samplerSize, what+" samplers"); err != nil {
			return nil, err
		}
		for i := range int(numSampler) {
			pos := sa + i*samplerSize
			sr, _ := f.at(pos, samplerSize, "sampler")
			var s Sampler
			for k := range s.Words {
				s.Words[k], _ = sr.U32("sampler word")
			}
			if s.Name, err = f.nameAt(pos+0x10, what+" sampler"); err != nil {
				return nil, err
			}
			m.Samplers = append(m.Samplers, s)
		}
	}
	if numParam > 0 {
		pa, err := f.requiredOffsetAt(off+0x34, what+" shader parameters")
		if err != nil {
			return nil, err
		}
		var data []byte
		if paramSize > 0 {
			pd, err := f.requiredOffsetAt(off+0x3C, what+" shader parameter data")
			if err != nil {
				return nil, err
			}
			dr, err := f.at(pd, int(paramSize), what+" shader parameter data")
			if err != nil {
				return nil, err
			}
			data = dr.Data
		}
		size, nameAt := shaderParamSize(f.header.Version)
		if _, err := f.arrayFits(pa, int(numParam), size, what+" shader parameters"); err != nil {
			return nil, err
		}
		for i := range int(numParam) {
			pos := pa + i*size
			p, err := f.readShaderParam(pos+nameAt, pos, data, what)
			if err != nil {
				return nil, err
			}
			m.Params = append(m.Params, p)
		}
	}
	return m, nil
}

// readShaderParam reads a shader parameter whose name offset is stored at
// namePos and whose u8 type, u8 size and u16 data offset lie at fields,
// its bytes taken from the material's parameter data. Data holds the
// parameter's 32-bit words big-endian, as the Wii U stores them: a Switch
// file's little-endian words are swapped (every parameter type is made of
// 32-bit words).
func (f *resFile) readShaderParam(namePos, fields int, data []byte, what string) (ShaderParam, error) {
	pr, _ := f.at(fields, 4, "shader parameter")
	typ, _ := pr.U8("type")
	n, _ := pr.U8("size")
	at, _ := pr.U16("data offset")
	p := ShaderParam{Type: typ}
	var err error
	if p.Name, err = f.nameAt(namePos, what+" shader parameter"); err != nil {
		return p, err
	}
	if int(at)+int(n) > len(data) {
		return p, binread.Errorf(int64(fields+2), "%s shader parameter %s: %d bytes at %d run past the %d bytes of parameter data", what, p.Name, n, at, len(data))
	}
	p.Data = data[at : int(at)+int(n)]
	if f.nx != nil {
		be := make([]byte, len(p.Data))
		for i := 0; i+4 <= len(be); i += 4 {
			binary.BigEndian.PutUint32(be[i:], binary.LittleEndian.Uint32(p.Data[i:]))
		}
		p.Data = be
	}
	return p, nil
}

// readRenderInfo reads a render-info record: u16 count, u8 type (0 int32,
// 1 float, 2 string), pad, name offset, then count values inline (string
// values as string offsets).
func (f *resFile) readRenderInfo(pos int, dictName string) (RenderInfo, error) {
	var ri RenderInfo
	r, err := f.at(pos, 8, "render info")
	if err != nil {
		return ri, err
	}
	count, _ := r.U16("count")
	typ, _ := r.U8("type")
	if ri.Name, err = f.nameAt(pos+4, "render info"); err != nil {
		return ri, err
	}
	if ri.Name != dictName {
		return ri, binread.Errorf(int64(pos+4), "render info is named %q in its index group and %q in its record", dictName, ri.Name)
	}
	return ri, f.renderInfoValues(&ri, pos+8, int(count), typ, 4, pos+2)
}

// renderInfoValues reads the count values of a render info at vals: s32,
// f32 or string offsets (offSize bytes each); typeAt is where the type
// lies, for messages. Both platforms' records end here.
func (f *resFile) renderInfoValues(ri *RenderInfo, vals, count int, typ uint8, offSize, typeAt int) error {
	size := 4
	if typ == renderInfoTypeStr {
		size = offSize
	}
	vr, err := f.at(vals, size*count, "render info "+ri.Name+" values")
	if err != nil {
		return err
	}
	for i := range count {
		switch typ {
		case renderInfoTypeInt:
			v, _ := vr.I32("value")
			ri.Ints = append(ri.Ints, v)
		case renderInfoTypeF32:
			v, _ := vr.F32("value")
			ri.Floats = append(ri.Floats, v)
		case renderInfoTypeStr:
			s, err := f.stringAt(vals+size*i, "render info "+ri.Name+" value")
			if err != nil {
				return err
			}
			ri.Strings = append(ri.Strings, s)
		default:
			return binread.Errorf(int64(typeAt), "render info %s has unknown type %d", ri.Name, typ)
		}
	}
	return nil
}

// readShaderAssign reads a shader assign: archive and shading-model names,
// u32 revision, u8 attribute-assign count, u8 sampler-assign count, u16
// option count, then the attribute, sampler and option dicts (0x10, 0x14,
// 0x18), whose entries point at NUL-terminated strings.
func (f *resFile) readShaderAssign(pos int, what string) (ShaderAssign, error) {
	var sa ShaderAssign
	r, err := f.at(pos, shaderAssignSize, what+" shader assign")
	if err != nil {
		return sa, err
	}
	if sa.Archive, err = f.stringAt(pos, what+" shader archive"); err != nil {
		return sa, err
	}
	if sa.Model, err = f.stringAt(pos+4, what+" shading model"); err != nil {
		return sa, err
	}
	r.Seek(0x0C, "counts")
	r.Skip(1, "attribute assign count")
	numSampler, _ := r.U8("sampler assign count")
	numOption, _ := r.U16("shader option count")
	read := func(at, count int, kind string) (map[string]string, error) {
		out := map[string]string{}
		err := f.eachDictEntry(at, count, what+" "+kind, func(i int, e dictEntry) error {
			sr, err := f.at(e.Data, len(f.data)-e.Data, kind)
			if err != nil {
				return err
			}
			s, err := sr.CString(maxStringLen, kind)
			out[e.Name] = s
			return err
		})
		return out, err
	}
	if sa.SamplerAssign, err = read(pos+0x14, int(numSampler), "sampler assigns"); err != nil {
		return sa, err
	}
	if sa.Options, err = read(pos+0x18, int(numOption), "shader options"); err != nil {
		return sa, err
	}
	return sa, nil
}
