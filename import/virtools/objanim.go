package virtools

// Section identifiers of CKObjectAnimation (DataVersion ≥ 1).
const (
	identObjAnimShared      = 0x2000000 // shares another animation's keyframe data
	identObjAnimControllers = 0x4000000 // the current format: header and controller list
	identObjAnimOld         = 0x1000    // older single-block format (not supported)
)

// Object-animation flags (CK_OBJECTANIMATION_FLAGS, virtools-controllers.md §9).
const (
	AnimIgnorePosition  = 0x04
	AnimIgnoreRotation  = 0x08
	AnimIgnoreScale     = 0x10
	AnimIgnoreMorph     = 0x20
	AnimIgnoreScaleAxis = 0x40
	AnimMerged          = 0x80
)

// ObjectAnimation is a CKObjectAnimation as stored.
type ObjectAnimation struct {
	Index int // object-table index
	// AppData is the leading vector; a keyed animation takes a nonzero one
	// as its root offset.
	AppData [3]float32
	Flags   uint32
	Entity  int     // table index of the animated 3D entity, or noRef
	Length  float32 // frames
	// Merge data, when Flags has AnimMerged.
	MergeFactor    float32
	MergeA, MergeB int
	// Shared is the table index of the animation whose keyframe data this
	// one shares (the 0x2000000 form), or noRef.
	Shared int
	// Controllers per base type; nil when absent.
	Position, Scale, Rotation, ScaleAxis *Controller
	// Morph is set when a morph controller was present (not supported).
	Morph bool
	// Unsupported lists the controller types that were skipped.
	Unsupported []uint32
}

// decodeObjectAnimation reads a CKObjectAnimation's chunk.
func decodeObjectAnimation(o *Object, refs refResolver, warn func(string, ...any)) (*ObjectAnimation, error) {
	a := &ObjectAnimation{Index: o.Index, Entity: noRef, MergeA: noRef, MergeB: noRef, Shared: noRef}
	c := o.Chunk
	if c == nil {
		return a, nil
	}
	if c.DataVersion < 1 {
		warn("object animation %q uses the pre-1.0 layout, which is not supported; it has no keys", o.Name)
		return a, nil
	}
	s, err := c.section(identObjAnimControllers, refs)
	if err != nil {
		return nil, err
	}
	if s != nil {
		if err := a.readHeader(s); err != nil {
			return nil, err
		}
		return a, a.readControllers(s, o.Name, warn)
	}
	s, err = c.section(identObjAnimShared, refs)
	if err != nil {
		return nil, err
	}
	if s != nil {
		if a.Shared, err = s.Ref("shared source animation"); err != nil {
			return nil, err
		}
		return a, a.readSharedHeader(s)
	}
	if s, err := c.section(identObjAnimOld, refs); err != nil {
		return nil, err
	} else if s != nil {
		warn("object animation %q uses the old single-block layout, which is not supported; it has no keys", o.Name)
	}
	return a, nil
}

// readHeader reads the vector, the unused floats, flags, entity, length
// and the optional merge block of the 0x4000000 section.
func (a *ObjectAnimation) readHeader(s *sectionReader) error {
	if err := a.readLead(s); err != nil {
		return err
	}
	var err error
	if a.Length, err = s.F32("length"); err != nil {
		return err
	}
	if err := s.finite("length", a.Length); err != nil {
		return err
	}
	if a.Length < 0 {
		return s.errorf("length %v is negative", a.Length)
	}
	return a.readMerge(s)
}

// readSharedHeader reads the 0x2000000 form: the same header without a
// length (the length belongs to the shared keyframe data).
func (a *ObjectAnimation) readSharedHeader(s *sectionReader) error {
	if err := a.readLead(s); err != nil {
		return err
	}
	return a.readMerge(s)
}

// readLead reads what both header forms open with: the app-data vector,
// the 4 unused floats, the flags and the entity reference.
func (a *ObjectAnimation) readLead(s *sectionReader) error {
	var err error
	if a.AppData, err = s.Vec3("app-data vector"); err != nil {
		return err
	}
	if err := s.finite("app-data vector", a.AppData[:]...); err != nil {
		return err
	}
	if err := s.Skip(4, "unused floats"); err != nil {
		return err
	}
	if a.Flags, err = s.U32("flags"); err != nil {
		return err
	}
	if a.Entity, err = s.Ref("entity"); err != nil {
		return err
	}
	return nil
}

func (a *ObjectAnimation) readMerge(s *sectionReader) error {
	if a.Flags&AnimMerged == 0 {
		return nil
	}
	var err error
	if a.MergeFactor, err = s.F32("merge factor"); err != nil {
		return err
	}
	if err := s.finite("merge factor", a.MergeFactor); err != nil {
		return err
	}
	if a.MergeA, err = s.Ref("merged animation A"); err != nil {
		return err
	}
	a.MergeB, err = s.Ref("merged animation B")
	return err
}

// readControllers reads `type, size, block` records until a type of 0 or
// the end of the section. Unknown and morph controllers are skipped by
// their size with a warning.
func (a *ObjectAnimation) readControllers(s *sectionReader, name string, warn func(string, ...any)) error {
	for s.Left() > 0 {
		off := s.Off()
		typ, _ := s.U32("controller type")
		if typ == 0 {
			return nil
		}
		size32, err := s.U32("controller size")
		if err != nil {
			return err
		}
		if uint64(size32) > uint64(s.Left()) {
			return s.errorf("controller 0x%x: its block of %d dwords runs past the section's %d remaining dwords", typ, size32, s.Left())
		}
		size := int(size32)
		if t, ok := oldControllerTypes[typ]; ok {
			typ = t
		}
		ctl := &Controller{Type: typ, Off: off}
		var slot **Controller
		switch {
		case typ == CtrlMorph || (typ&0xff) == BaseMorph:
			warn("object animation %q: morph controller (0x%x) is not supported; skipped", name, typ)
			a.Morph = true
		case keyDwords[typ] > 0 || typ == CtrlBezierPosition || typ == CtrlBezierScale:
			slot = a.slot(ctl.Base())
		default:
			warn("object animation %q: unknown controller type 0x%x skipped (%d dwords)", name, typ, size)
			a.Unsupported = append(a.Unsupported, typ)
		}
		if slot == nil || size == 0 {
			s.pos += size
			continue
		}
		start := s.pos
		if err := readKeys(ctl, s, size); err != nil {
			if ctl.Base() == BasePosition || ctl.Base() == BaseScale {
				if typ == CtrlBezierPosition || typ == CtrlBezierScale {
					// Neither Bezier layout fits: report, skip by size.
					warn("object animation %q: Bezier controller 0x%x is unreadable (%v); skipped", name, typ, err)
					a.Unsupported = append(a.Unsupported, typ)
					s.pos = start + size
					continue
				}
			}
			return err
		}
		if *slot != nil {
			warn("object animation %q: a second controller of base type %d replaces the first", name, ctl.Base())
		}
		*slot = ctl
	}
	return nil
}

// slot returns the field holding the controller of a base type.
func (a *ObjectAnimation) slot(base uint32) **Controller {
	switch base {
	case BasePosition:
		return &a.Position
	case BaseRotation:
		return &a.Rotation
	case BaseScale:
		return &a.Scale
	case BaseScaleAxis:
		return &a.ScaleAxis
	}
	return nil
}
