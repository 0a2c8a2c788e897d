package ccs

import (
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/ccs/ccswrite"
	"github.com/animbake/bake/internal/modeltest"
	"github.com/animbake/bake/model"
)

// decodeBytes runs the registered decoder on data and collects notices.
func decodeBytes(t testing.TB, name string, data []byte) ([]*model.File, []string, error) {
	t.Helper()
	var warnings []string
	opts := &format.Options{Warn: func(m string) { warnings = append(warnings, m) }}
	files, err := Decode(format.BytesInput(name, data), opts)
	return files, warnings, err
}

// mustDecode decodes data into exactly one validated file.
func mustDecode(t testing.TB, data []byte) *model.File {
	t.Helper()
	files, warnings, err := decodeBytes(t, "test.ccs", data)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range warnings {
		t.Log("warning:", w)
	}
	if len(files) != 1 {
		t.Fatalf("%d files, want 1", len(files))
	}
	if err := files[0].Validate(); err != nil {
		t.Fatal(err)
	}
	return files[0]
}

// findChannel returns the curve of node/path in a, or nil.
func findChannel(a *model.Animation, node, path string) model.Curve {
	if c := modeltest.FindChannel(a, node, path); c != nil {
		return c.Curve
	}
	return nil
}

// kiteFile builds a generation-1 file shaped like .hack//Infection's data:
// a body object driven by controllers, a note object, a morpher, an enemy
// body posed by F_Obj records, and a material with a texture scroll.
type kiteIDs struct {
	body, bodyExt, note, morpher, targetA, targetB, enemy, mat uint32
	anmAttack, anmDamage, anmLoop, anmScroll                   uint32
}

func kiteFile() ([]byte, kiteIDs) {
	b := ccswrite.New("ctu1body", 0x110)
	var id kiteIDs
	id.body = b.Object("OBJ_ctu1body", "ctu1body.max")
	id.note = b.Object("OBJ_xnote", "ctu1body.max")
	id.morpher = b.Object("MPH_face", "ctu1body.max")
	id.targetA = b.Object("MDL_face_a", "ctu1body.max")
	id.targetB = b.Object("MDL_face_b", "ctu1body.max")
	id.enemy = b.Object("OBJ_eex1body", "eex1.max")
	id.mat = b.Object("MAT_water", "field.max")
	id.bodyExt = b.Object("OBJ_ctu1body", "ctu1atc0.max")
	id.anmAttack = b.Object("ANM_ctu1atc0", "ctu1atc0.max")
	id.anmDamage = b.Object("ANM_eex1dmg0", "eex1dmg0.max")
	id.anmLoop = b.Object("ANM_ctu1wait", "ctu1wait.max")
	id.anmScroll = b.Object("ANM_water", "field.max")
	clut := b.Object("CLT_water", "field.max")
	tex := b.Object("TEX_water", "field.max")
	b.ObjectChunk(id.body, 0)
	b.External(id.bodyExt, 0, id.body)
	colors := make([][4]byte, 16)
	b.CLUT(clut, colors)
	b.TextureData(tex, clut, 0x14, 1, 1, []byte{0x21, 0x03}) // the +50-word size trap before the Animes
	b.Chunk(0x1900, id.morpher, 2, id.targetA, id.targetB)
	// ANM_ctu1atc0: the body moves through its External copy; frame 5
	// holds (2, 2) then (0x8005, 1) (ccs-anime-playback.txt "Notes").
	frames := make([][]ccswrite.Record, 8)
	frames[0] = []ccswrite.Record{
		ccswrite.ObjCtrl(id.bodyExt,
			ccswrite.Keyed(ccswrite.K(0, 0, 0, 0), ccswrite.K(4, 10, 20, 30)),
			ccswrite.Keyed(ccswrite.K(0, 0, 0, 0), ccswrite.K(2, 0, 0, 90), ccswrite.K(6, 0, 90, 90)),
			ccswrite.Const(1, 1, 1),
			ccswrite.Absent),
		ccswrite.Note(id.note, 3, 9), // frame 0: never handed on
	}
	frames[3] = []ccswrite.Record{ccswrite.Note(id.note, 2, 7)}
	frames[5] = []ccswrite.Record{ccswrite.Note(id.note, 2, 2), ccswrite.Note(id.note, 0x8005, 1)}
	frames[7] = []ccswrite.Record{ccswrite.Note(id.note, 0x8003, 4),
		ccswrite.Morph(id.morpher, ccswrite.MorphWeight{Target: id.targetB, Weight: 0.25})}
	frames[2] = []ccswrite.Record{ccswrite.Morph(id.morpher, ccswrite.MorphWeight{Target: id.targetA, Weight: 0.5}, ccswrite.MorphWeight{Target: id.targetB, Weight: 1})}
	b.Anime(id.anmAttack, 8, false, frames...)
	// ANM_eex1dmg0: F_Obj records lift the enemy 3.875 a frame and tip it
	// 7.5° about y and −7.5° about z; frame 0's record is never read.
	dmg := make([][]ccswrite.Record, 4)
	for f := range 4 {
		fl := float32(f)
		dmg[f] = []ccswrite.Record{ccswrite.FObj(id.enemy, [3]float32{0, 0, 3.875 * fl}, [3]float32{0, 7.5 * fl, -7.5 * fl}, [3]float32{1, 1, 1}, 1.5-0.5*fl, 0)}
	}
	b.Anime(id.anmDamage, 4, false, dmg...)
	// ANM_ctu1wait loops (-2) over N = 9 frames.
	b.Anime(id.anmLoop, 9, true, []ccswrite.Record{ccswrite.ObjCtrl(id.body, ccswrite.Absent, ccswrite.Const(0, 0, 45), ccswrite.Absent, ccswrite.Keyed(ccswrite.K(0, 1), ccswrite.K(8, 0)))})
	// ANM_water scrolls a material's V.
	b.Anime(id.anmScroll, 31, true, []ccswrite.Record{ccswrite.MatCtrl(id.mat, ccswrite.Absent, ccswrite.Keyed(ccswrite.K(0, 0), ccswrite.K(30, 1)))})
	return b.Bytes(), id
}
