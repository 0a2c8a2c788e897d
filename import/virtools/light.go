package virtools

// Section identifiers of CKLight and CKTargetLight.
const (
	identLightData   = 0x400000   // type and flags, colour, attenuation, range, cone
	identLightPower  = 0x800000   // light power
	identLightTarget = 0x80000000 // TLIGHTTARGET: the target entity
)

// Light types (VXLIGHT_TYPE).
const (
	LightPoint       = 1
	LightSpot        = 2
	LightDirectional = 3
	LightParallel    = 4 // obsolete; the engine treats it as a point light
)

// Light flags (the high bytes of the type dword).
const (
	LightActive   = 0x100
	LightSpecular = 0x200
)

// Light is a decoded CKLight (or CKTargetLight).
type Light struct {
	Index        int
	Type         uint32
	Flags        uint32
	Color        uint32 // diffuse ARGB
	Attenuation  [3]float32
	Range        float32
	Outer, Inner float32 // spot cone full angles, radians
	Falloff      float32
	Power        float32
	Target       int // table index of the target entity, or noRef
	HasData      bool
}

// decodeLight reads the light sections: a dword whose low byte is the type
// and whose other bits are flags, the diffuse colour, three attenuation
// factors, the range and, for spots, the outer and inner cone angles and
// the falloff; then the power (1 when absent) and a target light's target.
func decodeLight(o *Object, refs refResolver) (*Light, error) {
	l := &Light{Index: o.Index, Type: LightPoint, Flags: LightActive, Color: 0xffffffff, Attenuation: [3]float32{1, 0, 0}, Power: 1, Target: noRef}
	c := o.Chunk
	if c == nil {
		return l, nil
	}
	s, err := c.section(identLightData, refs)
	if err != nil {
		return nil, err
	}
	if s != nil {
		tf, err := s.U32("light type")
		if err != nil {
			return nil, err
		}
		l.Type, l.Flags = tf&0xff, tf&^0xff
		if l.Color, err = s.U32("light colour"); err != nil {
			return nil, err
		}
		for i := range l.Attenuation {
			if l.Attenuation[i], err = s.F32("attenuation"); err != nil {
				return nil, err
			}
		}
		if l.Range, err = s.F32("range"); err != nil {
			return nil, err
		}
		if l.Type == LightSpot {
			for _, p := range []*float32{&l.Outer, &l.Inner, &l.Falloff} {
				if *p, err = s.F32("spot cone"); err != nil {
					return nil, err
				}
			}
		}
		if err := s.finite("light values", l.Attenuation[0], l.Attenuation[1], l.Attenuation[2], l.Range, l.Outer, l.Inner, l.Falloff); err != nil {
			return nil, err
		}
		l.HasData = true
	}
	if s, err := c.section(identLightPower, refs); err != nil {
		return nil, err
	} else if s != nil {
		if l.Power, err = s.F32("light power"); err != nil {
			return nil, err
		}
		if err := s.finite("light power", l.Power); err != nil {
			return nil, err
		}
	}
	if isA(o.ClassID, ClassTargetLight) {
		if s, err := c.section(identLightTarget, refs); err != nil {
			return nil, err
		} else if s != nil {
			if l.Target, err = s.LenientRef("light target"); err != nil {
				return nil, err
			}
		}
	}
	return l, nil
}
