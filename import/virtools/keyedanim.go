package virtools

// Section identifiers of CKAnimation and CKKeyedAnimation.
const (
	identAnimLength     = 0x40     // float length (frames)
	identAnimRate       = 0x10     // 12 bytes: interrupt, link, rate; 8 bytes: flags, rate
	identAnimRoot       = 0x80     // object array (ignored), then the root entity
	identAnimCharacter  = 0x100    // the character
	identAnimStep       = 0x200    // float current step
	identKeyedAnimList  = 0x1000   // object array of CKObjectAnimation
	identKeyedAnimMerge = 0x100000 // int merged, float merge factor
)

// DefaultKeyedFrameRate is a CKAnimation's frame rate when its chunk does
// not state one (the constructor's value).
const DefaultKeyedFrameRate = 30

// KeyedAnimation is a CKKeyedAnimation (with its CKAnimation part) as
// stored: a set of object animations played together.
type KeyedAnimation struct {
	Index       int     // object-table index
	Length      float32 // frames
	FrameRate   float32 // frames per second
	Flags       uint32  // CK_ANIMATION_FLAGS (8-byte rate section only)
	RateFields  int     // 2 or 3: which form the rate section had (0 = absent)
	RootEntity  int     // table index of the root entity, or noRef
	Character   int     // table index of the character, or noRef
	Step        float32 // saved current step
	Animations  []int   // table indices of the object animations
	Merged      bool
	MergeFactor float32
}

// decodeKeyedAnimation reads a CKKeyedAnimation's chunk.
func decodeKeyedAnimation(o *Object, refs refResolver) (*KeyedAnimation, error) {
	k := &KeyedAnimation{Index: o.Index, FrameRate: DefaultKeyedFrameRate, RootEntity: noRef, Character: noRef, MergeFactor: 0.5}
	c := o.Chunk
	if c == nil {
		return k, nil
	}
	if s, err := c.section(identAnimLength, refs); err != nil {
		return nil, err
	} else if s != nil {
		if k.Length, err = s.F32("length"); err != nil {
			return nil, err
		}
		if err := s.finite("length", k.Length); err != nil {
			return nil, err
		}
		if k.Length < 0 {
			return nil, s.errorf("length %v is negative", k.Length)
		}
	}
	if s, err := c.section(identAnimRate, refs); err != nil {
		return nil, err
	} else if s != nil {
		if err := k.readRate(s); err != nil {
			return nil, err
		}
	}
	if s, err := c.section(identAnimRoot, refs); err != nil {
		return nil, err
	} else if s != nil {
		if _, err := s.LenientRefArray("animation entities"); err != nil {
			return nil, err
		}
		if k.RootEntity, err = s.Ref("root entity"); err != nil {
			return nil, err
		}
	}
	if s, err := c.section(identAnimCharacter, refs); err != nil {
		return nil, err
	} else if s != nil {
		if k.Character, err = s.LenientRef("character"); err != nil {
			return nil, err
		}
	}
	if s, err := c.section(identAnimStep, refs); err != nil {
		return nil, err
	} else if s != nil {
		if k.Step, err = s.F32("current step"); err != nil {
			return nil, err
		}
	}
	if s, err := c.section(identKeyedAnimList, refs); err != nil {
		return nil, err
	} else if s != nil {
		if k.Animations, err = s.RefArray("object animations"); err != nil {
			return nil, err
		}
	}
	if s, err := c.section(identKeyedAnimMerge, refs); err != nil {
		return nil, err
	} else if s != nil {
		merged, err := s.U32("merged flag")
		if err != nil {
			return nil, err
		}
		k.Merged = merged != 0
		if k.MergeFactor, err = s.F32("merge factor"); err != nil {
			return nil, err
		}
		if err := s.finite("merge factor", k.MergeFactor); err != nil {
			return nil, err
		}
	}
	return k, nil
}

// readRate reads the 0x10 section, whose form depends on its size: three
// dwords (can-interrupt, linked-to-frame-rate, rate) or two (flags, rate).
func (k *KeyedAnimation) readRate(s *sectionReader) error {
	var err error
	switch s.Size() {
	case 3:
		k.RateFields = 3
		if err := s.Skip(2, "interrupt and frame-rate link flags"); err != nil {
			return err
		}
	case 2:
		k.RateFields = 2
		if k.Flags, err = s.U32("animation flags"); err != nil {
			return err
		}
	default:
		return s.errorf("frame-rate section has %d dwords, expected 2 or 3", s.Size())
	}
	k.FrameRate, err = s.F32("frame rate")
	return err
}
