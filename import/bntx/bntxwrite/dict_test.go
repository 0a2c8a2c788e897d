package bntxwrite

import "testing"

// TestDictMatchesGameFile builds the dictionary of the six texture names of
// Super Mario Odyssey Online's HideAndSeekIcon layout BNTX (SOURCES.md §4c)
// and compares it with the nodes stored in that file (read by hand:
// reference bit, children).
func TestDictMatchesGameFile(t *testing.T) {
	names := []string{"CmBaseDummy^r", "MyIconSave^s", "Seeking_Icon", "Hiding_Icon", "SMO_Clock", "CmLineCorner^s"}
	want := []dictNode{
		{refBit: -1, children: [2]int{2, 0}},
		{refBit: 1, children: [2]int{0, 3}},
		{refBit: 0, children: [2]int{1, 5}},
		{refBit: 2, children: [2]int{1, 4}},
		{refBit: 64, children: [2]int{4, 3}},
		{refBit: 3, children: [2]int{6, 5}},
		{refBit: 16, children: [2]int{6, 2}},
	}
	got := buildDict(names)
	if len(got) != len(want) {
		t.Fatalf("%d nodes, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].refBit != want[i].refBit || got[i].children != want[i].children {
			t.Errorf("node %d: bit %d children %v, want bit %d children %v", i, got[i].refBit, got[i].children, want[i].refBit, want[i].children)
		}
	}
}
