package gltf

import (
	"sort"

	"github.com/animbake/bake/sample"
)

func fileExtras(b *sample.Baked) map[string]any {
	ex := map[string]any{}
	for k, v := range b.Extras {
		ex[k] = v
	}
	// Only the format: the same animations read from two containers (a
	// BFRES and its Yaz0 copy, a CCS file and its gzip copy) give the same
	// glTF bytes. The JSON form names the exact source file and digest.
	if b.Source.Format != "" {
		ex["sourceFormat"] = b.Source.Format
	}
	ex["axes"] = b.Axes
	if len(b.Curves) > 0 {
		names := make([]string, len(b.Curves))
		for i, c := range b.Curves {
			names[i] = c.Name
		}
		sort.Strings(names)
		ex["curves"] = names
	}
	return ex
}
