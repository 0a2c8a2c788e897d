package virtools

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/animbake/bake/internal/modeltest"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// decodeSampleGraph parses a real file and reads its behaviour graph,
// failing on any warning.
func decodeSampleGraph(t *testing.T, name string) (*Container, *Graph) {
	t.Helper()
	data := readSample(t, name)
	var warnings []string
	warn := func(f string, a ...any) { warnings = append(warnings, fmt.Sprintf(f, a...)) }
	c, err := ParseContainer(data, 1<<30, warn)
	if err != nil {
		t.Fatal(err)
	}
	g := DecodeGraph(c, warn)
	for _, w := range warnings {
		t.Errorf("%s: warning: %s", name, w)
	}
	return c, g
}

// TestGraphSamplesDecodeExactly reads every behaviour-graph object of the
// four Ballance samples. Every section must end exactly where its last
// field does (sectionDone turns leftovers into warnings, and
// decodeSampleGraph fails on any warning), and the counts must be those of
// virtools-behaviours.md §2 (behaviours) and §4.1 (pIns).
func TestGraphSamplesDecodeExactly(t *testing.T) {
	for _, tc := range []struct {
		name                string
		behaviours, paramIn int
	}{{menuLevel21, 52, 264}, {menuLevel35, 62, 354}, {peBalloon21, 113, 451}, {peBalloon35, 111, 447}} {
		c, g := decodeSampleGraph(t, tc.name)
		count := map[int32]int{}
		for _, o := range c.Objects {
			count[o.ClassID]++
		}
		if len(g.Behaviors) != tc.behaviours || count[ClassBehavior] != tc.behaviours {
			t.Errorf("%s: %d behaviours decoded of %d in the table, spec says %d", tc.name, len(g.Behaviors), count[ClassBehavior], tc.behaviours)
		}
		if len(g.ParamIns) != tc.paramIn || count[ClassParameterIn] != tc.paramIn {
			t.Errorf("%s: %d pIns decoded of %d, spec says %d", tc.name, len(g.ParamIns), count[ClassParameterIn], tc.paramIn)
		}
		for cls, n := range map[int32]int{ClassBehaviorIO: len(g.IOs), ClassBehaviorLink: len(g.Links), ClassParameterOperation: len(g.Operations)} {
			if n != count[cls] {
				t.Errorf("%s: class %d: %d decoded of %d", tc.name, cls, n, count[cls])
			}
		}
		if want := count[ClassParameterOut] + count[ClassParameterLocal] + count[ClassParameter]; len(g.Params) != want {
			t.Errorf("%s: %d parameters decoded of %d", tc.name, len(g.Params), want)
		}
		// §8: scripts have owners, e.g. the ball's and the balloon's scripts.
		if len(g.ScriptOwner) == 0 {
			t.Errorf("%s: no script owners", tc.name)
		}
	}
}

