package oni

import (
	"strings"
	"testing"

	"github.com/animbake/bake/import/oni/oniwrite"
)

// An instance header whose id is not (index << 8) | 1 is a notice, not an
// error (oni-container.md §1.7 step 5 makes the check optional).
func TestInstanceIDMismatchIsANotice(t *testing.T) {
	data := validLevel()
	data[0x80] = 7 // the id of instance 0 should be 0x00000001
	f, warns := decodeBytes(t, "level3_Final.dat", data)
	if len(f.Animations) != 1 || len(warns) != 1 || !strings.Contains(warns[0], "id 0x7") {
		t.Errorf("notices %q", warns)
	}
}

// Every CD animation has its first key at 0 and its last at frames−1
// (oni-oban.txt "Layout"); others decode with a notice.
func TestKeySpanNotice(t *testing.T) {
	o := probe(0)
	o.Frames = 20
	f, warns := decodeBytes(t, "level3_Final.dat", levelWith(oniwrite.ObanInstance("probe", o)))
	if len(f.Animations) != 1 || len(warns) != 1 || !strings.Contains(warns[0], "0 to 10") {
		t.Errorf("notices %q", warns)
	}
}
