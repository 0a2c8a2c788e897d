package ccs

import (
	"github.com/animbake/bake/import/ccs/ccswrite"
	"github.com/animbake/bake/internal/modeltest"
	"reflect"
	"testing"

	"github.com/animbake/bake/model"
)

// The controllers keep their raw keys (u32 frames, float32 values) and the
// Anime's timing, for package sample to replay (ccs-anime-playback.txt
// "Floats and vectors", "Rotations"); the External copy is followed to the
// object it copies (ccGetExternalIndex).
func TestObjectControllerChannels(t *testing.T) {
	data, _ := kiteFile()
	f := mustDecode(t, data)
	a := modeltest.Animation(t, f, "ANM_ctu1atc0")
	if a.Frames != 8 || a.End != 7 || a.Loop != model.LoopOnce || a.FPS != 30 {
		t.Errorf("timing: frames %v end %v loop %s fps %v", a.Frames, a.End, a.Loop, a.FPS)
	}
	tm := model.CcAnmTiming{Frames: 8}
	pos, _ := findChannel(a, "OBJ_ctu1body", model.PathTranslation).(*model.CcAnmTrack)
	wantPos := &model.CcAnmTrack{Timing: tm, Kind: model.CcAnmKeyed, Width: 3, Frames: []uint32{0, 4}, Values: []float32{0, 0, 0, 10, 20, 30}}
	if !reflect.DeepEqual(pos, wantPos) {
		t.Errorf("translation %+v, want %+v", pos, wantPos)
	}
	rot, _ := findChannel(a, "OBJ_ctu1body", model.PathRotation).(*model.CcAnmRotation)
	wantRot := &model.CcAnmRotation{Timing: tm, Kind: model.CcAnmKeyed, Frames: []uint32{0, 2, 6}, Degrees: []float32{0, 0, 0, 0, 0, 90, 0, 90, 90}}
	if !reflect.DeepEqual(rot, wantRot) {
		t.Errorf("rotation %+v, want %+v", rot, wantRot)
	}
	scale, _ := findChannel(a, "OBJ_ctu1body", model.PathScale).(*model.CcAnmTrack)
	if scale == nil || scale.Kind != model.CcAnmConstant || !reflect.DeepEqual(scale.Values, []float32{1, 1, 1}) {
		t.Errorf("scale %+v", scale)
	}
	if findChannel(a, "OBJ_ctu1body", model.PathAlpha) != nil {
		t.Errorf("an absent transparency track made an alpha channel")
	}
	for _, n := range f.Nodes {
		if n.Name == "OBJ_ctu1body#8" {
			t.Errorf("the External copy became a node of its own")
		}
	}
}

// Absent controllers mean position 0, identity rotation, scale 1
// (ccs-anime-playback.txt "The chunk"); -2 loops with a period of N-1.
func TestLoopAndDefaults(t *testing.T) {
	data, _ := kiteFile()
	f := mustDecode(t, data)
	a := modeltest.Animation(t, f, "ANM_ctu1wait")
	if a.Loop != model.LoopRepeat || a.Period != 8 || a.End != 8 || a.Frames != 9 {
		t.Errorf("loop: %s period %v end %v frames %v; want repeat, 8, 8, 9", a.Loop, a.Period, a.End, a.Frames)
	}
	pos := findChannel(a, "OBJ_ctu1body", model.PathTranslation).(*model.CcAnmTrack)
	if pos.Kind != model.CcAnmAbsent || !reflect.DeepEqual(pos.Values, []float32{0, 0, 0}) {
		t.Errorf("absent position: %+v", pos)
	}
	scale := findChannel(a, "OBJ_ctu1body", model.PathScale).(*model.CcAnmTrack)
	if scale.Kind != model.CcAnmAbsent || !reflect.DeepEqual(scale.Values, []float32{1, 1, 1}) {
		t.Errorf("absent scale: %+v", scale)
	}
	rot := findChannel(a, "OBJ_ctu1body", model.PathRotation).(*model.CcAnmRotation)
	if rot.Kind != model.CcAnmConstant || !reflect.DeepEqual(rot.Degrees, []float32{0, 0, 45}) {
		t.Errorf("single-value rotation: %+v", rot)
	}
	alpha := findChannel(a, "OBJ_ctu1body", model.PathAlpha).(*model.CcAnmTrack)
	if alpha.Kind != model.CcAnmKeyed || !reflect.DeepEqual(alpha.Frames, []uint32{0, 8}) {
		t.Errorf("transparency: %+v", alpha)
	}
}