// TestGraphMenuLevelPins checks the pin resolutions of
// virtools-behaviours.md §4.4, §4.6, §5.1, §5.2, §5.3 and §8 on the 2.1
// MenuLevel (object numbers are the spec's).
func TestGraphMenuLevelPins(t *testing.T) {
	c, g := decodeSampleGraph(t, menuLevel21)
	play := g.Behaviors[1058]
	if play == nil || play.Prototype != BBPlayAnimation3DEntity || play.Version != 0x10000 {
		t.Fatalf("#1058 is not Play Animation 3D Entity: %+v", play)
	}
	// §4.4: pIn 1 "Duration" #1051 → source local #1050 → Time 59246.0.
	if play.InParams[1] != 1051 {
		t.Errorf("#1058 pIn 1 is #%d, want #1051", play.InParams[1])
	}
	d := g.InPin(play, playPinDuration)
	if v, _ := d.Param.Float(); d.Kind != PinConstant || d.Param.Index != 1050 || d.Param.Type != TypeTime || v != 59246 {
		t.Errorf("duration resolves to %+v (value %v), want local #1050 Time 59246", d, v)
	}
	if a := pinObject(g.InPin(play, playPinAnimation)); a != 1064 || c.Objects[a].Name != "Record Anim" {
		t.Errorf("animation pin → #%d, want Record Anim #1064", a)
	}
	if !pinBool(g.InPin(play, playPinLoop), false) {
		t.Error("Loop should be 1")
	}
	if cp := curve2D(g.InPin(play, playPinCurve)); cp == nil || cp.Index != 1052 || len(cp.Curve2D.Points) != 2 || !cp.Curve2D.Points[0].Linear {
		t.Errorf("progression curve: %+v, want #1052 with 2 LINEAR points", cp)
	}
	// §5.1 wiring: Ball_Stone Script.In → On.
	script := g.Script(1058)
	if c.Objects[script].Name != "Ball_Stone Script" || !g.linkedIO(g.Behaviors[script].Inputs[0], play.Inputs[0]) {
		t.Errorf("#1058 is in %q, or Script.In does not reach On", c.Objects[script].Name)
	}
	if owner := g.ScriptOwner[script]; c.Objects[owner].Name != "I_Ball_Stone" {
		t.Errorf("Ball_Stone Script owner %q, want I_Ball_Stone", c.Objects[owner].Name)
	}
	// §4.6: Position On Curve #20 → #19 "Target" → local #18 → #497 Cam_MenuLevel.
	poc := g.Behaviors[20]
	if poc.Prototype != BBPositionOnCurve || poc.Target != 19 || g.targetOf(poc) != 497 || c.Objects[497].Name != "Cam_MenuLevel" {
		t.Errorf("#20 target pin #%d → #%d", poc.Target, g.targetOf(poc))
	}
	if r := g.ResolvePin(poc.Target); r.Param == nil || r.Param.Index != 18 {
		t.Errorf("target pin resolves to %+v, want local #18", r)
	}
	if cu := pinObject(g.InPin(poc, pocPinCurve)); cu != 502 {
		t.Errorf("curve pin → #%d, want I_MenuLevel_Curve #502", cu)
	}
	// §5.2: Progression ← pOut 1 "Value" #4 of Bezier Progression #342.
	p := g.InPin(poc, pocPinProgression)
	if p.Kind != PinProduced || p.Producer != 342 || p.OutIndex != bezOutValue || p.Param.Index != 4 {
		t.Errorf("progression pin %+v, want #342 pOut 1 (#4)", p)
	}
	// §4.2: the saved Value snapshot 0.37835 = 16647.5/44000, never used as a constant.
	if v, _ := p.Param.Float(); math.Abs(v-16647.5/44000) > 1e-6 {
		t.Errorf("Value snapshot %v, want 0.378352", v)
	}
	bez := g.Behaviors[342]
	if bez.Prototype != BBBezierProgression || bez.Version != 0x10005 {
		t.Errorf("#342: %s v%x", bez.Prototype, bez.Version)
	}
	if dur, ok := g.durationMs(bez, bezPinDuration, 0); !ok || dur != 44000 {
		t.Errorf("Bezier duration %v", dur)
	}
	// §5.3 links: Out → In and Loop Out → Loop In, both with delay 1.
	for _, pair := range [][2]int{{0, 0}, {1, 1}} {
		found := false
		for _, l := range g.Links {
			if l.From == bez.Outputs[pair[0]] && l.To == bez.Inputs[pair[1]] {
				found = l.Delay == 1
			}
		}
		if !found {
			t.Errorf("no delay-1 link from output %d to input %d of #342", pair[0], pair[1])
		}
	}
}

