package virtools

import (
	"testing"

	"github.com/animbake/bake/import/virtools/vtwrite"
)

// TestMenuLevel35Header reproduces the worked example of
// virtools-container.md §13 (BM MenuLevel.nmo, Virtools 3.5 re-save).
func TestMenuLevel35Header(t *testing.T) {
	s, _ := decodeSampleScene(t, menuLevel35)
	h := s.Header
	want := Header{Signature: [8]byte{'N', 'e', 'm', 'o', ' ', 'F', 'i', 0}, CRC: 0xFA359EED, CKVersion: 0x26052005,
		FileVersion: 8, WriteMode: 8, Hdr1PackSize: 11903, DataPackSize: 346967, DataUnPackSize: 740300,
		ManagerCount: 4, ObjectCount: 1355, MaxIDSaved: 43815, ProductBuild: 0x03050018, Hdr1UnPackSize: 36912}
	if h != want {
		t.Errorf("header\n got %+v\nwant %+v", h, want)
	}
	if s.CRC != 0xFA359EED || !s.CRCMatches {
		t.Errorf("§13: computed CRC 0x%08x, want 0xFA359EED", s.CRC)
	}
	if s.TrailingBytes != 399 {
		t.Errorf("§13: %d trailing bytes, want the 399-byte thumbnail record", s.TrailingBytes)
	}
	// Header1 entries 0 and 525.
	o := s.Objects[0]
	if o.FileID != 42461 || o.ClassID != 9 || o.FileIndex != 38812 || o.Name != "In" {
		t.Errorf("§13 entry 0: %+v", o)
	}
	o = s.Objects[525]
	if o.FileID != 42986 || o.ClassID != 43 || o.FileIndex != 83120 || o.Name != "I_MenuLevel_Curve" {
		t.Errorf("§13 entry 525: %+v", o)
	}
	// FileIndex 38812 = 64 + 36912 + 1836 (the manager blocks' size).
	if 64+36912+1836 != 38812 {
		t.Fatal("arithmetic")
	}
	// Plugin dependencies: {3: 1 GUID 1dd91197:01f703f3}, {4: 34 GUIDs}, {5: 1 GUID 0aabcf63:0}.
	if len(s.Plugins) != 3 || s.Plugins[0].Category != 3 || len(s.Plugins[0].GUIDs) != 1 ||
		s.Plugins[0].GUIDs[0] != [2]uint32{0x1dd91197, 0x01f703f3} || s.Plugins[1].Category != 4 ||
		len(s.Plugins[1].GUIDs) != 34 || s.Plugins[2].Category != 5 || s.Plugins[2].GUIDs[0] != [2]uint32{0x0aabcf63, 0} {
		t.Errorf("§13 plugins: %+v", s.Plugins)
	}
	// Managers: the attribute manager first, chunk word 0x18075200.
	if len(s.Managers) != 4 || s.Managers[0].GUID != [2]uint32{0x3d242466, 0} {
		t.Fatalf("§13 managers: %+v", s.Managers)
	}
	m := s.Managers[0].Chunk
	if m.DataVersion != 0 || m.ClassByte != 82 || m.ChunkVersion != 7 || m.Options != 0x18 {
		t.Errorf("§13 manager chunk header: %+v", *m)
	}
	// Object 525's chunk: 0x08072B0A, N = 31.
	c := s.Objects[525].Chunk
	if c.DataVersion != 10 || c.ClassByte != 43 || c.ChunkVersion != 7 || c.Options != 8 || c.Words() != 31 {
		t.Errorf("§13 curve chunk header: DV %d class %d CV %d options %#x N %d", c.DataVersion, c.ClassByte, c.ChunkVersion, c.Options, c.Words())
	}
	// Class ids come from the table, not the chunk: I_Ball_Stone is a
	// CK3dObject (41) whose chunk carries 33 (§6.3).
	stone := s.Objects[1083]
	if stone.Name != "I_Ball_Stone" || stone.ClassID != 41 || stone.Chunk.ClassByte != 33 {
		t.Errorf("§13 I_Ball_Stone: name %q class %d chunk class %d", stone.Name, stone.ClassID, stone.Chunk.ClassByte)
	}
}

