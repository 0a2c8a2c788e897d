package bfres

// Switch FMDL record (version 8 and earlier; BfresLibrary
// Switch/Model/ModelParser.cs read for the facts, checked on the samples).
const nxFMDLSize = 0x78

// readNXModels reads every FMDL of the models list.
func (f *resFile) readNXModels() ([]*Model, error) {
	entries, err := f.nxListEntries(nxModels, nxFMDLSize)
	if err != nil {
		return nil, err
	}
	var out []*Model
	for _, e := range entries {
		m, err := f.readNXFMDL(e.Data, e.Name)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// readNXFMDL reads the Switch FMDL at off: name (0x10), skeleton (0x20),
// vertex-buffer array (0x28), shape array and dictionary (0x30, 0x38),
// material array and dictionary (0x40, 0x48), then u16 counts of vertex
// buffers, shapes and materials (0x68–0x6C).
func (f *resFile) readNXFMDL(off int, name string) (*Model, error) {
	what := "model " + name
	if _, err := f.nxBlockHeader(off, "FMDL", what, nxFMDLSize); err != nil {
		return nil, err
	}
	m := &Model{Name: name}
	sk, ok, err := f.offsetAt(off+0x20, what+" skeleton")
	if err != nil {
		return nil, err
	}
	if ok {
		if m.Skeleton, err = f.readNXSkeleton(sk, name); err != nil {
			return nil, err
		}
	}
	return m, nil
}