// TestGraphSharedInput: Get Cell's Row Index #194 shares #267 "Pin 0",
// the pIn of its parent graph "Load Sky-Textures" (§4.4). Resolution must
// follow the sharing chain to the same parameter as #267.
func TestGraphSharedInput(t *testing.T) {
	c, g := decodeSampleGraph(t, menuLevel21)
	in := g.ParamIns[194]
	if in == nil || !in.Shared || in.Source != 267 {
		t.Fatalf("#194: %+v, want shared with #267", in)
	}
	owner := g.Owner[267]
	if c.Objects[owner].Name != "Load Sky-Textures" {
		t.Errorf("#267 belongs to %q", c.Objects[owner].Name)
	}
	a, b := g.ResolvePin(194), g.ResolvePin(267)
	if a.Kind != b.Kind || a.Param != b.Param {
		t.Errorf("#194 resolves to %+v, #267 to %+v", a, b)
	}
}

// TestGraphBalloonPins checks PE_Balloon's BBs of §5.4–§5.6 and §8.
func TestGraphBalloonPins(t *testing.T) {
	c, g := decodeSampleGraph(t, peBalloon21)
	pga := g.Behaviors[1488]
	if pga.Prototype != BBPlayGlobalAnimation {
		t.Fatalf("#1488 is %s", pga.Prototype)
	}
	if a := pinObject(g.InPin(pga, playPinAnimation)); a != 1842 || c.Objects[a].Name != "UFO_Animation" {
		t.Errorf("animation → #%d", a)
	}
	if d, _ := g.durationMs(pga, playPinDuration, 0); d != 1000 || pinBool(g.InPin(pga, playPinLoop), true) {
		t.Errorf("duration %v, loop %v; want 1000 and 0", d, pinBool(g.InPin(pga, playPinLoop), true))
	}
	// §5.5: Per Second #1315 pIn 0 = Angle 2.6179938 (150°/s) → pOut 0 #1314.
	ps := g.Behaviors[1315]
	if v, _ := g.InPin(ps, 0).Param.Float(); ps.Prototype != BBPerSecond || float32(v) != float32(2.6179938) || ps.OutParams[0] != 1314 {
		t.Errorf("Per Second: %s %v", ps.Prototype, v)
	}
	// §5.6: Rotate #1358 angle ← #1315 pOut 0; Rotate #1597 angle ← Op #1606.
	if p := g.InPin(g.Behaviors[1358], rotPinAngle); p.Producer != 1315 || p.OutIndex != 0 {
		t.Errorf("#1358 angle %+v", p)
	}
	if p := g.InPin(g.Behaviors[1597], rotPinAngle); p.Producer != 1606 || g.Behaviors[1606].Prototype != BBOp {
		t.Errorf("#1597 angle %+v", p)
	}
	// §5.8 [?] settled: Op #1606 keeps Multiplication's GUID in locals 1, 2 and p2 = −1.
	if op, ok := g.opOperation(g.Behaviors[1606]); !ok || op != OpMultiplication {
		t.Errorf("Op #1606 operation %s, want Multiplication 38996b85:334e35c2", op)
	}
	if v, ok := pinFloat(g.InPin(g.Behaviors[1606], 1), 0); !ok || v != -1 {
		t.Errorf("Op #1606 p2 = %v, want -1", v)
	}
	if v, _ := g.InPin(g.Behaviors[1358], rotPinAxis).Param.Floats(3); float32(v[0]) != 0.05 || v[1] != 1 || float32(v[2]) != 0.05 {
		t.Errorf("#1358 axis %v", v)
	}
	// §5.3: PE_Balloon #1665, 800 ms, its curve #1658 has 3 points.
	bez := g.Behaviors[1665]
	if d, _ := g.durationMs(bez, bezPinDuration, 0); d != 800 {
		t.Errorf("#1665 duration %v", d)
	}
	cp := curve2D(g.InPin(bez, bezPinCurve))
	if cp == nil || cp.Index != 1658 || len(cp.Curve2D.Points) != 3 {
		t.Fatalf("#1665 curve %+v", cp)
	}
	// §6.4: GetY on the stored curve (the file's own floats).
	curve := sample.NewVirtools2dCurve(cp.Curve2D)
	for _, tc := range []struct{ x, y float64 }{{0, 0.584541}, {0.125, 1}, {0.5, 0.278383}, {1, 0}} {
		if got := curve.GetY(tc.x); math.Abs(got-tc.y) > 5e-6 {
			t.Errorf("#1658 GetY(%v) = %v, want %v", tc.x, got, tc.y)
		}
	}
}

