package bfres

import (
	"github.com/animbake/bake/model"
)

// NativeFPS is the frame rate bake assumes for BFRES: no rate is stored in
// the file (§5.3); BotW, the source of the samples, runs at 30.
const NativeFPS = 30

// NativeFPSSwitch is the frame rate bake assumes for Switch BFRES: the
// Switch samples come from Super Mario Odyssey, which runs and plays its
// animations at 60 frames per second (docs/formats/bfres-switch.md).
const NativeFPSSwitch = 60

// SwitchUnit is the size in metres of one unit of a Switch BFRES: the
// centimetre of Super Mario Odyssey, whose blocks are 100 units wide
// (BlockShine), whose development cube "2U" is 200 (DevGenericCube2U)
// and whose Bob-omb is about 100 tall (docs/formats/bfres-switch.md,
// decision S2). The Wii U files (Breath of the Wild) are in metres.
const SwitchUnit = 0.01

// BoneAnimResult slots: targetOffset/4 of each channel component (§7.4).
const (
	slotScaleX     = 0x04 / 4
	slotTranslateX = 0x10 / 4
	slotRotateX    = 0x20 / 4
	slotRotateW    = 0x2C / 4
	numSlots       = slotRotateW + 1
)

// validSlot reports whether a curve target names a component (§7.4).
func validSlot(target uint32) bool {
	if target%4 != 0 {
		return false
	}
	s := target / 4
	return s >= slotScaleX && s < slotScaleX+3 || s >= slotTranslateX && s < slotTranslateX+3 || s >= slotRotateX && s <= slotRotateW
}

// timing fills the frame-control fields shared by every sub-file (§8 step 1):
// the play range is [0, frameCount]; a looping clip wraps with period
// frameCount, a one-time clip clamps at frameCount.
func timing(a *model.Animation, frameCount int32, flags uint32) {
	a.FPS = NativeFPS
	a.Frames = float64(frameCount)
	a.End = float64(frameCount)
	a.Loop = model.LoopOnce
	if flags&animFlagLoop != 0 && frameCount > 0 {
		a.Loop = model.LoopRepeat
		a.Period = float64(frameCount)
	}
}

// buildSkeletal converts an FSKA into a model.Animation (§8): per bone, the
// result record starts from the base values, else the bind pose of the
// same-named skeleton bone, else identity; curves overwrite components by
// target offset; a group with neither base values nor curves gets no channel.
// A bone the chosen skeleton lacks gets none either (nodeSet.bound): it is
// listed in extras.unboundBones.
func buildSkeletal(a *SkeletalAnim, ns *nodeSet, warn func(string, ...any)) model.Animation {
	anim := model.Animation{Name: a.Name, Extras: map[string]any{
		"subfiles":     []string{"FSKA"},
		"flags":        a.Flags,
		"scaleMode":    scaleModeNames[scaleMode(a.Flags)],
		"rotationMode": rotationModeName(rotationMode(a.Flags)),
	}}
	timing(&anim, a.FrameCount, a.Flags)
	euler := rotationMode(a.Flags) == RotateEulerXYZ
	if rm := rotationMode(a.Flags); rm != RotateEulerXYZ && rm != RotateQuaternion {
		warn("skeletal animation %s: rotation mode %d is undefined; reading rotations as quaternions", a.Name, rm)
	}
	if scaleMode(a.Flags) == ScaleSoftimage {
		warn("skeletal animation %s: the Softimage scale mode is not analysed (§8 step 6); channels are plain local TRS", a.Name)
	}
	var ssc, unbound []string
	total := 0
	for i := range a.BoneAnims {
		b := &a.BoneAnims[i]
		total += len(b.Curves)
		if !ns.bound(b.Name) {
			unbound = append(unbound, b.Name)
			continue
		}
		anim.Channels = append(anim.Channels, boneChannels(a.Name, b, ns.bind[b.Name], euler, warn)...)
		if b.Flags&boneSegmentScaleCompensate != 0 {
			ssc = append(ssc, b.Name)
		}
	}
	if total != int(a.NumCurve) {
		warn("skeletal animation %s: header counts %d curves, bone anims hold %d", a.Name, a.NumCurve, total)
	}
	addUnbound(anim.Extras, unbound...)
	if len(ssc) > 0 {
		// Maya segment-scale compensation has no glTF equivalent; it only
		// changes the pose when a parent's scale is not one.
		anim.Extras["segmentScaleCompensate"] = ssc
	}
	return anim
}

