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
	if entries, err = f.nxListEntries(nxMaterialAnims, nxFMAASize); err != nil {
		return nil, err
	}
	warn := func(format string, args ...any) { opts.Warnf("bfres: "+format, args...) }
	for _, e := range entries {
		shu, txp, err := f.readNXFMAA(e.Data, warn)
		if err != nil {
			return nil, err
		}
		if len(shu.Materials) > 0 || len(txp.Materials) == 0 {
			c.shader = append(c.shader, shu)
		}
		if len(txp.Materials) > 0 {
			c.pattern = append(c.pattern, txp)
		}
	}
	if entries, err = f.nxListEntries(nxBoneVisAnims, nxFBVSSize); err != nil {
		return nil, err
	}
	for _, e := range entries {
		a, err := f.readNXFBVS(e.Data)
		if err != nil {
			return nil, err
		}
		c.vis = append(c.vis, a)
	}
	for _, i := range []int{nxShapeAnims, nxSceneAnims} {
		if n := f.nx.Counts[i]; n > 0 {
			opts.Warnf("bfres: %d %s are not converted", n, nxListNames[i])
		}
	}
	return c, nil
}
