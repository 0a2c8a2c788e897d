// Package ccsdemo builds bake's CyberConnect2 CCS demo inputs with the
// project's writer (ccswrite): a generation-1 file whose Anime chunks show
// the ccAnm rules (ccs-anime-playback.txt), its gzip copy, and a DATA.BIN
// of three members. Command demogen writes them; `go generate
// ./import/ccs` runs it for testdata/demo/ccs.
package ccsdemo

import (
	w "github.com/animbake/bake/import/ccs/ccswrite"
	"github.com/animbake/bake/internal/demofiles"
)

// NamedFile is a demo input: a file name and its bytes.
type NamedFile = demofiles.File

// IDs are the object-table ids of Demo's objects.
type IDs struct {
	Spinner, Crate, Door, Morpher, Smile, Blink, Water uint32
	AnmSpinner, AnmCrate, AnmFace, AnmDoor, AnmWater   uint32
	// The assets: the crate's textured cube, the face quad the morpher
	// deforms, and the pool the water material scrolls on.
	MdlCrate, MatCrate, TexCrate, ClutCrate uint32
	Face, MdlFace, Pool, MdlPool            uint32
	TexWater, ClutWater                     uint32
}

// Frame counts (N) of Demo's Anime chunks.
const (
	SpinnerFrames = 61
	CrateFrames   = 50
	FaceFrames    = 30
	DoorFrames    = 20
	WaterFrames   = 31
)

