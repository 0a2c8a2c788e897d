package virtools

import (
	"errors"
	"fmt"

	"github.com/animbake/bake/import/binread"
)

// Assets are the decoded visible parts of a scene, keyed by table index.
type Assets struct {
	Meshes    map[int]*Mesh
	Materials map[int]*Material
	Textures  map[int]*Texture
	Cameras   map[int]*Camera
	Lights    map[int]*Light
	// Groups lists each CKGroup's members (table indices).
	Groups map[int][]int
}

// identGroupMembers is CKGroup's section (CK_STATESAVE_GROUPALL): the
// object array of its members.
const identGroupMembers = 0xfffff

// DecodeAssets interprets the chunks of every mesh, material, texture,
// camera, light and group. It is separate from DecodeScene so that
// animation-only conversion (--no-meshes) never reads them.
func (s *Scene) DecodeAssets(warn func(string, ...any)) error {
	a := &Assets{Meshes: map[int]*Mesh{}, Materials: map[int]*Material{}, Textures: map[int]*Texture{},
		Cameras: map[int]*Camera{}, Lights: map[int]*Light{}, Groups: map[int][]int{}}
	for i := range s.Objects {
		o := &s.Objects[i]
		var err error
		switch {
		case o.ClassID == ClassMesh: // not CKPatchMesh (53), whose data differs
			a.Meshes[i], err = decodeMesh(o, s.Container, warn)
		case o.ClassID == ClassMaterial:
			a.Materials[i], err = decodeMaterial(o, s.Container, warn)
		case o.ClassID == ClassTexture:
			a.Textures[i], err = decodeTexture(o, s.Container, warn)
		case isA(o.ClassID, ClassCamera):
			a.Cameras[i], err = decodeCamera(o, s.Container)
		case isA(o.ClassID, ClassLight):
			a.Lights[i], err = decodeLight(o, s.Container)
		case o.ClassID == ClassGroup && o.Chunk != nil:
			var sec *sectionReader
			if sec, err = o.Chunk.section(identGroupMembers, s.Container); err == nil && sec != nil {
				a.Groups[i], err = sec.LenientRefArray("group members")
			}
		}
		if err != nil {
			var fe *binread.FormatError
			if errors.As(err, &fe) {
				fe.Msg = fmt.Sprintf("object #%d %q (class %d): %s", o.Index, o.Name, o.ClassID, fe.Msg)
			}
			return sectionError(sectionData, err)
		}
	}
	s.Assets = a
	return nil
}
