package bfreswrite

import (
	"encoding/binary"
)

// Bytes lays out the whole image: header, sub-files, index groups and the
// sorted string pool.
func (tf *File) Bytes() []byte {
	if tf.Switch {
		return tf.switchBytes()
	}
	w := &writer{version: tf.Version, order: binary.BigEndian}
	h := w.reserve(headerSize)
	copy(w.b, "FRES")
	w.put32(4, tf.Version)
	w.put16(8, 0xFEFF)
	w.put16(10, 0x10)
	w.put32(0x10, 4)
	w.str(0x14, tf.Name)
	var groups [numGroups][]string
	var datas [numGroups][]int
	add := func(g int, name string, p int) {
		groups[g] = append(groups[g], name)
		datas[g] = append(datas[g], p)
	}
	for _, m := range tf.Models {
		add(GroupModels, m.Name, w.model(m))
	}
	for _, t := range tf.Textures {
		add(GroupTextures, t.Name, w.ftex(t))
	}
	for _, a := range tf.FSKA {
		add(GroupSkeletalAnims, a.Name, w.fska(a))
	}
	for _, a := range tf.FSHU {
		add(a.Group, a.Name, w.fshu(a))
	}
	for _, a := range tf.FTXP {
		add(GroupTexPatternAnims, a.Name, w.ftxp(a))
	}
	for _, a := range tf.FVIS {
		g := GroupBoneVisAnims
		if a.Material {
			g = GroupMatVisAnims
		}
		add(g, a.Name, w.fvis(a))
	}
	for g := range numGroups {
		if len(groups[g]) > 0 {
			w.off(h+0x20+4*g, w.dict(groups[g], datas[g]))
			w.put16(h+0x50+2*g, uint16(len(groups[g])))
		}
	}
	// String pool: sorted, each u32 length, characters, NUL, padding.
	pool := w.pos()
	seen := map[string]int{}
	for _, s := range w.sortedStrings() {
		w.b = binary.BigEndian.AppendUint32(w.b, uint32(len(s)))
		seen[s] = w.pos()
		w.b = append(w.b, s...)
		w.b = append(w.b, 0)
		w.align()
	}
	w.off(0x1C, pool)
	w.put32(0x18, uint32(w.pos()-pool))
	for _, f := range w.strs {
		w.off(f.at, seen[f.s])
	}
	w.put32(0x0C, uint32(len(w.b)))
	return w.b
}
