// Command demogen writes the CCS demo inputs (ccsdemo.Files) into a
// directory; `go generate ./import/ccs` runs it for testdata/demo/ccs.
package main

import (
	"github.com/animbake/bake/import/ccs/ccswrite/demogen/ccsdemo"
	"github.com/animbake/bake/internal/demofiles"
)

func main() {
	demofiles.Main("testdata/demo/ccs", ccsdemo.Files)
}
