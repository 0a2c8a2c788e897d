package gltf

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/qmuntal/gltf"
)

// view appends data to the buffer as a new buffer view, 4-byte aligned (as
// vertex attributes and mixed component sizes need), and returns its index.
// Target is the bufferView target for vertex and index data, 0 otherwise.
func (w *writer) view(data []byte, target gltf.Target) int {
	for len(w.buf)%4 != 0 {
		w.buf = append(w.buf, 0)
	}
	off := len(w.buf)
	w.buf = append(w.buf, data...)
	w.doc.BufferViews = append(w.doc.BufferViews, &gltf.BufferView{Buffer: 0, ByteOffset: off, ByteLength: len(data), Target: target})
	return len(w.doc.BufferViews) - 1
}

// meshView is a buffer view that many mesh accessors share, each at its
// byte offset (one view per accessor cost about 60 bytes of JSON each, a
// fifth of a level's JSON). Its data joins the buffer at finishMeshViews.
type meshView struct {
	view int
	data []byte
}

// meshData appends data to the shared view for its target and element
// size and returns the view and the data's offset in it. Vertex attributes
// share a view per element size, which it states as byteStride (a view two
// vertex accessors share must have one, glTF 2.0 §3.6.2.4; elements are
// 4-byte multiples, as its alignment rule needs); indices share one view,
// without a stride (index views must have none). Offsets are 4-byte
// aligned.
func (w *writer) meshData(data []byte, target gltf.Target, elementSize int) (view, offset int) {
	stride := 0
	if target == gltf.TargetArrayBuffer {
		stride = elementSize
	}
	key := [2]int{int(target), stride}
	v, ok := w.meshViews[key]
	if !ok {
		v = &meshView{view: len(w.doc.BufferViews)}
		w.doc.BufferViews = append(w.doc.BufferViews, &gltf.BufferView{Buffer: 0, ByteStride: stride, Target: target})
		w.meshViews[key] = v
		w.meshViewOrder = append(w.meshViewOrder, v)
	}
	for len(v.data)%4 != 0 {
		v.data = append(v.data, 0)
	}
	offset = len(v.data)
	v.data = append(v.data, data...)
	return v.view, offset
}

// finishMeshViews appends the shared views' data to the buffer, in the
// order the views were made, and places the views there.
func (w *writer) finishMeshViews() {
	for _, v := range w.meshViewOrder {
		for len(w.buf)%4 != 0 {
			w.buf = append(w.buf, 0)
		}
		bv := w.doc.BufferViews[v.view]
		bv.ByteOffset, bv.ByteLength = len(w.buf), len(v.data)
		w.buf = append(w.buf, v.data...)
	}
	w.meshViews, w.meshViewOrder = nil, nil
}

var accessorTypes = map[int]gltf.AccessorType{1: gltf.AccessorScalar, 2: gltf.AccessorVec2, 3: gltf.AccessorVec3,
	4: gltf.AccessorVec4, 16: gltf.AccessorMat4}

// vertexFloats writes float32 vertex data of the given width as an
// ARRAY_BUFFER accessor; bounds adds the min and max glTF requires for
// positions (in float32's shortest form, Short32).
func (w *writer) vertexFloats(values []float32, width int, bounds bool) int {
	data := make([]byte, 0, 4*len(values))
	for _, v := range values {
		data = binary.LittleEndian.AppendUint32(data, math.Float32bits(v))
	}
	view, off := w.meshData(data, gltf.TargetArrayBuffer, 4*width)
	acc := &gltf.Accessor{BufferView: gltf.Index(view), ByteOffset: off, ComponentType: gltf.ComponentFloat,
		Count: len(values) / width, Type: accessorTypes[width]}
	if bounds && len(values) > 0 {
		lo, hi := make([]float64, width), make([]float64, width)
		copy32(lo, values[:width])
		copy32(hi, values[:width])
		for i, v := range values {
			lo[i%width] = math.Min(lo[i%width], float64(v))
			hi[i%width] = math.Max(hi[i%width], float64(v))
		}
		acc.Min, acc.Max = short32s(lo), short32s(hi)
	}
	w.doc.Accessors = append(w.doc.Accessors, acc)
	return len(w.doc.Accessors) - 1
}

func copy32(dst []float64, src []float32) {
	for i, v := range src {
		dst[i] = float64(v)
	}
}

// joints writes JOINTS_0 as unsigned bytes when every index fits, else
// unsigned shorts.
func (w *writer) joints(j []uint16) int {
	small := !slices.ContainsFunc(j, func(v uint16) bool { return v > 255 })
	var data []byte
	ct := gltf.ComponentUshort
	if small {
		ct = gltf.ComponentUbyte
		data = make([]byte, len(j))
		for i, v := range j {
			data[i] = byte(v)
		}
	} else {
		data = make([]byte, 0, 2*len(j))
		for _, v := range j {
			data = binary.LittleEndian.AppendUint16(data, v)
		}
	}
	size := 8 // four unsigned shorts
	if small {
		size = 4
	}
	view, off := w.meshData(data, gltf.TargetArrayBuffer, size)
	w.doc.Accessors = append(w.doc.Accessors, &gltf.Accessor{BufferView: gltf.Index(view), ByteOffset: off,
		ComponentType: ct, Count: len(j) / 4, Type: gltf.AccessorVec4})
	return len(w.doc.Accessors) - 1
}

// indices writes an index accessor: unsigned shorts when every index is
// below 65535 (0xFFFF is the primitive-restart value glTF forbids), else
// unsigned ints.
func (w *writer) indices(ix []uint32) int {
	short := !slices.ContainsFunc(ix, func(v uint32) bool { return v >= 0xFFFF })
	var data []byte
	ct := gltf.ComponentUint
	if short {
		ct = gltf.ComponentUshort
		data = make([]byte, 0, 2*len(ix))
		for _, v := range ix {
			data = binary.LittleEndian.AppendUint16(data, uint16(v))
		}
	} else {
		data = make([]byte, 0, 4*len(ix))
		for _, v := range ix {
			data = binary.LittleEndian.AppendUint32(data, v)
		}
	}
	view, off := w.meshData(data, gltf.TargetElementArrayBuffer, 0)
	w.doc.Accessors = append(w.doc.Accessors, &gltf.Accessor{BufferView: gltf.Index(view), ByteOffset: off,
		ComponentType: ct, Count: len(ix), Type: gltf.AccessorScalar})
	return len(w.doc.Accessors) - 1
}