// TestMenuLevel35Objects checks the decoded objects of §13: the curve, its
// first point, the stone and Record Anim.
func TestMenuLevel35Objects(t *testing.T) {
	s, _ := decodeSampleScene(t, menuLevel35)
	cv := s.Curves[525]
	if cv == nil || !equalInts(cv.Points, []int{523, 524, 521, 522}) || cv.Fitting != 0 || cv.Steps != 100 || cv.Open {
		t.Fatalf("§13 curve: %+v", cv)
	}
	ce := s.Entities[525]
	if ce.Flags != 0 || ce.MoveableFlags != 0x00400009 || ce.Parent != noRef || ce.World[3] != [3]float32{ce.World[3][0], 40, ce.World[3][2]} {
		t.Errorf("§13 curve entity: %+v", ce)
	}
	p := s.CurvePoints[523]
	pe := s.Entities[523]
	if s.Objects[523].Name != "I_MenuLevel_Curve_Point0000" || pe.Flags != EntityParentValid || pe.MoveableFlags != 0x2b || pe.Parent != 525 {
		t.Errorf("§13 point entity: %+v", pe)
	}
	if !near3(pe.World[3], [3]float32{0.4773, 40.0003, -94.9555}, 1e-4) || !near3(pe.World[0], [3]float32{0, 0, -0.4}, 1e-4) {
		t.Errorf("§13 point matrix: %v", pe.World)
	}
	if p.Curve != 525 || p.UserTangents || p.Linear || p.Tension != -0.6 || p.Continuity != 0 || p.Bias != 0 ||
		!near3(p.In, [3]float32{-1.909, 0.0003, 152.347}, 1e-3) || p.Out != p.In {
		t.Errorf("§13 point data: %+v", p)
	}
	st := s.Entities[1083]
	if !equalInts(st.Animations, []int{1082}) || st.Flags != 0 || st.MoveableFlags != 0x2a ||
		st.World[0] != [3]float32{1, 0, 0} || st.World[1] != [3]float32{0, 1, 0} || st.World[2] != [3]float32{0, 0, 1} ||
		!near3(st.World[3], [3]float32{-19.6638, 8.4462, -39.1137}, 1e-4) {
		t.Errorf("§13 I_Ball_Stone: %+v", st)
	}
	ra := s.ObjectAnimations[1082]
	if s.Objects[1082].Name != "Record Anim" || ra.Entity != 1083 || ra.Length != 4445 || ra.Flags != 0 || ra.AppData != [3]float32{} {
		t.Fatalf("§13 Record Anim: %+v", ra)
	}
	if ra.Position.Type != CtrlLinearPosition || len(ra.Position.Linear) != 4445 ||
		ra.Rotation.Type != CtrlLinearRotation || len(ra.Rotation.Quat) != 4445 ||
		ra.Scale.Type != CtrlLinearScale || len(ra.Scale.Linear) != 4445 || ra.ScaleAxis != nil || ra.Morph {
		t.Errorf("§13 Record Anim controllers")
	}
	// Key 0 is the stone's saved position (curves spec §5.2).
	k0 := ra.Position.Linear[0]
	if k0.Time != 0 || k0.Value != st.World[3] {
		t.Errorf("Record Anim key 0 = %+v, stone at %v", k0, st.World[3])
	}
	for i, k := range ra.Position.Linear {
		if k.Time != float32(i) {
			t.Fatalf("Record Anim key %d at time %v, want one key per frame", i, k.Time)
		}
	}
}

// TestRecordAnimKeys21 checks the 2.1 file's Record Anim (#1064) against the
// worked example of virtools-controllers.md §2: keys 1000 and 1001.
func TestRecordAnimKeys21(t *testing.T) {
	s, _ := decodeSampleScene(t, menuLevel21)
	ra := s.ObjectAnimations[1064]
	if ra == nil || s.Objects[1064].Name != "Record Anim" || ra.Entity != 1065 {
		t.Fatalf("Record Anim is not #1064 animating #1065")
	}
	p0, p1 := ra.Position.Linear[1000], ra.Position.Linear[1001]
	q0, q1 := ra.Rotation.Quat[1000], ra.Rotation.Quat[1001]
	if p0.Time != 1000 || p1.Time != 1001 ||
		!near3(p0.Value, [3]float32{-134.4543, -4.205404, -44.38002}, 1e-4) ||
		!near3(p1.Value, [3]float32{-134.4555, -4.214041, -43.98301}, 1e-4) ||
		!near4(q0.Value, [4]float32{0.2208105, 0.9395105, 0.1994405, -0.170379}, 1e-6) ||
		!near4(q1.Value, [4]float32{0.2350487, 0.9174988, 0.284031, -0.1501031}, 1e-6) {
		t.Errorf("keys 1000/1001: %+v %+v %+v %+v", p0, p1, q0, q1)
	}
	// Record Anim key 0 has w = 0.9998779 (§2: keys are not normalised).
	if w := ra.Rotation.Quat[0].Value[3]; !nearF(w, 0.9998779, 1e-7) {
		t.Errorf("key 0 w = %v", w)
	}
}

