// Command demogen writes the SARC demo input (sarcwrite.Demo) into a
// directory; `go generate ./import/sarc` runs it for testdata/demo/sarc.
package main

import (
	"github.com/animbake/bake/import/sarc/sarcwrite"
	"github.com/animbake/bake/internal/demofiles"
)

func main() {
	demofiles.Main("testdata/demo/sarc", sarcwrite.Demo)
}
