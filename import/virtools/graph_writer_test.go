package virtools

import "github.com/animbake/bake/import/virtools/vtwrite"

// A writer for behaviour-graph objects (virtools-behaviours.md §2–§4,
// §6.1), on top of the container writer vtwrite, so that tests
// and fuzz seeds can build scripts with hand-chosen pins.

// graphBuilder appends graph objects to a test file.
type graphBuilder struct{ f *vtwrite.File }

// add appends an object and returns its table index.
func (b *graphBuilder) add(class int32, name string, secs ...vtwrite.Section) uint32 {
	i := uint32(len(b.f.Objects))
	b.f.Objects = append(b.f.Objects, vtwrite.Object{FileID: 200 + i, ClassID: class, Name: name, Chunk: &vtwrite.Chunk{ClassByte: uint8(class), Sections: secs}})
	return i
}

// raw adds a parameter (class 45 local unless class says otherwise) with a
// state-1 value of the given dwords.
func (b *graphBuilder) raw(class int32, typ GUID, words ...uint32) uint32 {
	return b.add(class, "param", vtwrite.Section{ID: identParameterValue, Words: append([]uint32{typ[0], typ[1], 1, uint32(4 * len(words))}, words...)})
}

// local adds a local with a raw value.
func (b *graphBuilder) local(typ GUID, words ...uint32) uint32 {
	return b.raw(ClassParameterLocal, typ, words...)
}

// object adds a local whose value is an object reference.
func (b *graphBuilder) object(typ GUID, obj uint32) uint32 {
	return b.add(ClassParameterLocal, "object", vtwrite.Section{ID: identParameterValue, Words: []uint32{typ[0], typ[1], 2, obj}})
}

// output adds a pOut with no value yet (a snapshot of 0).
func (b *graphBuilder) output(typ GUID, n int) uint32 {
	return b.raw(ClassParameterOut, typ, make([]uint32, n)...)
}

// curve2D adds a local holding a 2D curve: points of 12 dwords each
// (flags | 0x10000000, x, y, t, c, b, 0, 0, in, out).
func (b *graphBuilder) curve2D(points ...[]uint32) uint32 {
	n := uint32(len(points))
	c := []uint32{ident2dCurveData, 0, n}
	c = append(c, make([]uint32, n)...)
	c = append(c, vtwrite.F32(0))
	for _, p := range points {
		c = append(c, p...)
	}
	inner := append([]uint32{uint32(7 + len(c)), 14, 10 | 7<<16, uint32(len(c)), 0, 0, 0, 0}, c...)
	w := append([]uint32{ident2dCurveWrapper, 0}, inner...)
	sub := append([]uint32{uint32(7 + len(w)), 14, 0 | 7<<16, uint32(len(w)), 0, 0, 0, 0}, w...)
	return b.add(ClassParameterLocal, "curve", vtwrite.Section{ID: identParameterValue, Words: append([]uint32{TypeCurve2D[0], TypeCurve2D[1], 0}, sub...)})
}

// linear2D is a LINEAR 2D curve point.
func linear2D(x, y float32) []uint32 {
	return append([]uint32{curve2dDataFollows | curve2dLinear}, vtwrite.F32s(x, y, 0, 0, 0, 0, 0, 0, 0, 0, 0)...)
}

// pin adds a pIn with a source parameter (noSource for none).
func (b *graphBuilder) pin(typ GUID, source uint32) uint32 {
	return b.add(ClassParameterIn, "pIn", vtwrite.Section{ID: identParamInSource, Words: []uint32{typ[0], typ[1], source}})
}

// shared adds a pIn sharing another pIn's value.
func (b *graphBuilder) shared(typ GUID, other uint32) uint32 {
	return b.add(ClassParameterIn, "pIn", vtwrite.Section{ID: identParamInShared, Words: []uint32{typ[0], typ[1], other}})
}

// noSource is a null object reference in a FILE chunk.
const noSource = 0xFFFFFFFF

// io adds a behaviour IO (1 input, 2 output).
func (b *graphBuilder) io(flags uint32) uint32 {
	return b.add(ClassBehaviorIO, "io", vtwrite.Section{ID: identBehaviorIOFlags, Words: []uint32{flags}})
}

