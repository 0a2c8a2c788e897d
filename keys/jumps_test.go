package keys

import (
	"testing"

	"github.com/animbake/bake/fidelity"
)

// suspects lists the intervals suspect flags for values v at frames f
// (jump marks the probes after an announced jump), each interval's change
// |v[i+1] − v[i]|, with a floor of 0.5.
func suspects(f, v []float64, jump map[int]bool) []int {
	probes := make([]fidelity.Probe, len(f))
	d := make([]float64, len(f)-1)
	for i := range f {
		probes[i] = fidelity.Probe{Frame: f[i], Time: f[i] / 30, Jump: jump[i]}
		if i > 0 {
			d[i-1] = max(v[i]-v[i-1], v[i-1]-v[i])
		}
	}
	var out []int
	for i := range d {
		if suspect(d, probes, i, 0.5) {
			out = append(out, i)
		}
	}
	return out
}

// A steady ramp (one unit a frame) over probes a sixteenth of a frame
// apart beside whole-frame ones, as beside jumps: the whole frame changes
// 14 times as much as its neighbours, but not faster; it is not searched.
// Comparing changes instead of changes per frame searched it.
func TestSuspectComparesRates(t *testing.T) {
	f := []float64{0, 0.0625, 0.9375, 1, 1.0625, 1.9375, 2}
	if got := suspects(f, f, nil); len(got) != 0 {
		t.Errorf("a steady ramp: intervals %v suspected", got)
	}
}

// A teleport inside a curve (10 units in one frame among 1 a frame) is
// searched, also beside a jump that a key announced (0.5 units, compared
// by its change: its span is one float32 step).
func TestSuspectFindsTeleports(t *testing.T) {
	if got := suspects([]float64{0, 1, 2, 3}, []float64{0, 1, 11, 12}, nil); len(got) != 1 || got[0] != 1 {
		t.Errorf("a teleport between frames 1 and 2: suspected %v, want [1]", got)
	}
	f := []float64{0, 1, 1.0000001, 2, 3}
	v := []float64{0, 1, 1.5, 11.5, 12.5}
	if got := suspects(f, v, map[int]bool{2: true}); len(got) != 1 || got[0] != 2 {
		t.Errorf("a teleport beside an announced jump: suspected %v, want [2]", got)
	}
	// The announced jump itself is never searched, nor a change under
	// the floor.
	if got := suspects([]float64{0, 1, 2}, []float64{0, 0.1, 0.4}, nil); len(got) != 0 {
		t.Errorf("changes under the floor: suspected %v", got)
	}
}
