// Command demogen writes the Oni demo inputs (oniwrite.Demo) into a
// directory; `go generate ./import/oni` runs it for testdata/demo/oni.
// With -corpus it writes the CD-sized benchmark corpus (oniwrite.Corpus,
// 15 level files, about 1.3 MB) instead.
package main

import (
	"flag"
	"log"

	"github.com/animbake/bake/import/oni/oniwrite"
)

func main() {
	out := flag.String("out", "testdata/demo/oni", "directory to write the files into")
	corpus := flag.Bool("corpus", false, "write the benchmark corpus instead of the demo inputs")
	flag.Parse()
	files := oniwrite.Demo()
	if *corpus {
		files = oniwrite.Corpus()
	}
	if err := oniwrite.WriteFiles(*out, files); err != nil {
		log.Fatal(err)
	}
}
