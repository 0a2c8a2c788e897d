package virtools

import (
	"math"
	"strings"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/virtools/vtwrite"
	"github.com/animbake/bake/internal/modeltest"
	"github.com/animbake/bake/model"
)

// decodeTestFile converts a file written by vtwrite, collecting warnings.
func decodeTestFile(t *testing.T, tf *vtwrite.File) (*model.File, []string) {
	t.Helper()
	var warnings []string
	opts := &format.Options{Warn: func(s string) { warnings = append(warnings, s) }}
	f, err := DecodeBytes(tf.Bytes(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Validate(); err != nil {
		t.Fatalf("model does not validate: %v", err)
	}
	return f, warnings
}

// TestConvertNodes: nodes for the animated entities, their parents and the
// curve; local transforms from world matrices (child world (11, 2, 3)
// under a parent at (10, 0, 0) is local (1, 2, 3)); parents first.
func TestConvertNodes(t *testing.T) {
	f, warnings := decodeTestFile(t, vtwrite.SampleScene())
	if len(warnings) != 0 {
		t.Errorf("warnings %q", warnings)
	}
	var names []string
	for _, n := range f.Nodes {
		names = append(names, n.Name)
	}
	if got := strings.Join(names, ","); got != "Parent,Child,Arm,Path,Path follower" {
		t.Errorf("nodes %s", got)
	}
	p, c := modeltest.Node(t, f, "Parent"), modeltest.Node(t, f, "Child")
	if p.Parent != -1 || p.Translation != [3]float64{10, 0, 0} || c.Parent != 0 || c.Translation != [3]float64{1, 2, 3} ||
		c.Rotation != [4]float64{0, 0, 0, 1} || c.Scale != [3]float64{1, 1, 1} {
		t.Errorf("parent %+v child %+v", p, c)
	}
	if modeltest.Node(t, f, "Path").Kind != "curve" || modeltest.Node(t, f, "Path follower").Kind != "follower" {
		t.Error("kinds")
	}
	if f.Axes.Basis != [9]float64{1, 0, 0, 0, 1, 0, 0, 0, -1} || f.Axes.Scale != 1 || f.Axes.Name != "virtools" {
		t.Errorf("axes %+v", f.Axes)
	}
}

// TestConvertObjectAnimation: a standalone object animation plays at 30
// frames per second over its length; its keys reach the model unchanged
// (stored quaternion convention) with the entity's local matrix as rest.
func TestConvertObjectAnimation(t *testing.T) {
	f, _ := decodeTestFile(t, vtwrite.SampleScene())
	a := modeltest.Animation(t, f, "Move")
	if a.FPS != 30 || a.Frames != 10 || a.End != 10 || a.Period != 10 || a.Loop != model.LoopOnce || len(a.Channels) != 3 {
		t.Fatalf("Move: %+v", a)
	}
	m := a.Channels[0].Curve.(*model.VirtoolsTransform).Anim
	if m.Name != "Move" || m.Length != 10 || m.Position.Interp != model.VirtoolsLinear ||
		len(m.Position.Keys) != 2 || m.Position.Keys[1].Time != 10 || m.Position.Keys[1].Value != [3]float64{4, 5, 6} ||
		m.Rotation.Keys[0].Value != [4]float64{0, 0, 0, 1} || m.Scale.Keys[0].Value != [3]float64{1, 1, 1} {
		t.Errorf("Move data: %+v", m)
	}
	if m.Rest == nil || *m.Rest != [16]float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1} {
		t.Errorf("rest %v", m.Rest)
	}
	for i, want := range []string{"translation", "rotation", "scale"} {
		ch := a.Channels[i]
		if ch.Node != "Child" || ch.Path != want || ch.Curve.(*model.VirtoolsTransform).Part != want {
			t.Errorf("channel %d: %+v", i, ch)
		}
	}
}

// TestConvertKeyedAnimation: the keyed animation uses its frame rate (25)
// and length (40). Its child Swing is 20 frames long, so its key times
// are stretched by 40/20 (SetStep takes the same step for every child).
// Swing animates the root entity, so it is the root animation and its
// app-data vector (7, 8, 9) becomes the position offset (§5.6). Swing
// has no position controller, and the offset applies only to an evaluated
// position (virtools-semantics.md §3.2), so there is no translation channel.
func TestConvertKeyedAnimation(t *testing.T) {
	tf := vtwrite.SampleScene()
	copy(tf.Objects[iArmAnim].Chunk.Sections[0].Words, vtwrite.F32s(7, 8, 9))
	f, _ := decodeTestFile(t, tf)
	k := modeltest.Animation(t, f, "Keyed")
	if k.FPS != 25 || k.Frames != 40 || len(k.Channels) != 1 {
		t.Fatalf("Keyed: fps %v frames %v channels %d", k.FPS, k.Frames, len(k.Channels))
	}
	if k.Channels[0].Path != model.PathRotation || k.Channels[0].Node != "Arm" {
		t.Errorf("channels %+v", k.Channels)
	}
	m := k.Channels[0].Curve.(*model.VirtoolsTransform).Anim
	if m.Length != 40 || m.Rotation.Interp != model.VirtoolsTCB || m.Rotation.Keys[1].Time != 40 || m.Offset != [3]float64{7, 8, 9} {
		t.Errorf("stretched Swing: length %v keys %+v offset %v", m.Length, m.Rotation.Keys, m.Offset)
	}
	if k.Extras["virtoolsRootEntity"] != "Arm" || k.Extras["virtoolsRootAnimation"] != "Swing" {
		t.Errorf("extras %v", k.Extras)
	}
	// Swing on its own: the keyed animation's frame rate, its own length.
	s := modeltest.Animation(t, f, "Swing")
	ms := s.Channels[len(s.Channels)-1].Curve.(*model.VirtoolsTransform).Anim
	if s.FPS != 25 || s.Frames != 20 || ms.Length != 20 || ms.Rotation.Keys[1].Time != 20 || ms.Offset != [3]float64{7, 8, 9} {
		t.Errorf("Swing: fps %v frames %v length %v", s.FPS, s.Frames, ms.Length)
	}
}

// TestConvertCurve: the curve becomes a path with its points' world
// positions and saved TCB data, and a follower animation named after it
// that travels the closed curve in CurveSeconds (repeat).
func TestConvertCurve(t *testing.T) {
	tf := vtwrite.SampleScene()
	var warnings []string
	opts := &format.Options{CurveSeconds: 4, Warn: func(s string) { warnings = append(warnings, s) }}
	f, err := DecodeBytes(tf.Bytes(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Curves) != 1 {
		t.Fatalf("%d curves", len(f.Curves))
	}
	c := f.Curves[0]
	path := c.Curve.(*model.VirtoolsCurve)
	if c.Name != "Path" || c.Node != "Path" || !c.Closed || !path.Closed || len(path.Points) != 3 ||
		path.Points[1].World != [3]float64{10, 0, 0} || path.Points[1].Name != "Path_P1" || path.World[13] != 1 {
		t.Errorf("curve %+v", c)
	}
	if !(c.Length > 0) {
		t.Errorf("length %v", c.Length)
	}
	a := modeltest.Animation(t, f, "Path")
	fol := a.Channels[0].Curve.(*model.VirtoolsPathFollow)
	if a.Loop != model.LoopRepeat || a.FPS != 30 || a.Frames != 120 || fol.Frames != 120 || !fol.Local || fol.Path != path ||
		a.Channels[0].Node != "Path follower" || a.Channels[0].Path != model.PathTranslation {
		t.Errorf("follower animation %+v", a)
	}
}

// TestControllerKinds reads every controller kind of the §5.2 table with
// hand-chosen keys and checks each field lands where the key layout of
// virtools-controllers.md §1 puts it (TCB extras in the order tension,
// continuity, bias, ease to, ease from).
func TestControllerKinds(t *testing.T) {
	tcbVec := vtwrite.F32s(5, 1, 2, 3, 0.1, 0.2, 0.3, 0.4, 0.5)
	tcbQuat := vtwrite.F32s(5, 0, 0, 0, 1, 0.1, 0.2, 0.3, 0.4, 0.5)
	bezFixed := append(vtwrite.F32s(5, 1, 2, 3), 0x00200020)
	bezFixed = append(bezFixed, vtwrite.F32s(-1, -2, -3, 4, 5, 6)...)
	bezVar := append(vtwrite.F32s(5, 1, 2, 3), 0x00010020) // in: TANGENTS, out: AUTOSMOOTH
	bezVar = append(bezVar, vtwrite.F32s(-1, -2, -3)...)
	cases := []struct {
		name string
		ctl  vtwrite.Controller
		slot func(*ObjectAnimation) *Controller
		want func(*ObjectAnimation) bool
	}{
		{"old id 1 = linear position", vtwrite.Controller{Type: 1, Count: 1, Keys: vtwrite.F32s(5, 1, 2, 3)}, func(a *ObjectAnimation) *Controller { return a.Position },
			func(a *ObjectAnimation) bool {
				return a.Position.Type == CtrlLinearPosition && a.Position.Linear[0] == VectorKey{5, [3]float32{1, 2, 3}}
			}},
		{"TCB position", vtwrite.Controller{Type: CtrlTCBPosition, Count: 1, Keys: tcbVec}, func(a *ObjectAnimation) *Controller { return a.Position },
			func(a *ObjectAnimation) bool {
				return a.Position.TCB[0] == TCBVectorKey{VectorKey{5, [3]float32{1, 2, 3}}, TCBParams{0.1, 0.2, 0.3, 0.4, 0.5}}
			}},
		{"TCB scale", vtwrite.Controller{Type: CtrlTCBScale, Count: 1, Keys: tcbVec}, func(a *ObjectAnimation) *Controller { return a.Scale },
			func(a *ObjectAnimation) bool { return a.Scale.TCB[0].Bias == 0.3 }},
		{"linear scale", vtwrite.Controller{Type: CtrlLinearScale, Count: 1, Keys: vtwrite.F32s(5, 1, 2, 3)}, func(a *ObjectAnimation) *Controller { return a.Scale },
			func(a *ObjectAnimation) bool { return a.Scale.Linear[0].Value == [3]float32{1, 2, 3} }},
		{"linear rotation", vtwrite.Controller{Type: CtrlLinearRotation, Count: 1, Keys: vtwrite.F32s(5, 0.5, 0.5, 0.5, 0.5)}, func(a *ObjectAnimation) *Controller { return a.Rotation },
			func(a *ObjectAnimation) bool { return a.Rotation.Quat[0].Value == [4]float32{0.5, 0.5, 0.5, 0.5} }},
		{"TCB rotation", vtwrite.Controller{Type: CtrlTCBRotation, Count: 1, Keys: tcbQuat}, func(a *ObjectAnimation) *Controller { return a.Rotation },
			func(a *ObjectAnimation) bool {
				return a.Rotation.TCBRot[0] == TCBQuatKey{QuatKey{5, [4]float32{0, 0, 0, 1}}, TCBParams{0.1, 0.2, 0.3, 0.4, 0.5}}
			}},
		{"linear scale axis", vtwrite.Controller{Type: CtrlLinearScaleAxis, Count: 1, Keys: vtwrite.F32s(5, 0, 1, 0, 0)}, func(a *ObjectAnimation) *Controller { return a.ScaleAxis },
			func(a *ObjectAnimation) bool { return a.ScaleAxis.Quat[0].Value == [4]float32{0, 1, 0, 0} }},
		{"TCB scale axis", vtwrite.Controller{Type: CtrlTCBScaleAxis, Count: 1, Keys: tcbQuat}, func(a *ObjectAnimation) *Controller { return a.ScaleAxis },
			func(a *ObjectAnimation) bool { return a.ScaleAxis.TCBRot[0].EaseFrom == 0.5 }},
		{"Bezier position, fixed 11 dwords", vtwrite.Controller{Type: CtrlBezierPosition, Count: 1, Keys: bezFixed}, func(a *ObjectAnimation) *Controller { return a.Position },
			func(a *ObjectAnimation) bool {
				k := a.Position.Bezier[0]
				return k.Flags == 0x00200020 && k.In == [3]float32{-1, -2, -3} && k.Out == [3]float32{4, 5, 6} && k.Value == [3]float32{1, 2, 3}
			}},
		{"Bezier scale, variable (in tangent only)", vtwrite.Controller{Type: CtrlBezierScale, Count: 1, Keys: bezVar}, func(a *ObjectAnimation) *Controller { return a.Scale },
			func(a *ObjectAnimation) bool {
				k := a.Scale.Bezier[0]
				return k.Flags == 0x00010020 && k.In == [3]float32{-1, -2, -3} && k.Out == [3]float32{}
			}},
	}
	for _, tc := range cases {
		tf := vtwrite.SampleScene()
		tf.Objects[iAnim].Chunk.Sections[0] = vtwrite.ObjAnimSection(0, iChild, 10, nil, tc.ctl)
		var warnings []string
		c, err := ParseContainer(tf.Bytes(), 1<<20, func(f string, a ...any) { warnings = append(warnings, f) })
		if err != nil {
			t.Fatal(err)
		}
		s, err := DecodeScene(c, func(f string, a ...any) { warnings = append(warnings, f) })
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		a := s.ObjectAnimations[iAnim]
		if tc.slot(a) == nil || !tc.want(a) || len(warnings) != 0 {
			t.Errorf("%s: %+v (warnings %q)", tc.name, tc.slot(a), warnings)
		}
	}
}

// TestModelControllerConversion: the model receives the keys as float64
// with the Bezier flags split into in mode (low 16 bits) and out mode.
func TestModelControllerConversion(t *testing.T) {
	bez := append(vtwrite.F32s(5, 1, 2, 3), 0x00020020)
	bez = append(bez, vtwrite.F32s(-1, -2, -3, 4, 5, 6)...)
	tf := vtwrite.SampleScene()
	tf.Objects[iAnim].Chunk.Sections[0] = vtwrite.ObjAnimSection(0, iChild, 10, nil,
		vtwrite.Controller{Type: CtrlBezierPosition, Count: 1, Keys: bez},
		vtwrite.Controller{Type: CtrlTCBScale, Count: 1, Keys: vtwrite.F32s(2, 1, 1, 1, 0.25, -0.5, 0.75, 0, 1)})
	f, _ := decodeTestFile(t, tf)
	m := modeltest.Animation(t, f, "Move").Channels[0].Curve.(*model.VirtoolsTransform).Anim
	k := m.Position.Keys[0]
	if m.Position.Interp != model.VirtoolsBezier || k.InMode != 0x20 || k.OutMode != 0x02 || k.In != [3]float64{-1, -2, -3} ||
		k.Out != [3]float64{4, 5, 6} || k.Time != 5 {
		t.Errorf("Bezier key %+v", k)
	}
	s := m.Scale.Keys[0]
	if m.Scale.Interp != model.VirtoolsTCB || s.Tension != 0.25 || s.Continuity != -0.5 || s.Bias != 0.75 || s.EaseTo != 0 || s.EaseFrom != 1 {
		t.Errorf("TCB scale key %+v", s)
	}
}

// TestUnknownAndMorphControllers: an unknown type is skipped by its size
// with a warning; a morph controller is reported as unsupported (warning,
// not failure); the controllers after them are still read.
func TestUnknownAndMorphControllers(t *testing.T) {
	tf := vtwrite.SampleScene()
	tf.Objects[iAnim].Chunk.Sections[0] = vtwrite.ObjAnimSection(0, iChild, 10, nil,
		vtwrite.Controller{Type: 0x12345601, Count: 3, Keys: []uint32{1, 2, 3}},
		vtwrite.Controller{Type: CtrlMorph, Count: 2, Keys: []uint32{4, 5, 6, 7}},
		vtwrite.Controller{Type: CtrlLinearPosition, Count: 1, Keys: vtwrite.F32s(0, 7, 8, 9)})
	f, warnings := decodeTestFile(t, tf)
	if len(warnings) != 2 || !strings.Contains(warnings[0], "unknown controller type 0x12345601") || !strings.Contains(warnings[1], "morph") {
		t.Errorf("warnings %q", warnings)
	}
	a := modeltest.Animation(t, f, "Move")
	if len(a.Channels) != 1 || a.Extras["virtoolsSkippedControllers"] != 2 {
		t.Errorf("channels %d extras %v", len(a.Channels), a.Extras)
	}
}

// TestFlagsSelectChannels: ignore-position (4) and ignore-rotation (8)
// drop those channels (the component keeps its rest value).
func TestFlagsSelectChannels(t *testing.T) {
	tf := vtwrite.SampleScene()
	tf.Objects[iAnim].Chunk.Sections[0] = vtwrite.ObjAnimSection(AnimIgnorePosition|AnimIgnoreRotation, iChild, 10, nil,
		vtwrite.Controller{Type: CtrlLinearPosition, Count: 1, Keys: vtwrite.F32s(0, 1, 2, 3)},
		vtwrite.Controller{Type: CtrlLinearRotation, Count: 1, Keys: vtwrite.F32s(0, 0, 0, 0, 1)},
		vtwrite.Controller{Type: CtrlLinearScale, Count: 1, Keys: vtwrite.F32s(0, 2, 2, 2)})
	f, _ := decodeTestFile(t, tf)
	a := modeltest.Animation(t, f, "Move")
	if len(a.Channels) != 1 || a.Channels[0].Path != model.PathScale {
		t.Errorf("channels %+v", a.Channels)
	}
	m := a.Channels[0].Curve.(*model.VirtoolsTransform).Anim
	if m.Flags != AnimIgnorePosition|AnimIgnoreRotation || m.Position == nil {
		t.Errorf("flags %#x", m.Flags)
	}
}

// TestMergedAnimation: flag 0x80 adds factor, A and B after the length;
// the model gets the blend with both sources converted.
func TestMergedAnimation(t *testing.T) {
	tf := vtwrite.SampleScene()
	tf.Objects = append(tf.Objects, vtwrite.Object{FileID: 110, ClassID: ClassObjectAnimation, Name: "Blend", Chunk: &vtwrite.Chunk{Sections: []vtwrite.Section{
		vtwrite.ObjAnimSection(AnimMerged, iChild, 10, []uint32{vtwrite.F32(0.25), iAnim, iArmAnim}),
	}}})
	f, _ := decodeTestFile(t, tf)
	a := modeltest.Animation(t, f, "Blend")
	m := a.Channels[0].Curve.(*model.VirtoolsTransform).Anim
	if m.Merge == nil || m.Merge.Factor != 0.25 || m.Merge.A.Name != "Move" || m.Merge.B.Name != "Swing" {
		t.Fatalf("merge %+v", m.Merge)
	}
	// Move drives translation, rotation and scale; Swing rotation.
	if len(a.Channels) != 3 {
		t.Errorf("%d channels", len(a.Channels))
	}
}

// TestSharedAnimation: the 0x2000000 form shares another animation's
// keyframe data (controllers and length).
func TestSharedAnimation(t *testing.T) {
	tf := vtwrite.SampleScene()
	w := append([]uint32{iAnim}, vtwrite.F32s(0, 0, 0, 0, 0, 0, 0)...)
	w = append(w, 0, iArm)
	tf.Objects = append(tf.Objects, vtwrite.Object{FileID: 110, ClassID: ClassObjectAnimation, Name: "Copy", Chunk: &vtwrite.Chunk{Sections: []vtwrite.Section{
		{ID: identObjAnimShared, Words: w},
	}}})
	f, _ := decodeTestFile(t, tf)
	a := modeltest.Animation(t, f, "Copy")
	m := a.Channels[0].Curve.(*model.VirtoolsTransform).Anim
	if a.Frames != 10 || m.Length != 10 || len(m.Position.Keys) != 2 || a.Channels[0].Node != "Arm" {
		t.Errorf("shared: frames %v keys %d node %s", a.Frames, len(m.Position.Keys), a.Channels[0].Node)
	}
}

// TestEntityReferenceOrder: after the matrix come the place (flag
// 0x10000), the parent (0x20000) and the z-order (0x100000), in that order.
func TestEntityReferenceOrder(t *testing.T) {
	tf := vtwrite.SampleScene()
	tf.Objects[iChild].Chunk.Sections[1] = vtwrite.EntitySection(EntityPlaceValid|EntityParentValid|EntityZOrderValid,
		vtwrite.TranslationRows(11, 2, 3), iArm, iParent, 42)
	s := decodeTestScene(t, tf)
	e := s.Entities[iChild]
	if e.Place != iArm || e.Parent != iParent {
		t.Errorf("place %d parent %d", e.Place, e.Parent)
	}
}

// TestKeyedRateForms: the 0x10 section has 3 dwords (interrupt, link,
// rate) or 2 (flags, rate) (§5.6).
func TestKeyedRateForms(t *testing.T) {
	tf := vtwrite.SampleScene()
	tf.Objects[iKeyed].Chunk.Sections[1] = vtwrite.Section{ID: identAnimRate, Words: []uint32{1, 1, vtwrite.F32(60)}}
	k := decodeTestScene(t, tf).KeyedAnimations[iKeyed]
	if k.FrameRate != 60 || k.RateFields != 3 || k.Flags != 0 {
		t.Errorf("%+v", k)
	}
}

// TestRawIDReferences: in a chunk without the FILE option, references are
// saved CK_IDs, mapped through the table's FileId column (§7.4).
func TestRawIDReferences(t *testing.T) {
	tf := vtwrite.SampleScene()
	ch := tf.Objects[iChild].Chunk
	ch.Options = 0x01                                                                                 // IDS only, no FILE
	ch.Sections[0].Words = []uint32{1, 102}                                                           // the animation's FileId
	ch.Sections[1] = vtwrite.EntitySection(EntityParentValid, vtwrite.TranslationRows(11, 2, 3), 100) // Parent's FileId
	s := decodeTestScene(t, tf)
	e := s.Entities[iChild]
	if e.Parent != iParent || len(e.Animations) != 1 || e.Animations[0] != iAnim {
		t.Errorf("parent %d animations %v", e.Parent, e.Animations)
	}
}

// TestLocalFromRotatedParent: a parent turned 90° about Y at (5, 0, 0)
// with a child whose world position is (5, 0, −1) and the same
// orientation gives the child the local translation (1, 0, 0) and no
// rotation (row vectors: world = local · parent). The parent's Hamilton
// rotation is (0, sin 45°, 0, cos 45°): its X axis row is (0, 0, −1).
func TestLocalFromRotatedParent(t *testing.T) {
	rot := [4][3]float32{{0, 0, -1}, {0, 1, 0}, {1, 0, 0}, {5, 0, 0}}
	child := rot
	child[3] = [3]float32{5, 0, -1}
	tf := vtwrite.SampleScene()
	tf.Objects[iParent].Chunk.Sections[0] = vtwrite.EntitySection(0, rot)
	tf.Objects[iChild].Chunk.Sections[1] = vtwrite.EntitySection(EntityParentValid, child, iParent)
	f, _ := decodeTestFile(t, tf)
	p, c := modeltest.Node(t, f, "Parent"), modeltest.Node(t, f, "Child")
	h := math.Sqrt(0.5)
	if !near64(p.Rotation[:], []float64{0, h, 0, h}, 1e-12) || !near64(c.Translation[:], []float64{1, 0, 0}, 1e-12) ||
		!near64(c.Rotation[:], []float64{0, 0, 0, 1}, 1e-12) {
		t.Errorf("parent R %v, child T %v R %v", p.Rotation, c.Translation, c.Rotation)
	}
}

// TestMirroredMatrixTRS: a mirrored world matrix (Z row negated, det −1)
// decomposes into a negative X scale and a half turn about Y:
// R_y(180°)·diag(−1, 1, 1) = diag(1, 1, −1).
func TestMirroredMatrixTRS(t *testing.T) {
	_, q, s, exact := affine{{1, 0, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 0}}.trs()
	if !exact || s != [3]float64{-1, 1, 1} || !near64(q[:], []float64{0, 1, 0, 0}, 1e-12) {
		t.Errorf("q %v s %v exact %v", q, s, exact)
	}
	// A sheared matrix is not exact.
	if _, _, _, exact := (affine{{1, 0.5, 0}, {0, 1, 0}, {0, 0, 1}, {}}).trs(); exact {
		t.Error("shear reported as exact")
	}
}

func decodeTestScene(t *testing.T, tf *vtwrite.File) *Scene {
	t.Helper()
	c, err := ParseContainer(tf.Bytes(), 1<<20, func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	s, err := DecodeScene(c, func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func near64(a, b []float64, tol float64) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol {
			return false
		}
	}
	return len(a) == len(b)
}

// TestScaleAxisChannel: a scale axis that is not the identity adds a
// "scaleAxis" channel (with a warning) when the scale is not uniform, and
// none when it is uniform to 1e-6 (as Kamera02's is).
func TestScaleAxisChannel(t *testing.T) {
	for _, tc := range []struct {
		scale []uint32
		want  int
	}{
		{vtwrite.F32s(0, 2, 1, 1), 3},
		{vtwrite.F32s(0, 0.99975586, 0.9997559, 0.9997559), 2},
	} {
		tf := vtwrite.SampleScene()
		tf.Objects[iAnim].Chunk.Sections[0] = vtwrite.ObjAnimSection(0, iChild, 10, nil,
			vtwrite.Controller{Type: CtrlLinearScale, Count: 1, Keys: tc.scale},
			vtwrite.Controller{Type: CtrlLinearRotation, Count: 1, Keys: vtwrite.F32s(0, 0, 0, 0, 1)},
			vtwrite.Controller{Type: CtrlLinearScaleAxis, Count: 1, Keys: vtwrite.F32s(0, 0, 0, 0.70710677, 0.70710677)})
		f, warnings := decodeTestFile(t, tf)
		a := modeltest.Animation(t, f, "Move")
		if len(a.Channels) != tc.want || len(warnings) != tc.want-2 {
			t.Errorf("scale %v: %d channels, warnings %q", tc.scale, len(a.Channels), warnings)
		}
		if tc.want == 3 && (a.Channels[2].Path != "scaleAxis" || a.Channels[2].Curve.(*model.VirtoolsTransform).Part != model.VirtoolsPartScaleAxis) {
			t.Errorf("scale-axis channel %+v", a.Channels[2])
		}
	}
}

// TestKeyedDuplicateTargets: when a keyed animation lists two object
// animations of the same entity (or one twice), one channel per node and
// path is kept, the later one, with a warning.
func TestKeyedDuplicateTargets(t *testing.T) {
	tf := vtwrite.SampleScene()
	tf.Objects[iKeyed].Chunk.Sections[3] = vtwrite.Section{ID: identKeyedAnimList, Words: []uint32{3, iArmAnim, iAnim, iArmAnim}}
	tf.Objects[iAnim].Chunk.Sections[0] = vtwrite.ObjAnimSection(0, iArm, 10, nil,
		vtwrite.Controller{Type: CtrlLinearRotation, Count: 1, Keys: vtwrite.F32s(0, 0, 0, 0, 1)})
	f, warnings := decodeTestFile(t, tf)
	k := modeltest.Animation(t, f, "Keyed")
	if len(k.Channels) != 1 || k.Channels[0].Curve.(*model.VirtoolsTransform).Anim.Name != "Swing" || len(warnings) != 2 {
		t.Errorf("channels %d, warnings %q", len(k.Channels), warnings)
	}
}