// Notes go out in delivery order (ccs-anime-playback.txt "Notes"): Kite's
// ANM_ctu1atc0 has (2, 2) then (0x8005, 1) at frame 5, and NoteProcess hands
// on the hit (0x8005) before the sound (2). Frame 0's note is never handed
// on. noteTime is the step's old frame.
func TestNoteDeliveryOrder(t *testing.T) {
	data, id := kiteFile()
	f := mustDecode(t, data)
	a := modeltest.Animation(t, f, "ANM_ctu1atc0")
	type ev struct {
		frame              float64
		event, param, time int64
	}
	var got []ev
	for _, e := range a.Events {
		if e.Name != EventNote || e.Node != "OBJ_xnote" {
			t.Errorf("event %+v: want a note on OBJ_xnote", e)
		}
		got = append(got, ev{e.Frame, e.Args["event"].(int64), e.Args["param"].(int64), e.Args["noteTime"].(int64)})
	}
	want := []ev{{3, 2, 7, 2}, {5, 0x8005, 1, 4}, {5, 2, 2, 4}, {7, 0x8003, 4, 6}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("notes %+v, want %+v", got, want)
	}
	if a.Extras["ccsNotesNeverDelivered"] != int64(1) {
		t.Errorf("frame 0's note: extras %v", a.Extras)
	}
	_ = id
}

// F_Morpher records (ccs-anime-playback.txt "Morphing"): stepped weights
// from their frame on; a record sets the whole target list, so a target it
// leaves out weighs 0; before the first record every weight is 0.
func TestMorphWeights(t *testing.T) {
	data, _ := kiteFile()
	f := mustDecode(t, data)
	a := modeltest.Animation(t, f, "ANM_ctu1atc0")
	var ch *model.Channel
	for i := range a.Channels {
		if a.Channels[i].Path == model.PathWeights {
			ch = &a.Channels[i]
		}
	}
	if ch == nil {
		t.Fatal("no weights channel")
	}
	if ch.Node != "MPH_face" || !reflect.DeepEqual(ch.Labels, []string{"MDL_face_a", "MDL_face_b"}) {
		t.Errorf("weights channel on %s labels %v", ch.Node, ch.Labels)
	}
	want := &model.CcAnmTrack{Timing: model.CcAnmTiming{Frames: 8}, Kind: model.CcAnmStepped, Width: 2,
		Frames: []uint32{0, 2, 7}, Values: []float32{0, 0, 0.5, 1, 0, 0.25}}
	if !reflect.DeepEqual(ch.Curve, want) {
		t.Errorf("weights %+v, want %+v", ch.Curve, want)
	}
}

// F_Obj (ccs-anime-playback.txt "F_Obj"): ANM_eex1dmg0 lifts its body 3.875
// a frame and tips it 7.5° about y and −7.5° about z, one record a frame;
// frame 0's record is never read, so frame 0 shows the rest pose; the
// transparency is clamped to 0..1.
func TestFObjPoses(t *testing.T) {
	data, _ := kiteFile()
	f := mustDecode(t, data)
	a := modeltest.Animation(t, f, "ANM_eex1dmg0")
	tm := model.CcAnmTiming{Frames: 4}
	pos := findChannel(a, "OBJ_eex1body", model.PathTranslation)
	wantPos := &model.CcAnmTrack{Timing: tm, Kind: model.CcAnmStepped, Width: 3, Frames: []uint32{0, 1, 2, 3},
		Values: []float32{0, 0, 0, 0, 0, 3.875, 0, 0, 7.75, 0, 0, 11.625}}
	if !reflect.DeepEqual(pos, wantPos) {
		t.Errorf("translation %+v, want %+v", pos, wantPos)
	}
	rot := findChannel(a, "OBJ_eex1body", model.PathRotation)
	wantRot := &model.CcAnmRotation{Timing: tm, Kind: model.CcAnmStepped, Frames: []uint32{0, 1, 2, 3},
		Degrees: []float32{0, 0, 0, 0, 7.5, -7.5, 0, 15, -15, 0, 22.5, -22.5}}
	if !reflect.DeepEqual(rot, wantRot) {
		t.Errorf("rotation %+v, want %+v", rot, wantRot)
	}
	alpha := findChannel(a, "OBJ_eex1body", model.PathAlpha)
	wantAlpha := &model.CcAnmTrack{Timing: tm, Kind: model.CcAnmStepped, Width: 1, Frames: []uint32{0, 1, 2, 3},
		Values: []float32{1, 1, 0.5, 0}}
	if !reflect.DeepEqual(alpha, wantAlpha) {
		t.Errorf("alpha %+v, want %+v", alpha, wantAlpha)
	}
}

