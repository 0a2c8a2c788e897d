package main

import (
	"strings"

	"github.com/animbake/bake/export/godot"
	"github.com/animbake/bake/sample"
)

// godotRename gives baked's clips names that Godot (version 3 or 4; none
// for 0) imports as distinct clips, before any form is written, so the glTF,
// the JSON and the sidecar agree; each renamed clip is a warning.
func godotRename(b *sample.Baked, version int, warn func(string)) {
	for _, w := range godot.Rename(b, version) {
		warn(w)
	}
}

// godotSidecars returns the Godot .import sidecar of every glTF output in
// outs (version 3 or 4; none for 0), named after the output
// ("Bass.glb.import"), and the sidecar's warnings. They are written with the
// other outputs, atomically, or not at all.
func godotSidecars(b *sample.Baked, outs []output, version int) ([]output, []string, error) {
	if version == 0 {
		return nil, nil, nil
	}
	var side []output
	var warnings []string
	for _, o := range outs {
		if !strings.HasSuffix(o.rel, ".glb") && !strings.HasSuffix(o.rel, ".gltf") {
			continue
		}
		data, warns, err := godot.Sidecar(b, version)
		if err != nil {
			return nil, nil, err
		}
		if warnings == nil {
			warnings = warns // the same for every form of one bake
		}
		side = append(side, output{o.rel + godot.Extension, data})
	}
	return side, warnings, nil
}
