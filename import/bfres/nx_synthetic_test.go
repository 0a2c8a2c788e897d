package bfres

import (
	"encoding/binary"
	"reflect"
	"testing"

	"github.com/animbake/bake/import/bfres/bfreswrite"
	"github.com/animbake/bake/model"
)

// switchOf returns the Switch layout of a description (version 0.8.0.0).
func switchOf(tf *bfreswrite.File) *bfreswrite.File {
	sw := *tf
	sw.Switch, sw.Version = true, bfreswrite.VSwitch
	return &sw
}

// The Switch layout of a description decodes to the model its Wii U
// layout gives (bfres-container.md §11: the same flags, curves, targets and
// evaluation), but for the version, the frame rate (60 on the Switch,
// decision S1) and the source.
func TestSyntheticSwitchMatchesWiiU(t *testing.T) {
	tf := richFile(v4)
	tf.FSHU, tf.FTXP, tf.FVIS = nil, nil, nil
	wiiu := decodeBytes(t, "Rich_Animation.bfres", tf.Bytes(), nil)
	nx := decodeBytes(t, "Rich_Animation.bfres", switchOf(tf).Bytes(), nil)
	if nx.Extras["version"] != "0.8.0.0" {
		t.Errorf("version %v", nx.Extras["version"])
	}
	for i := range nx.Animations {
		if nx.Animations[i].FPS != 60 {
			t.Errorf("%s at %v fps, want 60", nx.Animations[i].Name, nx.Animations[i].FPS)
		}
		nx.Animations[i].FPS = wiiu.Animations[i].FPS
	}
	nx.Extras["version"], nx.Source = nil, model.Source{}
	wiiu.Extras["version"], wiiu.Source = nil, model.Source{}
	if !reflect.DeepEqual(wiiu, nx) {
		t.Errorf("Switch and Wii U layouts decode differently:\n%+v\n%+v", wiiu, nx)
	}
	checkRichSkeletal(t, nx)
}

// checkRichSkeletal checks the skeletal part of richFile: Wave's Arm rotate
// Z runs linearly 0 → 1 over frames 0..40 and Hand's translate X 0 → 8,
// with Y and Z from the bind pose (5, 6).
func checkRichSkeletal(t *testing.T, f *model.File) {
	t.Helper()
	var wave *model.Animation
	for i := range f.Animations {
		if f.Animations[i].Name == "Wave" {
			wave = &f.Animations[i]
		}
	}
	if wave == nil {
		t.Fatal("no animation Wave")
	}
	for _, ch := range wave.Channels {
		if ch.Node == "Hand" && ch.Path == model.PathTranslation {
			if v := compileCurveEval(t, ch.Curve, 10); !closeTo(v, []float64{2, 5, 6}, 1e-6) {
				t.Errorf("Hand translation at 10: %v, want (2, 5, 6)", v)
			}
			return
		}
	}
	t.Error("no Hand translation channel")
}

func compileCurveEval(t *testing.T, c model.Curve, frame float64) []float64 {
	t.Helper()
	e := compileCurve(t, c)
	out := make([]float64, 4)
	e.Eval(frame, out)
	switch c.(type) {
	case *model.Vector:
		return out[:3]
	}
	return out
}

// Every curve type, frame type and key type round-trips through the
// Switch curve record (0x30 bytes: u64 frame and key array offsets, then
// the Wii U fields and delta), read from a Switch FSKA's bone anim.
func TestSwitchCurveStorageRoundTrip(t *testing.T) {
	tf := &bfreswrite.File{Switch: true, Version: bfreswrite.VSwitch, Name: "C", FSKA: []bfreswrite.FSKA{{Name: "A", Frames: 1,
		Bones: []bfreswrite.BoneAnim{{Name: "B", Curves: storageCurves}}}}}
	data := tf.Bytes()
	f, err := readNXHeader(data)
	if err != nil {
		t.Fatal(err)
	}
	es, err := f.nxListEntries(nxSkeletalAnims, nxFSKASize)
	if err != nil {
		t.Fatal(err)
	}
	a, err := f.readNXFSKA(es[0].Data)
	if err != nil {
		t.Fatal(err)
	}
	checkStoredCurves(t, "switch", a.BoneAnims[0].Curves, storageCurves)
	// The first curve's record, by hand: frame array offset (u64) at +0,
	// key array offset at +8, flags at +0x10 (cubic, f32 frames and keys:
	// 0), key count 2 at +0x12, scale 1.0 at +0x20.
	le := binary.LittleEndian
	ba := int(le.Uint64(data[int(le.Uint64(data[0x38:]))+0x30:]))
	c := int(le.Uint64(data[ba+8:]))
	if fa, n, scale := le.Uint64(data[c:]), le.Uint16(data[c+0x12:]), le.Uint32(data[c+0x20:]); fa == 0 || n != 2 || scale != 0x3F800000 {
		t.Errorf("curve record: frame array 0x%x, %d keys, scale 0x%x", fa, n, scale)
	}
}
