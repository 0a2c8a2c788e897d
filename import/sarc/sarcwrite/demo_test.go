package sarcwrite_test

import (
	"testing"

	"github.com/animbake/bake/import/sarc/sarcwrite"
	"github.com/animbake/bake/internal/testfiles"
)

// The committed demo input is what `go generate ./import/sarc` writes today.
func TestDemoFilesAreUpToDate(t *testing.T) {
	testfiles.CheckDemoFiles(t, testfiles.DemoDir(t, "sarc"), sarcwrite.Demo(), "go generate ./import/sarc")
}