// Demo returns the generation-1 (version 0x110) demo file "demo":
//
//   - ANM_spinner loops (end Top −2) over N = 61: OBJ_spinner's rotation
//     is keyed in degrees about y, 0 → 120 → 240 → 360 at frames 0, 20,
//     40, 60; each step is 120°, so the short way between key matrices is
//     the turn the keys mean, and the spinner turns a full circle.
//   - ANM_crate plays once (−1) over N = 50: OBJ_crate's position keys
//     start at frame 10 (the first key is held before it) and rise 20
//     units by frame 30, sliding 5 along x by 45; its scale swells to 1.5
//     at 30 and back by 45; its transparency fades from 1 at frame 20 to 0
//     at 49; notes fire at frames 10 (event 1, param 100) and 30 (event 2,
//     param 200).
//   - ANM_face plays once over N = 30: F_Morpher records on MPH_face
//     blend MDL_face_smile in (0.5 at frame 5, 1 at 10) and blink
//     (MDL_face_blink 1 at 20 only, the smile dropping to 0 there because
//     a record sets the whole target list).
//   - ANM_door plays once over N = 20: F_Obj records pose OBJ_door each
//     frame, 4.5° more about y per frame (frame 0's record is never read).
//   - ANM_water loops over N = 31: MAT_water's U scrolls 0 → 1.
//
// Its assets: OBJ_crate draws MDL_crate, a 10 cm cube (24 vertices, 6
// faces of 4-vertex strips) textured by TEX_crate, an 8×8 4-bit checker
// (2×2-texel checks of CLT_crate's two wood colours) through MAT_crate;
// OBJ_face draws MDL_face, a 10 cm quad that MPH_face deforms towards
// MDL_face_smile (its lower corners 2 cm up) and MDL_face_blink (its upper
// corners 3 cm down); OBJ_pool draws MDL_pool, a 40 cm quad with MAT_water,
// whose TEX_water is a 16×16 8-bit gradient over a 256-colour CLUT.
func Demo() ([]byte, IDs) {
	b := w.New("demo", 0x110)
	var id IDs
	id.Spinner = b.Object("OBJ_spinner", "demo.max")
	id.Crate = b.Object("OBJ_crate", "demo.max")
	id.Door = b.Object("OBJ_door", "demo.max")
	id.Morpher = b.Object("MPH_face", "face.max")
	id.Smile = b.Object("MDL_face_smile", "face.max")
	id.Blink = b.Object("MDL_face_blink", "face.max")
	id.Water = b.Object("MAT_water", "demo.max")
	id.AnmSpinner = b.Object("ANM_spinner", "spinner.max")
	id.AnmCrate = b.Object("ANM_crate", "crate.max")
	id.AnmFace = b.Object("ANM_face", "face.max")
	id.AnmDoor = b.Object("ANM_door", "door.max")
	id.AnmWater = b.Object("ANM_water", "demo.max")
	id.MdlCrate = b.Object("MDL_crate", "demo.max")
	id.MatCrate = b.Object("MAT_crate", "demo.max")
	id.TexCrate = b.Object("TEX_crate", "demo.max")
	id.ClutCrate = b.Object("CLT_crate", "demo.max")
	id.Face = b.Object("OBJ_face", "face.max")
	id.MdlFace = b.Object("MDL_face", "face.max")
	id.Pool = b.Object("OBJ_pool", "demo.max")
	id.MdlPool = b.Object("MDL_pool", "demo.max")
	id.TexWater = b.Object("TEX_water", "demo.max")
	id.ClutWater = b.Object("CLT_water", "demo.max")
	for _, o := range []uint32{id.Spinner, id.Door} {
		b.ObjectChunk(o, 0)
	}
	b.ObjectFull(id.Crate, 0, id.MdlCrate, 0)
	b.ObjectFull(id.Face, 0, id.MdlFace, 0)
	b.ObjectFull(id.Pool, 0, id.MdlPool, 0)
	demoAssets(b, id)
	b.Morpher(id.Morpher, id.MdlFace) // the morpher and the model it deforms

	b.Anime(id.AnmSpinner, SpinnerFrames, true, []w.Record{w.ObjCtrl(id.Spinner,
		w.Const(0, 10, 0),
		w.Keyed(w.K(0, 0, 0, 0), w.K(20, 0, 120, 0), w.K(40, 0, 240, 0), w.K(60, 0, 360, 0)),
		w.Const(1, 1, 1),
		w.Absent)})

	crate := make([][]w.Record, CrateFrames)
	crate[0] = []w.Record{w.ObjCtrl(id.Crate,
		w.Keyed(w.K(10, 0, 0, 0), w.K(30, 0, 20, 0), w.K(45, 5, 20, 0)),
		w.Absent,
		w.Keyed(w.K(10, 1, 1, 1), w.K(30, 1.5, 1.5, 1.5), w.K(45, 1, 1, 1)),
		w.Keyed(w.K(20, 1), w.K(49, 0)))}
	crate[10] = []w.Record{w.Note(id.Crate, 1, 100)}
	crate[30] = []w.Record{w.Note(id.Crate, 2, 200)}
	b.Anime(id.AnmCrate, CrateFrames, false, crate...)

	face := make([][]w.Record, FaceFrames)
	face[5] = []w.Record{w.Morph(id.Morpher, w.MorphWeight{Target: id.Smile, Weight: 0.5})}
	face[10] = []w.Record{w.Morph(id.Morpher, w.MorphWeight{Target: id.Smile, Weight: 1})}
	face[20] = []w.Record{w.Morph(id.Morpher, w.MorphWeight{Target: id.Blink, Weight: 1})}
	b.Anime(id.AnmFace, FaceFrames, false, face...)

	door := make([][]w.Record, DoorFrames)
	for f := range DoorFrames {
		door[f] = []w.Record{w.FObj(id.Door, [3]float32{2, 0, 0}, [3]float32{0, 4.5 * float32(f), 0}, [3]float32{1, 1, 1}, 1, 0)}
	}
	b.Anime(id.AnmDoor, DoorFrames, false, door...)

	b.Anime(id.AnmWater, WaterFrames, true, []w.Record{w.MatCtrl(id.Water,
		w.Keyed(w.K(0, 0), w.K(30, 1)), w.Const(0))})
	return b.Bytes(), id
}

// demoAssets writes Demo's textures, materials and models.
func demoAssets(b *w.Builder, id IDs) {
	b.CLUT(id.ClutCrate, append([][4]byte{{0xC0, 0x80, 0x40, 0x80}, {0x60, 0x30, 0x10, 0x80}}, make([][4]byte, 14)...))
	checker := make([]byte, 32)
	for i := range 64 {
		x, y := i%8, i/8
		checker[i/2] |= byte((x/2+y/2)%2) << (4 * (i % 2))
	}
	b.TextureData(id.TexCrate, id.ClutCrate, 0x14, 3, 3, checker)
	b.Material(id.MatCrate, id.TexCrate, 1, 0, 0)
	b.RigidModel(id.MdlCrate, 4096, 0, cube(id.MatCrate)...)

	var ramp [][4]byte
	for i := range 256 {
		ramp = append(ramp, [4]byte{0, byte(i / 2), byte(128 + i/2), 0x80})
	}
	b.CLUT(id.ClutWater, ramp)
	water := make([]byte, 256)
	for i := range water {
		water[i] = byte(i%16*16 + i/16)
	}
	b.TextureData(id.TexWater, id.ClutWater, 0x13, 4, 4, water)
	b.Material(id.Water, id.TexWater, 1, 0, 0)
	b.RigidModel(id.MdlPool, 4096, 0, quad(id.Water, 20, [4][2]int16{{0, 0}, {512, 0}, {0, 512}, {512, 512}}))

	b.RigidModel(id.MdlFace, 4096, 0, quad(0, 5, [4][2]int16{{0, 0}, {256, 0}, {0, 256}, {256, 256}}))
	face := quad(0, 5, [4][2]int16{})
	smile := w.RigidMesh{Pos: [][3]int16{{-5, -5, 2}, {5, -5, 2}, {-5, 5, 0}, {5, 5, 0}}, Normal: face.Normal}
	blink := w.RigidMesh{Pos: [][3]int16{{-5, -5, 0}, {5, -5, 0}, {-5, 5, -3}, {5, 5, -3}}, Normal: face.Normal}
	b.RigidModel(id.Smile, 4096, 6, smile)
	b.RigidModel(id.Blink, 4096, 6, blink)
}

