package virtools

import (
	"encoding/binary"
	"math"

	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/model"
)

// Section identifiers of the parameter classes (virtools-behaviours.md §4).
const (
	identParamInShared    = 0x800  // CKParameterIn: type GUID, shared pIn
	identParamInSource    = 0x1000 // CKParameterIn: type GUID, source parameter
	identParamInDisabled  = 0x2000 // CKParameterIn: no payload
	identParameterValue   = 0x40   // CKParameter: type GUID, state, value
	identParamOutDests    = 0x20   // CKParameterOut: destinations
	identOperationData    = 0x400  // CKParameterOperation: GUID, 3, in1, in2, out
	maxParameterValueSize = 1 << 20
)

// CKParameter value states (§4.2).
const (
	paramStateSubChunk = 0
	paramStateRaw      = 1
	paramStateObject   = 2
	paramStateNone     = 3
)

// chunkError is a FormatError at the start of a chunk's data.
func chunkError(c *Chunk, format string, args ...any) *binread.FormatError {
	return binread.Errorf(c.wordOff(0), format, args...)
}

// ParameterIn is one input pin: its declared type and where its value
// comes from (a source parameter, or another pIn it shares).
type ParameterIn struct {
	Index    int
	Type     GUID
	Shared   bool // the value is another pIn's (0x800); otherwise Source is a parameter (0x1000)
	Source   int  // table index of the source or shared pIn, or noRef
	Disabled bool
}

// decodeParameterIn reads a CKParameterIn: exactly one of 0x1000 and 0x800.
func decodeParameterIn(o *Object, refs refResolver) (*ParameterIn, error) {
	c := o.Chunk
	p := &ParameterIn{Index: o.Index, Source: noRef}
	s, err := c.section(identParamInSource, refs)
	if err != nil {
		return nil, err
	}
	if s == nil {
		if s, err = c.section(identParamInShared, refs); err != nil {
			return nil, err
		}
		p.Shared = true
	}
	if s == nil {
		return nil, chunkError(c, "parameter in has neither a source (0x1000) nor a shared input (0x800)")
	}
	if p.Type[0], err = s.U32("parameter type GUID"); err != nil {
		return nil, err
	}
	if p.Type[1], err = s.U32("parameter type GUID"); err != nil {
		return nil, err
	}
	if p.Source, err = s.Ref("parameter source"); err != nil {
		return nil, err
	}
	if err := sectionDone(s, "parameter in"); err != nil {
		return nil, err
	}
	d, err := c.section(identParamInDisabled, refs)
	p.Disabled = d != nil
	return p, err
}

// Parameter is a CKParameterOut, CKParameterLocal or CKParameter with its
// saved value. Exactly one of the value fields is set, by State.
type Parameter struct {
	Index   int
	ClassID int32
	Type    GUID
	State   uint32
	Raw     []byte                 // state 1: the value bytes (length as stated)
	Object  int                    // state 2: the referenced object, or noRef
	Curve2D *model.Virtools2dCurve // state 0 with the 2D-curve type
	// ManagerGUID and ManagerValue hold a "manager int" value (any other state).
	ManagerGUID  GUID
	ManagerValue int32
}

// decodeParameter reads section 0x40 (and skips the others).
func decodeParameter(o *Object, refs refResolver) (*Parameter, error) {
	c := o.Chunk
	s, err := c.section(identParameterValue, refs)
	if err != nil {
		return nil, err
	}
	p := &Parameter{Index: o.Index, ClassID: o.ClassID, Object: noRef}
	if s == nil {
		p.State = paramStateNone
		return p, nil
	}
	if p.Type[0], err = s.U32("parameter type GUID"); err != nil {
		return nil, err
	}
	if p.Type[1], err = s.U32("parameter type GUID"); err != nil {
		return nil, err
	}
	if p.State, err = s.U32("parameter value state"); err != nil {
		return nil, err
	}
	switch p.State {
	case paramStateRaw:
		if err := p.readRaw(s); err != nil {
			return nil, err
		}
	case paramStateObject:
		if p.Object, err = s.LenientRef("parameter object"); err != nil {
			return nil, err
		}
	case paramStateSubChunk:
		if err := p.readSubChunk(s); err != nil {
			return nil, err
		}
	case paramStateNone:
	default:
		// A manager int: this dword and the next are the manager's GUID.
		p.ManagerGUID[0] = p.State
		if p.ManagerGUID[1], err = s.U32("manager GUID"); err != nil {
			return nil, err
		}
		v, err := s.U32("manager value")
		if err != nil {
			return nil, err
		}
		p.ManagerValue = int32(v)
	}
	return p, sectionDone(s, "parameter value")
}