// boneChannels builds the scale, rotation and translation channels of one bone anim.
func boneChannels(animName string, b *BoneAnim, bind *Bone, euler bool, warn func(string, ...any)) []model.Channel {
	var slots [numSlots]model.Curve
	for i, c := range b.Curves {
		t := b.Targets[i]
		if !validSlot(t) {
			warn("skeletal animation %s bone %s: curve %d targets offset 0x%x, which is no transform component; ignored", animName, b.Name, i, t)
			continue
		}
		if !c.IsFloat() {
			warn("skeletal animation %s bone %s: curve %d is an int curve (type %d); its values are used as floats", animName, b.Name, i, c.CurveType)
		}
		if c.IsFloat() && c.Scale == 0 {
			warn("skeletal animation %s bone %s: curve %d has scale 0; evaluated literally, as the runtime does", animName, b.Name, i)
		}
		slots[t/4] = c // a later curve on the same target wins, as in the runtime
	}
	// Initial values (§8 step 2).
	scale := [3]float32{1, 1, 1}
	rotate := [4]float32{0, 0, 0, 1}
	var translate [3]float32
	if bind != nil {
		scale, rotate, translate = bind.Scale, bind.Rotate, bind.Translate
	}
	if b.BaseScale != nil {
		scale = *b.BaseScale
	}
	if b.BaseRotate != nil {
		rotate = *b.BaseRotate
	}
	if b.BaseTranslate != nil {
		translate = *b.BaseTranslate
	}
	component := func(slot int, init float32) model.Curve {
		if slots[slot] != nil {
			return slots[slot]
		}
		return &model.Constant{Value: []float64{float64(init)}}
	}
	anyCurve := func(from, n int) bool {
		for s := from; s < from+n; s++ {
			if slots[s] != nil {
				return true
			}
		}
		return false
	}
	var out []model.Channel
	if b.BaseScale != nil || anyCurve(slotScaleX, 3) {
		out = append(out, vectorChannel(b.Name, model.PathScale, slotScaleX, scale, component))
	}
	rotN := 3
	if !euler {
		rotN = 4
	}
	if b.BaseRotate != nil || anyCurve(slotRotateX, rotN) {
		var curve model.Curve
		if euler {
			curve = &model.EulerRotation{
				X: component(slotRotateX, rotate[0]), Y: component(slotRotateX+1, rotate[1]),
				Z: component(slotRotateX+2, rotate[2]), Order: "ZYX",
			}
		} else {
			curve = &model.NW4FQuaternion{
				X: component(slotRotateX, rotate[0]), Y: component(slotRotateX+1, rotate[1]),
				Z: component(slotRotateX+2, rotate[2]), W: component(slotRotateW, rotate[3]),
			}
		}
		out = append(out, model.Channel{Node: b.Name, Path: model.PathRotation, Curve: curve})
	}
	if b.BaseTranslate != nil || anyCurve(slotTranslateX, 3) {
		out = append(out, vectorChannel(b.Name, model.PathTranslation, slotTranslateX, translate, component))
	}
	return out
}

// vectorChannel composes three slots into a node channel.
func vectorChannel(node, path string, first int, init [3]float32, component func(int, float32) model.Curve) model.Channel {
	return model.Channel{Node: node, Path: path, Curve: &model.Vector{Components: []model.Curve{
		component(first, init[0]), component(first+1, init[1]), component(first+2, init[2]),
	}}}
}
