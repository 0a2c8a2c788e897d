package virtools

// Class ids (CK_CLASSID, CK 2.1) this reader cares about.
const (
	ClassObject          = 1
	ClassSceneObject     = 11
	ClassObjectAnimation = 15
	ClassAnimation       = 16
	ClassKeyedAnimation  = 18
	ClassBeObject        = 19
	ClassPlace           = 22
	ClassGroup           = 23
	ClassMaterial        = 30
	ClassTexture         = 31
	ClassMesh            = 32
	Class3dEntity        = 33
	ClassCamera          = 34
	ClassTargetCamera    = 35
	ClassCurvePoint      = 36
	ClassLight           = 38
	ClassTargetLight     = 39
	Class3dObject        = 41
	ClassCurve           = 43
	ClassRenderObject    = 47
)

// maxClassID is the highest class id a table entry may carry. CK 2.1 has
// 55 classes; later SDKs add a few, so the bound is kept loose enough for
// 3.5 re-saves while still rejecting garbage.
const maxClassID = 127

// classParent is the CK 2.1 class tree (virtools-container.md §10): the
// parent of every class id, 0 for the root and for unknown ids.
var classParent = map[int32]int32{
	2: 1, 3: 46, 4: 1, 5: 1, 6: 1, 8: 11, 9: 1, 10: 19, 11: 1, 12: 1, 13: 1,
	15: 11, 16: 11, 18: 16, 19: 11, 20: 1, 21: 19, 22: 33, 23: 19, 24: 19,
	25: 24, 26: 24, 27: 47, 28: 27, 29: 28, 30: 19, 31: 19, 32: 19, 33: 47,
	34: 33, 35: 34, 36: 33, 37: 33, 38: 33, 39: 38, 40: 33, 41: 33, 42: 41,
	43: 33, 45: 46, 46: 1, 47: 19, 48: 1, 49: 1, 50: 33, 51: 1, 52: 19, 53: 32,
}

// isA reports whether class cls is base or derives from it.
func isA(cls, base int32) bool {
	for depth := 0; cls != 0 && depth < 16; depth++ {
		if cls == base {
			return true
		}
		cls = classParent[cls]
	}
	return false
}
