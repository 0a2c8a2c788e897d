// Command demogen writes the BFRES demo inputs (bfreswrite.Demo) into a
// directory; `go generate ./import/bfres` runs it for testdata/demo/bfres.
package main

import (
	"flag"
	"log"

	"github.com/animbake/bake/import/bfres/bfreswrite"
)

func main() {
	out := flag.String("out", "testdata/demo/bfres", "directory to write the files into")
	flag.Parse()
	if err := bfreswrite.WriteFiles(*out, bfreswrite.Demo()); err != nil {
		log.Fatal(err)
	}
}