// TestKamera02Key0 checks axes.md §2.3 example 1: Kamera02's first
// position and rotation keys, stored bit patterns included.
func TestKamera02Key0(t *testing.T) {
	s, _ := decodeSampleScene(t, menuLevel21)
	k := s.ObjectAnimations[496]
	if k == nil || s.Objects[496].Name != "Kamera02" || s.Objects[k.Entity].Name != "Cam_MenuLevel" {
		t.Fatal("Kamera02 is not #496 on Cam_MenuLevel")
	}
	if len(k.Position.Linear) != 67 || len(k.Rotation.Quat) != 67 || k.ScaleAxis == nil || k.ScaleAxis.Type != CtrlLinearScaleAxis {
		t.Errorf("Kamera02: %d position, %d rotation keys, scale axis %v", len(k.Position.Linear), len(k.Rotation.Quat), k.ScaleAxis)
	}
	bits := func(v float32) uint32 { return vtwrite.F32(v) }
	p, q := k.Position.Linear[0].Value, k.Rotation.Quat[0].Value
	if bits(p[0]) != 0x42be0000 || bits(p[1]) != 0x42200000 || bits(p[2]) != 0 {
		t.Errorf("position key 0 bits %08x %08x %08x", bits(p[0]), bits(p[1]), bits(p[2]))
	}
	if bits(q[0]) != 0xbe0f53e0 || bits(q[1]) != 0x3f317001 || bits(q[2]) != 0xbe0f53e0 || bits(q[3]) != 0x3f317001 {
		t.Errorf("rotation key 0 bits %08x %08x %08x %08x", bits(q[0]), bits(q[1]), bits(q[2]), bits(q[3]))
	}
}

// TestUFOArms21 checks PE_Balloon.nmo (2.1): the keyed animation of
// curves spec §5.6 and the TCB keys of virtools-controllers.md §4.5.
func TestUFOArms21(t *testing.T) {
	s, _ := decodeSampleScene(t, peBalloon21)
	k := s.KeyedAnimations[1842]
	if k == nil || s.Objects[1842].Name != "UFO_Animation" {
		t.Fatal("UFO_Animation is not #1842")
	}
	if k.Flags != 5 || k.FrameRate != 30 || k.Length != 100 || s.Objects[k.RootEntity].Name != "PE_UFO_Body" ||
		len(k.Animations) != 8 || k.RateFields != 2 {
		t.Errorf("§5.6 UFO_Animation: %+v", k)
	}
	a := s.ObjectAnimations[1779]
	if a == nil || s.Objects[1779].Name != "PE_UFO_Arm_A_03" {
		t.Fatal("PE_UFO_Arm_A_03 is not #1779")
	}
	if a.Flags != 0 || a.Length != 100 || a.Rotation.Type != CtrlTCBRotation || len(a.Rotation.TCBRot) != 6 ||
		a.Scale.Type != CtrlLinearScale || len(a.Scale.Linear) != 1 || a.Position != nil {
		t.Fatalf("§4.5 arm A_03 controllers")
	}
	times := []float32{0, 35, 59, 70, 75, 100}
	want := [][2]float32{{-0.997564077, 0.0697565004}, {-0.484809637, -0.874619722}, {0.277522087, -0.960719287},
		{0.4617486, -0.887010872}, {0.417346865, -0.908747256}, {-0.00872659869, -0.999961913}}
	for i, key := range a.Rotation.TCBRot {
		if key.Time != times[i] || !nearF(key.Value[0], want[i][0], 1e-7) || !nearF(key.Value[1], want[i][1], 1e-7) ||
			key.TCBParams != (TCBParams{}) {
			t.Errorf("§4.5 key %d: %+v", i, key)
		}
	}
}

// TestSamplesDecode runs every real file through the container and class
// stages and checks the counts of SOURCES.md §1.
func TestSamplesDecode(t *testing.T) {
	want := map[string]struct{ objects, anims, keyed, curves, trailing int }{
		menuLevel21:   {1068, 2, 0, 1, 0},
		peBalloon21:   {1843, 8, 1, 0, 0},
		pBox21:        {6, 0, 0, 0, 0},
		menuLevel35:   {1355, 2, 0, 1, 399},
		peBalloon35:   {1824, 8, 0, 0, 657},
		trafoSticky25: {23, 0, 0, 0, 0},
	}
	for _, name := range allSamples {
		s, warnings := decodeSampleScene(t, name)
		w := want[name]
		if len(s.Objects) != w.objects || len(s.ObjectAnimations) != w.anims || len(s.KeyedAnimations) != w.keyed ||
			len(s.Curves) != w.curves || s.TrailingBytes != w.trailing {
			t.Errorf("%s: %d objects, %d object animations, %d keyed, %d curves, %d trailing bytes; want %+v",
				name, len(s.Objects), len(s.ObjectAnimations), len(s.KeyedAnimations), len(s.Curves), s.TrailingBytes, w)
		}
		if !s.CRCMatches {
			t.Errorf("%s: CRC does not match", name)
		}
		if len(warnings) != 0 {
			t.Errorf("%s: warnings %q", name, warnings)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func nearF(a, b, tol float32) bool { return a-b <= tol && b-a <= tol }

func near3(a, b [3]float32, tol float32) bool {
	return nearF(a[0], b[0], tol) && nearF(a[1], b[1], tol) && nearF(a[2], b[2], tol)
}

func near4(a, b [4]float32, tol float32) bool {
	return near3([3]float32{a[0], a[1], a[2]}, [3]float32{b[0], b[1], b[2]}, tol) && nearF(a[3], b[3], tol)
}
