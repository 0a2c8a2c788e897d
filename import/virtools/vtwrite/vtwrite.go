// Package vtwrite writes Virtools 2.x composition files (.nmo, .cmo,
// "Nemo Fi") for bake's tests, fuzz seeds and demo inputs. It writes
// exactly the layout the importer reads (virtools-container.md §1–7): the
// 64-byte header, Header1's object table, the Data section of manager and
// object CKStateChunks, zlib compression and the Adler-32 checksum seeded
// with 0, so that every field can be set to a hand-chosen value. Files of
// version 6 and 7 (no object table, or an uncompressed one) can be written
// too.
//
// It does not import the importer, so the importer's own tests can use it.
package vtwrite

// Magic opens every file (virtools-container.md §2).
const Magic = "Nemo Fi\x00"

// ReferenceBit marks an object-table id as a reference to an object of
// another file.
const ReferenceBit = 0x80000000

// WriteWholeCompressed is the write mode of zlib-compressed Header1 and
// Data (CKFILE_WHOLECOMPRESSED).
const WriteWholeCompressed = 0x8

// CKVersion21 is the CK version word of Virtools 2.1 (Ballance's files).
const CKVersion21 = 0x13022002

// Chunk options (the high byte of a chunk's version word).
const (
	ChunkOptIDs      = 0x01 // an ID-position list follows the data
	ChunkOptManagers = 0x02 // a manager-int-position list follows
	ChunkOptChunks   = 0x04 // a sub-chunk-position list follows
	ChunkOptFile     = 0x08 // object references are object-table indices
)

// Class ids (CK_CLASSID) of the classes the demo and tests write.
const (
	ClassObjectAnimation = 15
	ClassKeyedAnimation  = 18
	Class3dEntity        = 33
	ClassCurvePoint      = 36
	Class3dObject        = 41
	ClassCurve           = 43
)

// Controller type ids (CKANIMATION_CONTROLLER); the low byte is the base
// type: 1 position, 2 rotation, 4 scale, 8 scale axis, 0x10 morph.
const (
	CtrlLinearPosition  = 0x637c4301
	CtrlTCBPosition     = 0x347e4a01
	CtrlBezierPosition  = 0x921ab801
	CtrlLinearRotation  = 0x49ed4002
	CtrlTCBRotation     = 0x45b52a02
	CtrlLinearScale     = 0x654a3a04
	CtrlTCBScale        = 0x1b545904
	CtrlBezierScale     = 0x18ab4404
	CtrlLinearScaleAxis = 0x2f200b08
	CtrlTCBScaleAxis    = 0x32595908
	CtrlMorph           = 0x73847810
)

// Section identifiers of the chunks written (virtools-container.md §8–11,
// virtools-curves-and-object-animations.txt).
const (
	IdentObjectName         = 0x1        // file version < 7: the object's name
	IdentEntityAnimations   = 0x2000     // CK3dEntity: object array of CKObjectAnimation
	IdentEntityData         = 0x100000   // CK3dEntity: flags, moveable, 4 rows, refs
	IdentCurveData          = 0xffc00000 // CKCurve: points, fitting, step count, open
	IdentPointData          = 0x10000000 // CKCurvePoint: curve, flags, TCB, tangents
	IdentObjAnimControllers = 0x4000000  // CKObjectAnimation: header and controllers
	IdentAnimLength         = 0x40       // CKAnimation: float length (frames)
	IdentAnimRate           = 0x10       // CKAnimation: interrupt, link, rate
	IdentAnimRoot           = 0x80       // CKAnimation: object array, root entity
	IdentKeyedAnimList      = 0x1000     // CKKeyedAnimation: object animations
	IdentKeyedAnimMerge     = 0x100000   // CKKeyedAnimation: int merged, float factor
)

// EntityParentValid is the CK3dEntity flag saying a parent reference
// follows the matrix rows.
const EntityParentValid = 0x20000

// AnimMerged is the CKObjectAnimation flag of a merged animation.
const AnimMerged = 0x80
