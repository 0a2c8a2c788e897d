package vtwrite

import (
	"math"

	"github.com/animbake/bake/internal/demofiles"
)

// NamedFile is a demo input: a file name and its bytes.
type NamedFile = demofiles.File

// Table indices of the demo scene's objects.
const (
	DemoSpinner = iota
	DemoSpinnerAnim
	DemoCraneBase
	DemoCraneArm
	DemoCraneBaseAnim
	DemoCraneArmAnim
	DemoCrane
	DemoTrack
	DemoTrackPoint0 // and the three points after it
)

// StoredYRotation is the stored form of a rotation by deg degrees about y:
// Virtools keeps the conjugate of the Hamilton quaternion, so (0, −sin θ/2,
// 0, cos θ/2).
func StoredYRotation(deg float64) [4]float32 {
	s, c := math.Sincos(deg * math.Pi / 360)
	return [4]float32{0, float32(-s), 0, float32(c)}
}

// DemoScene is the demo composition, a Ballance-like level piece:
//
//   - "Spinner_Anim", a standalone object animation of "Spinner" (100
//     frames at 30 fps) with TCB position keys (a loop through four
//     points, with tension, continuity, bias and easing) and TCB rotation
//     keys (a sway of ±60° about y);
//   - "Crane", a keyed animation (50 frames at 25 fps, root Crane_Base) of
//     a two-part object: Crane_Base turns with linear rotation keys while
//     its child Crane_Arm slides out with linear position keys and
//     stretches with linear scale keys;
//   - "Track", a closed 3D curve of 4 TCB points at different heights,
//     which bake follows with a follower node;
//   - the scene around them (addDemoAssets): the spinner's textured cube,
//     a ground plane, a directional light, a camera and a group.
func DemoScene() *File {
	ent := func(anims []uint32, flags uint32, rows Rows, refs ...uint32) *Chunk {
		s := []Section{EntitySection(flags, rows, refs...)}
		if len(anims) > 0 {
			s = append([]Section{AnimationsSection(anims...)}, s...)
		}
		return &Chunk{ClassByte: Class3dEntity, Sections: s}
	}
	anim := func(s Section) *Chunk { return &Chunk{ClassByte: ClassObjectAnimation, Sections: []Section{s}} }
	smooth := TCB{}
	tight := TCB{Tension: 0.5}
	eased := TCB{Continuity: -0.5, Bias: 0.25, EaseTo: 0.5, EaseFrom: 0.5}
	spinner := ObjAnimSection(0, DemoSpinner, 100, nil,
		TCBPosition(CtrlTCBPosition,
			TCBVectorKey{0, [3]float32{0, 2, 0}, smooth},
			TCBVectorKey{25, [3]float32{4, 3, 0}, tight},
			TCBVectorKey{50, [3]float32{4, 2, 4}, eased},
			TCBVectorKey{75, [3]float32{0, 4, 4}, tight},
			TCBVectorKey{100, [3]float32{0, 2, 0}, smooth}),
		TCBRotation(
			TCBQuatKey{0, StoredYRotation(0), smooth},
			TCBQuatKey{30, StoredYRotation(60), eased},
			TCBQuatKey{70, StoredYRotation(-60), tight},
			TCBQuatKey{100, StoredYRotation(0), smooth}))
	r := func(t float32, deg float64) [5]float32 {
		q := StoredYRotation(deg)
		return [5]float32{t, q[0], q[1], q[2], q[3]}
	}
	base := ObjAnimSection(0, DemoCraneBase, 50, nil,
		LinearRotation(r(0, 0), r(25, 90), r(50, 0)))
	arm := ObjAnimSection(0, DemoCraneArm, 50, nil,
		LinearVector(CtrlLinearPosition, [4]float32{0, 0, 3, 0}, [4]float32{20, 2, 3, 0}, [4]float32{35, 2, 3, 0}, [4]float32{50, 0, 3, 0}),
		LinearVector(CtrlLinearScale, [4]float32{0, 1, 1, 1}, [4]float32{20, 2, 1, 1}, [4]float32{50, 1, 1, 1}))
	f := &File{Objects: []Object{
		DemoSpinner:       {1, Class3dObject, "Spinner", ent([]uint32{DemoSpinnerAnim}, 0, TranslationRows(0, 2, 0))},
		DemoSpinnerAnim:   {2, ClassObjectAnimation, "Spinner_Anim", anim(spinner)},
		DemoCraneBase:     {3, Class3dObject, "Crane_Base", ent([]uint32{DemoCraneBaseAnim}, 0, TranslationRows(10, 0, 0))},
		DemoCraneArm:      {4, Class3dObject, "Crane_Arm", ent([]uint32{DemoCraneArmAnim}, EntityParentValid, TranslationRows(10, 3, 0), DemoCraneBase)},
		DemoCraneBaseAnim: {5, ClassObjectAnimation, "Crane_Base_Anim", anim(base)},
		DemoCraneArmAnim:  {6, ClassObjectAnimation, "Crane_Arm_Anim", anim(arm)},
		DemoCrane: {7, ClassKeyedAnimation, "Crane", &Chunk{ClassByte: ClassKeyedAnimation,
			Sections: KeyedAnimationSections(50, 25, DemoCraneBase, DemoCraneBaseAnim, DemoCraneArmAnim)}},
		DemoTrack: {8, ClassCurve, "Track", &Chunk{ClassByte: ClassCurve, Sections: []Section{
			EntitySection(0, TranslationRows(0, 0, 0)),
			CurveSection(0, 100, false, DemoTrackPoint0, DemoTrackPoint0+1, DemoTrackPoint0+2, DemoTrackPoint0+3),
		}}},
	}}
	points := [4][3]float32{{-20, 0, -20}, {20, 2, -20}, {20, 4, 20}, {-20, 2, 20}}
	tension := [4]float32{0, -0.6, 0, 0.5}
	for i, p := range points {
		f.Objects = append(f.Objects, Object{uint32(9 + i), ClassCurvePoint, "Track_Point000" + string(rune('0'+i)), &Chunk{
			ClassByte: ClassCurvePoint, Sections: []Section{
				EntitySection(EntityParentValid, TranslationRows(p[0], p[1], p[2]), DemoTrack),
				PointSection(DemoTrack, false, false, tension[i], 0, 0, [3]float32{}, [3]float32{}),
			}}})
	}
	addDemoAssets(f)
	return f
}

// Demo returns the Virtools demo inputs: DemoScene as demo.nmo.
func Demo() []NamedFile {
	return []NamedFile{{Name: "demo.nmo", Data: DemoScene().Bytes()}}
}