// linkedIO reports a link between two IOs.
func (g *Graph) linkedIO(from, to int) bool {
	for _, l := range g.Links {
		if l.From == from && l.To == to {
			return true
		}
	}
	return false
}

// evalAt evaluates a channel at t seconds since the clip starts, the way
// `bake eval --times` maps seconds to frames (t × FPS, wrapped by the loop).
func evalAt(t *testing.T, a *model.Animation, c *model.Channel, sec float64) []float64 {
	t.Helper()
	ev, err := sample.Compile(c.Curve)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, ev.Width())
	ev.Eval(sample.SourceFrame(a, sec*a.FPS), out)
	return out
}

// TestGraphTimingMenuLevel is the MenuLevel acceptance, in both
// files: Record Anim lasts 59.246 s and repeats; "Cam_MenuLevel on
// I_MenuLevel_Curve" lasts 44 s and repeats, and the camera's world
// position at 0, 11, 22 and 33 s is the curve's GetPos at 0, 0.25, 0.5 and
// 0.75, starting at (0.477, 40, −94.955) (OA §3.4, behaviours §5.3).
func TestGraphTimingMenuLevel(t *testing.T) {
	for _, tc := range []struct{ name, drivenBy string }{
		{menuLevel21, "Play Animation 3D Entity #1058 in Ball_Stone Script"},
		{menuLevel35, "Play Animation 3D Entity #1076 in Ball_Stone Script"},
	} {
		f, warnings := decodeSampleTimed(t, tc.name, TimingGraph)
		if len(warnings) != 0 {
			t.Errorf("%s: warnings %q", tc.name, warnings)
		}
		rec := modeltest.Animation(t, f, "Record Anim")
		if d := sample.Span(rec) / rec.FPS; math.Abs(d-59.246) > 1e-9 || rec.Loop != model.LoopRepeat {
			t.Errorf("%s: Record Anim lasts %v s, loop %s; want 59.246 s repeat", tc.name, d, rec.Loop)
		}
		if rec.Extras["drivenBy"] != tc.drivenBy {
			t.Errorf("%s: Record Anim driven by %q", tc.name, rec.Extras["drivenBy"])
		}
		// The linear progression curve keeps frame = p × 4445: 59.246 s × 1000.25/4445
		// is frame 1000.25 (VC §2's test frame).
		tr := evalAt(t, rec, &rec.Channels[0], 59.246*1000.25/4445)
		ref, _ := decodeSampleFile(t, tc.name)
		fr := modeltest.Animation(t, ref, "Record Anim")
		want := evalAt(t, fr, &fr.Channels[0], 1000.25/30)
		for i := range tr {
			if math.Abs(tr[i]-want[i]) > 1e-9 {
				t.Errorf("%s: Record Anim at frame 1000.25: %v, frames timing gives %v", tc.name, tr, want)
				break
			}
		}
		// VB §5.1 wiring: the script's start activates On.
		if st, _ := rec.Extras["virtoolsStartedBy"].([]string); len(st) != 1 || !strings.HasPrefix(st[0], "Ball_Stone Script #") || !strings.HasSuffix(st[0], " input 0 (Start)") {
			t.Errorf("%s: Record Anim started by %q", tc.name, st)
		}
		if kam := modeltest.Animation(t, f, "Kamera02"); kam.Extras["drivenBy"] != DrivenByFrames {
			t.Errorf("%s: Kamera02 driven by %v", tc.name, kam.Extras["drivenBy"])
		}

		cam := modeltest.Animation(t, f, "Cam_MenuLevel on I_MenuLevel_Curve")
		if d := sample.Span(cam) / cam.FPS; math.Abs(d-44) > 1e-12 || cam.Loop != model.LoopRepeat {
			t.Errorf("%s: camera ride lasts %v s, loop %s; want 44 s repeat", tc.name, d, cam.Loop)
		}
		if len(cam.Channels) != 1 || cam.Channels[0].Node != "Cam_MenuLevel" || cam.Channels[0].Path != model.PathTranslation {
			t.Fatalf("%s: camera channels %+v", tc.name, cam.Channels)
		}
		// VB §5.3: started by Set As Active Camera.Out, restarted by its own Out (delay 1).
		st, _ := cam.Extras["virtoolsStartedBy"].([]string)
		if len(st) != 2 || !strings.Contains(strings.Join(st, "|"), "Bezier Progression #342 output 0 (Out), delay 1") || !strings.Contains(strings.Join(st, "|"), "Set As Active Camera #") {
			t.Errorf("%s: camera ride started by %q", tc.name, st)
		}
		path := cam.Channels[0].Curve.(*model.VirtoolsProgression).Inner.(*model.VirtoolsPathFollow).Path
		geo, err := sample.VirtoolsCurveUpdate(path)
		if err != nil {
			t.Fatal(err)
		}
		for k, sec := range []float64{0, 11, 22, 33} {
			got := evalAt(t, cam, &cam.Channels[0], sec)
			want, _ := geo.GetPos(float64(k) / 4)
			for i := range 3 {
				if math.Abs(got[i]-want[i]) > 1e-9 {
					t.Errorf("%s: camera at %v s = %v, GetPos(%v) = %v", tc.name, sec, got, float64(k)/4, want)
					break
				}
			}
		}
		start := evalAt(t, cam, &cam.Channels[0], 0)
		for i, w := range []float64{0.477, 40, -94.955} {
			if math.Abs(start[i]-w) > 0.001 {
				t.Errorf("%s: camera start %v, want (0.477, 40, -94.955)", tc.name, start)
				break
			}
		}
		// The clip wraps: 44 s is back at the start.
		if end := evalAt(t, cam, &cam.Channels[0], 44); math.Abs(end[0]-start[0]) > 1e-9 || math.Abs(end[2]-start[2]) > 1e-9 {
			t.Errorf("%s: camera at 44 s %v, want the start %v", tc.name, end, start)
		}
	}
}

