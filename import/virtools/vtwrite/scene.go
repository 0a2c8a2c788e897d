package vtwrite

// Table indices of SampleScene's objects.
const (
	SceneParent = iota
	SceneChild
	SceneAnim
	SceneArm
	SceneArmAnim
	SceneKeyed
	SceneCurve
	SceneP0
	SceneP1
	SceneP2
)

// SampleScene is the importer tests' small valid file: a parent entity, an
// animated child with linear controllers, a TCB-rotation animation inside
// a keyed animation, and a closed curve of three points, plus one manager
// chunk.
func SampleScene() *File {
	point := func(x, z float32) *Chunk {
		return &Chunk{ClassByte: ClassCurvePoint, Sections: []Section{
			EntitySection(EntityParentValid, TranslationRows(x, 0, z), SceneCurve),
			{IdentPointData, append([]uint32{SceneCurve, 0, 0}, F32s(0, 0, 0, 0, 0, 0, 0, 0, 0)...)},
		}}
	}
	return &File{Objects: []Object{
		SceneParent: {100, Class3dObject, "Parent", &Chunk{ClassByte: Class3dEntity, Sections: []Section{
			EntitySection(0, TranslationRows(10, 0, 0)),
		}}},
		SceneChild: {101, Class3dObject, "Child", &Chunk{ClassByte: Class3dEntity, Sections: []Section{
			{IdentEntityAnimations, []uint32{1, SceneAnim}},
			EntitySection(EntityParentValid, TranslationRows(11, 2, 3), SceneParent),
		}}},
		SceneAnim: {102, ClassObjectAnimation, "Move", &Chunk{ClassByte: ClassObjectAnimation, Sections: []Section{
			ObjAnimSection(0, SceneChild, 10, nil,
				Controller{CtrlLinearPosition, 2, F32s(0, 1, 2, 3, 10, 4, 5, 6)},
				Controller{CtrlLinearRotation, 1, F32s(0, 0, 0, 0, 1)},
				Controller{CtrlLinearScale, 1, F32s(0, 1, 1, 1)}),
		}}},
		SceneArm: {103, Class3dObject, "Arm", &Chunk{ClassByte: Class3dEntity, Sections: []Section{
			EntitySection(0, TranslationRows(0, 5, 0)),
		}}},
		SceneArmAnim: {104, ClassObjectAnimation, "Swing", &Chunk{ClassByte: ClassObjectAnimation, Sections: []Section{
			ObjAnimSection(0, SceneArm, 20, nil,
				Controller{CtrlTCBRotation, 2, append(F32s(0, 0, 0, 0, 1, 0, 0, 0, 0, 0),
					F32s(20, 0, 0, 0.70710677, 0.70710677, 0, 0, 0, 0, 0)...)}),
		}}},
		SceneKeyed: {105, ClassKeyedAnimation, "Keyed", &Chunk{ClassByte: ClassKeyedAnimation, Sections: []Section{
			{IdentAnimLength, F32s(40)},
			{IdentAnimRate, []uint32{5, F32(25)}},
			{IdentAnimRoot, []uint32{0, SceneArm}},
			{IdentKeyedAnimList, []uint32{1, SceneArmAnim}},
			{IdentKeyedAnimMerge, []uint32{0, F32(0.5)}},
		}}},
		SceneCurve: {106, ClassCurve, "Path", &Chunk{ClassByte: ClassCurve, Sections: []Section{
			EntitySection(0, TranslationRows(0, 1, 0)),
			{IdentCurveData, []uint32{3, SceneP0, SceneP1, SceneP2, F32(0), 100, 0}},
		}}},
		SceneP0: {107, ClassCurvePoint, "Path_P0", point(0, 0)},
		SceneP1: {108, ClassCurvePoint, "Path_P1", point(10, 0)},
		SceneP2: {109, ClassCurvePoint, "Path_P2", point(0, 10)},
	}, Managers: []Chunk{{DataVersion: 0, ClassByte: 82, Options: 0x18, Sections: []Section{{0x1, []uint32{7}}}}}}
}
