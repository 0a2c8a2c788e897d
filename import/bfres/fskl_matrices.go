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
	if err := f.readMatrixToBone(t, sk+0x18, numBone, what); err != nil {
		return nil, err
	}
	if t.NumSmooth == 0 {
		return t, nil
	}
	if f.header.Version >= Version3_4 {
		im, err := f.requiredOffsetAt(sk+0x1C, what+" inverse model matrices")
		if err != nil {
			return nil, err
		}
		return t, f.readInverseModel(t, func(k int) int { return im + 48*k }, what)
	}
	return t, f.readInverseModel(t, func(k int) int { return boneArr + int(t.MatrixToBone[k])*boneSize + 0x40 }, what)
}

// readMatrixToBone reads the matrix palette's bone list (u16 per smooth
// and rigid matrix) whose offset is stored at pos; every entry must name
// one of the numBone bones.
func (f *resFile) readMatrixToBone(t *SkinTables, pos, numBone int, what string) error {
	n := t.NumSmooth + t.NumRigid
	if n == 0 {
		return nil
	}
	p, err := f.requiredOffsetAt(pos, what+" matrix-to-bone list")
	if err != nil {
		return err
	}
	lr, err := f.at(p, 2*n, what+" matrix-to-bone list")
	if err != nil {
		return err
	}
	t.MatrixToBone = make([]uint16, n)
	for i := range t.MatrixToBone {
		b, _ := lr.U16("bone index")
		if int(b) >= numBone {
			return binread.Errorf(int64(p+2*i), "%s: matrix %d names bone %d of %d", what, i, b, numBone)
		}
		t.MatrixToBone[i] = b
	}
	return nil
}

// readInverseModel reads one 3×4 row-major inverse model matrix (12 f32)
// per smooth matrix k, at at(k).
func (f *resFile) readInverseModel(t *SkinTables, at func(k int) int, what string) error {
	t.InverseModel = make([][12]float32, t.NumSmooth)
	for k := range t.InverseModel {
		pos := at(k)
		mr, err := f.at(pos, 48, what+" inverse model matrix")
		if err != nil {
			return err
		}
		m := &t.InverseModel[k]
		for i := range m {
			m[i], _ = mr.F32("matrix element")
			if !finite32(m[i]) {
				return binread.Errorf(int64(pos+4*i), "%s: inverse model matrix is not finite", what)
			}
		}
	}
	return nil
}
