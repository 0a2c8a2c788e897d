package ccs

import (
	"reflect"
	"testing"

	"github.com/animbake/bake/import/ccs/ccswrite"
	"github.com/animbake/bake/model"
)

// The walk's size traps (ccs-container.md §2.5): a Texture chunk's size
// counts 50 words more than its body, and a generation-1 Model chunk's size
// cannot be trusted, so the walk scans to the next chunk; the setup chunk
// may be the bare words 3, 0 (S01.CCS).
func TestWalkTraps(t *testing.T) {
	b := ccswrite.New("traps", 0x110)
	b.BareSetup = true
	o := b.Object("OBJ_a", "a.max")
	mdl := b.Object("MDL_a", "a.max")
	tex := b.Object("TEX_a", "a.max")
	anm := b.Object("ANM_a", "a.max")
	b.Texture(tex, 1, 2, 3, 4)
	b.Chunk(0x4200, 7, 7, 7)                                            // unknown: skipped by size
	b.ChunkSized(0x0800, 2, mdl, 0xAAAAAAAA, 0xBBBBBBBB, 0xCCCCCCCC, 5) // size says 2, body is 5
	b.Anime(anm, 3, false, []ccswrite.Record{ccswrite.ObjCtrl(o, ccswrite.Const(1, 2, 3), ccswrite.Absent, ccswrite.Absent, ccswrite.Absent)})
	s, err := ReadScene(b.Bytes(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Animes) != 1 || s.Animes[0].Name != "ANM_a" {
		t.Fatalf("animes %+v", s.Animes)
	}
	if s.Resyncs != 1 {
		t.Errorf("%d resyncs, want 1 (the Model chunk)", s.Resyncs)
	}
	want := map[uint16]int{CodeTexture: 1, CodeModel: 1, 0x4200: 1, CodeAnime: 1, CodeStream: 1}
	if !reflect.DeepEqual(s.Chunks, want) {
		t.Errorf("chunks %v, want %v", s.Chunks, want)
	}
}

// Later generations (version >= 0x120, ccs-container.md §4.2): quaternion
// rotation keys (kind 4), F_Obj with absent-component flags, material
// controllers with scale fields, material frames with offset and scale.
func TestLaterGeneration(t *testing.T) {
	b := ccswrite.New("later", 0x123)
	o := b.Object("OBJ_a", "a.max")
	p := b.Object("OBJ_p", "a.max")
	mat := b.Object("MAT_a", "a.max")
	mat2 := b.Object("MAT_b", "a.max")
	anm := b.Object("ANM_a", "a.max")
	q := ccswrite.QuatKeyed(ccswrite.K(0, 0, 0, 0, 1), ccswrite.K(10, 0, 0, 1, 0))
	// F_Obj at frame 1: position y and z, rotation, scale absent (flags
	// 0x2|0x10|0x20|0x40|0x80|0x100|0x200|0x800); x, transparency present.
	fobj := ccswrite.FObjLater(p, 0x2|0x10|0x20|0x40|0x80|0x100|0x200|0x800, 5, 6, 0.25)
	b.Anime(anm, 11, false,
		[]ccswrite.Record{
			ccswrite.ObjCtrl(o, ccswrite.Absent, q, ccswrite.Absent, ccswrite.Absent),
			ccswrite.MatCtrl(mat, ccswrite.Const(0.5), ccswrite.Absent, ccswrite.Const(2), ccswrite.Const(3)),
		},
		[]ccswrite.Record{fobj, ccswrite.MatFrame(mat2, 2, 0.125, 0.25)},
	)
	f := mustDecode(t, b.Bytes())
	a := &f.Animations[0]
	rot := findChannel(a, "OBJ_a", model.PathRotation).(*model.CcAnmRotation)
	if rot.Kind != model.CcAnmQuatKeyed || !reflect.DeepEqual(rot.Quats, []float32{0, 0, 0, 1, 0, 0, 1, 0}) || !reflect.DeepEqual(rot.Frames, []uint32{0, 10}) {
		t.Errorf("quaternion rotation %+v", rot)
	}
	pos := findChannel(a, "OBJ_p", model.PathTranslation).(*model.CcAnmTrack)
	if !reflect.DeepEqual(pos.Values, []float32{0, 0, 0, 0, 5, 6}) {
		t.Errorf("F_Obj position %v, want rest then (0, 5, 6)", pos.Values)
	}
	alpha := findChannel(a, "OBJ_p", model.PathAlpha).(*model.CcAnmTrack)
	if !reflect.DeepEqual(alpha.Values, []float32{1, 0.25}) {
		t.Errorf("F_Obj alpha %v", alpha.Values)
	}
	var uvScale, uvFrames int
	for _, c := range a.Channels {
		if c.Material == "MAT_a" && c.Path == model.PathUVScale {
			uvScale++
		}
		if c.Material == "MAT_b" && c.Path == model.PathUVOffset {
			if tr, ok := c.Curve.(*model.CcAnmTrack); ok {
				uvFrames++
				if !reflect.DeepEqual(tr.Values, []float32{0.125, 0.25}) {
					t.Errorf("material frame offset %v", tr.Values)
				}
			}
		}
	}
	if uvScale != 1 || uvFrames != 1 {
		t.Errorf("%d uvScale channels and %d material-frame channels, want 1 and 1", uvScale, uvFrames)
	}
}
