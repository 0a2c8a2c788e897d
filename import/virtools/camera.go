package virtools

// Section identifiers of CKCamera and CKTargetCamera.
const (
	identCameraData   = 0xfc00000  // CAMERAONLY: projection, fov, zoom, aspect, planes
	identCameraTarget = 0x10000000 // TCAMERATARGET: the target entity
)

// Camera projection types (CK_CAMERA_PROJECTION).
const (
	ProjectionPerspective  = 1
	ProjectionOrthographic = 2
)

// Camera is a decoded CKCamera (or CKTargetCamera).
type Camera struct {
	Index      int
	Projection uint32
	Fov        float32 // horizontal field of view, radians (VxMatrix::Perspective)
	Zoom       float32 // orthographic zoom: x_ndc = Zoom·x
	Width      uint16  // aspect ratio as width:height
	Height     uint16
	Near, Far  float32
	Target     int // table index of the target entity, or noRef
	HasData    bool
}

// decodeCamera reads the camera sections: projection type, fov, zoom, a
// dword with the aspect width in its low and height in its high 16 bits,
// near and far planes; and a target camera's target reference.
func decodeCamera(o *Object, refs refResolver) (*Camera, error) {
	cam := &Camera{Index: o.Index, Projection: ProjectionPerspective, Fov: 0.5, Zoom: 1, Width: 4, Height: 3, Near: 1, Far: 4000, Target: noRef}
	c := o.Chunk
	if c == nil {
		return cam, nil
	}
	s, err := c.section(identCameraData, refs)
	if err != nil {
		return nil, err
	}
	if s != nil {
		if cam.Projection, err = s.U32("projection type"); err != nil {
			return nil, err
		}
		if cam.Fov, err = s.F32("field of view"); err != nil {
			return nil, err
		}
		if cam.Zoom, err = s.F32("orthographic zoom"); err != nil {
			return nil, err
		}
		wh, err := s.U32("aspect")
		if err != nil {
			return nil, err
		}
		cam.Width, cam.Height = uint16(wh), uint16(wh>>16)
		if cam.Near, err = s.F32("near plane"); err != nil {
			return nil, err
		}
		if cam.Far, err = s.F32("far plane"); err != nil {
			return nil, err
		}
		if err := s.finite("camera values", cam.Fov, cam.Zoom, cam.Near, cam.Far); err != nil {
			return nil, err
		}
		cam.HasData = true
	}
	if isA(o.ClassID, ClassTargetCamera) {
		if s, err := c.section(identCameraTarget, refs); err != nil {
			return nil, err
		} else if s != nil {
			if cam.Target, err = s.LenientRef("camera target"); err != nil {
				return nil, err
			}
		}
	}
	return cam, nil
}
