package ccs

import (
	"testing"

	"github.com/animbake/bake/internal/testfiles"
)

// readSample reads a shared sample (rel under ../shared/samples) or skips
// the test.
func readSample(t testing.TB, rel string) []byte {
	t.Helper()
	return testfiles.ReadSample(t, rel)
}
