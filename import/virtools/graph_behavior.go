package virtools

// Section identifiers of CKBehavior, CKBehaviorIO and CKBehaviorLink
// (virtools-behaviours.md §2, §3).
const (
	identBehaviorNewData  = 0x20 // flags, GUID, ..., save flags, object arrays
	identBehaviorIOFlags  = 0x8  // CKBehaviorIO: one dword of old flags
	identBehaviorLinkData = 0x20 // CKBehaviorLink: delays, from, to
)

// CKBehavior flags (CKBEHAVIOR_FLAGS) that change the 0x20 layout.
const (
	BehaviorScript          = 0x2
	BehaviorPriority        = 0x4
	BehaviorCompatibleClass = 0x10
	BehaviorBuildingBlock   = 0x8000
	BehaviorTargetable      = 0x40000
)

// behaviorArrays lists the save-flag bits of the 0x20 section's object
// arrays in the order they are stored (§2 step 6), with where each goes.
var behaviorArrays = []struct {
	bit  uint32
	name string
	dst  func(b *Behavior) *[]int
}{
	{0x100, "sub-behaviours", func(b *Behavior) *[]int { return &b.SubBehaviors }},
	{0x80000, "sub-behaviour links", func(b *Behavior) *[]int { return &b.SubLinks }},
	{0x4000, "parameter operations", func(b *Behavior) *[]int { return &b.Operations }},
	{0x200, "input parameters", func(b *Behavior) *[]int { return &b.InParams }},
	{0x400, "output parameters", func(b *Behavior) *[]int { return &b.OutParams }},
	{0x20000, "local parameters", func(b *Behavior) *[]int { return &b.Locals }},
	{0x800, "inputs", func(b *Behavior) *[]int { return &b.Inputs }},
	{0x1000, "outputs", func(b *Behavior) *[]int { return &b.Outputs }},
}

// GUID is a Virtools two-dword GUID (CKGUID), written d1:d2 in hex.
type GUID [2]uint32

// String formats the GUID the way the specs write it.
func (g GUID) String() string { return hex8(g[0]) + ":" + hex8(g[1]) }

func hex8(v uint32) string {
	s := hex32(v)
	for len(s) < 8 {
		s = "0" + s
	}
	return s
}

// Behavior is one CKBehavior: a script, a sub-graph or a building block.
// Every array holds object-table indices in the stored order, so element k
// is pIn k, pOut k, local k, input k or output k of the BB.
type Behavior struct {
	Index           int
	Flags           uint32 // CKBEHAVIOR_FLAGS
	Prototype       GUID   // the BB's prototype GUID (BuildingBlock flag only)
	Version         uint32 // the BB's version (BuildingBlock flag only)
	Priority        int32
	CompatibleClass uint32
	Target          int // the target pIn (Targetable flag), or noRef
	SaveFlags       uint32

	SubBehaviors, SubLinks, Operations []int
	InParams, OutParams, Locals        []int
	Inputs, Outputs                    []int
}

// IsBuildingBlock reports whether the behaviour is a BB instance (it has a
// prototype GUID) rather than a graph.
func (b *Behavior) IsBuildingBlock() bool { return b.Flags&BehaviorBuildingBlock != 0 }

// decodeBehavior reads the 0x20 section of a CKBehavior chunk (§2). The
// 0x10 interface and 0x200000 single-activity sections are not needed.
func decodeBehavior(o *Object, refs refResolver) (*Behavior, error) {
	b := &Behavior{Index: o.Index, Target: noRef}
	c := o.Chunk
	if c.DataVersion < dataVersionMajorChange {
		return nil, chunkError(c, "behaviour data version %d predates the 0x20 layout (5 or later)", c.DataVersion)
	}
	s, err := c.section(identBehaviorNewData, refs)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return nil, chunkError(c, "behaviour has no 0x20 section")
	}
	if b.Flags, err = s.U32("behaviour flags"); err != nil {
		return nil, err
	}
	if b.Flags&BehaviorBuildingBlock != 0 {
		if b.Prototype[0], err = s.U32("prototype GUID"); err != nil {
			return nil, err
		}
		if b.Prototype[1], err = s.U32("prototype GUID"); err != nil {
			return nil, err
		}
		if b.Version, err = s.U32("building block version"); err != nil {
			return nil, err
		}
	}
	if b.Flags&BehaviorPriority != 0 {
		v, err := s.U32("priority")
		if err != nil {
			return nil, err
		}
		b.Priority = int32(v)
	}
	if b.Flags&BehaviorCompatibleClass != 0 {
		if b.CompatibleClass, err = s.U32("compatible class id"); err != nil {
			return nil, err
		}
	}
	if b.Flags&BehaviorTargetable != 0 {
		if b.Target, err = s.Ref("target parameter"); err != nil {
			return nil, err
		}
	}
	if b.SaveFlags, err = s.U32("save flags"); err != nil {
		return nil, err
	}
	for _, a := range behaviorArrays {
		if b.SaveFlags&a.bit == 0 {
			continue
		}
		if *a.dst(b), err = s.RefArray(a.name); err != nil {
			return nil, err
		}
	}
	return b, sectionDone(s, "behaviour")
}

// BehaviorIO is one activation pin.
type BehaviorIO struct {
	Index int
	Flags uint32 // 0x1 input, 0x2 output, 0x100 active at save time
}

// decodeBehaviorIO reads the 0x8 section of a CKBehaviorIO (§3).
func decodeBehaviorIO(o *Object, refs refResolver) (*BehaviorIO, error) {
	s, err := o.Chunk.section(identBehaviorIOFlags, refs)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return nil, chunkError(o.Chunk, "behaviour IO has no 0x8 section")
	}
	io := &BehaviorIO{Index: o.Index}
	if io.Flags, err = s.U32("IO flags"); err != nil {
		return nil, err
	}
	return io, sectionDone(s, "behaviour IO")
}

// BehaviorLink is an activation wire between two IOs.
type BehaviorLink struct {
	Index        int
	Delay        uint16 // current activation delay, frames
	InitialDelay uint16 // delay the link starts with, frames
	From, To     int    // IO table indices
}

// decodeBehaviorLink reads the 0x20 section of a CKBehaviorLink (§3).
func decodeBehaviorLink(o *Object, refs refResolver) (*BehaviorLink, error) {
	s, err := o.Chunk.section(identBehaviorLinkData, refs)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return nil, chunkError(o.Chunk, "behaviour link has no 0x20 section")
	}
	l := &BehaviorLink{Index: o.Index}
	d, err := s.U32("link delays")
	if err != nil {
		return nil, err
	}
	l.Delay, l.InitialDelay = uint16(d), uint16(d>>16)
	if l.From, err = s.Ref("link source IO"); err != nil {
		return nil, err
	}
	if l.To, err = s.Ref("link destination IO"); err != nil {
		return nil, err
	}
	return l, sectionDone(s, "behaviour link")
}
