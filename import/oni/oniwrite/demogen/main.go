// Command demogen writes the Oni demo inputs (oniwrite.Demo) into a
// directory; `go generate ./import/oni` runs it for testdata/demo/oni.
// With -corpus it writes the CD-sized benchmark corpus (oniwrite.Corpus,
// 15 level files, about 1.3 MB) instead.
package main

import (
	"flag"

	"github.com/animbake/bake/import/oni/oniwrite"
	"github.com/animbake/bake/internal/demofiles"
)

func main() {
	corpus := flag.Bool("corpus", false, "write the benchmark corpus instead of the demo inputs")
	demofiles.Main("testdata/demo/oni", func() []demofiles.File {
		if *corpus {
			return oniwrite.Corpus()
		}
		return oniwrite.Demo()
	})
}
