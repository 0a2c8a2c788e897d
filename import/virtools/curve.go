package virtools

// Section identifiers of CKCurve and CKCurvePoint.
const (
	identCurveData      = 0xffc00000 // points, fitting, step count, open
	identCurvePointsOld = 0x800000   // DataVersion < 5: point array
	identCurveFitOld    = 0x400000   // DataVersion < 5: fitting coefficient
	identCurveStepsOld  = 0x1000000  // DataVersion < 5: step count
	identCurveOpenOld   = 0x2000000  // DataVersion < 5: open flag

	identPointData       = 0x10000000 // curve, flags, TCB, tangents (old: curve, flags, position)
	identPointTCBOld     = 0x20000000 // DataVersion < 5: tension, continuity, bias
	identPointTangentOld = 0x40000000 // DataVersion < 5: in and out tangents
)

// Curve is a CKCurve's own data: its control points in curve order.
type Curve struct {
	Index   int     // object-table index
	Points  []int   // table indices of the CKCurvePoints, in curve order
	Fitting float32 // fitting coefficient (0 = none)
	Steps   uint32  // line-mesh step count (display only)
	Open    bool    // open curve; false means closed (last point joins the first)
}

// CurvePoint is a CKCurvePoint's own data. Its position comes from its
// entity world matrix; the tangents are a cache for TCB points.
type CurvePoint struct {
	Index        int // object-table index
	Curve        int // table index of the owning curve, or noRef
	UserTangents bool
	Linear       bool // the segment leaving this point is a straight line
	Tension      float32
	Continuity   float32
	Bias         float32
	In, Out      [3]float32 // curve-local tangents as saved
	// OldPosition is the position an old-format (DataVersion < 5) chunk
	// stores for SetPosition; HasOldPosition says it was present.
	OldPosition    [3]float32
	HasOldPosition bool
}

// decodeCurve reads a CKCurve's sections.
func decodeCurve(o *Object, refs refResolver) (*Curve, error) {
	cv := &Curve{Index: o.Index, Steps: 100}
	c := o.Chunk
	if c == nil {
		return cv, nil
	}
	if c.DataVersion < dataVersionMajorChange {
		return cv, cv.readOld(c, refs)
	}
	s, err := c.section(identCurveData, refs)
	if err != nil || s == nil {
		return cv, err
	}
	if cv.Points, err = s.RefArray("control points"); err != nil {
		return nil, err
	}
	if cv.Fitting, err = s.F32("fitting coefficient"); err != nil {
		return nil, err
	}
	if err := s.finite("fitting coefficient", cv.Fitting); err != nil {
		return nil, err
	}
	if cv.Steps, err = s.U32("step count"); err != nil {
		return nil, err
	}
	open, err := s.U32("open flag")
	cv.Open = open != 0
	return cv, err
}

// readOld reads the DataVersion < 5 layout: one section per field.
func (cv *Curve) readOld(c *Chunk, refs refResolver) error {
	if s, err := c.section(identCurvePointsOld, refs); err != nil {
		return err
	} else if s != nil {
		if cv.Points, err = s.RefArray("control points"); err != nil {
			return err
		}
	}
	if s, err := c.section(identCurveFitOld, refs); err != nil {
		return err
	} else if s != nil {
		if cv.Fitting, err = s.F32("fitting coefficient"); err != nil {
			return err
		}
		if err := s.finite("fitting coefficient", cv.Fitting); err != nil {
			return err
		}
	}
	if s, err := c.section(identCurveStepsOld, refs); err != nil {
		return err
	} else if s != nil {
		if cv.Steps, err = s.U32("step count"); err != nil {
			return err
		}
	}
	if s, err := c.section(identCurveOpenOld, refs); err != nil {
		return err
	} else if s != nil {
		open, err := s.U32("open flag")
		if err != nil {
			return err
		}
		cv.Open = open != 0
	}
	return nil
}

// decodeCurvePoint reads a CKCurvePoint's own sections.
func decodeCurvePoint(o *Object, refs refResolver) (*CurvePoint, error) {
	p := &CurvePoint{Index: o.Index, Curve: noRef}
	c := o.Chunk
	if c == nil {
		return p, nil
	}
	s, err := c.section(identPointData, refs)
	if err != nil || s == nil {
		return p, err
	}
	if p.Curve, err = s.Ref("curve"); err != nil {
		return nil, err
	}
	user, err := s.U32("user-tangent flag")
	if err != nil {
		return nil, err
	}
	linear, err := s.U32("linear flag")
	if err != nil {
		return nil, err
	}
	p.UserTangents, p.Linear = user != 0, linear != 0
	if c.DataVersion < dataVersionMajorChange {
		return p, p.readOld(c, s, refs)
	}
	if err := p.readTCB(s); err != nil {
		return nil, err
	}
	if p.In, err = s.Vec3("in tangent"); err != nil {
		return nil, err
	}
	if p.Out, err = s.Vec3("out tangent"); err != nil {
		return nil, err
	}
	return p, s.finite("tangents", p.In[0], p.In[1], p.In[2], p.Out[0], p.Out[1], p.Out[2])
}

// readTCB reads tension, continuity and bias, in that order (the order the
// tangent cache of the game's curve confirms, see the tests).
func (p *CurvePoint) readTCB(s *sectionReader) error {
	var err error
	if p.Tension, err = s.F32("tension"); err != nil {
		return err
	}
	if p.Continuity, err = s.F32("continuity"); err != nil {
		return err
	}
	if p.Bias, err = s.F32("bias"); err != nil {
		return err
	}
	return s.finite("tension, continuity or bias", p.Tension, p.Continuity, p.Bias)
}

// readOld reads the rest of the DataVersion < 5 layout.
func (p *CurvePoint) readOld(c *Chunk, s *sectionReader, refs refResolver) error {
	var err error
	if p.OldPosition, err = s.Vec3("position"); err != nil {
		return err
	}
	if err := s.finite("position", p.OldPosition[:]...); err != nil {
		return err
	}
	p.HasOldPosition = true
	if s, err := c.section(identPointTCBOld, refs); err != nil {
		return err
	} else if s != nil {
		if err := p.readTCB(s); err != nil {
			return err
		}
	}
	if s, err := c.section(identPointTangentOld, refs); err != nil {
		return err
	} else if s != nil {
		if p.In, err = s.Vec3("in tangent"); err != nil {
			return err
		}
		if p.Out, err = s.Vec3("out tangent"); err != nil {
			return err
		}
		if err := s.finite("tangents", p.In[0], p.In[1], p.In[2], p.Out[0], p.Out[1], p.Out[2]); err != nil {
			return err
		}
	}
	return nil
}