// TestGraphTimingBalloon is the PE_Balloon (2.1) acceptance:
// UFO_Animation lasts 1 s and plays once (§5.4); the UFO body's spin is a
// repeating clip of 2.4 s (360° at 150°/s) whose rotation at 0.6 s is 90°
// from its start about the graph's axis (§5.6). The 3.5 re-save lacks
// UFO_Animation: its Play Global Animation is reported, not fatal.
func TestGraphTimingBalloon(t *testing.T) {
	f, warnings := decodeSampleTimed(t, peBalloon21, TimingGraph)
	if len(warnings) != 0 {
		t.Errorf("warnings %q", warnings)
	}
	ufo := modeltest.Animation(t, f, "UFO_Animation")
	if d := sample.Span(ufo) / ufo.FPS; d != 1 || ufo.Loop != model.LoopOnce || ufo.Extras["drivenBy"] != "Play Global Animation #1488 in PE_Balloon Script" {
		t.Errorf("UFO_Animation: %v s, loop %s, driven by %v", d, ufo.Loop, ufo.Extras["drivenBy"])
	}
	body := modeltest.Animation(t, f, "PE_UFO_Body spin")
	// 2π / float32(150°/s in radians): 2.4 s to within the f32 rounding of the pin.
	if d := sample.Span(body) / body.FPS; math.Abs(d-2.4) > 1e-7 || body.Loop != model.LoopRepeat {
		t.Errorf("body spin: %v s, loop %s; want 2.4 s repeat", d, body.Loop)
	}
	if body.Extras["drivenBy"] != "Rotate #1358 and Per Second #1315 in PE_Balloon Script" {
		t.Errorf("body spin driven by %v", body.Extras["drivenBy"])
	}
	q0 := evalAt(t, body, &body.Channels[0], 0)
	q := evalAt(t, body, &body.Channels[0], 0.6)
	rel := sample.QuatMul([4]float64{-q0[0], -q0[1], -q0[2], q0[3]}, [4]float64(q))
	angle := 2 * math.Acos(math.Min(1, math.Abs(rel[3])))
	if math.Abs(angle-math.Pi/2) > 1e-6 {
		t.Errorf("body spin after 0.6 s: %v°, want 90°", angle*180/math.Pi)
	}
	// The axis is the graph's (0.05, 1, 0.05) in the body's own frame (the
	// referential is the body itself), normalised.
	s := math.Sin(angle / 2)
	n := math.Sqrt(0.05*0.05*2 + 1)
	for i, w := range []float64{0.05 / n, 1 / n, 0.05 / n} {
		if math.Abs(rel[i]/s-w) > 1e-6 {
			t.Errorf("body spin axis %v, want (0.05, 1, 0.05)/|·|", rel[:3])
			break
		}
	}
	// The top counter-rotates (Op × −1): −90° about its own Y after 0.6 s.
	top := modeltest.Animation(t, f, "PE_UFO_Top spin")
	t0, t1 := evalAt(t, top, &top.Channels[0], 0), evalAt(t, top, &top.Channels[0], 0.6)
	rt := sample.QuatMul([4]float64{-t0[0], -t0[1], -t0[2], t0[3]}, [4]float64(t1))
	if math.Abs(rt[1]/math.Sin(math.Pi/4)+1) > 1e-6 && math.Abs(rt[1]/math.Sin(math.Pi/4)-1) > 1e-6 {
		t.Errorf("top relative rotation %v, want a quarter turn about Y", rt)
	}
	if rt[1]*rel[1] > 0 {
		t.Errorf("the top turns the same way as the body: %v vs %v", rt, rel)
	}

	f35, w35 := decodeSampleTimed(t, peBalloon35, TimingGraph)
	if len(w35) != 1 || len(f35.Animations) != 10 {
		t.Errorf("3.5 re-save: %d animations, warnings %q; want 10 and one notice about the missing UFO_Animation", len(f35.Animations), w35)
	}
}

