package bfres

import (
	"github.com/animbake/bake/import/binread"
)

// Skeleton scale modes (bits 8–9 of the FSKL and FSKA flags, §6.2).
const (
	ScaleNone      = 0
	ScaleStandard  = 1
	ScaleMaya      = 2
	ScaleSoftimage = 3
)

// Rotation modes (bits 12–14 of the FSKL and FSKA flags, §6.2).
const (
	RotateQuaternion = 0
	RotateEulerXYZ   = 1
)

// boneSegmentScaleCompensate is bit 23 of the bone and bone-anim flags (§7.2).
const boneSegmentScaleCompensate = 1 << 23

// scaleMode and rotationMode extract the modes from FSKL/FSKA flags.
func scaleMode(flags uint32) int    { return int(flags >> 8 & 3) }
func rotationMode(flags uint32) int { return int(flags >> 12 & 7) }

// scaleModeNames and rotationModeNames label the modes in extras.
var scaleModeNames = [4]string{"none", "standard", "maya", "softimage"}

func rotationModeName(m int) string {
	if m == RotateEulerXYZ {
		return "eulerXYZ"
	}
	if m == RotateQuaternion {
		return "quaternion"
	}
	return "unknown"
}

// Bone is one FSKL bone (Wii U, 0x40 bytes from 3.4, 0x70 before, where an
// inverse matrix follows): its name, parent and bind pose as stored.
type Bone struct {
	Name      string
	Index     uint16
	Parent    int16 // −1 for a root
	Flags     uint32
	Scale     [3]float32
	Rotate    [4]float32 // Euler x, y, z (and 1.0) or quaternion x, y, z, w
	Translate [3]float32
}

// Skeleton is an FSKL skeleton and the FMDL model that carries it.
type Skeleton struct {
	Model string // FMDL name
	Flags uint32
	Bones []Bone
	// Tables are the skinning tables (matrix palette and inverse model
	// matrices, fskl_matrices.go).
	Tables *SkinTables
}

// ScaleMode returns the skeleton's scale mode.
func (s *Skeleton) ScaleMode() int { return scaleMode(s.Flags) }

// RotationMode returns the skeleton's rotation mode.
func (s *Skeleton) RotationMode() int { return rotationMode(s.Flags) }

// boneSize is the FSKL bone stride for a file version.
func boneSize(version uint32) int {
	if version >= Version3_4 {
		return 0x40
	}
	return 0x70
}

// readModels reads the skeleton of every FMDL in the models group.
func (f *resFile) readModels() ([]*Skeleton, error) {
	if f.nx != nil {
		models, err := f.readNXModels()
		var out []*Skeleton
		for _, m := range models {
			if m.Skeleton != nil {
				out = append(out, m.Skeleton)
			}
		}
		return out, err
	}
	off := f.header.Groups[GroupModels]
	if off == 0 {
		return nil, nil
	}
	entries, err := f.readDict(off, "models")
	if err != nil {
		return nil, err
	}
	var out []*Skeleton
	for _, e := range entries {
		s, err := f.readModelSkeleton(e.Data, e.Name)
		if err != nil {
			return nil, err
		}
		if s != nil {
			out = append(out, s)
		}
	}
	return out, nil
}

// readModelSkeleton reads the FSKL of the FMDL at off (nil if it has none).
func (f *resFile) readModelSkeleton(off int, name string) (*Skeleton, error) {
	if err := f.expectMagic(off, "FMDL", "model "+name); err != nil {
		return nil, err
	}
	sk, ok, err := f.offsetAt(off+0x0C, "model "+name+" skeleton")
	if err != nil || !ok {
		return nil, err
	}
	if err := f.expectMagic(sk, "FSKL", "model "+name+" skeleton"); err != nil {
		return nil, err
	}
	r, err := f.at(sk, 0x18, "skeleton header")
	if err != nil {
		return nil, err
	}
	r.Skip(4, "magic")
	s := &Skeleton{Model: name}
	s.Flags, _ = r.U32("flags")
	numBone, _ := r.U16("bone count")
	size := boneSize(f.header.Version)
	if err := f.readBones(s, sk+0x14, int(numBone), size, 4, "skeleton"); err != nil {
		return nil, err
	}
	arr, _ := f.requiredOffsetAt(sk+0x14, "skeleton bone array")
	if s.Tables, err = f.readSkinTables(sk, arr, int(numBone), size, name); err != nil {
		return nil, err
	}
	return s, nil
}

// readBones reads the n bone records (size bytes each) of the array whose
// offset is stored at arrPos into s.Bones. A record starts with its name
// offset; from fields on come u16 index, s16 parent, the matrix and
// billboard indices and user-data count (8 bytes), u32 flags and the bind
// scale (3 f32), rotate (4) and translate (3), on both platforms.
func (f *resFile) readBones(s *Skeleton, arrPos, n, size, fields int, what string) error {
	if n == 0 {
		return nil
	}
	arr, err := f.requiredOffsetAt(arrPos, what+" bone array")
	if err != nil {
		return err
	}
	if _, err := f.arrayFits(arr, n, size, what+" bones"); err != nil {
		return err
	}
	s.Bones = make([]Bone, n)
	for i := range s.Bones {
		pos := arr + i*size
		b := &s.Bones[i]
		if b.Name, err = f.nameAt(pos, "bone"); err != nil {
			return err
		}
		r, _ := f.at(pos+fields, 0x38, "bone")
		b.Index, _ = r.U16("index")
		b.Parent, _ = r.I16("parent")
		r.Skip(8, "matrix and billboard indices, user data count")
		b.Flags, _ = r.U32("flags")
		for j := range b.Scale {
			b.Scale[j], _ = r.F32("scale")
		}
		for j := range b.Rotate {
			b.Rotate[j], _ = r.F32("rotate")
		}
		for j := range b.Translate {
			b.Translate[j], _ = r.F32("translate")
		}
		for _, v := range append(append(b.Scale[:], b.Rotate[:]...), b.Translate[:]...) {
			if !finite32(v) {
				return binread.Errorf(int64(pos+fields+0x10), "bone %q bind pose is not finite", b.Name)
			}
		}
		if b.Parent < -1 || int(b.Parent) >= n {
			return binread.Errorf(int64(pos+fields+2), "bone %q has parent index %d, not -1 or one of the %d bones", b.Name, b.Parent, n)
		}
	}
	return nil
}

// expectMagic checks the 4-byte sub-file magic at off.
func (f *resFile) expectMagic(off int, magic, what string) error {
	r, err := f.at(off, 4, what+" header")
	if err != nil {
		return err
	}
	if got := string(r.Data); got != magic {
		return binread.Errorf(int64(off), "%s: expected %s magic, found %q", what, magic, got)
	}
	return nil
}
