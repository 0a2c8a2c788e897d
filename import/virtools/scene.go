package virtools

import (
	"errors"
	"fmt"

	"github.com/animbake/bake/import/binread"
)

// Scene is a decoded file: the container plus the objects of the classes
// bake converts, keyed by object-table index.
type Scene struct {
	*Container
	Entities         map[int]*Entity
	Curves           map[int]*Curve
	CurvePoints      map[int]*CurvePoint
	ObjectAnimations map[int]*ObjectAnimation
	KeyedAnimations  map[int]*KeyedAnimation
	// Assets holds the decoded meshes, materials, textures, cameras, lights
	// and groups; nil until DecodeAssets runs.
	Assets *Assets
}

// DecodeScene interprets the chunks of every 3D entity, curve, curve
// point, object animation and keyed animation, by the class id of the
// object table.
func DecodeScene(c *Container, warn func(string, ...any)) (*Scene, error) {
	s := &Scene{
		Container:        c,
		Entities:         map[int]*Entity{},
		Curves:           map[int]*Curve{},
		CurvePoints:      map[int]*CurvePoint{},
		ObjectAnimations: map[int]*ObjectAnimation{},
		KeyedAnimations:  map[int]*KeyedAnimation{},
	}
	for i := range c.Objects {
		if err := s.decodeObject(&c.Objects[i], warn); err != nil {
			var fe *binread.FormatError
			if errors.As(err, &fe) {
				o := &c.Objects[i]
				fe.Msg = fmt.Sprintf("object #%d %q (class %d): %s", o.Index, o.Name, o.ClassID, fe.Msg)
			}
			return nil, sectionError(sectionData, err)
		}
	}
	return s, nil
}

func (s *Scene) decodeObject(o *Object, warn func(string, ...any)) error {
	var err error
	switch {
	case o.ClassID == ClassObjectAnimation:
		s.ObjectAnimations[o.Index], err = decodeObjectAnimation(o, s.Container, warn)
	case o.ClassID == ClassKeyedAnimation:
		s.KeyedAnimations[o.Index], err = decodeKeyedAnimation(o, s.Container)
	case isA(o.ClassID, Class3dEntity):
		if s.Entities[o.Index], err = decodeEntity(o, s.Container); err != nil {
			return err
		}
		switch o.ClassID {
		case ClassCurve:
			s.Curves[o.Index], err = decodeCurve(o, s.Container)
		case ClassCurvePoint:
			s.CurvePoints[o.Index], err = decodeCurvePoint(o, s.Container)
		}
	}
	return err
}