// link adds an activation link.
func (b *graphBuilder) link(delay uint16, from, to uint32) uint32 {
	return b.add(ClassBehaviorLink, "link", vtwrite.Section{ID: identBehaviorLinkData, Words: []uint32{uint32(delay), from, to}})
}

// testBehavior describes a behaviour to write.
type testBehavior struct {
	name                string
	guid                *GUID // nil: a graph
	target              uint32
	subs, links         []uint32
	ins, outs, locals   []uint32
	inputs, outputs     int // IOs created for a BB
	script              bool
	inputIOs, outputIOs []uint32
}

// behavior adds a behaviour, creating its IOs, and returns its index and IOs.
func (b *graphBuilder) behavior(t testBehavior) (idx uint32, inputs, outputs []uint32) {
	inputs, outputs = t.inputIOs, t.outputIOs
	for range t.inputs {
		inputs = append(inputs, b.io(1))
	}
	for range t.outputs {
		outputs = append(outputs, b.io(2))
	}
	var flags uint32
	var w []uint32
	if t.script {
		flags |= BehaviorScript
	}
	if t.guid != nil {
		flags |= BehaviorBuildingBlock
		w = append(w, t.guid[0], t.guid[1], 0x10000)
	}
	if t.target != 0 {
		flags |= BehaviorTargetable
		w = append(w, t.target)
	}
	var save uint32
	var arrays []uint32
	for _, a := range []struct {
		bit uint32
		v   []uint32
	}{{0x100, t.subs}, {0x80000, t.links}, {0x200, t.ins}, {0x400, t.outs}, {0x20000, t.locals}, {0x800, inputs}, {0x1000, outputs}} {
		if len(a.v) > 0 {
			save |= a.bit
			arrays = append(append(arrays, uint32(len(a.v))), a.v...)
		}
	}
	w = append(append(w, save), arrays...)
	idx = b.add(ClassBehavior, t.name, vtwrite.Section{ID: identBehaviorNewData, Words: append([]uint32{flags}, w...)})
	return idx, inputs, outputs
}

// graphSceneIndices names the objects of graphScene that tests change.
type graphSceneIndices struct {
	script, play, playDuration, ride, bezier, rotate, rotateAxis, perSecond, scroll, sine, unknown uint32
	mesh, restartLink                                                                              uint32
}