// readRaw reads a byte length and the bytes, padded to a dword.
func (p *Parameter) readRaw(s *sectionReader) error {
	n, err := s.U32("parameter value size")
	if err != nil {
		return err
	}
	words := (uint64(n) + 3) / 4
	if n > maxParameterValueSize {
		return s.errorf("parameter value of %d bytes is larger than %d", n, maxParameterValueSize)
	}
	if err := s.need(int(words), "parameter value"); err != nil {
		return err
	}
	start := 4 * s.pos
	p.Raw = s.c.data[start : start+int(n)]
	s.pos += int(words)
	return nil
}

// readSubChunk reads a value saved by a custom save function. Only the 2D
// curve is decoded; any other type's sub-chunk is skipped.
func (p *Parameter) readSubChunk(s *sectionReader) error {
	w, err := s.SubChunk("parameter value sub-chunk")
	if err != nil || w == nil {
		return err
	}
	if p.Type != TypeCurve2D {
		return nil
	}
	p.Curve2D, err = decode2dCurve(w, s.refs)
	return err
}

// Float reads a state-1 value as one f32 (Float, Time, Percentage, Angle).
func (p *Parameter) Float() (float64, bool) {
	if p == nil || p.State != paramStateRaw || len(p.Raw) < 4 {
		return 0, false
	}
	return float64(math.Float32frombits(binary.LittleEndian.Uint32(p.Raw))), true
}

// Int reads a state-1 value as one i32 (Integer, Boolean, enums).
func (p *Parameter) Int() (int32, bool) {
	if p == nil || p.State != paramStateRaw || len(p.Raw) < 4 {
		return 0, false
	}
	return int32(binary.LittleEndian.Uint32(p.Raw)), true
}

// Floats reads a state-1 value as n f32 (Vector: 3, 2D Vector: 2).
func (p *Parameter) Floats(n int) ([]float64, bool) {
	if p == nil || p.State != paramStateRaw || len(p.Raw) < 4*n {
		return nil, false
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(p.Raw[4*i:])))
	}
	return out, true
}

// ParameterOperation is a CKParameterOperation: out = op(in1, in2).
type ParameterOperation struct {
	Index         int
	Operation     GUID
	In1, In2, Out int
}

// decodeOperation reads section 0x400 (§4.5).
func decodeOperation(o *Object, refs refResolver) (*ParameterOperation, error) {
	s, err := o.Chunk.section(identOperationData, refs)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return nil, chunkError(o.Chunk, "parameter operation has no 0x400 section")
	}
	op := &ParameterOperation{Index: o.Index}
	if op.Operation[0], err = s.U32("operation GUID"); err != nil {
		return nil, err
	}
	if op.Operation[1], err = s.U32("operation GUID"); err != nil {
		return nil, err
	}
	n, err := s.U32("operation reference count")
	if err != nil {
		return nil, err
	}
	if n != 3 {
		return nil, s.errorf("operation lists %d references, expected 3 (in1, in2, out)", n)
	}
	for _, dst := range []*int{&op.In1, &op.In2, &op.Out} {
		if *dst, err = s.Ref("operation parameter"); err != nil {
			return nil, err
		}
	}
	return op, sectionDone(s, "parameter operation")
}
