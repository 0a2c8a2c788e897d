// Command demogen writes the CCS demo inputs (ccsdemo.Files) into a
// directory; `go generate ./import/ccs` runs it for testdata/demo/ccs.
package main

import (
	"flag"
	"log"

	"github.com/animbake/bake/import/ccs/ccswrite/demogen/ccsdemo"
)

func main() {
	out := flag.String("out", "testdata/demo/ccs", "directory to write the files into")
	flag.Parse()
	if err := ccsdemo.WriteFiles(*out, ccsdemo.Files()); err != nil {
		log.Fatal(err)
	}
}
