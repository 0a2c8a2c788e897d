package virtools

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/model"
)

// FormatName is the name the importer registers under.
const FormatName = "virtools"

func init() {
	format.Register(format.Format{Name: FormatName, Sniff: Sniff, Decode: Decode})
}

// Sniff recognises the "Nemo Fi\0" signature.
func Sniff(head []byte) bool {
	return len(head) >= len(Magic) && string(head[:len(Magic)]) == Magic
}

// Decode reads a composition file and converts it into one model.File.
// Format errors are *binread.FormatError; the caller names the file.
func Decode(in *format.Input, opts *format.Options) ([]*model.File, error) {
	data, err := binread.ReadFile(in.R, in.Size)
	if err != nil {
		return nil, fmt.Errorf("reading the file: %w", err)
	}
	f, err := decodeBytesAt(data, opts, filepath.Dir(in.Path))
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	f.Source = model.Source{Path: in.Path, Format: FormatName, SHA256: hex.EncodeToString(sum[:])}
	return []*model.File{f}, nil
}

// DecodeBytes parses, decodes and converts a whole file held in memory.
// External textures are not looked up (no folder is known).
func DecodeBytes(data []byte, opts *format.Options) (*model.File, error) {
	return decodeBytesAt(data, opts, "")
}

// decodeBytesAt is DecodeBytes for a file read from folder dir: meshes
// and the rest of the scene's assets are decoded unless opts.NoMeshes,
// and external textures are looked up from dir.
func decodeBytesAt(data []byte, opts *format.Options, dir string) (*model.File, error) {
	warn := func(f string, args ...any) { opts.Warnf(f, args...) }
	c, err := ParseContainer(data, opts.Inflate(), warn)
	if err != nil {
		return nil, err
	}
	s, err := DecodeScene(c, warn)
	if err != nil {
		return nil, err
	}
	if opts == nil || !opts.NoMeshes {
		if err := s.DecodeAssets(warn); err != nil {
			return nil, err
		}
	}
	return convertAt(s, opts, dir)
}
