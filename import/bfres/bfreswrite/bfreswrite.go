// Package bfreswrite writes Wii U BFRES images (big-endian FRES, version
// 3.x or 4.x, bfres-container.md) from plain descriptions, for bake's
// tests, fuzz seeds and demo inputs. It writes exactly the layouts the
// importer reads: skeletons (FMDL/FSKL), skeletal animations (FSKA),
// shader-parameter and texture-SRT animations (FSHU), texture pattern
// animations (FTXP) and bone and material visibility animations (FVIS),
// plus Yaz0 compression for .sbfres files.
//
// Index groups are written as a chain (each node's left link descends to
// the next, with decreasing reference bits) rather than a real Patricia
// tree: the reader never looks names up, and a chain satisfies its link
// checks.
package bfreswrite

// Version3_4 is the first binary version with the curve delta field and
// the 4.x animation header layout (bfres-container.md §1).
const Version3_4 = 0x03040000

// Versions the project writes: V3 is the Wii U runtime's own version
// (0x20-byte curves, old headers), V4 is Breath of the Wild's (0x24-byte
// curves).
const (
	V3 = 0x03000001
	V4 = 0x04050003
)

// Index groups of the FRES header, in header order (§2); File places each
// sub-file in its group, and FSHU.Group picks one of the FSHU groups.
const (
	GroupModels = iota
	GroupTextures
	GroupSkeletalAnims
	GroupShaderParamAnims
	GroupColorAnims
	GroupTexSRTAnims
	GroupTexPatternAnims
	GroupBoneVisAnims
	GroupMatVisAnims
	GroupShapeAnims
	GroupSceneAnims
	GroupEmbeddedFiles
	numGroups
)

// Record sizes of the layouts written (§2, §3, §4.1, §5, §7, §8, §9).
const (
	headerSize      = 0x6C
	fskaHeaderSize  = 0x30
	boneAnimSize    = 0x18
	shuMatAnimSize  = 0x20
	paramAnimSize   = 0x10
	txpMatAnimSize  = 0x1C
	patAnimInfoSize = 8
	fvisMaterial    = 1 << 8
)

// curveSize is the curve header stride: 3.4 added the delta field (§4.1).
func curveSize(version uint32) int {
	if version >= Version3_4 {
		return 0x24
	}
	return 0x20
}

// boneSize is the FSKL bone stride: 3.x bones carry an inverse matrix (§3).
func boneSize(version uint32) int {
	if version >= Version3_4 {
		return 0x40
	}
	return 0x70
}
