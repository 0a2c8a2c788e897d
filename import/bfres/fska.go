package bfres

import (
	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/model"
)

// Animation flags shared by FSKA, FSHU, FTXP and FVIS (§6.2, §10).
const (
	animFlagBaked = 1 << 0
	animFlagLoop  = 1 << 2
)

// BoneAnim flag bits (§7.2).
const (
	boneAnimBaseScale     = 1 << 3
	boneAnimBaseRotate    = 1 << 4
	boneAnimBaseTranslate = 1 << 5
)

// boneAnimSize is the Wii U BoneAnim stride (§7.1).
const boneAnimSize = 0x18

// fskaHeaderSize covers the FSKA header up to the user-data group (§6.1).
const fskaHeaderSize = 0x30

// SkeletalAnim is a decoded FSKA (bfres-container.md §6).
type SkeletalAnim struct {
	Name       string
	Flags      uint32
	FrameCount int32
	NumCurve   int32 // total over all bone anims, as the header states
	BoneAnims  []BoneAnim
}

// BoneAnim is one bone's animation (§7): base values present per flag bit
// and curves with the byte offset each one targets in BoneAnimResult (§7.4).
type BoneAnim struct {
	Name          string
	Flags         uint32
	BaseScale     *[3]float32
	BaseRotate    *[4]float32
	BaseTranslate *[3]float32
	Curves        []*model.NW4FCurve
	Targets       []uint32
}

// readFSKA decodes the FSKA at off.
func (f *resFile) readFSKA(off int, name string) (*SkeletalAnim, error) {
	what := "skeletal animation " + name
	if err := f.expectMagic(off, "FSKA", what); err != nil {
		return nil, err
	}
	r, err := f.at(off, fskaHeaderSize, what+" header")
	if err != nil {
		return nil, err
	}
	a := &SkeletalAnim{}
	if a.Name, err = f.stringAt(off+4, what); err != nil {
		return nil, err
	}
	r.Seek(0x0C, "flags")
	a.Flags, _ = r.U32("flags")
	var numBoneAnim uint16
	if f.header.Version >= Version3_4 {
		a.FrameCount, _ = r.I32("frame count")
		numBoneAnim, _ = r.U16("bone anim count")
		r.Skip(2, "user data count")
		a.NumCurve, _ = r.I32("curve count")
	} else {
		fc, _ := r.I16("frame count")
		a.FrameCount = int32(fc)
		numBoneAnim, _ = r.U16("bone anim count")
		a.NumCurve, _ = r.I32("curve count")
	}
	if err := checkFrameCount(off+0x10, what, a.FrameCount); err != nil {
		return nil, err
	}
	return a, f.readBoneAnims(a, int(numBoneAnim), off+0x20, boneAnimSize, f.readBoneAnim, what)
}

// readBoneAnims reads the n BoneAnim records (stride bytes each, decoded by
// read) of the array whose offset is stored at arrPos.
func (f *resFile) readBoneAnims(a *SkeletalAnim, n, arrPos, stride int, read func(int, *BoneAnim, string) error, what string) error {
	if n == 0 {
		return nil
	}
	arr, err := f.requiredOffsetAt(arrPos, what+" bone anim array")
	if err != nil {
		return err
	}
	if _, err := f.arrayFits(arr, n, stride, what+" bone anims"); err != nil {
		return err
	}
	a.BoneAnims = make([]BoneAnim, n)
	for i := range a.BoneAnims {
		if err := read(arr+i*stride, &a.BoneAnims[i], what); err != nil {
			return err
		}
	}
	return nil
}

// readBoneAnim decodes one Wii U BoneAnim (§7.1): flags, name, curve
// count, then its curves and base values.
func (f *resFile) readBoneAnim(pos int, b *BoneAnim, what string) error {
	r, _ := f.at(pos, boneAnimSize, what+" bone anim")
	b.Flags, _ = r.U32("flags")
	var err error
	if b.Name, err = f.nameAt(pos+4, what+" bone anim"); err != nil {
		return err
	}
	r.Seek(0x0A, "curve count")
	numCurve, _ := r.U8("curve count")
	return f.readBoneAnimData(b, int(numCurve), pos+0x10, pos+0x14, what)
}

// readBoneAnimData reads a BoneAnim's curves (numCurve of them, the array
// offset stored at curvesPos) and its base values (offset stored at
// basePos), whose layout is the same on both platforms.
func (f *resFile) readBoneAnimData(b *BoneAnim, numCurve, curvesPos, basePos int, what string) error {
	what += " bone " + b.Name
	if numCurve > 0 {
		curves, err := f.requiredOffsetAt(curvesPos, what+" curve array")
		if err != nil {
			return err
		}
		if b.Curves, b.Targets, err = f.readCurves(curves, numCurve, what); err != nil {
			return err
		}
	}
	n := 0
	if b.Flags&boneAnimBaseScale != 0 {
		n += 3
	}
	if b.Flags&boneAnimBaseRotate != 0 {
		n += 4
	}
	if b.Flags&boneAnimBaseTranslate != 0 {
		n += 3
	}
	if n == 0 {
		return nil
	}
	base, err := f.requiredOffsetAt(basePos, what+" base values")
	if err != nil {
		return err
	}
	vr, err := f.at(base, 4*n, what+" base values")
	if err != nil {
		return err
	}
	v, _ := vr.F32s(n, "base values")
	for i, x := range v {
		if !finite32(x) {
			return binread.Errorf(int64(base+4*i), "%s base value %d is not finite", what, i)
		}
	}
	// Storage order is scale, rotate, translate (§7.3).
	if b.Flags&boneAnimBaseScale != 0 {
		b.BaseScale = (*[3]float32)(v[:3])
		v = v[3:]
	}
	if b.Flags&boneAnimBaseRotate != 0 {
		b.BaseRotate = (*[4]float32)(v[:4])
		v = v[4:]
	}
	if b.Flags&boneAnimBaseTranslate != 0 {
		b.BaseTranslate = (*[3]float32)(v[:3])
	}
	return nil
}
