package bfres

import (
	"github.com/animbake/bake/import/binread"
)

// dictNodeSize is the size of one index-group node (§3).
const dictNodeSize = 16

// dictEntry is one named entry of an index group: its name and the
// absolute offset of its data (a sub-file header, for the top-level groups).
type dictEntry struct {
	Name string
	Data int
	Node int // file offset of the node, for messages
}

// dictNode is a raw Patricia-tree node of an index group.
type dictNode struct {
	refBit      uint32
	left, right uint16
}

// readDict reads the index group (Patricia-tree dictionary, §3) at off and
// returns its entries in order (entry i is node i+1). The tree links are
// checked too: every child index must exist, and following the downward
// links from the root (those to a node with a greater reference bit, the
// runtime's descent rule) must reach each entry exactly once, so that a
// hostile group cannot send a lookup round a cycle.
func (f *resFile) readDict(off int, what string) ([]dictEntry, error) {
	hr, err := f.at(off, 8, what+" index group header")
	if err != nil {
		return nil, err
	}
	size, _ := hr.U32("size")
	n32, _ := hr.I32("entry count")
	if n32 < 0 {
		return nil, binread.Errorf(int64(off+4), "%s index group has a negative entry count %d", what, n32)
	}
	body, err := f.at(off+8, len(f.data)-off-8, what+" index group")
	if err != nil {
		return nil, err
	}
	if _, err := body.Count(uint64(n32)+1, dictNodeSize, what+" index group nodes"); err != nil {
		return nil, err
	}
	n := int(n32)
	if f.nx != nil {
		// Switch: the first word is "_DIC" or 0, not a size.
		if size != 0 && size != nxDictMagic {
			return nil, binread.Errorf(int64(off), "%s dictionary starts 0x%08x, expected \"_DIC\" or 0", what, size)
		}
	} else if want := 8 + dictNodeSize*(n+1); size != uint32(want) {
		return nil, binread.Errorf(int64(off), "%s index group size is 0x%x, expected 0x%x for %d entries", what, size, want, n)
	}
	nodes := make([]dictNode, n+1)
	entries := make([]dictEntry, n)
	for i := range nodes {
		pos := off + 8 + dictNodeSize*i
		nr, _ := f.at(pos, dictNodeSize, "index group node")
		nd := &nodes[i]
		nd.refBit, _ = nr.U32("reference bit")
		nd.left, _ = nr.U16("left")
		nd.right, _ = nr.U16("right")
		if int(nd.left) > n || int(nd.right) > n {
			return nil, binread.Errorf(int64(pos+4), "%s index group node %d links to node %d/%d, but there are only %d", what, i, nd.left, nd.right, n+1)
		}
		if i == 0 {
			continue
		}
		e := &entries[i-1]
		e.Node = pos
		if e.Name, err = f.stringAt(pos+8, what+" entry"); err != nil {
			return nil, err
		}
		if f.nx != nil {
			continue // Switch: the values lie in a separate array (nxDictValues)
		}
		if e.Data, err = f.requiredOffsetAt(pos+12, what+" entry "+e.Name+" data"); err != nil {
			return nil, err
		}
	}
	down := wiiuDown
	if f.nx != nil {
		down = nxDown
	}
	if err := checkDictTree(nodes, off, what, down); err != nil {
		return nil, err
	}
	return entries, nil
}

// wiiuDown is the Wii U descent rule: a downward link goes to a node whose
// reference bit is smaller than its parent's (the root's is 0xFFFFFFFF),
// the runtime's "descend while parent.refBit > child.refBit" (§3, checked
// on every group of the sample files).
func wiiuDown(parent, child uint32) bool { return child < parent }

// nxDown is the Switch descent rule: reference bits count up from the root
// (−1, stored 0xFFFFFFFF) as signed values, so a downward link goes to a
// greater one (checked on every dictionary of the Switch samples).
func nxDown(parent, child uint32) bool { return int32(child) > int32(parent) }

// checkDictTree walks the downward links of a Patricia tree (down tells a
// downward link from a parent's reference bit and a child's); other links
// point back up and end a lookup. Reaching a node twice means the links
// form a cycle or share a subtree; an entry never reached could never be
// found by name.
func checkDictTree(nodes []dictNode, off int, what string, down func(parent, child uint32) bool) error {
	seen := make([]bool, len(nodes))
	seen[0] = true
	stack := []int{0}
	reached := 1
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, c := range [2]uint16{nodes[p].left, nodes[p].right} {
			if !down(nodes[p].refBit, nodes[c].refBit) {
				continue // a back link
			}
			if seen[c] {
				return binread.Errorf(int64(off+8+dictNodeSize*int(c)), "%s index group node %d is reached twice: the tree links form a cycle", what, c)
			}
			seen[c] = true
			reached++
			stack = append(stack, int(c))
		}
	}
	if reached != len(nodes) {
		for i, s := range seen {
			if !s {
				return binread.Errorf(int64(off+8+dictNodeSize*i), "%s index group entry %d is not reachable from the root", what, i-1)
			}
		}
	}
	return nil
}
