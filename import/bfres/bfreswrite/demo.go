package bfreswrite

import (
	"math"

	"github.com/animbake/bake/internal/demofiles"
)

// NamedFile is a demo input: a file name and its bytes.
type NamedFile = demofiles.File

// Curve targets of the bone result record (§7.4) and the texture-SRT
// parameter (§10.1).
const (
	TargetScaleX     = 0x04
	TargetTranslateX = 0x10
	TargetTranslateY = 0x14
	TargetRotateX    = 0x20
	TargetRotateZ    = 0x28
	TargetRotateW    = 0x2C
	SRTMode          = 0x00
	SRTScaleX        = 0x04
	SRTScaleY        = 0x08
	SRTRotate        = 0x0C
	SRTTranslateX    = 0x10
	SRTTranslateY    = 0x14
)

// Bone-animation flags (§7.2) and animation flags (§6.2).
const (
	BaseScale      = 1 << 3
	BaseRotate     = 1 << 4
	BaseTranslate  = 1 << 5
	CurveRotateX   = 1 << 9
	CurveRotateZ   = 1 << 11
	CurveRotateW   = 1 << 12
	CurveTranslate = 1 << 14 // translate Y
	AnimLoop       = 0x4
	ScaleMaya      = 2 << 8
	RotateEuler    = 1 << 12
)

// DemoModel is Demo.bfres: one FMDL "Demo" whose Euler-mode skeleton is
// Root, Spine (1 up), Head (0.6 above the spine), and Arm_L and Arm_R
// (0.4 to either side, hanging down: bind rotation Z −π/2 and +π/2),
// with the textures of DemoTextures and the skinned meshes and materials
// of addDemoMeshes.
func DemoModel() *File {
	one := [3]float32{1, 1, 1}
	half := float32(math.Pi / 2)
	f := &File{Version: V4, Name: "Demo", Textures: DemoTextures(), Models: []Model{{Name: "Demo", SkelFlags: ScaleMaya | RotateEuler, Bones: []Bone{
		{Name: "Root", Parent: -1, S: one, R: [4]float32{0, 0, 0, 1}},
		{Name: "Spine", Parent: 0, S: one, R: [4]float32{0, 0, 0, 1}, T: [3]float32{0, 1, 0}},
		{Name: "Head", Parent: 1, S: one, R: [4]float32{0, 0, 0, 1}, T: [3]float32{0, 0.6, 0}},
		{Name: "Arm_L", Parent: 1, S: one, R: [4]float32{0, 0, -half, 1}, T: [3]float32{0.4, 0.5, 0}},
		{Name: "Arm_R", Parent: 1, S: one, R: [4]float32{0, 0, half, 1}, T: [3]float32{-0.4, 0.5, 0}},
	}}}}
	addDemoMeshes(&f.Models[0])
	return f
}

