package bfres

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/model"
)

// modelTextures decodes the FTEX textures that names lists (the texture
// references of a model's materials; order kept, duplicates once; nil means
// every texture of f itself), searching the model file f first and then its
// texture archive: opts.TexturesFrom when set, else X.Tex1.sbfres or
// X.Tex1.bfres beside the input X.(s)bfres, which is where Breath of the
// Wild keeps level 0 of a model's textures (X.Tex2 holds only the mipmaps,
// which are not needed). It returns the textures found, in names order.
// A name found nowhere, a missing or unreadable archive, and a texture that
// is well formed but not decodable (format, tile mode) are warnings; only
// a malformed FTEX inside f itself is an error.
func modelTextures(in *format.Input, f *resFile, names []string, opts *format.Options) ([]model.Texture, error) {
	if f.nx != nil {
		return nxTextures(f, names, opts) // a Switch model embeds its textures
	}
	own, err := f.readTextureGroup()
	if err != nil {
		return nil, err
	}
	if names == nil {
		for _, t := range own {
			names = append(names, t.Name)
		}
	}
	var want []string
	seen := map[string]bool{}
	for _, n := range names {
		if n != "" && !seen[n] {
			seen[n] = true
			want = append(want, n)
		}
	}
	ts := &texSearch{found: map[string]model.Texture{}, settled: map[string]bool{}, budget: opts.Inflate(), opts: opts}
	if err := ts.decodeFrom(f, own, want, "this file"); err != nil {
		return nil, err
	}
	var rest []string
	for _, n := range want {
		if !ts.settled[n] {
			rest = append(rest, n)
		}
	}
	if len(rest) > 0 {
		arch, name := openTextureArchive(in, opts)
		if arch != nil {
			texs, err := arch.readTextureGroup()
			if err == nil {
				err = ts.decodeFrom(arch, texs, rest, name)
			}
			if err != nil {
				opts.Warnf("bfres: texture archive %s: %v", name, err)
			}
		}
		var missing []string
		for _, n := range rest {
			if !ts.settled[n] {
				missing = append(missing, n)
			}
		}
		if len(missing) > 0 && (arch != nil || len(own) > 0) {
			opts.Warnf("bfres: %d textures named by the materials were not found (with a level-0 image) in the model file or its texture archive: %s", len(missing), strings.Join(missing, ", "))
		}
	}
	out := make([]model.Texture, 0, len(ts.found))
	for _, n := range want {
		if t, ok := ts.found[n]; ok {
			out = append(out, t)
		}
	}
	return out, nil
}

// texSearch is the state of one model's texture search: the textures
// found, the names settled (found, or refused with a warning) and the
// bytes of RGBA the remaining textures may still decode to. The budget is
// the decompression cap (--max-inflate): different FTEX headers may point
// at the same image data, so without it a small hostile file could ask
// for gigabytes of pixels.
type texSearch struct {
	found   map[string]model.Texture
	settled map[string]bool
	budget  int64
	opts    *format.Options
}

// decodeFrom decodes the textures of texs that want names and are not yet
// settled. A malformed texture, or one past the budget, is returned as an
// error; an undecodable one is a warning and counts as settled.
func (ts *texSearch) decodeFrom(f *resFile, texs []*FTEX, want []string, from string) error {
	found, settled, opts := ts.found, ts.settled, ts.opts
	byName := map[string]*FTEX{}
	for _, t := range texs {
		if _, dup := byName[t.Name]; !dup {
			byName[t.Name] = t
		}
	}
	for _, n := range want {
		t, ok := byName[n]
		if !ok || settled[n] {
			continue
		}
		if need := int64(t.Width) * int64(t.Height) * 4; need > ts.budget {
			return binread.Errorf(int64(t.Off+0x08), "texture %s: %d×%d pixels would take the decoded textures past the %d-byte limit (raise --max-inflate to allow more)", t.Name, t.Width, t.Height, opts.Inflate())
		}
		rgba, err := f.decodeFTEX(t)
		if err == errNoImage {
			continue
		}
		if isUnsupported(err) {
			opts.Warnf("bfres: %v (%s); the material keeps the name", err, from)
			settled[n] = true
			continue
		}
		if err != nil {
			return err
		}
		if t.MipDataErr != nil {
			opts.Warnf("bfres: texture %s (%s): its mipmaps are not read (%v); level 0, all that is converted, is", t.Name, from, t.MipDataErr)
		}
		if t.Depth > 1 {
			opts.Warnf("bfres: texture %s is a %s surface of %d slices; only slice 0 is kept", t.Name, gx2DimNames[t.Dim], t.Depth)
		}
		ts.budget -= int64(len(rgba))
		found[n] = t.texture(rgba, from)
		settled[n] = true
	}
	return nil
}

// textureArchiveNames lists the files that may hold the textures of the
// model file at path: X.(s)bfres → X.Tex1.sbfres, X.Tex1.bfres.
func textureArchiveNames(path string) []string {
	base := filepath.Base(path)
	for _, ext := range []string{".sbfres", ".bfres"} {
		base = strings.TrimSuffix(base, ext)
	}
	if base == "" || strings.HasSuffix(base, ".Tex1") || strings.HasSuffix(base, ".Tex2") {
		return nil
	}
	return []string{base + ".Tex1.sbfres", base + ".Tex1.bfres"}
}

// openTextureArchive opens and reads the header of the model's texture
// archive; it returns nil (after a warning, unless there is simply none
// beside the input) when there is none to read.
func openTextureArchive(in *format.Input, opts *format.Options) (*resFile, string) {
	var cands []string
	explicit := opts != nil && opts.TexturesFrom != ""
	if explicit {
		cands = []string{opts.TexturesFrom}
	} else {
		cands = textureArchiveNames(in.Path)
	}
	for _, name := range cands {
		f, err := loadResFile(in, name, opts)
		if errors.Is(err, os.ErrNotExist) && !explicit {
			continue
		}
		if err != nil {
			opts.Warnf("bfres: texture archive %s: %v; materials keep their texture names", name, err)
			return nil, name
		}
		return f, name
	}
	if len(cands) > 0 {
		opts.Warnf("bfres: no texture archive beside %s (looked for %s; give --textures-from): materials keep their texture names", filepath.Base(in.Path), strings.Join(cands, ", "))
	}
	return nil, ""
}

// loadResFile opens another BFRES file (plain or Yaz0) through the input's
// siblings and reads its header.
func loadResFile(in *format.Input, path string, opts *format.Options) (*resFile, error) {
	data, err := readSibling(in, path, opts)
	if err != nil {
		return nil, err
	}
	if isSwitch(data) {
		return readNXHeader(data)
	}
	return readHeader(data)
}

// readSibling reads another BFRES file through the input's siblings and
// returns its bytes with any Yaz0 compression undone (capped like the
// input's own).
func readSibling(in *format.Input, path string, opts *format.Options) ([]byte, error) {
	if in.OpenSibling == nil {
		return nil, os.ErrNotExist
	}
	s, err := in.OpenSibling(path)
	if err != nil {
		return nil, err
	}
	raw, err := binread.ReadFile(s.R, s.Size)
	if err != nil {
		return nil, err
	}
	return unwrap(raw, opts.Inflate())
}
