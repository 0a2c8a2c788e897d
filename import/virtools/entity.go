package virtools

// Section identifiers of CK3dEntity (CK_STATESAVE_3DENTITY*).
const (
	identEntityAnimations = 0x2000   // object array of CKObjectAnimation
	identEntityMeshes     = 0x4000   // current mesh, then the potential meshes
	identEntityParentOld  = 0x8000   // old format: parent ref
	identEntityFlagsOld   = 0x10000  // old format: flags, moveable flags
	identEntityMatrixOld  = 0x20000  // old format: 1 skipped dword, 4×4 matrix
	identEntityData       = 0x100000 // current format: flags, moveable, 4 rows, refs
)

// Entity flags (CK_3DENTITY_FLAGS) that change the 0x100000 layout or matter
// to animation.
const (
	EntityIgnoreAnimation = 0x400    // SetStep leaves the entity alone
	EntityPlaceValid      = 0x10000  // a place reference follows the matrix
	EntityParentValid     = 0x20000  // a parent reference follows
	EntityZOrderValid     = 0x100000 // a z-order int follows
)

// Entity is the CK3dEntity part of an object: its saved world matrix and
// parent, and its animation list.
type Entity struct {
	Index         int // object-table index
	Flags         uint32
	MoveableFlags uint32
	// World is the world matrix as saved: rows 0–2 are the X, Y and Z axes,
	// row 3 the position (Virtools row vectors, v' = v·M; the fourth column
	// is implicitly 0, 0, 0, 1).
	World      [4][3]float32
	HasWorld   bool  // a matrix section was present
	Parent     int   // table index of the parent entity, or noRef
	Place      int   // table index of the place, or noRef
	Animations []int // table indices of the entity's object animations
	Mesh       int   // table index of the current mesh, or noRef
	Meshes     []int // the potential meshes (table indices)
	Hidden     bool  // CKObject section 0x4: not shown
}

// identObjectHidden is CKObject's section marking a hidden object.
const identObjectHidden = 0x4

// decodeEntity reads the CK3dEntity sections of an object's chunk.
func decodeEntity(o *Object, refs refResolver) (*Entity, error) {
	e := &Entity{Index: o.Index, Parent: noRef, Place: noRef, Mesh: noRef}
	c := o.Chunk
	if c == nil {
		return e, nil
	}
	if s, err := c.section(identObjectHidden, refs); err != nil {
		return nil, err
	} else if s != nil {
		e.Hidden = true
	}
	if s, err := c.section(identEntityMeshes, refs); err != nil {
		return nil, err
	} else if s != nil {
		if e.Mesh, err = s.LenientRef("current mesh"); err != nil {
			return nil, err
		}
		if s.Left() > 0 {
			if e.Meshes, err = s.LenientRefArray("mesh list"); err != nil {
				return nil, err
			}
		}
	}
	s, err := c.section(identEntityAnimations, refs)
	if err != nil {
		return nil, err
	}
	if s != nil {
		if e.Animations, err = s.LenientRefArray("animation list"); err != nil {
			return nil, err
		}
	}
	s, err = c.section(identEntityData, refs)
	if err != nil {
		return nil, err
	}
	if s != nil {
		return e, e.readData(s)
	}
	return e, e.readOldSections(c, refs)
}

// readData reads the current 0x100000 section.
func (e *Entity) readData(s *sectionReader) error {
	var err error
	if e.Flags, err = s.U32("entity flags"); err != nil {
		return err
	}
	if e.MoveableFlags, err = s.U32("moveable flags"); err != nil {
		return err
	}
	for i := range e.World {
		if e.World[i], err = s.Vec3("world matrix row"); err != nil {
			return err
		}
		if err := s.finite("world matrix row", e.World[i][:]...); err != nil {
			return err
		}
	}
	e.HasWorld = true
	if e.Flags&EntityPlaceValid != 0 {
		if e.Place, err = s.LenientRef("place"); err != nil {
			return err
		}
	}
	if e.Flags&EntityParentValid != 0 {
		if e.Parent, err = s.Ref("parent"); err != nil {
			return err
		}
	}
	return nil
}

// readOldSections reads the pre-0x100000 layout (separate flags, matrix
// and parent sections; not used by Ballance).
func (e *Entity) readOldSections(c *Chunk, refs refResolver) error {
	if s, err := c.section(identEntityFlagsOld, refs); err != nil {
		return err
	} else if s != nil {
		if e.Flags, err = s.U32("entity flags"); err != nil {
			return err
		}
		if e.MoveableFlags, err = s.U32("moveable flags"); err != nil {
			return err
		}
	}
	if s, err := c.section(identEntityMatrixOld, refs); err != nil {
		return err
	} else if s != nil {
		if err := s.Skip(1, "old matrix prefix"); err != nil {
			return err
		}
		for i := range 4 {
			row, err := s.Vec3("world matrix row")
			if err != nil {
				return err
			}
			e.World[i] = row
			if err := s.finite("world matrix row", row[:]...); err != nil {
				return err
			}
			if err := s.Skip(1, "world matrix column 4"); err != nil {
				return err
			}
		}
		e.HasWorld = true
	}
	if s, err := c.section(identEntityParentOld, refs); err != nil {
		return err
	} else if s != nil {
		if e.Parent, err = s.Ref("parent"); err != nil {
			return err
		}
	}
	return nil
}
