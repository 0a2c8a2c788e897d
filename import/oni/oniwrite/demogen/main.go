// Command demogen writes the Oni demo inputs (oniwrite.Demo) into a
// directory; `go generate ./import/oni` runs it for testdata/demo/oni.
package main

import (
	"flag"
	"log"
	"os"
	"path/filepath"

	"github.com/animbake/bake/import/oni/oniwrite"
)

func main() {
	out := flag.String("out", "testdata/demo/oni", "directory to write the demo files into")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	for _, f := range oniwrite.Demo() {
		if err := os.WriteFile(filepath.Join(*out, f.Name), f.Data, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