// graphScene is vtwrite.SampleScene plus a script owned by "Arm": Play Animation 3D
// Entity playing "Move" over 2000 ms in a loop; Position On Curve moving
// "Arm" along "Path" from a Bezier Progression of 3000 ms restarted by
// Out → In; Per Second (180°/s, and a UV rate (0.5, 0.25)/s) feeding Rotate
// on "Arm" about its own Z and Texture Scroller on "Mesh"; TT_TextureSine
// on "Mesh"; and a BB of an unknown prototype.
func graphScene() (*vtwrite.File, graphSceneIndices) {
	f := vtwrite.SampleScene()
	b := &graphBuilder{f}
	var ix graphSceneIndices
	ix.mesh = b.add(32, "Mesh")

	// Play Animation 3D Entity.
	anim := b.pin(GUID{0x43476550, 0x11e52c0e}, b.object(GUID{0x43476550, 0x11e52c0e}, iAnim))
	ix.playDuration = b.pin(TypeTime, b.local(TypeTime, vtwrite.F32(2000)))
	curve := b.pin(TypeCurve2D, b.curve2D(linear2D(0, 0), linear2D(1, 1)))
	loop := b.pin(TypeBool, b.local(TypeBool, 1))
	ix.play, _, _ = b.behavior(testBehavior{name: "Play Animation 3D Entity", guid: &BBPlayAnimation3DEntity,
		ins: []uint32{anim, ix.playDuration, curve, loop}, outs: []uint32{b.output(TypePercentage, 1)}, inputs: 2, outputs: 1})

	// Bezier Progression → Position On Curve.
	bezOuts := []uint32{b.output(TypeTime, 1), b.output(TypeFloat, 1), b.output(TypeFloat, 1), b.output(TypePercentage, 1)}
	var bezIn, bezOut []uint32
	ix.bezier, bezIn, bezOut = b.behavior(testBehavior{name: "Bezier Progression", guid: &BBBezierProgression,
		ins: []uint32{b.pin(TypeTime, b.local(TypeTime, vtwrite.F32(3000))), b.pin(TypeFloat, b.local(TypeFloat, vtwrite.F32(0))),
			b.pin(TypeFloat, b.local(TypeFloat, vtwrite.F32(1))), b.pin(TypeCurve2D, noSource)},
		outs: bezOuts, inputs: 2, outputs: 2})
	ix.restartLink = b.link(1, bezOut[0], bezIn[0])
	loopLink := b.link(1, bezOut[1], bezIn[1])
	ride, rideIn, _ := b.behavior(testBehavior{name: "Position On Curve", guid: &BBPositionOnCurve,
		target: b.pin(GUID{0x5b8a05d5, 0x31ea28d4}, b.object(GUID{0x5b8a05d5, 0x31ea28d4}, iArm)),
		ins: []uint32{b.pin(GUID{0x1072130b, 0x1f9572ba}, b.object(GUID{0x1072130b, 0x1f9572ba}, iCurve)),
			b.pin(TypePercentage, bezOuts[1])}, inputs: 1, outputs: 1})
	ix.ride = ride
	rideLink := b.link(0, bezOut[1], rideIn[0])

	// Per Second → Rotate, Per Second → Texture Scroller.
	psOuts := []uint32{b.output(TypeAngle, 1), b.output(TypeVector2D, 2)}
	ix.perSecond, _, _ = b.behavior(testBehavior{name: "Per Second", guid: &BBPerSecond,
		ins:  []uint32{b.pin(TypeAngle, b.local(TypeAngle, vtwrite.F32(3.1415927))), b.pin(TypeVector2D, b.local(TypeVector2D, vtwrite.F32(0.5), vtwrite.F32(0.25)))},
		outs: psOuts, inputs: 1, outputs: 1})
	armRef := b.object(GUID{0x5b8a05d5, 0x31ea28d4}, iArm)
	ix.rotateAxis = b.pin(TypeVector, b.local(TypeVector, vtwrite.F32(0), vtwrite.F32(0), vtwrite.F32(1)))
	ix.rotate, _, _ = b.behavior(testBehavior{name: "Rotate", guid: &BBRotate, target: b.pin(GUID{0x5b8a05d5, 0x31ea28d4}, armRef),
		ins: []uint32{ix.rotateAxis, b.pin(TypeAngle, psOuts[0]), b.pin(GUID{0x5b8a05d5, 0x31ea28d4}, armRef),
			b.pin(TypeBool, b.local(TypeBool, 1))}, inputs: 1, outputs: 1})
	meshRef := b.object(GUID{0x55ab12cd, 0x22ae6a8b}, ix.mesh)
	ix.scroll, _, _ = b.behavior(testBehavior{name: "Texture Scroller", guid: &BBTextureScroller, target: b.pin(GUID{0x55ab12cd, 0x22ae6a8b}, meshRef),
		ins: []uint32{b.pin(TypeVector2D, psOuts[1]), b.pin(TypeInteger, b.local(TypeInteger, 0xFFFFFFFF))}, inputs: 1, outputs: 1})
	ix.sine, _, _ = b.behavior(testBehavior{name: "TT_TextureSine", guid: &BBTextureSine, target: b.pin(GUID{0x55ab12cd, 0x22ae6a8b}, meshRef), inputs: 1, outputs: 1})
	ix.unknown, _, _ = b.behavior(testBehavior{name: "Mystery", guid: &GUID{0x12345678, 0x9abcdef0}, inputs: 1})

	scriptIn := b.io(1)
	ix.script, _, _ = b.behavior(testBehavior{name: "Arm Script", script: true, inputIOs: []uint32{scriptIn},
		subs:  []uint32{ix.play, ix.bezier, ix.ride, ix.perSecond, ix.rotate, ix.scroll, ix.sine, ix.unknown},
		links: []uint32{ix.restartLink, loopLink, rideLink}})
	arm := &f.Objects[iArm].Chunk.Sections
	*arm = append(*arm, vtwrite.Section{ID: identBeObjectScripts, Words: []uint32{1, ix.script}})
	return f, ix
}
