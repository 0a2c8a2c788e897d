// Command demogen writes the Virtools demo inputs (vtwrite.Demo) into a
// directory; `go generate ./import/virtools` runs it for
// testdata/demo/virtools.
package main

import (
	"github.com/animbake/bake/import/virtools/vtwrite"
	"github.com/animbake/bake/internal/demofiles"
)

func main() {
	demofiles.Main("testdata/demo/virtools", vtwrite.Demo)
}
