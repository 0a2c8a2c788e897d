package bfres

import (
	"strings"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/model"
)

// nxExternal is an embedded file of a Switch FRES (the external-file list:
// a name and a data range; Super Mario Odyssey's models embed their
// textures as "textures.bntx").
type nxExternal struct {
	Name string
	Off  int
	Data []byte
}

// nxExternalFileSize is the record of an embedded file: u64 data offset,
// u64 size.
const nxExternalFileSize = 0x10

// nxExternals reads the embedded-file list (array and dictionary at 0x98,
// 0xA0; count at 0xC8).
func (f *resFile) nxExternals() ([]nxExternal, error) {
	l := f.nx.External
	entries, err := f.nxPair(l, l.Array != 0, l.Dict != 0, nxExternalFileSize, int(f.nx.Counts[nxNumLists]), 0xA0, "embedded files")
	if err != nil {
		return nil, err
	}
	var out []nxExternal
	for _, e := range entries {
		r, _ := f.at(e.Data+8, 8, "embedded file size")
		size, _ := r.U64("embedded file size")
		p, ok, err := f.offsetAt(e.Data, "embedded file "+e.Name+" data")
		if err != nil {
			return nil, err
		}
		if !ok || size == 0 {
			continue
		}
		if size > uint64(len(f.data)-p) {
			return nil, binread.Errorf(int64(e.Data+8), "embedded file %s: %d bytes at 0x%x run past the end of the file (0x%x bytes)", e.Name, size, p, len(f.data))
		}
		out = append(out, nxExternal{Name: e.Name, Off: p, Data: f.data[p : p+int(size)]})
	}
	return out, nil
}

// nxTextures finds the textures a Switch model's materials name (names;
// nil for all) in the BNTX files the FRES embeds.
func nxTextures(f *resFile, names []string, opts *format.Options) ([]model.Texture, error) {
	ext, err := f.nxExternals()
	if err != nil {
		return nil, err
	}
	n := 0
	for _, e := range ext {
		if strings.HasSuffix(strings.ToLower(e.Name), ".bntx") {
			n++
		}
	}
	if n > 0 && len(names) > 0 {
		opts.Warnf("bfres: the textures of the embedded BNTX (%d files) are not decoded yet: materials keep their texture names", n)
	}
	return nil, nil
}
