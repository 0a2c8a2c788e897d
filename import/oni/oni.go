// Package oni imports the object animations (OBAN instances) of Bungie
// West's Oni (2001) from level instance files (levelN_Final.dat, "VR31")
// and OniSplit single-instance files (.oni, "VR32"); see
// docs/formats/oni.md. The .raw and .sep companions are never needed: OBAN
// has no raw parts.
//
// Each OBAN becomes one animation at 60 frames per second and up to three
// nodes whose innermost, named after the animation, follows the engine's
// matrix [Rx(π/2)]·T·R·Base exactly.
package oni

//go:generate go run ./oniwrite/demogen -out ../../testdata/demo/oni

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/model"
)

// FormatName is the registered importer name.
const FormatName = "oni"

// Axes is Oni's convention: right-handed, Y up, 1 unit = 0.1 m
// (axes.md §3).
var Axes = model.Axes{Name: "oni", Basis: model.IdentityBasis, Scale: 0.1}

func init() {
	format.Register(format.Format{Name: FormatName, Sniff: sniff, Decode: decode})
}

func decode(in *format.Input, opts *format.Options) ([]*model.File, error) {
	data, err := binread.ReadFile(in.R, in.Size)
	if err != nil {
		return nil, fmt.Errorf("oni: reading %s: %w", in.Path, err)
	}
	f, err := Decode(in.Path, data, opts)
	if err != nil {
		return nil, err
	}
	return []*model.File{f}, nil
}

// Decode converts the OBAN instances of one instance file into a model
// file: one animation per OBAN with data, in descriptor order. Placeholders
// (whose data lives in another file) are skipped with a notice. path is
// used for the source record and, for .oni files, as the fallback name.
func Decode(path string, data []byte, opts *format.Options) (*model.File, error) {
	c, err := parseContainer(data)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	f := &model.File{
		Source: model.Source{Path: path, Format: FormatName, SHA256: hex.EncodeToString(sum[:])},
		Axes:   Axes,
		Extras: map[string]any{
			"version":   c.Header.VersionName(),
			"checksum":  fmt.Sprintf("0x%016X", c.Header.Checksum),
			"platform":  c.Header.Platform(),
			"instances": len(c.Descriptors),
		},
	}
	referred, referredBy := referrerNames(c, opts)
	var names uniqueNames
	obans, placeholders := 0, 0
	for i := range c.Descriptors {
		d := &c.Descriptors[i]
		if d.Tag != TagOBAN {
			continue
		}
		obans++
		if d.Placeholder() {
			placeholders++
			opts.Warnf("oni: OBAN instance %d %q is a placeholder; its data is in another file (level0_Final.dat), skipped", d.Index, d.Name)
			continue
		}
		id, fileID := c.InstanceHeader(d)
		if id != d.InstanceID() {
			opts.Warnf("oni: OBAN instance %d: instance header holds id 0x%x, expected 0x%x", d.Index, id, d.InstanceID())
		}
		o, err := parseOban(c.Payload(d))
		if err != nil {
			return nil, err
		}
		if first, last := o.Keys[0].Frame, o.Keys[len(o.Keys)-1].Frame; first != 0 || last != uint32(o.Frames)-1 {
			opts.Warnf("oni: OBAN instance %d: keys span frames %d to %d, every OBAN on the CD spans 0 to frames-1 = %d", d.Index, first, last, o.Frames-1)
		}
		name, by := animationName(c, d, path, fileID, referred, referredBy)
		extras := make(map[string]any, 16)
		extras["instanceIndex"], extras["namedBy"] = d.Index, by
		if d.Name != "" {
			extras["instance"] = d.Name
		}
		addOban(f, o, names.take(name), extras)
	}
	if obans == 0 {
		return nil, binread.Errorf(HeaderSize, "none of the %d instances is an OBAN: expected at least one object animation", len(c.Descriptors))
	}
	f.Extras["placeholders"] = placeholders
	return f, nil
}

// animationName picks an OBAN's name (oni-container.md §3): its own name
// without the OBAN prefix; for descriptor 0 of an unnamed .oni, the file
// name; else a referrer's name; else OBAN_level<N>_<index>. It also says
// where the name came from.
func animationName(c *Container, d *Descriptor, path string, fileID uint32, referred, referredBy map[int]string) (string, string) {
	if s := d.ShortName(); s != "" {
		return s, "instance"
	}
	if c.Header.Version == VersionOni && d.Index == 0 {
		if s := fileNameFallback(path); s != "" {
			return s, "fileName"
		}
	}
	if s, ok := referred[d.Index]; ok {
		return s, referredBy[d.Index]
	}
	return fmt.Sprintf("OBAN_level%d_%d", fileID>>25, d.Index), "index"
}
