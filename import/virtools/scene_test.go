package virtools

import (
	"encoding/binary"

	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/import/virtools/vtwrite"
)

// The tests build their files with vtwrite; these are short names for the
// table indices of vtwrite.SampleScene's objects.
const (
	iParent  = vtwrite.SceneParent
	iChild   = vtwrite.SceneChild
	iAnim    = vtwrite.SceneAnim
	iArm     = vtwrite.SceneArm
	iArmAnim = vtwrite.SceneArmAnim
	iKeyed   = vtwrite.SceneKeyed
	iCurve   = vtwrite.SceneCurve
	iP0      = vtwrite.SceneP0
	iP1      = vtwrite.SceneP1
	iP2      = vtwrite.SceneP2
)

// readerOf wraps bytes in a little-endian binread.Reader.
func readerOf(b []byte) *binread.Reader { return binread.New(b, binary.LittleEndian) }

// parseHeaderNoCheck reads the header's size fields without validating
// them; ok says whether the sections they give fit in b.
func parseHeaderNoCheck(b []byte) (h *Header, ok bool) {
	h = &Header{}
	h.Hdr1PackSize = binary.LittleEndian.Uint32(b[0x1c:])
	h.DataPackSize = binary.LittleEndian.Uint32(b[0x20:])
	return h, uint64(64)+uint64(h.Hdr1PackSize)+uint64(h.DataPackSize) <= uint64(len(b))
}
