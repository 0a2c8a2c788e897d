package bfres

// Switch FSKA records (version 8 and earlier; BfresLibrary
// Shared/SkeletalAnim read for the facts, checked on the samples).
const (
	nxFSKASize     = 0x60 // magic, block header, name, path, bind skeleton and indices, bone anims, user data, flags, counts
	nxBoneAnimSize = 0x28 // name, curve array, base values, flags, begin fields, curve count, begin curve
)

// readNXFSKA decodes the Switch FSKA at off: name (0x10), the BoneAnim
// array (0x30), then u32 flags (0x48), s32 frame count (0x4C), s32 curve
// count (0x50), baked size and u16 bone-anim count (0x58). Flags, curves
// and base values mean what they mean on the Wii U (§6, §7).
func (f *resFile) readNXFSKA(off int) (*SkeletalAnim, error) {
	what := "skeletal animation"
	r, err := f.nxBlockHeader(off, "FSKA", what, nxFSKASize)
	if err != nil {
		return nil, err
	}
	a := &SkeletalAnim{}
	if a.Name, err = f.stringAt(off+0x10, what); err != nil {
		return nil, err
	}
	what += " " + a.Name
	r.Seek(0x48, "flags")
	a.Flags, _ = r.U32("flags")
	a.FrameCount, _ = r.I32("frame count")
	a.NumCurve, _ = r.I32("curve count")
	r.Skip(4, "baked size")
	numBoneAnim, _ := r.U16("bone anim count")
	if err := checkFrameCount(off+0x4C, what, a.FrameCount); err != nil {
		return nil, err
	}
	return a, f.readBoneAnims(a, int(numBoneAnim), off+0x30, nxBoneAnimSize, f.readNXBoneAnim, what)
}

// readNXBoneAnim decodes one Switch BoneAnim: name (0x00), curve array
// (0x08), base values (0x10), u32 flags (0x18), u8 curve count (0x1E).
func (f *resFile) readNXBoneAnim(pos int, b *BoneAnim, what string) error {
	var err error
	if b.Name, err = f.nameAt(pos, what+" bone anim"); err != nil {
		return err
	}
	r, _ := f.at(pos, nxBoneAnimSize, what+" bone anim")
	r.Seek(0x18, "flags")
	b.Flags, _ = r.U32("flags")
	r.Skip(2, "begin rotate and translate")
	numCurve, _ := r.U8("curve count")
	return f.readBoneAnimData(b, int(numCurve), pos+0x08, pos+0x10, what)
}
