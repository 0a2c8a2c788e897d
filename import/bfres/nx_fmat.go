package bfres

import (
	"github.com/animbake/bake/import/binread"
)

// Switch FMAT parts (version 8; BfresLibrary Switch/Model/MaterialParser.cs,
// SamplerSwitch.cs and Shared/Models/Material/*.cs read for the facts,
// checked on the samples).
const (
	nxRenderInfoSize   = 0x18 // name, data offset, u16 count, u8 type
	nxSamplerSize      = 0x20 // wrap U, V, W, compare, border, anisotropy, u16 filter, LOD min, max, bias
	nxShaderParamSize  = 0x20 // callback, name, u8 type, u8 size, u16 data offset, …
	nxShaderAssignSize = 0x48
)

// NXSampler is a Switch material sampler (nn::gfx SamplerInfo as BFRES
// stores it): address modes U, V, W (0 repeat, 1 mirror, 2 clamp to edge,
// 3 clamp to border, 4 mirror once) and the filter word (bits 0–1 mip, 2–3
// magnification, 4–5 minification: 1 point, 2 linear).
type NXSampler struct {
	Wrap   [3]uint8
	Filter uint16
}

// readNXFMAT reads the Switch FMAT at off: name (0x10), render infos
// (array and dictionary at 0x18, 0x20), shader assign (0x28), texture
// names (0x38, u64 string offsets), samplers (array and dictionary at
// 0x48, 0x50: the dictionary names them), shader parameters (0x58, 0x60)
// and their data (0x68); u32 flags (0xA0), u16 render-info count (0xA6),
// u8 texture and sampler counts (0xA8, 0xA9), u16 parameter count (0xAA)
// and parameter data size (0xAE).
func (f *resFile) readNXFMAT(off int, name string) (*Material, error) {
	what := "material " + name
	r, err := f.nxBlockHeader(off, "FMAT", what, nxFMATSize)
	if err != nil {
		return nil, err
	}
	m := &Material{Name: name, Off: off}
	r.Seek(0xA0, "flags")
	m.Flags, _ = r.U32("flags")
	r.Skip(2, "index")
	numInfo, _ := r.U16("render info count")
	numTex, _ := r.U8("texture count")
	numSampler, _ := r.U8("sampler count")
	numParam, _ := r.U16("shader param count")
	r.Skip(2, "volatile count")
	paramSize, _ := r.U16("shader param data size")
	infos, err := f.nxDictValues(off+0x18, off+0x20, nxRenderInfoSize, int(numInfo), what+" render info")
	if err != nil {
		return nil, err
	}
	for _, e := range infos {
		ri, err := f.readNXRenderInfo(e.Data, e.Name)
		if err != nil {
			return nil, err
		}
		m.RenderInfo = append(m.RenderInfo, ri)
	}
	if p, ok, err := f.offsetAt(off+0x28, what+" shader assign"); err != nil {
		return nil, err
	} else if ok {
		if m.Shader, err = f.readNXShaderAssign(p, what); err != nil {
			return nil, err
		}
	}
	if m.Textures, err = f.nxStrings(off+0x38, int(numTex), what+" texture names"); err != nil {
		return nil, err
	}
	samplers, err := f.nxDictValues(off+0x48, off+0x50, nxSamplerSize, int(numSampler), what+" samplers")
	if err != nil {
		return nil, err
	}
	for _, e := range samplers {
		sr, _ := f.at(e.Data, nxSamplerSize, "sampler")
		ns := &NXSampler{}
		for k := range ns.Wrap {
			ns.Wrap[k], _ = sr.U8("address mode")
		}
		sr.Skip(3, "compare, border and anisotropy")
		ns.Filter, _ = sr.U16("filter")
		m.Samplers = append(m.Samplers, Sampler{Name: e.Name, NX: ns})
	}
	if numParam == 0 {
		return m, nil
	}
	var data []byte
	if paramSize > 0 {
		pd, err := f.requiredOffsetAt(off+0x68, what+" shader parameter data")
		if err != nil {
			return nil, err
		}
		dr, err := f.at(pd, int(paramSize), what+" shader parameter data")
		if err != nil {
			return nil, err
		}
		data = dr.Data
	}
	params, err := f.nxDictValues(off+0x58, off+0x60, nxShaderParamSize, int(numParam), what+" shader parameters")
	if err != nil {
		return nil, err
	}
	for _, e := range params {
		p, err := f.readShaderParam(e.Data+8, e.Data+0x10, data, what)
		if err != nil {
			return nil, err
		}
		m.Params = append(m.Params, p)
	}
	return m, nil
}

