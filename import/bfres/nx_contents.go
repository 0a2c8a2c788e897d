package bfres

import (
	"github.com/animbake/bake/format"
)

// readNXContents decodes every sub-file of a Switch FRES image that the
// importer uses into the types the Wii U reader produces, so that the one
// conversion (build, addModel) serves both layouts.
func readNXContents(data []byte, opts *format.Options) (*contents, error) {
	f, err := readNXHeader(data)
	if err != nil {
		return nil, err
	}
	c := &contents{header: f.header, res: f}
	if c.models, err = f.readNXModels(); err != nil {
		return nil, err
	}
	for _, m := range c.models {
		if m.Skeleton != nil {
			c.skeletons = append(c.skeletons, m.Skeleton)
		}
	}
	entries, err := f.nxListEntries(nxSkeletalAnims, nxFSKASize)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		a, err := f.readNXFSKA(e.Data)
		if err != nil {
			return nil, err
		}
		c.skeletal = append(c.skeletal, a)
	}
	for i, n := range f.nx.Counts[:nxNumLists] {
		switch i {
		case nxMaterialAnims, nxBoneVisAnims, nxShapeAnims, nxSceneAnims:
			if n > 0 {
				opts.Warnf("bfres: %d %s are not converted", n, nxListNames[i])
			}
		}
	}
	return c, nil
}
