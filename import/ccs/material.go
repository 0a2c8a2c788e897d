package ccs

// Material is a Material chunk (0x0200). Layout after the id
// (blender_ccs_importer ccsMaterial.py; imoqReader Material for generation
// 1; S01.CCS, version 0x123: all 185 have 4 words after the id, the last
// two all zero):
//
//	u32 texture id, f32 alpha,
//	i16 U offset, i16 V offset (1/4096 of the texture),
//	version ≥ 0x120: i16 U scale, i16 V scale (1/4096; 0 is read as 1,
//	since S01's are all 0 and its textures are not squashed to a point),
//	version ≥ 0x130: further shader fields (not read).
type Material struct {
	Off     int64
	ID      uint32
	Texture uint32
	Alpha   float32
	Offset  [2]float64
	Scale   [2]float64
}

func readMaterial(c *RawChunk, version uint32) (*Material, error) {
	r := c.reader()
	m := &Material{Off: c.Off, ID: c.ID, Scale: [2]float64{1, 1}}
	var err error
	if m.Texture, err = r.U32("material texture"); err != nil {
		return nil, err
	}
	if m.Alpha, err = r.F32("material alpha"); err != nil {
		return nil, err
	}
	for k := range 2 {
		v, err := r.I16("material texture offset")
		if err != nil {
			return nil, err
		}
		m.Offset[k] = float64(v) / 4096
	}
	if version >= VersionGen2 {
		for k := range 2 {
			v, err := r.I16("material texture scale")
			if err != nil {
				return nil, err
			}
			if v != 0 {
				m.Scale[k] = float64(v) / 4096
			}
		}
	}
	return m, nil
}
