package bfres

import (
	"path"
	"strings"
)

// Group names the files a BFRES file is converted with, from its name: an
// animation file X_Animation.bfres reads the skeleton of its model X.bfres
// or X.sbfres (see siblingNames), and Breath of the Wild keeps a model's
// textures in X.Tex1.sbfres and X.Tex2.sbfres (X.Tex.sbfres on Switch).
// All of them are in group "X". It returns "" for names without a
// .bfres or .sbfres extension, which are not BFRES files by name.
func Group(name string) string {
	ext := path.Ext(name)
	if !strings.EqualFold(ext, ".bfres") && !strings.EqualFold(ext, ".sbfres") {
		return ""
	}
	stem := strings.TrimSuffix(name, ext)
	for _, tex := range []string{".Tex1", ".Tex2", ".Tex"} {
		if s, ok := strings.CutSuffix(stem, tex); ok && s != "" {
			stem = s
			break
		}
	}
	if s, ok := strings.CutSuffix(stem, "_Animation"); ok && s != "" {
		stem = s
	}
	return stem
}