// TestGraphTimingFrames: --timing frames keeps the importer's frame rules
// (Record Anim at 30 frames per second, once) and adds no graph clips.
func TestGraphTimingFrames(t *testing.T) {
	f, _ := decodeSampleTimed(t, menuLevel21, TimingFrames)
	rec := modeltest.Animation(t, f, "Record Anim")
	if rec.FPS != DefaultFrameRate || rec.Loop != model.LoopOnce || rec.Extras["drivenBy"] != DrivenByFrames {
		t.Errorf("frames timing: Record Anim %v fps, %s, %v", rec.FPS, rec.Loop, rec.Extras["drivenBy"])
	}
	if len(f.Animations) != 3 {
		t.Errorf("frames timing: %d animations, want 3", len(f.Animations))
	}
}

// TestGraphSamplesBake bakes every clip of the six samples with the graph
// timing at 30 samples per second in glTF axes: every value is finite and
// every graph-made clip has a drivenBy naming its BBs.
func TestGraphSamplesBake(t *testing.T) {
	for _, name := range allSamples {
		f, _ := decodeSampleTimed(t, name, TimingGraph)
		modeltest.BakeFinite(t, name, f, sample.Options{FPS: 30, Axes: "gltf"})
		for _, a := range f.Animations {
			if a.Extras["virtoolsClass"] == "CKCurve" && a.Extras["drivenBy"] != DrivenByCurveSeconds {
				t.Errorf("%s: follower %q driven by %v", name, a.Name, a.Extras["drivenBy"])
			}
			if d, _ := a.Extras["drivenBy"].(string); d == "" {
				t.Errorf("%s: %q has no drivenBy", name, a.Name)
			}
		}
	}
}
