package main

import "github.com/animbake/bake/model"

// nothingToConvert reports whether an imported file holds nothing an
// output could show: no animation, node, curve or asset. Such a file (a
// Virtools file of only a level's settings, for example) is reported and
// writes no output; a later importer feature that gives it content (meshes,
// say) makes it convert, since the test is made on what was imported, not
// on the file's name or format.
func nothingToConvert(f *model.File) bool {
	return len(f.Animations) == 0 && len(f.Nodes) == 0 && len(f.Curves) == 0 && f.Assets.Empty()
}