// A 0x0202 record's U and V (ccs-anime-playback.txt "Texture offsets")
// become the material's uvOffset.
func TestMaterialController(t *testing.T) {
	data, _ := kiteFile()
	f := mustDecode(t, data)
	a := modeltest.Animation(t, f, "ANM_water")
	v, ok := findChannel(a, "MAT_water", model.PathUVOffset).(*model.Vector)
	if !ok || len(v.Components) != 2 {
		t.Fatalf("uvOffset: %+v", v)
	}
	u := v.Components[0].(*model.CcAnmTrack)
	vv := v.Components[1].(*model.CcAnmTrack)
	if u.Kind != model.CcAnmAbsent || u.Values[0] != 0 || vv.Kind != model.CcAnmKeyed || !reflect.DeepEqual(vv.Values, []float32{0, 1}) {
		t.Errorf("U %+v V %+v", u, vv)
	}
}

// An F_Obj on an effect object (0x0E00) restarts the effect instead of
// posing it (ccs-anime-playback.txt "F_Obj"): an effectRestart event, read
// by DecodeFrameChunk during the step, so before that step's notes, which
// NoteProcess hands on afterwards in reverse file order.
func TestEffectRestart(t *testing.T) {
	b := ccswrite.New("fx", 0x110)
	fx := b.Object("EFF_spark", "fx.max")
	note := b.Object("OBJ_xnote", "fx.max")
	anm := b.Object("ANM_fx", "fx.max")
	b.Chunk(0x0E00, fx, 0)
	pose := ccswrite.FObj(fx, [3]float32{1, 2, 3}, [3]float32{}, [3]float32{1, 1, 1}, 1, 0)
	b.Anime(anm, 4, false, nil, nil,
		[]ccswrite.Record{ccswrite.Note(note, 2, 1), pose, ccswrite.Note(note, 3, 1)})
	f := mustDecode(t, b.Bytes())
	a := &f.Animations[0]
	var got []string
	for _, e := range a.Events {
		s := e.Name + "@" + e.Node
		if e.Name == EventNote {
			s += "/" + string(rune('0'+e.Args["event"].(int64)))
		}
		got = append(got, s)
	}
	want := []string{"effectRestart@EFF_spark", "note@OBJ_xnote/3", "note@OBJ_xnote/2"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events %v, want %v", got, want)
	}
	if findChannel(a, "EFF_spark", model.PathTranslation) != nil {
		t.Error("the effect object got a pose")
	}
}

// Two controllers for one object in one Anime: the later record's
// SetAnmCtrlWork overwrites the earlier's, so one set of channels remains,
// the later one's.
func TestDuplicateControllerLastWins(t *testing.T) {
	b := ccswrite.New("dup", 0x110)
	o := b.Object("OBJ_a", "a.max")
	anm := b.Object("ANM_a", "a.max")
	b.Anime(anm, 2, false, []ccswrite.Record{
		ccswrite.ObjCtrl(o, ccswrite.Const(1, 1, 1), ccswrite.Absent, ccswrite.Absent, ccswrite.Const(0.5)),
		ccswrite.ObjCtrl(o, ccswrite.Const(2, 2, 2), ccswrite.Absent, ccswrite.Absent, ccswrite.Absent),
	})
	files, warnings, err := decodeBytes(t, "dup.ccs", b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	a := &files[0].Animations[0]
	if len(a.Channels) != 3 || len(warnings) != 1 {
		t.Fatalf("%d channels, notices %q; want 3 channels and one notice", len(a.Channels), warnings)
	}
	if pos := findChannel(a, "OBJ_a", model.PathTranslation).(*model.CcAnmTrack); pos.Values[0] != 2 {
		t.Errorf("translation %v, want the second controller's (2, 2, 2)", pos.Values)
	}
}

// A material with both a controller and material frames keeps the
// controller's uvOffset only: one channel per target and path.
func TestControllerWinsOverFrames(t *testing.T) {
	b := ccswrite.New("mat", 0x110)
	m := b.Object("MAT_a", "a.max")
	anm := b.Object("ANM_a", "a.max")
	b.Anime(anm, 3, false,
		[]ccswrite.Record{ccswrite.MatCtrl(m, ccswrite.Const(0.5), ccswrite.Absent)},
		[]ccswrite.Record{ccswrite.MatFrame(m, 0, 0.25, 0.75)})
	files, warnings, err := decodeBytes(t, "mat.ccs", b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	a := &files[0].Animations[0]
	if len(a.Channels) != 1 || len(warnings) != 1 {
		t.Fatalf("%d channels, notices %q", len(a.Channels), warnings)
	}
	if _, ok := a.Channels[0].Curve.(*model.Vector); !ok {
		t.Errorf("kept %T, want the controller's vector", a.Channels[0].Curve)
	}
}
