// Command demogen writes the BFRES demo inputs (bfreswrite.Demo) into a
// directory; `go generate ./import/bfres` runs it for testdata/demo/bfres.
package main

import (
	"github.com/animbake/bake/import/bfres/bfreswrite"
	"github.com/animbake/bake/internal/demofiles"
)

func main() {
	demofiles.Main("testdata/demo/bfres", bfreswrite.Demo)
}