// nxStrings reads n strings from the array of u64 string offsets whose
// offset is stored at pos.
func (f *resFile) nxStrings(pos, n int, what string) ([]string, error) {
	if n == 0 {
		return nil, nil
	}
	arr, err := f.requiredOffsetAt(pos, what)
	if err != nil {
		return nil, err
	}
	if _, err := f.arrayFits(arr, n, 8, what); err != nil {
		return nil, err
	}
	out := make([]string, n)
	for i := range out {
		if out[i], err = f.nameAt(arr+8*i, what); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readNXRenderInfo reads a Switch render-info record: name (0x00), values
// offset (0x08), u16 count (0x10), u8 type (0x12: 0 int32, 1 float, 2
// string offsets).
func (f *resFile) readNXRenderInfo(pos int, dictName string) (RenderInfo, error) {
	var ri RenderInfo
	r, _ := f.at(pos, nxRenderInfoSize, "render info")
	var err error
	if ri.Name, err = f.nameAt(pos, "render info"); err != nil {
		return ri, err
	}
	if ri.Name != dictName {
		return ri, binread.Errorf(int64(pos), "render info is named %q in its dictionary and %q in its record", dictName, ri.Name)
	}
	r.Seek(0x10, "count")
	count, _ := r.U16("count")
	typ, _ := r.U8("type")
	if count == 0 {
		return ri, nil
	}
	vals, err := f.requiredOffsetAt(pos+8, "render info "+ri.Name+" values")
	if err != nil {
		return ri, err
	}
	return ri, f.renderInfoValues(&ri, vals, int(count), typ, 8, pos+0x12)
}

// readNXShaderAssign reads a Switch shader assign: archive and shading
// model names (0x00, 0x08), the attribute, sampler and option
// (values, dictionary) pairs (0x10, 0x20, 0x30), u32 revision (0x40), u8
// attribute and sampler assign counts and u16 option count (0x44–0x46).
// Sampler assigns and options map a name to a string (the values are
// string offsets).
func (f *resFile) readNXShaderAssign(pos int, what string) (ShaderAssign, error) {
	var sa ShaderAssign
	r, err := f.at(pos, nxShaderAssignSize, what+" shader assign")
	if err != nil {
		return sa, err
	}
	if sa.Archive, err = f.stringAt(pos, what+" shader archive"); err != nil {
		return sa, err
	}
	if sa.Model, err = f.stringAt(pos+8, what+" shading model"); err != nil {
		return sa, err
	}
	r.Seek(0x45, "counts")
	numSampler, _ := r.U8("sampler assign count")
	numOption, _ := r.U16("shader option count")
	read := func(at, count int, kind string) (map[string]string, error) {
		entries, err := f.nxDictValues(at, at+8, 8, count, what+" "+kind)
		if err != nil {
			return nil, err
		}
		out := map[string]string{}
		for _, e := range entries {
			if out[e.Name], err = f.stringAt(e.Data, kind); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	if sa.SamplerAssign, err = read(pos+0x20, int(numSampler), "sampler assigns"); err != nil {
		return sa, err
	}
	if sa.Options, err = read(pos+0x30, int(numOption), "shader options"); err != nil {
		return sa, err
	}
	return sa, nil
}
