package bntx

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/model"
)

// FormatName is the registered name of standalone BNTX files.
const FormatName = "bntx"

func init() {
	format.Register(format.Format{Name: FormatName, Sniff: sniff, Decode: decode})
}

// sniff recognises the 8-byte magic.
func sniff(head []byte) bool {
	return len(head) >= len(Magic) && string(head[:len(Magic)]) == Magic
}

// decode converts a standalone BNTX into a model file of its textures
// (level 0 of each, as PNG in the glTF), laid out as a texture sheet that
// shows them (textureSheet). A file none of whose textures decodes is an
// error: it would give an empty output.
func decode(in *format.Input, opts *format.Options) ([]*model.File, error) {
	data, err := binread.ReadFile(in.R, in.Size)
	if err != nil {
		return nil, fmt.Errorf("bntx: reading %s: %w", in.Path, err)
	}
	f, err := Parse(data)
	if err != nil {
		return nil, err
	}
	textures, err := f.Decoded(opts)
	if err != nil {
		return nil, err
	}
	if len(textures) == 0 {
		return nil, binread.Errorf(HeaderSize+4, "none of the %d textures decodes (see the warnings)", len(f.Textures))
	}
	sum := sha256.Sum256(data)
	nodes, meshes, materials := textureSheet(textures)
	out := &model.File{
		Source: model.Source{Path: in.Path, Format: FormatName, SHA256: hex.EncodeToString(sum[:])},
		Axes:   model.GLTFAxes,
		Nodes:  nodes,
		Assets: model.Assets{Meshes: meshes, Materials: materials, Textures: textures},
		Extras: map[string]any{"bntx": map[string]any{
			"name":     f.Name,
			"version":  fmt.Sprintf("%d.%d.%d", f.Version>>16, f.Version>>8&0xFF, f.Version&0xFF),
			"textures": len(f.Textures),
		}},
	}
	return []*model.File{out}, nil
}
