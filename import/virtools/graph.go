package virtools

import (
	"errors"
	"fmt"

	"github.com/animbake/bake/import/binread"
)

// Behaviour-graph class ids (virtools-behaviours.md §1).
const (
	ClassParameterIn        = 2
	ClassParameterOut       = 3
	ClassParameterOperation = 4
	ClassBehaviorLink       = 6
	ClassBehavior           = 8
	ClassBehaviorIO         = 9
	ClassParameterLocal     = 45
	ClassParameter          = 46
)

// Graph holds every behaviour-graph object of a file, keyed by table
// index, plus the owner maps the pin resolution and the recognisers need.
// Objects whose chunk could not be read are absent (and were reported).
type Graph struct {
	Behaviors  map[int]*Behavior
	IOs        map[int]*BehaviorIO
	Links      map[int]*BehaviorLink
	ParamIns   map[int]*ParameterIn
	Params     map[int]*Parameter // CKParameterOut, CKParameterLocal, CKParameter
	Operations map[int]*ParameterOperation
	// ScriptOwner maps a script behaviour to the CKBeObject whose 0x800
	// section lists it.
	ScriptOwner map[int]int

	// Owner maps a pIn, pOut, local or IO to the behaviour listing it.
	Owner map[int]int
	// OwnerOperation maps an operation's pIns and pOut to the operation.
	OwnerOperation map[int]int
	// Parent maps a behaviour to the graph listing it as a sub-behaviour.
	Parent map[int]int
	// PinIndex is the position of a pIn, pOut, local or IO in its owner's array.
	PinIndex map[int]int
}

// DecodeGraph reads every behaviour-graph object (classes 2, 3, 4, 6, 8, 9,
// 45, 46) and the script lists of the behavioural objects. An object that
// cannot be read (a damaged chunk, a reference outside the object table)
// is reported through warn and left out: a broken script never stops the
// conversion of the animations.
func DecodeGraph(c *Container, warn func(string, ...any)) *Graph {
	g := &Graph{Behaviors: map[int]*Behavior{}, IOs: map[int]*BehaviorIO{}, Links: map[int]*BehaviorLink{},
		ParamIns: map[int]*ParameterIn{}, Params: map[int]*Parameter{}, Operations: map[int]*ParameterOperation{},
		ScriptOwner: map[int]int{}, Owner: map[int]int{}, OwnerOperation: map[int]int{}, Parent: map[int]int{},
		PinIndex: map[int]int{}}
	for i := range c.Objects {
		o := &c.Objects[i]
		if o.Chunk == nil {
			continue
		}
		if err := g.decodeObject(o, c); err != nil {
			var fe *binread.FormatError
			if errors.As(err, &fe) {
				fe.Msg = fmt.Sprintf("object #%d %q (class %d): %s", o.Index, o.Name, o.ClassID, fe.Msg)
			}
			warn("behaviour graph: %v (Data section, inflated); the object is ignored", err)
		}
	}
	g.index()
	return g
}

// decodeObject dispatches on the table class.
func (g *Graph) decodeObject(o *Object, refs refResolver) error {
	switch o.ClassID {
	case ClassBehavior:
		b, err := decodeBehavior(o, refs)
		if err == nil {
			g.Behaviors[o.Index] = b
		}
		return err
	case ClassBehaviorIO:
		io, err := decodeBehaviorIO(o, refs)
		if err == nil {
			g.IOs[o.Index] = io
		}
		return err
	case ClassBehaviorLink:
		l, err := decodeBehaviorLink(o, refs)
		if err == nil {
			g.Links[o.Index] = l
		}
		return err
	case ClassParameterIn:
		p, err := decodeParameterIn(o, refs)
		if err == nil {
			g.ParamIns[o.Index] = p
		}
		return err
	case ClassParameterOut, ClassParameterLocal, ClassParameter:
		p, err := decodeParameter(o, refs)
		if err == nil {
			g.Params[o.Index] = p
		}
		return err
	case ClassParameterOperation:
		op, err := decodeOperation(o, refs)
		if err == nil {
			g.Operations[o.Index] = op
		}
		return err
	}
	if isA(o.ClassID, ClassBeObject) {
		scripts, err := decodeScripts(o, refs)
		for _, s := range scripts {
			if _, taken := g.ScriptOwner[s]; !taken {
				g.ScriptOwner[s] = o.Index
			}
		}
		return err
	}
	return nil
}

// index builds the owner, parent and pin-index maps from the arrays.
func (g *Graph) index() {
	for _, bi := range sortedKeys(g.Behaviors) {
		b := g.Behaviors[bi]
		for _, arr := range [][]int{b.InParams, b.OutParams, b.Locals, b.Inputs, b.Outputs} {
			for k, p := range arr {
				if _, taken := g.Owner[p]; !taken {
					g.Owner[p] = bi
					g.PinIndex[p] = k
				}
			}
		}
		for _, s := range b.SubBehaviors {
			if _, taken := g.Parent[s]; !taken && s != bi {
				g.Parent[s] = bi
			}
		}
	}
	for _, oi := range sortedKeys(g.Operations) {
		op := g.Operations[oi]
		for _, p := range []int{op.In1, op.In2, op.Out} {
			if p != noRef {
				g.OwnerOperation[p] = oi
			}
		}
	}
}

// Script returns the topmost graph containing behaviour b (itself when it
// has no parent). A parent chain that loops stops where it loops.
func (g *Graph) Script(b int) int {
	seen := map[int]bool{b: true}
	for {
		p, ok := g.Parent[b]
		if !ok || seen[p] {
			return b
		}
		seen[p] = true
		b = p
	}
}

// sectionDone reports an error unless a section was read to its end: the
// layouts of virtools-behaviours.md are exact on every sample, so anything
// left over means a layout this reader does not know.
func sectionDone(s *sectionReader, what string) error {
	if s.Left() != 0 {
		return s.errorf("%s: %d dwords left after the last field", what, s.Left())
	}
	return nil
}

// decodeScripts reads CKBeObject section 0x800 (SCRIPTS): the scripts the
// object owns.
func decodeScripts(o *Object, refs refResolver) ([]int, error) {
	if o.Chunk.Words() == 0 {
		return nil, nil
	}
	s, err := o.Chunk.section(identBeObjectScripts, refs)
	if err != nil || s == nil {
		return nil, err
	}
	return s.RefArray("script list")
}

// identBeObjectScripts is CK_STATESAVE_SCRIPTS of CKBeObject.
const identBeObjectScripts = 0x800
