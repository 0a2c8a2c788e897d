package gltf

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/qmuntal/gltf"
)

// floatAccessor appends values as FLOAT components of the given width and
// returns the accessor index; inputs get the min and max glTF requires.
func (w *writer) floatAccessor(values []float64, width int, withBounds bool) int {
	for len(w.buf)%4 != 0 { // after byte-sized data (visibility, images)
		w.buf = append(w.buf, 0)
	}
	off := len(w.buf)
	w.buf = slices.Grow(w.buf, 4*len(values))
	for _, v := range values {
		w.buf = binary.LittleEndian.AppendUint32(w.buf, math.Float32bits(float32(v)))
	}
	bv := &gltf.BufferView{Buffer: 0, ByteOffset: off, ByteLength: len(w.buf) - off}
	w.doc.BufferViews = append(w.doc.BufferViews, bv)
	types := map[int]gltf.AccessorType{1: gltf.AccessorScalar, 2: gltf.AccessorVec2, 3: gltf.AccessorVec3, 4: gltf.AccessorVec4}
	acc := &gltf.Accessor{BufferView: gltf.Index(len(w.doc.BufferViews) - 1), ComponentType: gltf.ComponentFloat,
		Count: len(values) / width, Type: types[width]}
	if withBounds && len(values) > 0 {
		lo, hi := make([]float64, width), make([]float64, width)
		for j := range width {
			lo[j], hi[j] = math.Inf(1), math.Inf(-1)
		}
		for i, v := range values {
			f := float64(float32(v))
			lo[i%width] = math.Min(lo[i%width], f)
			hi[i%width] = math.Max(hi[i%width], f)
		}
		acc.Min, acc.Max = lo, hi
	}
	w.doc.Accessors = append(w.doc.Accessors, acc)
	return len(w.doc.Accessors) - 1
}
