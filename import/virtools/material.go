package virtools

// Section identifiers of CKMaterial (CK_STATESAVE_MAT*).
const (
	identMaterialData     = 0x1000  // colours, power, texture, modes
	identMaterialTextures = 0x2000  // three more textures
	identMaterialEffect   = 0x4000  // effect alone
	identMaterialEffectP  = 0x10000 // effect and its parameter
)

// Blend factors (VXBLEND_MODE).
const (
	BlendZero        = 1
	BlendOne         = 2
	BlendSrcColor    = 3
	BlendInvSrcColor = 4
	BlendSrcAlpha    = 5
	BlendInvSrcAlpha = 6
	BlendDestColor   = 9
)

// Texture blend modes (VXTEXTURE_BLENDMODE).
const (
	TexBlendDecal         = 1
	TexBlendModulate      = 2
	TexBlendDecalAlpha    = 3
	TexBlendModulateAlpha = 4
	TexBlendCopy          = 7
	TexBlendAdd           = 8
)

// Texture address modes (VXTEXTURE_ADDRESSMODE) and filter modes
// (VXTEXTURE_FILTERMODE).
const (
	AddressWrap   = 1
	AddressMirror = 2
	AddressClamp  = 3
	AddressBorder = 4

	FilterNearest    = 1
	FilterLinear     = 2
	FilterMipNearest = 3
)

// Comparison functions (VXCMPFUNC) of the alpha test.
const (
	CmpNever        = 1
	CmpLess         = 2
	CmpEqual        = 3
	CmpLessEqual    = 4
	CmpGreater      = 5
	CmpNotEqual     = 6
	CmpGreaterEqual = 7
	CmpAlways       = 8
)

// Material is a decoded CKMaterial: the D3D-style fixed-function material
// with its texture and render states, exactly as saved.
type Material struct {
	Index int
	// Diffuse, Ambient, Specular and Emissive are ARGB dwords.
	Diffuse, Ambient, Specular, Emissive uint32
	Power                                float32 // specular power
	Texture                              int     // table index of the main texture, or noRef
	ExtraTextures                        [3]int  // 0x2000: the second to fourth textures
	BorderColor                          uint32
	// The modes packed four bits each in one dword, low to high.
	TextureBlend, MinFilter, MagFilter, SrcBlend, DstBlend, Shade, Fill, Address uint8
	TwoSided, ZWrite, PerspectiveCorrect, AlphaBlend, AlphaTest                  bool
	ZFunc, AlphaFunc, AlphaRef                                                   uint8
	Effect                                                                       uint32
	HasData                                                                      bool // the 0x1000 section was present
}

// decodeMaterial reads the CKMaterial sections. DataVersion < 5 materials
// (a different layout) keep the defaults with a warning.
func decodeMaterial(o *Object, refs refResolver, warn func(string, ...any)) (*Material, error) {
	m := &Material{Index: o.Index, Texture: noRef, ExtraTextures: [3]int{noRef, noRef, noRef},
		Diffuse: 0xffb2b2b2, TextureBlend: TexBlendModulate, SrcBlend: BlendOne, DstBlend: BlendZero, ZWrite: true}
	c := o.Chunk
	if c == nil {
		return m, nil
	}
	s, err := c.section(identMaterialData, refs)
	if err != nil {
		return nil, err
	}
	if s != nil {
		if c.DataVersion < dataVersionMajorChange {
			warn("material %q: data version %d uses the old layout; default colours kept", o.Name, c.DataVersion)
			return m, nil
		}
		if err := m.readData(s); err != nil {
			return nil, err
		}
	}
	if s, err := c.section(identMaterialTextures, refs); err != nil {
		return nil, err
	} else if s != nil {
		for i := range m.ExtraTextures {
			if m.ExtraTextures[i], err = s.LenientRef("extra texture"); err != nil {
				return nil, err
			}
		}
	}
	if s, err := c.section(identMaterialEffect, refs); err != nil {
		return nil, err
	} else if s != nil {
		if m.Effect, err = s.U32("effect"); err != nil {
			return nil, err
		}
	}
	if s, err := c.section(identMaterialEffectP, refs); err != nil {
		return nil, err
	} else if s != nil {
		if _, err := s.LenientRef("effect parameter"); err != nil {
			return nil, err
		}
		if m.Effect, err = s.U32("effect"); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// readData reads the 0x1000 section: diffuse, ambient, specular and
// emissive ARGB, specular power, texture, border colour, then a dword of
// eight 4-bit modes (texture blend, min filter, mag filter, source blend,
// destination blend, shade, fill, address from the low bits up) and a
// dword of enable bits (two-sided 0x1, z-write 0x2, perspective correction
// 0x4, alpha blend 0x8, alpha test 0x10) with the z function, alpha
// function and alpha reference in bytes 1, 2 and 3.
func (m *Material) readData(s *sectionReader) error {
	var err error
	for _, p := range []*uint32{&m.Diffuse, &m.Ambient, &m.Specular, &m.Emissive} {
		if *p, err = s.U32("colour"); err != nil {
			return err
		}
	}
	if m.Power, err = s.F32("specular power"); err != nil {
		return err
	}
	if err := s.finite("specular power", m.Power); err != nil {
		return err
	}
	if m.Texture, err = s.LenientRef("texture"); err != nil {
		return err
	}
	if m.BorderColor, err = s.U32("border colour"); err != nil {
		return err
	}
	modes, err := s.U32("modes")
	if err != nil {
		return err
	}
	for i, p := range []*uint8{&m.TextureBlend, &m.MinFilter, &m.MagFilter, &m.SrcBlend, &m.DstBlend, &m.Shade, &m.Fill, &m.Address} {
		*p = uint8(modes >> (4 * i) & 0xf)
	}
	st, err := s.U32("render states")
	if err != nil {
		return err
	}
	m.TwoSided, m.ZWrite, m.PerspectiveCorrect = st&0x1 != 0, st&0x2 != 0, st&0x4 != 0
	m.AlphaBlend, m.AlphaTest = st&0x8 != 0, st&0x10 != 0
	m.ZFunc, m.AlphaFunc, m.AlphaRef = uint8(st>>8), uint8(st>>16), uint8(st>>24)
	m.HasData = true
	return nil
}
