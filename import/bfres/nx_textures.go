package bfres

import (
	"errors"
	"strings"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/import/bntx"
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

// nxTextures decodes the textures a Switch model's materials name (names,
// in order, duplicates once; nil for every texture) from the BNTX files the
// FRES embeds (level 0, RGBA, by package bntx). A name no embedded BNTX
// holds, and a texture that is well formed but not decodable, are
// warnings; a malformed BNTX is a FormatError at its offset in the FRES.
// The decoded RGBA of all textures together is capped by opts.Inflate().
func nxTextures(f *resFile, names []string, opts *format.Options) ([]model.Texture, error) {
	ext, err := f.nxExternals()
	if err != nil {
		return nil, err
	}
	all := names == nil
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	found := map[string]model.Texture{}
	settled := map[string]bool{}
	var order []string
	budget := opts.Inflate()
	for _, e := range ext {
		if !strings.HasSuffix(strings.ToLower(e.Name), ".bntx") {
			continue
		}
		bf, err := bntx.Parse(f.data[e.Off:]) // the BNTX may run on to the end of the FRES
		if err != nil {
			return nil, rebase(err, e)
		}
		for _, t := range bf.Textures {
			if settled[t.Name] || !all && !want[t.Name] {
				continue
			}
			settled[t.Name] = true
			if rgba := int64(t.Width) * int64(t.Height) * 4; rgba > budget {
				return nil, binread.Errorf(int64(e.Off+t.Off+0x24), "embedded %s texture %s: %d×%d RGBA exceeds what is left of the decoded-size cap (%d bytes; raise --max-inflate)", e.Name, t.Name, t.Width, t.Height, budget)
			} else {
				budget -= rgba
			}
			rgba, err := bf.Decode(t)
			if errors.Is(err, bntx.ErrUnsupported) {
				opts.Warnf("bfres: embedded %s: %v; the materials keep its name", e.Name, err)
				continue
			}
			if err != nil {
				return nil, rebase(err, e)
			}
			found[t.Name] = t.Model(rgba)
			order = append(order, t.Name)
		}
	}
	if all {
		names = order
	}
	var out []model.Texture
	var missing []string
	done := map[string]bool{}
	hasBNTX := false
	for _, e := range ext {
		hasBNTX = hasBNTX || strings.HasSuffix(strings.ToLower(e.Name), ".bntx")
	}
	for _, n := range names {
		if done[n] {
			continue
		}
		done[n] = true
		if t, ok := found[n]; ok {
			out = append(out, t)
		} else if !settled[n] {
			missing = append(missing, n)
		}
	}
	switch {
	case len(missing) > 0 && hasBNTX:
		opts.Warnf("bfres: %d textures named by the materials are not in the file's embedded BNTX: %s", len(missing), strings.Join(missing, ", "))
	case len(missing) > 0:
		opts.Warnf("bfres: the file embeds no textures; the materials keep the names of their %d: %s", len(missing), strings.Join(missing, ", "))
	}
	return out, nil
}

// rebase turns a FormatError of an embedded file, whose offsets count from
// the file's start, into one at its offset in the FRES.
func rebase(err error, e nxExternal) error {
	var fe *binread.FormatError
	if errors.As(err, &fe) {
		return binread.Errorf(fe.Off+int64(e.Off), "embedded %s (at 0x%x): %s", e.Name, e.Off, fe.Msg)
	}
	return err
}
