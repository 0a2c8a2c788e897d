// Command demogen writes the Virtools demo inputs (vtwrite.Demo) into a
// directory; `go generate ./import/virtools` runs it for
// testdata/demo/virtools.
package main

import (
	"flag"
	"log"

	"github.com/animbake/bake/import/virtools/vtwrite"
)

func main() {
	out := flag.String("out", "testdata/demo/virtools", "directory to write the files into")
	flag.Parse()
	if err := vtwrite.WriteFiles(*out, vtwrite.Demo()); err != nil {
		log.Fatal(err)
	}
}
