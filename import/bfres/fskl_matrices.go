package bfres

import (
	"github.com/animbake/bake/import/binread"
)

// SkinTables are the FSKL's skinning tables (Wii U): the matrix palette's
// bone per matrix, smooth matrices first, then rigid ones, and one inverse
// model (bind) matrix per smooth matrix. A vertex's _i0 values index this
// palette; a smooth matrix is the bone's world matrix times its inverse
// model matrix, a rigid one the bone's world matrix alone.
type SkinTables struct {
	NumSmooth, NumRigid int
	MatrixToBone        []uint16
	// InverseModel holds one 3×4 row-major matrix per smooth matrix (rows
	// x, y, z; the fourth column is the translation).
	InverseModel [][12]float32
}

// readSkinTables reads the skinning tables of the FSKL at sk (bone array at
// boneArr, numBone bones of boneSize bytes): u16 smooth and rigid matrix
// counts at +0x0A and +0x0C, the matrix-to-bone u16 list at +0x18, and from
// version 3.4 the inverse model matrices at +0x1C (12 f32 each); before 3.4
// each bone carries its own inverse matrix at +0x40 and smooth matrix k
// takes that of its bone.
func (f *resFile) readSkinTables(sk, boneArr, numBone, boneSize int, model string) (*SkinTables, error) {
	what := "skeleton of model " + model
	r, err := f.at(sk+0x0A, 4, what+" matrix counts")
	if err != nil {
		return nil, err
	}
	ns, _ := r.U16("smooth matrix count")
	nr, _ := r.U16("rigid matrix count")
	t := &SkinTables{NumSmooth: int(ns), NumRigid: int(nr)}
	n := t.NumSmooth + t.NumRigid
	if n == 0 {
		return t, nil
	}
	p, err := f.requiredOffsetAt(sk+0x18, what+" matrix-to-bone list")
	if err != nil {
		return nil, err
	}
	lr, err := f.at(p, 2*n, what+" matrix-to-bone list")
	if err != nil {
		return nil, err
	}
	t.MatrixToBone = make([]uint16, n)
	for i := range t.MatrixToBone {
		b, _ := lr.U16("bone index")
		if int(b) >= numBone {
			return nil, binread.Errorf(int64(p+2*i), "%s: matrix %d names bone %d of %d", what, i, b, numBone)
		}
		t.MatrixToBone[i] = b
	}
	if t.NumSmooth == 0 {
		return t, nil
	}
	t.InverseModel = make([][12]float32, t.NumSmooth)
	read := func(pos int, m *[12]float32) error {
		mr, err := f.at(pos, 48, what+" inverse model matrix")
		if err != nil {
			return err
		}
		for k := range m {
			m[k], _ = mr.F32("matrix element")
			if !finite32(m[k]) {
				return binread.Errorf(int64(pos+4*k), "%s: inverse model matrix is not finite", what)
			}
		}
		return nil
	}
	if f.header.Version >= Version3_4 {
		im, err := f.requiredOffsetAt(sk+0x1C, what+" inverse model matrices")
		if err != nil {
			return nil, err
		}
		for k := range t.InverseModel {
			if err := read(im+48*k, &t.InverseModel[k]); err != nil {
				return nil, err
			}
		}
		return t, nil
	}
	for k := range t.InverseModel {
		if err := read(boneArr+int(t.MatrixToBone[k])*boneSize+0x40, &t.InverseModel[k]); err != nil {
			return nil, err
		}
	}
	return t, nil
}
