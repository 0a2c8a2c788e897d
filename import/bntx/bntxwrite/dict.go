package bntxwrite

import "encoding/binary"

// The texture dictionary (nn::util::ResDic, "_DIC") is a Patricia tree
// over the names: node 0 is the root (reference bit −1, the empty key),
// node i+1 holds name i. A node tests bit refBit of the key, bits counted
// from the last byte's least significant bit; a lookup descends while the
// reference bits grow and ends at the node whose key it then compares.

// dictNode is one node being built.
type dictNode struct {
	refBit   int
	children [2]int
	key      string
}

// keyBit returns bit b of key (0 past its start; b < 0 reads 0).
func keyBit(key string, b int) int {
	if b < 0 || b>>3 >= len(key) {
		return 0
	}
	return int(key[len(key)-1-b>>3]) >> (b & 7) & 1
}

// firstDifference returns the lowest bit index at which a and b differ.
func firstDifference(a, b string) int {
	for bit := 0; bit < 8*max(len(a), len(b)); bit++ {
		if keyBit(a, bit) != keyBit(b, bit) {
			return bit
		}
	}
	return -1 // equal keys (names are unique, so never)
}

// buildDict inserts the names in order into a Patricia tree.
func buildDict(names []string) []dictNode {
	nodes := []dictNode{{refBit: -1}}
	for _, name := range names {
		// Find the closest key.
		prev, cur := 0, nodes[0].children[0]
		for nodes[cur].refBit > nodes[prev].refBit {
			prev, cur = cur, nodes[cur].children[keyBit(name, nodes[cur].refBit)]
		}
		bit := firstDifference(name, nodes[cur].key)
		// Descend again to where the new node's bit belongs.
		prev, cur = 0, nodes[0].children[0]
		for nodes[cur].refBit > nodes[prev].refBit && nodes[cur].refBit < bit {
			prev, cur = cur, nodes[cur].children[keyBit(name, nodes[cur].refBit)]
		}
		idx := len(nodes)
		n := dictNode{refBit: bit, key: name}
		side := keyBit(name, bit)
		n.children[side] = idx
		n.children[1-side] = cur
		nodes = append(nodes, n)
		nodes[prev].children[keyBit(name, nodes[prev].refBit)] = idx
	}
	return nodes
}

// writeDict appends the dictionary of the names (their string-table
// entries at nameAt) and returns its offset; the root's key is the empty
// string just before the first name.
func writeDict(w *builder, names []string, nameAt []int) int {
	w.align(8)
	nodes := buildDict(names)
	off := w.grow(8 + 16*len(nodes))
	copy(w.b[off:], "_DIC")
	w.u32(off+4, uint32(len(names)))
	for i, n := range nodes {
		at := off + 8 + 16*i
		binary.LittleEndian.PutUint32(w.b[at:], uint32(int32(n.refBit)))
		w.u16(at+4, uint16(n.children[0]))
		w.u16(at+6, uint16(n.children[1]))
		key := emptyStringAt(w)
		if i > 0 {
			key = nameAt[i-1]
		}
		w.ptr(at+8, key)
	}
	return off
}

// emptyStringAt is the offset of the string table's empty string (after
// its 0x14-byte header).
func emptyStringAt(w *builder) int {
	return int(binary.LittleEndian.Uint16(w.b[0x16:])) + 0x14
}
