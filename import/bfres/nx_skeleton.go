package bfres

// Switch FSKL records (version 8 and earlier; BfresLibrary
// Shared/Models/Skeleton read for the facts, checked on the samples).
const (
	nxFSKLSize = 0x58 // magic, block header, bone dict and array, matrix tables, flags, counts
	nxBoneSize = 0x60 // name, user data (3 u64 and 16 reserved bytes), indices, flags, S, R, T
)

// readNXSkeleton reads the Switch FSKL at sk for model name: the bone
// dictionary (0x10) and array (0x18), the matrix-to-bone list (0x20) and
// the inverse model matrices (0x28), then flags (0x48) and u16 bone,
// smooth and rigid matrix counts (0x4C–0x50). A bone record holds its name
// (0x00), u16 index and s16 parent (0x28), flags (0x34) and its bind S, R
// (4 floats), T from 0x38, as on the Wii U.
func (f *resFile) readNXSkeleton(sk int, name string) (*Skeleton, error) {
	what := "model " + name + " skeleton"
	r, err := f.nxBlockHeader(sk, "FSKL", what, nxFSKLSize)
	if err != nil {
		return nil, err
	}
	s := &Skeleton{Model: name}
	r.Seek(0x48, "flags")
	s.Flags, _ = r.U32("flags")
	numBone, _ := r.U16("bone count")
	ns, _ := r.U16("smooth matrix count")
	nr, _ := r.U16("rigid matrix count")
	if err := f.readBones(s, sk+0x18, int(numBone), nxBoneSize, 0x28, what); err != nil {
		return nil, err
	}
	t := &SkinTables{NumSmooth: int(ns), NumRigid: int(nr)}
	s.Tables = t
	if err := f.readMatrixToBone(t, sk+0x20, len(s.Bones), what); err != nil {
		return nil, err
	}
	if t.NumSmooth > 0 {
		im, err := f.requiredOffsetAt(sk+0x28, what+" inverse model matrices")
		if err != nil {
			return nil, err
		}
		if err := f.readInverseModel(t, func(k int) int { return im + 48*k }, what); err != nil {
			return nil, err
		}
	}
	return s, nil
}
