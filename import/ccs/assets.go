package ccs

import (
	"fmt"
)

// ObjectChunk is an Object chunk (0x0100): its parent, its model and its
// shadow model (0 for none); later generations add a fifth word
// (blender_ccs_importer reads it for versions above 0x120) kept as Extra.
type ObjectChunk struct {
	Off                          int64
	ID                           uint32
	Parent, Model, Shadow, Extra uint32
}

// Assets are a scene's decoded asset chunks: what Convert turns into
// meshes, materials and textures, and what `bake list` shows.
type Assets struct {
	Objects   []ObjectChunk // file order
	Materials []*Material
	Textures  []*Texture
	CLUTs     map[uint32]*CLUT
	Models    []*Model
	Clumps    []*Clump
	// Morphers maps a Morpher chunk's (0x1900) id to the model it
	// deforms (its second word; blender_ccs_importer ccsMorph.py).
	Morphers map[uint32]uint32
	// Cameras and Lights hold the ids of Camera (0x0500) and Light
	// (0x0600) chunks, with a light's type byte (1 distant, 2 direct,
	// 3 spot, 4 omni; blender_ccs_importer ccsLight.py).
	Cameras []uint32
	Lights  map[uint32]uint8
	// Refused holds, in file order, the error of every asset chunk that
	// could not be decoded; the chunk is left out and the rest of the
	// scene (its animations above all) still converts.
	Refused []error
}

// ReadAssets decodes the asset chunks the walk kept. A malformed chunk is
// refused: its error (naming the offset and what was expected) goes to
// Refused and the chunk is left out. A model kind bake does not read is
// kept with Model.Unsupport set, for the caller to report.
func (s *Scene) ReadAssets() (*Assets, error) {
	v := s.Header.Version
	a := &Assets{CLUTs: map[uint32]*CLUT{}, Morphers: map[uint32]uint32{}, Lights: map[uint32]uint8{}}
	for i := range s.Raw[CodeObject] {
		c := &s.Raw[CodeObject][i]
		r := c.reader()
		o := ObjectChunk{Off: c.Off, ID: c.ID}
		for _, w := range []*uint32{&o.Parent, &o.Model, &o.Shadow} {
			var err error
			if *w, err = r.U32("object chunk word"); err != nil {
				return nil, fmt.Errorf("object chunk at 0x%x: %w", c.Off, err)
			}
		}
		if r.Remaining() >= 4 {
			o.Extra, _ = r.U32("object extra")
		}
		a.Objects = append(a.Objects, o)
	}
	for i := range s.Raw[CodeCLUT] {
		cl, err := readCLUT(&s.Raw[CodeCLUT][i])
		if err != nil {
			a.Refused = append(a.Refused, err)
			continue
		}
		if _, dup := a.CLUTs[cl.ID]; !dup {
			a.CLUTs[cl.ID] = cl
		}
	}
	for i := range s.Raw[CodeTexture] {
		t, err := readTexture(&s.Raw[CodeTexture][i])
		if err != nil {
			a.Refused = append(a.Refused, err)
			continue
		}
		a.Textures = append(a.Textures, t)
	}
	for i := range s.Raw[CodeMaterial] {
		m, err := readMaterial(&s.Raw[CodeMaterial][i], v)
		if err != nil {
			a.Refused = append(a.Refused, err)
			continue
		}
		a.Materials = append(a.Materials, m)
	}
	for i := range s.Raw[CodeModel] {
		m, err := readModel(&s.Raw[CodeModel][i], v)
		if err != nil {
			a.Refused = append(a.Refused, err)
			continue
		}
		a.Models = append(a.Models, m)
	}
	for i := range s.Raw[CodeClump] {
		cl, err := readClump(&s.Raw[CodeClump][i], v)
		if err != nil {
			a.Refused = append(a.Refused, err)
			continue
		}
		a.Clumps = append(a.Clumps, cl)
	}
	for i := range s.Raw[CodeMorpher] {
		c := &s.Raw[CodeMorpher][i]
		r := c.reader()
		target, err := r.U32("morpher model")
		if err != nil {
			a.Refused = append(a.Refused, err)
			continue
		}
		a.Morphers[c.ID] = target
	}
	for _, c := range s.Raw[CodeCamera] {
		a.Cameras = append(a.Cameras, c.ID)
	}
	for _, c := range s.Raw[CodeLight] {
		var typ uint8
		if len(c.Body) > 0 {
			typ = c.Body[0]
		}
		a.Lights[c.ID] = typ
	}
	return a, nil
}
