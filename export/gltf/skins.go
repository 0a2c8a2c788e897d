package gltf

import (
	"encoding/binary"
	"math"

	"github.com/qmuntal/gltf"
)

// skins writes every skin after the nodes it names: joints as node
// indices, the inverse bind matrices as one MAT4 float accessor (their last
// row written as exactly 0 0 0 1, which glTF requires and float rounding of
// a computed inverse can miss), and the skeleton root. A skin no node uses
// is written too: it is what makes Blender build one armature and Godot a
// Skeleton from a hierarchy of bones without a mesh. It returns each
// skin's index by name.
func (w *writer) skins() map[string]int {
	index := make(map[string]int, len(w.b.Assets.Skins))
	for _, s := range w.b.Assets.Skins {
		gs := &gltf.Skin{Name: s.Name, Joints: make([]int, len(s.Joints))}
		for j, name := range s.Joints {
			gs.Joints[j] = w.index[name]
		}
		if ni, ok := w.index[s.Skeleton]; ok && s.Skeleton != "" {
			gs.Skeleton = gltf.Index(ni)
		}
		gs.InverseBindMatrices = gltf.Index(w.matrixAccessor(s.InverseBind))
		index[s.Name] = len(w.doc.Skins)
		w.doc.Skins = append(w.doc.Skins, gs)
	}
	return index
}

// matrixAccessor writes column-major affine matrices as a MAT4 FLOAT
// accessor in a buffer view of its own (no byteStride, as glTF requires
// for inverse bind matrices).
func (w *writer) matrixAccessor(ms [][16]float64) int {
	data := make([]byte, 0, 64*len(ms))
	for _, m := range ms {
		m[3], m[7], m[11], m[15] = 0, 0, 0, 1
		for _, v := range m {
			data = binary.LittleEndian.AppendUint32(data, math.Float32bits(float32(v)))
		}
	}
	w.doc.Accessors = append(w.doc.Accessors, &gltf.Accessor{BufferView: gltf.Index(w.view(data, 0)),
		ComponentType: gltf.ComponentFloat, Count: len(ms), Type: gltf.AccessorMat4})
	return len(w.doc.Accessors) - 1
}
