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
	for _, o := range []uint32{id.Spinner, id.Crate, id.Door} {
		b.ObjectChunk(o, 0)
	}
	b.Chunk(0x1900, id.Morpher, 2, id.Smile, id.Blink) // the morpher and its targets

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
// playing once over N = 31.
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
	return b.Bytes()
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
