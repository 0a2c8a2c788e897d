package main

import (
	"fmt"
	"runtime/debug"
)

// outputFormat is bumped by every change that alters bake's output bytes
// for the same inputs and options (an exporter, sampler or importer fix),
// so that manifests written before it no longer count as up to date. It
// matters most for development builds, whose module version is "(devel)".
const outputFormat = 1

// bakeVersion names this bake in manifests: the module version Go stamped
// into the binary (a release tag, or a pseudo-version with the commit, or
// "(devel)"), the VCS revision when Go recorded one, and outputFormat.
// Any difference makes every input stale. A build from modified sources
// cannot tell its own edits apart: use --force after changing bake.
func bakeVersion() string {
	v, rev, modified := "(devel)", "", false
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	if rev != "" && v == "(devel)" {
		v += " " + rev
		if modified {
			v += "+modified"
		}
	}
	return fmt.Sprintf("%s output/%d", v, outputFormat)
}
