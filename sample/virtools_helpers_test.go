package sample

import (
	"math"
	"testing"
)

// vxNear fails the test when any component of got differs from want by
// more than tol (virtools-controllers.md §10: the engine works in float32,
// the spec's figures are rounded, compare with a tolerance).
func vxNear(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) < len(want) {
		t.Fatalf("%s: got %d components, want %d", what, len(got), len(want))
	}
	for i := range want {
		if !(math.Abs(got[i]-want[i]) <= tol) {
			t.Errorf("%s: got %v, want %v (±%g)", what, got[:len(want)], want, tol)
			return
		}
	}
}
