package gltf

import (
	"encoding/binary"
	"math"

	"github.com/qmuntal/gltf"
)

// animData gathers every animation accessor in one buffer view (accessors
// at byte offsets in it), writing each distinct content once: channels
// with the same key times share an input, constant tracks with the same
// value share an output. Per-accessor views would cost more JSON than the
// keys of the many short tracks an error-bounded bake writes.
type animData struct {
	view int // buffer view index, -1 until the first accessor
	data []byte
	seen map[string]int
}

func newAnimData() *animData { return &animData{view: -1, seen: map[string]int{}} }

// accessor returns the accessor of values as FLOAT components of the given
// width; inputs (key times) get the min and max glTF requires.
func (w *writer) animAccessor(d *animData, values []float64, width int, input bool) int {
	key := make([]byte, 0, 2+4*len(values))
	key = append(key, byte(width), 'o')
	if input {
		key[1] = 'i'
	}
	for _, v := range values {
		key = binary.LittleEndian.AppendUint32(key, math.Float32bits(float32(v)))
	}
	if acc, ok := d.seen[string(key)]; ok {
		return acc
	}
	if d.view < 0 {
		w.doc.BufferViews = append(w.doc.BufferViews, &gltf.BufferView{Buffer: 0})
		d.view = len(w.doc.BufferViews) - 1
	}
	for len(d.data)%4 != 0 { // after unsigned bytes (animUbytes)
		d.data = append(d.data, 0)
	}
	types := map[int]gltf.AccessorType{1: gltf.AccessorScalar, 2: gltf.AccessorVec2, 3: gltf.AccessorVec3, 4: gltf.AccessorVec4}
	acc := &gltf.Accessor{BufferView: gltf.Index(d.view), ByteOffset: len(d.data), ComponentType: gltf.ComponentFloat,
		Count: len(values) / width, Type: types[width]}
	d.data = append(d.data, key[2:]...)
	if input && len(values) > 0 {
		lo, hi := make([]float64, width), make([]float64, width)
		for j := range width {
			lo[j], hi[j] = math.Inf(1), math.Inf(-1)
		}
		for i, v := range values {
			f := float64(float32(v))
			lo[i%width] = math.Min(lo[i%width], f)
			hi[i%width] = math.Max(hi[i%width], f)
		}
		acc.Min, acc.Max = short32s(lo), short32s(hi)
	}
	w.doc.Accessors = append(w.doc.Accessors, acc)
	d.seen[string(key)] = len(w.doc.Accessors) - 1
	return len(w.doc.Accessors) - 1
}

// animShorts is animAccessor for rotations quantized to normalized 16-bit
// integers (the values are already multiples of 1/32767; glTF 2.0 allows
// this for rotation outputs).
func (w *writer) animShorts(d *animData, values []float64, width int) int {
	key := make([]byte, 0, 2+2*len(values))
	key = append(key, byte(width), 's')
	for _, v := range values {
		key = binary.LittleEndian.AppendUint16(key, uint16(int16(math.Round(max(-1, min(1, v))*32767))))
	}
	if acc, ok := d.seen[string(key)]; ok {
		return acc
	}
	if d.view < 0 {
		w.doc.BufferViews = append(w.doc.BufferViews, &gltf.BufferView{Buffer: 0})
		d.view = len(w.doc.BufferViews) - 1
	}
	for len(d.data)%4 != 0 {
		d.data = append(d.data, 0)
	}
	acc := &gltf.Accessor{BufferView: gltf.Index(d.view), ByteOffset: len(d.data), ComponentType: gltf.ComponentShort,
		Normalized: true, Count: len(values) / width, Type: gltf.AccessorVec4}
	d.data = append(d.data, key[2:]...)
	w.doc.Accessors = append(w.doc.Accessors, acc)
	d.seen[string(key)] = len(w.doc.Accessors) - 1
	return len(w.doc.Accessors) - 1
}

// animUbytes is animAccessor for 0/1 values as an unsigned-byte SCALAR,
// the type KHR_node_visibility's boolean pointer needs.
func (w *writer) animUbytes(d *animData, values []float64) int {
	key := make([]byte, 0, 2+len(values))
	key = append(key, 1, 'b')
	for _, v := range values {
		b := byte(0)
		if v != 0 {
			b = 1
		}
		key = append(key, b)
	}
	if acc, ok := d.seen[string(key)]; ok {
		return acc
	}
	if d.view < 0 {
		w.doc.BufferViews = append(w.doc.BufferViews, &gltf.BufferView{Buffer: 0})
		d.view = len(w.doc.BufferViews) - 1
	}
	acc := &gltf.Accessor{BufferView: gltf.Index(d.view), ByteOffset: len(d.data), ComponentType: gltf.ComponentUbyte,
		Count: len(values), Type: gltf.AccessorScalar}
	d.data = append(d.data, key[2:]...)
	w.doc.Accessors = append(w.doc.Accessors, acc)
	d.seen[string(key)] = len(w.doc.Accessors) - 1
	return len(w.doc.Accessors) - 1
}

// finishAnimData appends the gathered data to the buffer, 4-byte aligned,
// and places its view there.
func (w *writer) finishAnimData(d *animData) {
	if d.view < 0 {
		return
	}
	for len(w.buf)%4 != 0 {
		w.buf = append(w.buf, 0)
	}
	bv := w.doc.BufferViews[d.view]
	bv.ByteOffset, bv.ByteLength = len(w.buf), len(d.data)
	w.buf = append(w.buf, d.data...)
}
