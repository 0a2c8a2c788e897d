package vtwrite

import "math"

// Table indices of the demo's scene objects, after the track's points.
const (
	DemoSpinnerMesh = DemoTrackPoint0 + 4 + iota
	DemoCheckerMaterial
	DemoCheckerTexture
	DemoGround
	DemoGroundMesh
	DemoGroundMaterial
	DemoSun
	DemoCamera
	DemoGroup
)

// DemoChecker is the demo texture's size and its two colours (RGBA).
const DemoChecker = 8

var (
	demoCheckerA = [4]byte{0xff, 0x80, 0x00, 0xff}
	demoCheckerB = [4]byte{0xff, 0xff, 0xff, 0xff}
)

// DemoCheckerPixels is the demo texture: 8 × 8 pixels in 2 × 2 squares,
// orange where (x/2 + y/2) is even, white elsewhere; rows top to bottom.
func DemoCheckerPixels() []byte {
	out := make([]byte, 0, 4*DemoChecker*DemoChecker)
	for y := range DemoChecker {
		for x := range DemoChecker {
			c := demoCheckerB
			if (x/2+y/2)%2 == 0 {
				c = demoCheckerA
			}
			out = append(out, c[:]...)
		}
	}
	return out
}

// Cube returns a cube of half-size s centred on the origin as Virtools
// saves one: 4 vertices per side with the side's outward normal and UVs
// over the whole texture (v down), 2 triangles per side wound so that
// (b − a) × (c − a) points outward — clockwise seen from outside in
// Virtools' left-handed axes, its front faces.
func Cube(s float32) MeshData {
	var m MeshData
	sides := [6][3][3]float32{ // normal, u axis, v axis with u × v = normal
		{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
		{{-1, 0, 0}, {0, 0, 1}, {0, 1, 0}},
		{{0, 1, 0}, {0, 0, 1}, {1, 0, 0}},
		{{0, -1, 0}, {1, 0, 0}, {0, 0, 1}},
		{{0, 0, 1}, {1, 0, 0}, {0, 1, 0}},
		{{0, 0, -1}, {0, 1, 0}, {1, 0, 0}},
	}
	for _, side := range sides {
		n, u, v := side[0], side[1], side[2]
		base := uint16(len(m.Positions) / 3)
		for _, c := range [4][2]float32{{-1, -1}, {-1, 1}, {1, 1}, {1, -1}} {
			for k := range 3 {
				m.Positions = append(m.Positions, s*(n[k]+c[0]*u[k]+c[1]*v[k]))
			}
			m.Normals = append(m.Normals, n[0], n[1], n[2])
			m.UVs = append(m.UVs, (c[0]+1)/2, (1-c[1])/2)
		}
		// corners 0 (−u−v), 1 (−u+v), 2 (+u+v), 3 (+u−v)
		m.Faces = append(m.Faces, base, base+2, base+1, base, base+3, base+2)
		m.FaceSlots = append(m.FaceSlots, 1, 1)
	}
	return m
}

// pitchRows are the rows of an entity at p turned down by deg degrees
// about x (its +Z then points forward and down).
func pitchRows(deg float64, p [3]float32) Rows {
	s, c := math.Sincos(deg * math.Pi / 180)
	return Rows{{1, 0, 0}, {0, float32(c), float32(s)}, {0, float32(-s), float32(c)}, p}
}

// addDemoAssets gives the demo what a level shows: the spinner carries a
// textured cube (an 8 × 8 checker stored raw in the file), a lit ground
// plane with a plain two-sided material, a directional "Sun", a camera
// and a group of the two objects.
func addDemoAssets(f *File) {
	spinner := f.Objects[DemoSpinner].Chunk
	spinner.Sections = append([]Section{{IdentEntityMeshes, []uint32{DemoSpinnerMesh, 1, DemoSpinnerMesh}}}, spinner.Sections...)
	cube := Cube(1.5)
	cube.Flags = MeshFlagsDefault
	cube.Materials = []uint32{0xffffffff, DemoCheckerMaterial}
	ground := MeshData{Flags: MeshFlagsDefault, Materials: []uint32{0xffffffff, DemoGroundMaterial},
		Positions: []float32{-15, 0, -15, -15, 0, 15, 15, 0, 15, 15, 0, -15},
		Normals:   []float32{0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0},
		UVs:       []float32{0, 1, 0, 0, 1, 0, 1, 1},
		// (b − a) × (c − a) is (0, 0, 30) × (30, 0, 30) = (0, 900, 0) and
		// (30, 0, 30) × (30, 0, 0) = (0, 900, 0): both face up.
		Faces: []uint16{0, 1, 2, 0, 2, 3}, FaceSlots: []uint16{1, 1}}
	mesh := func(m MeshData) *Chunk { return &Chunk{ClassByte: ClassMesh, Sections: MeshSections(m)} }
	f.Objects = append(f.Objects,
		Object{20, ClassMesh, "Spinner_Mesh", mesh(cube)},
		Object{21, ClassMaterial, "Checker_Mat", &Chunk{ClassByte: ClassMaterial, Sections: []Section{MaterialSection(MaterialData{
			Diffuse: 0xffffffff, Ambient: 0xff404040, Specular: 0xff808080, Power: 30, Texture: DemoCheckerTexture,
			Modes: [8]uint8{2, 1, 1, 2, 1, 2, 3, 1}, States: 0x2 | 0x4 | 4<<8 | 8<<16})}}},
		Object{22, ClassTexture, "Checker", &Chunk{ClassByte: ClassTexture, Sections: []Section{
			RawTextureSection(DemoChecker, DemoChecker, DemoCheckerPixels()),
			FileNameSection("Checker.bmp"),
			TextureOptionsSection(false, 0),
		}}},
		Object{23, Class3dObject, "Ground", &Chunk{ClassByte: Class3dEntity, Sections: []Section{
			{IdentEntityMeshes, []uint32{DemoGroundMesh, 1, DemoGroundMesh}},
			EntitySection(0, TranslationRows(0, 0, 0)),
		}}},
		Object{24, ClassMesh, "Ground_Mesh", mesh(ground)},
		Object{25, ClassMaterial, "Ground_Mat", &Chunk{ClassByte: ClassMaterial, Sections: []Section{MaterialSection(MaterialData{
			Diffuse: 0xff4c9a3c, Ambient: 0xff202020, Modes: [8]uint8{2, 2, 2, 2, 1, 2, 3, 1}, States: 0x1 | 0x2 | 0x4 | 4<<8 | 8<<16})}}},
		Object{26, ClassLight, "Sun", &Chunk{ClassByte: ClassLight, Sections: []Section{
			EntitySection(0, pitchRows(50, [3]float32{0, 20, -20})),
			LightSection(3, 0x100, 0xfffff2e0, [3]float32{1, 0, 0}, 200),
			{IdentLightPower, F32s(1.5)},
		}}},
		Object{27, ClassCamera, "Demo_Camera", &Chunk{ClassByte: ClassCamera, Sections: []Section{
			EntitySection(0, pitchRows(25, [3]float32{0, 9, -16})),
			CameraSection(1, 1.0, 1, 4, 3, 0.5, 500),
		}}},
		Object{28, ClassGroup, "Demo_Solids", &Chunk{ClassByte: ClassGroup, Sections: []Section{
			{IdentGroupMembers, []uint32{2, DemoSpinner, DemoGround}},
		}}},
	)
}