// quad is a square of half-size h cm in the z = 0 plane facing +Z, as a
// 4-vertex strip (flags 1, 1, 0, 0: triangles (0, 1, 2) and (3, 2, 1)).
func quad(mat uint32, h int16, uv [4][2]int16) w.RigidMesh {
	m := w.RigidMesh{Material: mat, Pos: [][3]int16{{-h, -h, 0}, {h, -h, 0}, {-h, h, 0}, {h, h, 0}}}
	for k := range 4 {
		m.Normal = append(m.Normal, [4]int8{0, 0, 64, int8(map[bool]int{true: 1, false: 0}[k < 2])})
		m.Color = append(m.Color, [4]byte{0x80, 0x80, 0x80, 0x80})
		m.UV = append(m.UV, uv[k])
	}
	return m
}

// cube is a 10 cm cube about the origin: per face (normal n, tangents u, v
// with u × v = n) the strip c − u − v, c + u − v, c − u + v, c + u + v with
// c = 5n, UVs (0, 0) (1, 0) (0, 1) (1, 1).
func cube(mat uint32) []w.RigidMesh {
	faces := [6][3][3]int16{
		{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {{-1, 0, 0}, {0, 0, 1}, {0, 1, 0}},
		{{0, 1, 0}, {0, 0, 1}, {1, 0, 0}}, {{0, -1, 0}, {1, 0, 0}, {0, 0, 1}},
		{{0, 0, 1}, {1, 0, 0}, {0, 1, 0}}, {{0, 0, -1}, {0, 1, 0}, {1, 0, 0}},
	}
	m := w.RigidMesh{Material: mat}
	for _, f := range faces {
		n, u, v := f[0], f[1], f[2]
		for k, s := range [4][2]int16{{-1, -1}, {1, -1}, {-1, 1}, {1, 1}} {
			var p [3]int16
			for c := range 3 {
				p[c] = 5*n[c] + 5*s[0]*u[c] + 5*s[1]*v[c]
			}
			flag := int8(0)
			if k < 2 {
				flag = 1
			}
			m.Pos = append(m.Pos, p)
			m.Normal = append(m.Normal, [4]int8{int8(64 * n[0]), int8(64 * n[1]), int8(64 * n[2]), flag})
			m.Color = append(m.Color, [4]byte{0x80, 0x80, 0x80, 0x80})
			m.UV = append(m.UV, [2]int16{(s[0] + 1) * 128, (s[1] + 1) * 128})
		}
	}
	return []w.RigidMesh{m}
}

// Lamp is a second generation-1 file, "lamp": a lamp that sways 30° about
// z and back, looping over N = 41.
func Lamp() []byte {
	b := w.New("lamp", 0x110)
	lamp := b.Object("OBJ_lamp", "lamp.max")
	anm := b.Object("ANM_lamp", "lamp.max")
	b.ObjectChunk(lamp, 0)
	b.Anime(anm, 41, true, []w.Record{w.ObjCtrl(lamp, w.Const(0, 30, 0),
		w.Keyed(w.K(0, 0, 0, -30), w.K(20, 0, 0, 30), w.K(40, 0, 0, -30)), w.Absent, w.Absent)})
	return b.Bytes()
}

// Later is a later-generation file (version 0x123, bare setup chunk, as
// S01.CCS), "later": a bird whose rotation is quaternion-keyed (kind 4:
// a half turn about y in two quarter steps) while it glides along x,
// playing once over N = 31; and a skinned arm: clump CMP_arm of
// OBJ_arm_root (at the origin) and OBJ_arm_tip (its child, bind pose 10 cm
// up z), drawing MDL_arm, a 4 cm square column 20 cm tall whose bottom
// ring follows the root, top ring the tip and middle ring both by half;
// ANM_arm loops over N = 31, bending the tip 60° about x and back.
func Later() []byte {
	b := w.New("later", 0x123)
	b.BareSetup = true
	bird := b.Object("OBJ_bird", "bird.max")
	anm := b.Object("ANM_bird", "bird.max")
	b.ObjectChunk(bird, 0)
	const s = 0.70710677
	b.Anime(anm, 31, false, []w.Record{w.ObjCtrl(bird,
		w.Keyed(w.K(0, -10, 5, 0), w.K(30, 10, 5, 0)),
		w.QuatKeyed(w.K(0, 0, 0, 0, 1), w.K(15, 0, s, 0, s), w.K(30, 0, 1, 0, 0)),
		w.Absent, w.Absent)})
	arm(b)
	return b.Bytes()
}

// arm writes Later's skinned arm (see Later).
func arm(b *w.Builder) {
	root := b.Object("OBJ_arm_root", "arm.max")
	tip := b.Object("OBJ_arm_tip", "arm.max")
	clump := b.Object("CMP_arm", "arm.max")
	mdl := b.Object("MDL_arm", "arm.max")
	mat := b.Object("MAT_arm", "arm.max")
	anm := b.Object("ANM_arm", "arm.max")
	b.ObjectFull(root, 0, mdl, 0)
	b.ObjectFull(tip, root, 0, 0)
	b.Clump(clump, []uint32{root, tip}, []w.Pose{{Scale: [3]float32{1, 1, 1}}, {Pos: [3]float32{0, 0, 10}, Scale: [3]float32{1, 1, 1}}})
	b.Material(mat, 0, 1, 0, 0)
	corners := [5][2]int16{{-2, -2}, {2, -2}, {2, 2}, {-2, 2}, {-2, -2}}
	var verts []w.DeformVertex
	for k := range 4 {
		a, c := corners[k], corners[k+1]
		// Outward normal of the side from a to c (counter-clockwise from +Z).
		n := [3]int8{int8(16 * (c[1] - a[1])), int8(-16 * (c[0] - a[0])), 0}
		for ring, z := range []int16{0, 10, 20} {
			for j, p := range [][2]int16{a, c} {
				flag := int8(0)
				if ring == 0 {
					flag = 1
				}
				var copies []w.Copy
				switch ring {
				case 0:
					copies = []w.Copy{{Pos: [3]int16{p[0], p[1], z}, Node: 0, Weight: 256}}
				case 1:
					copies = []w.Copy{{Pos: [3]int16{p[0], p[1], z}, Node: 0, Weight: 128}, {Pos: [3]int16{p[0], p[1], z - 10}, Node: 1, Weight: 128}}
				case 2:
					copies = []w.Copy{{Pos: [3]int16{p[0], p[1], z - 10}, Node: 1, Weight: 256}}
				}
				for i := range copies {
					copies[i].Normal, copies[i].Flag = n, flag
				}
				verts = append(verts, w.DeformVertex{Copies: copies, UV: [2]int16{int16(256 * j), int16(128 * ring)}})
			}
		}
	}
	b.DeformableModel(mdl, 4096, w.DeformMesh{Material: mat, Verts: verts})
	b.Anime(anm, 31, true, []w.Record{w.ObjCtrl(tip, w.Const(0, 0, 10),
		w.Keyed(w.K(0, 0, 0, 0), w.K(15, 60, 0, 0), w.K(30, 0, 0, 0)), w.Const(1, 1, 1), w.Absent)})
}

// Files returns the CCS demo inputs: demo.ccs, its gzip copy demo.cmp,
// and DATA.BIN holding demo, lamp and later as gzip members on 0x800-byte
// sectors.
func Files() []NamedFile {
	demo, _ := Demo()
	return []NamedFile{
		{Name: "demo.ccs", Data: demo},
		{Name: "demo.cmp", Data: w.Gzip(demo, "demo.cmp")},
		{Name: "DATA.BIN", Data: w.DataBIN(w.Gzip(demo, "demo.cmp"), w.Gzip(Lamp(), "lamp.cmp"), w.Gzip(Later(), "later.cmp"))},
	}
}