// DemoAnimation is Demo_Animation.bfres, animating DemoModel's skeleton
// (found as the sibling Demo.bfres):
//
//   - "Wave" (60 frames, loop, Euler): Arm_L's rotate Z is a cubic
//     (Hermite, flat at the keys) from −π/2 up to −0.3 at frames 15 and 45
//     and back at 30 and 60; Arm_R's rotate Z is linear from +π/2 to 0.3
//     at frame 30 and back; Root bobs in Y with a baked curve (0.05·sin).
//   - "Nod" (40 frames, once, quaternion mode): Head's rotate X and W are
//     linear curves turning 45° about X at frame 20 and back; Spine dips
//     with a linear curve of s16 keys (scale 0.001, offset 1): 1, 0.95, 1.
//   - "Blink" (30 frames, loop): a bone visibility animation, Head
//     hidden from frame 10 to 20 (step bool curve), Arm_L always shown.
//   - "Scroll" (60 frames, loop): a texture-SRT animation of material
//     "Body": translate X linear 0 → 1, rotate cubic 0 → π/2 → 0, scale
//     and mode as constants (Maya, scale 2 × 1).
//   - "Hide" (30 frames, loop): a material visibility animation, material
//     "Arm" hidden from frame 15 on (step bool curve).
func DemoAnimation() *File {
	half := math.Pi / 2
	var bob []float64
	for f := range 61 {
		bob = append(bob, 0.05*math.Sin(2*math.Pi*float64(f)/60))
	}
	baked := Curve{Type: TypeBaked, KeyFormat: KeysF32, Target: TargetTranslateY, Scale: 1, Start: 0, End: 60, Keys: bob}
	spine := Curve{Type: TypeLinear, FrameFormat: FramesU8, KeyFormat: KeysS16, Target: TargetTranslateY,
		Start: 0, End: 40, Scale: 0.001, Offset: 1, Frames: []float64{0, 20, 40}, Keys: []float64{0, -50, -50, 50, 0, 0}}
	sin, cos := math.Sincos(math.Pi / 8)
	return &File{Version: V4, Name: "Demo_Animation",
		FSKA: []FSKA{
			{Name: "Wave", Flags: AnimLoop | ScaleMaya | RotateEuler, Frames: 60, Bones: []BoneAnim{
				{Name: "Root", Flags: 1 << 14, Curves: []Curve{baked}},
				{Name: "Arm_L", Flags: BaseRotate | CurveRotateZ, Base: []float32{0, 0, float32(-half), 1},
					Curves: []Curve{Hermite(TargetRotateZ, []float64{0, 15, 30, 45, 60},
						[]float64{-half, -0.3, -half, -0.3, -half}, []float64{0, 0, 0, 0, 0})}},
				{Name: "Arm_R", Flags: BaseRotate | CurveRotateZ, Base: []float32{0, 0, float32(half), 1},
					Curves: []Curve{Linear(TargetRotateZ, []float64{0, 30, 60}, []float64{half, 0.3, half})}},
			}},
			{Name: "Nod", Flags: ScaleMaya, Frames: 40, Bones: []BoneAnim{
				{Name: "Spine", Flags: BaseTranslate | CurveTranslate, Base: []float32{0, 1, 0}, Curves: []Curve{spine}},
				{Name: "Head", Flags: BaseRotate | CurveRotateX | CurveRotateW, Base: []float32{0, 0, 0, 1}, Curves: []Curve{
					Linear(TargetRotateX, []float64{0, 20, 40}, []float64{0, sin, 0}),
					Linear(TargetRotateW, []float64{0, 20, 40}, []float64{1, cos, 1}),
				}},
			}},
		},
		FVIS: []FVIS{{Name: "Blink", Flags: AnimLoop, Frames: 30, Names: []string{"Head", "Arm_L"}, Base: []bool{true, true},
			Curves: []Curve{StepBool(0, []float64{0, 10, 20}, []bool{true, false, true})}},
			{Name: "Hide", Material: true, Flags: AnimLoop, Frames: 30, Names: []string{"Arm"}, Base: []bool{true},
				Curves: []Curve{StepBool(0, []float64{0, 15}, []bool{true, false})}}},
		FSHU: []FSHU{{Name: "Scroll", Group: GroupTexSRTAnims, Flags: AnimLoop, Frames: 60, Mats: []ShuMat{{
			Name: "Body", Params: []Param{{Name: "tex_srt0", NumFloat: 2,
				Curves: []Curve{
					Linear(SRTTranslateX, []float64{0, 60}, []float64{0, 1}),
					Hermite(SRTRotate, []float64{0, 30, 60}, []float64{0, half, 0}, []float64{0, 0, 0}),
				},
				Consts: []Const{{SRTMode, 0}, {SRTScaleX, math.Float32bits(2)}, {SRTScaleY, math.Float32bits(1)}}}},
		}}}},
	}
}

// Demo returns the BFRES demo inputs: Demo.bfres, Demo_Animation.bfres
// and its Yaz0 copy Demo_Animation.sbfres.
func Demo() []NamedFile {
	anim := DemoAnimation().Bytes()
	return []NamedFile{
		{Name: "Demo.bfres", Data: DemoModel().Bytes()},
		{Name: "Demo_Animation.bfres", Data: anim},
		{Name: "Demo_Animation.sbfres", Data: Yaz0(anim)},
	}
}
