package model

import (
	"math"
	"testing"
)

// virtools-controllers.md §1: every controller type id, old ids included,
// with its slot, interpolation and key size in dwords (0 = variable).
func TestVirtoolsControllerTypes_Controllers1(t *testing.T) {
	for _, c := range []struct {
		id     uint32
		slot   VirtoolsControllerSlot
		interp VirtoolsInterp
		size   int
	}{
		{0x637c4301, VirtoolsSlotPosition, VirtoolsLinear, 4}, {1, VirtoolsSlotPosition, VirtoolsLinear, 4},
		{0x347e4a01, VirtoolsSlotPosition, VirtoolsTCB, 9},
		{0x921ab801, VirtoolsSlotPosition, VirtoolsBezier, 0},
		{0x49ed4002, VirtoolsSlotRotation, VirtoolsLinear, 5}, {2, VirtoolsSlotRotation, VirtoolsLinear, 5},
		{0x45b52a02, VirtoolsSlotRotation, VirtoolsTCB, 10},
		{0x654a3a04, VirtoolsSlotScale, VirtoolsLinear, 4}, {4, VirtoolsSlotScale, VirtoolsLinear, 4},
		{0x1b545904, VirtoolsSlotScale, VirtoolsTCB, 9},
		{0x18ab4404, VirtoolsSlotScale, VirtoolsBezier, 0},
		{0x2f200b08, VirtoolsSlotScaleAxis, VirtoolsLinear, 5}, {8, VirtoolsSlotScaleAxis, VirtoolsLinear, 5},
		{0x32595908, VirtoolsSlotScaleAxis, VirtoolsTCB, 10},
		{0x73847810, VirtoolsSlotMorph, "", 0}, {0x10, VirtoolsSlotMorph, "", 0},
	} {
		got, ok := VirtoolsControllerTypes[c.id]
		if !ok || got.Slot != c.slot || got.Interp != c.interp || got.KeySize != c.size {
			t.Errorf("%#x: %+v, %v", c.id, got, ok)
		}
		// The low byte is the base type (controllers §1).
		if VirtoolsControllerSlot(c.id&0xff) != c.slot {
			t.Errorf("%#x: low byte %#x is not slot %#x", c.id, c.id&0xff, c.slot)
		}
	}
	if len(VirtoolsControllerTypes) != 16 {
		t.Errorf("%d types, want 16", len(VirtoolsControllerTypes))
	}
}

func TestVirtoolsTransformValidate(t *testing.T) {
	lin := func(times ...float64) *VirtoolsVectorController {
		c := &VirtoolsVectorController{Interp: VirtoolsLinear}
		for _, tm := range times {
			c.Keys = append(c.Keys, VirtoolsVectorKey{Time: tm})
		}
		return c
	}
	ok := &VirtoolsObjectAnimation{Name: "ok", Length: 10, Position: lin(0, 5, 5, 10)}
	if err := (&VirtoolsTransform{Anim: ok, Part: VirtoolsPartMatrix}).Validate(); err != nil {
		t.Errorf("repeated key times must be accepted: %v", err)
	}
	shared := &VirtoolsObjectAnimation{Name: "m", Length: 1, Flags: VirtoolsMergedAnimation, Merge: &VirtoolsMerge{A: ok, B: ok}}
	if err := shared.Validate(); err != nil {
		t.Errorf("a source used twice is not a cycle: %v", err)
	}
	cyc := &VirtoolsObjectAnimation{Name: "c", Length: 1, Flags: VirtoolsMergedAnimation}
	cyc.Merge = &VirtoolsMerge{A: ok, B: cyc}
	nanKey := lin(0, 1)
	nanKey.Keys[1].Value[2] = math.NaN()
	for name, tr := range map[string]*VirtoolsTransform{
		"unknown part":       {Anim: ok, Part: "weights"},
		"no animation":       {Part: VirtoolsPartRotation},
		"NaN length":         {Anim: &VirtoolsObjectAnimation{Length: math.NaN()}, Part: VirtoolsPartScale},
		"negative length":    {Anim: &VirtoolsObjectAnimation{Length: -1}, Part: VirtoolsPartScale},
		"merged, no sources": {Anim: &VirtoolsObjectAnimation{Flags: VirtoolsMergedAnimation}, Part: VirtoolsPartScale},
		"cycle":              {Anim: cyc, Part: VirtoolsPartScale},
		"keys going back":    {Anim: &VirtoolsObjectAnimation{Position: lin(0, 2, 1)}, Part: VirtoolsPartTranslation},
		"NaN key":            {Anim: &VirtoolsObjectAnimation{Position: nanKey}, Part: VirtoolsPartTranslation},
		"unknown interp":     {Anim: &VirtoolsObjectAnimation{Scale: &VirtoolsVectorController{Interp: "cubic"}}, Part: VirtoolsPartScale},
		"Bezier rotation":    {Anim: &VirtoolsObjectAnimation{Rotation: &VirtoolsQuatController{Interp: VirtoolsBezier}}, Part: VirtoolsPartRotation},
		"infinite offset":    {Anim: &VirtoolsObjectAnimation{Offset: [3]float64{math.Inf(1)}}, Part: VirtoolsPartTranslation},
	} {
		if err := tr.Validate(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestVirtoolsCurveAndFollowValidate(t *testing.T) {
	c := &VirtoolsCurve{World: [16]float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1},
		Points: []VirtoolsCurvePoint{{}, {World: [3]float64{1, 0, 0}}}}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if err := (&VirtoolsPathFollow{Path: c, Frames: 300}).Validate(); err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]*VirtoolsPathFollow{
		"zero frames":     {Path: c},
		"infinite frames": {Path: c, Frames: math.Inf(1)},
		"no path":         {Frames: 1},
	} {
		if err := f.Validate(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	c.Points[1].Out[1] = math.NaN()
	if err := c.Validate(); err == nil {
		t.Error("NaN tangent accepted")
	}
	c.Points[1].Out[1] = 0
	c.Fitting = math.Inf(-1)
	if err := c.Validate(); err == nil {
		t.Error("infinite fitting accepted")
	}
}
