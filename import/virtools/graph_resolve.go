package virtools

import "fmt"

// Parameter type GUIDs (CKPGUID_*, virtools-behaviours.md §4.3).
var (
	TypeFloat      = GUID{0x47884c3f, 0x432c2c20}
	TypeTime       = GUID{0x54b4422b, 0x730f0f4f}
	TypePercentage = GUID{0xf3c84b4e, 0x0ffacc34}
	TypeAngle      = GUID{0x11262cf5, 0x30b0233a}
	TypeInteger    = GUID{0x5a5716fd, 0x44e276d7}
	TypeBool       = GUID{0x1ad52a8e, 0x5e741920}
	TypeDirection  = GUID{0x0286652d, 0x5ea709c2}
	TypeVector     = GUID{0x48824eae, 0x2fe47960}
	TypeVector2D   = GUID{0x4efcb34a, 0x6079e42f}
	TypeCurve2D    = GUID{0x20ad345d, 0x1afb25b1}
)

// PinKind says where a pin's value comes from.
type PinKind int

const (
	// PinUnconnected: no source; the BB keeps the value built into its code.
	PinUnconnected PinKind = iota
	// PinConstant: a parameter whose saved value is the value (a local, a
	// plain parameter, or the output of a BB that never runs).
	PinConstant
	// PinProduced: the output of a BB or operation, recomputed at run time.
	PinProduced
	// PinBroken: the chain loops, or leads to an object that is not a
	// parameter.
	PinBroken
)

// Pin is a resolved pin (§4.4).
type Pin struct {
	Kind  PinKind
	Param *Parameter // the parameter the chain ends at (Constant, Produced)
	// Producer is the behaviour (or, with FromOperation, the parameter
	// operation) owning Param when Kind is PinProduced; OutIndex its pOut index.
	Producer      int
	FromOperation bool
	OutIndex      int
	Problem       string // why the pin is broken
}

// ResolvePin follows a pIn through shared inputs and sources to the
// parameter holding its value (virtools-behaviours.md §4.4). A cycle or a
// reference to an object that is not a parameter gives PinBroken.
func (g *Graph) ResolvePin(pin int) Pin {
	seen := map[int]bool{pin: true}
	p := pin
	for {
		in, isIn := g.ParamIns[p]
		if !isIn {
			break
		}
		if in.Source == noRef {
			return Pin{Kind: PinUnconnected}
		}
		p = in.Source
		if seen[p] {
			return Pin{Kind: PinBroken, Problem: fmt.Sprintf("the input chain from #%d loops at #%d", pin, p)}
		}
		seen[p] = true
	}
	par, ok := g.Params[p]
	if !ok {
		return Pin{Kind: PinBroken, Problem: fmt.Sprintf("pin #%d leads to object #%d, which is not a readable parameter", pin, p)}
	}
	if par.ClassID == ClassParameterOut {
		if op, ok := g.OwnerOperation[p]; ok {
			return Pin{Kind: PinProduced, Param: par, Producer: op, FromOperation: true}
		}
		if b, ok := g.Owner[p]; ok {
			if bb := g.Behaviors[b]; bb != nil && bb.IsBuildingBlock() {
				return Pin{Kind: PinProduced, Param: par, Producer: b, OutIndex: g.PinIndex[p]}
			}
		}
	}
	return Pin{Kind: PinConstant, Param: par}
}

// InPin returns pIn k of behaviour b resolved, or an unconnected pin when
// the BB has fewer pIns.
func (g *Graph) InPin(b *Behavior, k int) Pin {
	if k < 0 || k >= len(b.InParams) {
		return Pin{Kind: PinUnconnected}
	}
	return g.ResolvePin(b.InParams[k])
}

// pinFloat is a constant pin's float value, or def.
func pinFloat(p Pin, def float64) (float64, bool) {
	if p.Kind != PinConstant {
		return def, false
	}
	if v, ok := p.Param.Float(); ok {
		return v, true
	}
	return def, false
}

// pinBool is a constant pin's boolean (i32 ≠ 0), or def.
func pinBool(p Pin, def bool) bool {
	if p.Kind != PinConstant {
		return def
	}
	if v, ok := p.Param.Int(); ok {
		return v != 0
	}
	return def
}

// pinObject is the object a constant pin refers to, or noRef.
func pinObject(p Pin) int {
	if p.Kind != PinConstant || p.Param.State != paramStateObject {
		return noRef
	}
	return p.Param.Object
}
