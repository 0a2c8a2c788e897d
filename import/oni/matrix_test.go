package oni

import (
	"math"
	"testing"

	"github.com/animbake/bake/import/oni/oniwrite"
	"github.com/animbake/bake/internal/modeltest"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// c45 is float32(√½) widened, as the stored quaternions hold it.
var c45 = float64(float32(math.Sqrt2 / 2))

// probe is an OBAN whose matrices are worked out by hand below. Its Base
// turns x to −2z, keeps y (×2), turns z to 2x and moves by (1, 2, 3). Key 0
// (frame 0): stored quaternion (0,0,0,1), position (10,0,0). Key 1 (frame
// 10): stored (0,0,−√½,√½), whose conjugate (0,0,√½,√½) (oni-container.md
// §4.2) is Rz(+90°); position (10,20,0).
func probe(flags uint32) *oniwrite.Oban {
	s := float32(math.Sqrt2 / 2)
	return &oniwrite.Oban{
		Flags: flags, Start: oniwrite.Identity, TicksPerFrame: 80, Frames: 11,
		Base: oniwrite.Matrix{0, 0, -2, 0, 2, 0, 2, 0, 0, 1, 2, 3},
		Keys: []oniwrite.Key{
			{Quaternion: [4]float32{0, 0, 0, 1}, Position: [3]float32{10, 0, 0}, Frame: 0},
			{Quaternion: [4]float32{0, 0, -s, s}, Position: [3]float32{10, 20, 0}, Frame: 10},
		},
	}
}

// oni-oban.txt "The matrix at a frame": T(position)·R(rotation)·Base, with
// Rx(π/2) in front for flag 0x10 (MUrMatrix_FromMax). Rx(π/2) maps
// (a, b, c) to (a, −c, b); Rz(π/2) maps (a, b, c) to (−b, a, c).
func TestObanMatrixWithQuarterTurn(t *testing.T) {
	f, _ := decodeBytes(t, "level3_Final.dat", levelWith(oniwrite.ObanInstance("probe", probe(oniwrite.FlagLocalized))))
	a := modeltest.Animation(t, f, "probe")
	c := c45
	// Frame 0 (a key): R = I, so T·R·Base has axes (0,0,−2), (0,2,0),
	// (2,0,0) and translation (1,2,3)+(10,0,0) = (11,2,3); Rx(π/2) in front.
	frame0 := affine([3]float64{0, 2, 0}, [3]float64{0, 0, 2}, [3]float64{2, 0, 0}, [3]float64{11, -3, 2})
	// Frame 10 (a key): R = Rz(π/2) turns the Base axes into (0,0,−2),
	// (−2,0,0), (0,2,0) and (1,2,3) into (−2,1,3); plus (10,20,0) = (8,21,3).
	frame10 := affine([3]float64{0, 2, 0}, [3]float64{-2, 0, 0}, [3]float64{0, 0, 2}, [3]float64{8, -3, 21})
	// Frame 5: t = 1/2, position (10,10,0); the nlerp half way from I to
	// Rz(π/2) is Rz(π/4): axes (0,0,−2), (−2c,2c,0), (2c,2c,0), and (1,2,3)
	// becomes (−c,3c,3), plus (10,10,0).
	frame5 := affine([3]float64{0, 2, 0}, [3]float64{-2 * c, 0, 2 * c}, [3]float64{2 * c, 0, 2 * c}, [3]float64{10 - c, -3, 10 + 3*c})
	for _, k := range []struct {
		frame float64
		want  mat4
		what  string
	}{
		{0, frame0, "key at frame 0"},
		{10, frame10, "key at frame 10"},
		{5, frame5, "between keys"},
		{-3, frame0, "before the first key (held)"},
		{14, frame10, "after the last key (held)"},
	} {
		matNear(t, k.what, worldMatrix(t, f, a, "probe", k.frame), k.want, 2e-6)
	}
	if f.Nodes[nodeIndex(t, f, "probe")].Matrix == nil {
		t.Errorf("a Base that is not a pure scale must be a static matrix node")
	}
	if p := f.Nodes[nodeIndex(t, f, "probe_local")]; p.Parent != -1 || p.Rotation != quarterTurnX {
		t.Errorf("quarter-turn node: %+v", p)
	}
}

// Without flag 0x10 there is no quarter turn: frame 10 is T·R·Base alone.
func TestObanMatrixWithoutQuarterTurn(t *testing.T) {
	f, _ := decodeBytes(t, "level3_Final.dat", levelWith(oniwrite.ObanInstance("probe", probe(0))))
	a := modeltest.Animation(t, f, "probe")
	want := affine([3]float64{0, 0, -2}, [3]float64{-2, 0, 0}, [3]float64{0, 2, 0}, [3]float64{8, 21, 3})
	matNear(t, "frame 10", worldMatrix(t, f, a, "probe", 10), want, 2e-6)
	if len(f.Nodes) != 2 {
		t.Errorf("got %d nodes, want probe_motion and probe", len(f.Nodes))
	}
}

// The demo door (flag 0x10) is open at frame 50: Rz(+90°) about its Max z
// axis, then Rx(π/2): x → (0,0,1), y → (−1,0,0), z → (0,−1,0).
func TestDemoDoorOpenAtFifty(t *testing.T) {
	f, _ := decodeBytes(t, "OBANdoor_lab.oni", (&oniwrite.File{Kind: oniwrite.OniFile,
		Instances: []oniwrite.Instance{oniwrite.ObanInstance("door_lab", oniwrite.DemoDoor())}}).Bytes())
	a := modeltest.Animation(t, f, "door_lab")
	want := affine([3]float64{0, 0, 1}, [3]float64{-1, 0, 0}, [3]float64{0, -1, 0}, [3]float64{})
	matNear(t, "frame 50", worldMatrix(t, f, a, "door_lab", 50), want, 1e-6)
	if a.Extras["halfStopFrame"] != 50 {
		t.Errorf("halfStopFrame = %v, want 50", a.Extras["halfStopFrame"])
	}
}

// oni-container.md §4.2 and axes.md §3.3, the Blackvan_FB example: key 0
// stores (−0.7071, 0, 0, −0.7071) at (1188.8, −55.0, −109.0) over a Base of
// uniform scale 1.82. In glTF that is rotation (−0.7071, 0, 0, 0.7071) =
// Rx(−90°), translation (118.88, −5.5, −10.9) m and scale 1.82.
func TestBlackvanExample(t *testing.T) {
	o := &oniwrite.Oban{Start: oniwrite.Identity, Base: oniwrite.Scale(1.82, 1.82, 1.82), TicksPerFrame: 80, Frames: 501}
	for i := range 101 {
		o.Keys = append(o.Keys, oniwrite.Key{Quaternion: [4]float32{-0.7071, 0, 0, -0.7071},
			Position: [3]float32{1188.8, -55.0, -109.0}, Frame: uint32(5 * i)})
	}
	f, _ := decodeBytes(t, "level3_Final.dat", levelWith(oniwrite.ObanInstance("Blackvan_FB", o)))
	a := modeltest.Animation(t, f, "Blackvan_FB")
	if a.Frames != 501 || a.End != 500 || a.FPS != 60 || a.Loop != model.LoopOnce {
		t.Errorf("timing: frames %v end %v fps %v loop %v", a.Frames, a.End, a.FPS, a.Loop)
	}
	cv := sample.NewConverter(f.Axes)
	motion := f.Nodes[nodeIndex(t, f, "Blackvan_FB_motion")]
	q := motion.Rotation
	cv.Quaternion(q[:])
	tr := motion.Translation
	cv.Position(tr[:])
	for i, w := range []float64{-0.7071, 0, 0, 0.7071} {
		if math.Abs(q[i]-w) > 1e-6 {
			t.Errorf("glTF rotation %v, want (−0.7071, 0, 0, 0.7071)", q)
			break
		}
	}
	for i, w := range []float64{118.88, -5.5, -10.9} {
		if math.Abs(tr[i]-w) > 1e-4 {
			t.Errorf("glTF translation %v, want (118.88, −5.5, −10.9)", tr)
			break
		}
	}
	leaf := f.Nodes[nodeIndex(t, f, "Blackvan_FB")]
	if s := float64(float32(1.82)); leaf.Matrix != nil || leaf.Scale != [3]float64{s, s, s} {
		t.Errorf("base node: matrix %v scale %v, want TRS scale 1.82", leaf.Matrix, leaf.Scale)
	}
	if f.Axes != (model.Axes{Name: "oni", Basis: model.IdentityBasis, Scale: 0.1}) {
		t.Errorf("axes %+v", f.Axes)
	}
}

// Flags (oni-oban.txt "Flags", PHrPhysics_Update_Animation): ping-pong is
// tested before loop; random start and autostart are kept as facts.
func TestObanFlags(t *testing.T) {
	for _, c := range []struct {
		flags       uint32
		loop        string
		random, aut bool
	}{
		{0, model.LoopOnce, false, false},
		{oniwrite.FlagLoop, model.LoopRepeat, false, false},
		{oniwrite.FlagPingPong, model.LoopPingPong, false, false},
		{oniwrite.FlagLoop | oniwrite.FlagPingPong, model.LoopPingPong, false, false},
		{oniwrite.FlagRandomStart | oniwrite.FlagAutostart, model.LoopOnce, true, true},
	} {
		f, _ := decodeBytes(t, "level3_Final.dat", levelWith(oniwrite.ObanInstance("probe", probe(c.flags))))
		a := modeltest.Animation(t, f, "probe")
		if a.Loop != c.loop || a.Frames != 11 || a.End != 10 || a.Period != 11 || a.FPS != 60 {
			t.Errorf("flags 0x%x: loop %s frames %v end %v period %v fps %v; want %s, 11, 10, 11, 60",
				c.flags, a.Loop, a.Frames, a.End, a.Period, a.FPS, c.loop)
		}
		// A flag's name is written only when set (as true); the CD's 80
		// ticks per frame and the identity start and base are left out.
		_, random := a.Extras["randomStart"]
		_, aut := a.Extras["autostart"]
		if a.Extras["flags"] != c.flags || random != c.random || aut != c.aut ||
			(c.random && a.Extras["randomStart"] != true) || (c.aut && a.Extras["autostart"] != true) {
			t.Errorf("flags 0x%x: extras %v", c.flags, a.Extras)
		}
		for _, k := range []string{"quarterTurnX", "ticksPerFrame", "halfStopFrame", "startMatrix"} {
			if v, ok := a.Extras[k]; ok {
				t.Errorf("flags 0x%x: extras %s = %v, a usual value", c.flags, k, v)
			}
		}
		// The probe's base is no identity: kept, in file order.
		if b, _ := a.Extras["baseMatrix"].([]float64); len(b) != 12 || b[2] != -2 || b[4] != 2 || b[11] != 3 {
			t.Errorf("flags 0x%x: baseMatrix %v", c.flags, a.Extras["baseMatrix"])
		}
	}
}

// The start matrix is kept in the animation's extras in file order.
func TestStartMatrixInExtras(t *testing.T) {
	o := probe(0)
	o.Start = oniwrite.Matrix{1, 0, 0, 0, 1, 0, 0, 0, 1, 7, 8, 9}
	f, _ := decodeBytes(t, "level3_Final.dat", levelWith(oniwrite.ObanInstance("probe", o)))
	got := modeltest.Animation(t, f, "probe").Extras["startMatrix"].([]float64)
	if len(got) != 12 || got[9] != 7 || got[10] != 8 || got[11] != 9 || got[0] != 1 {
		t.Errorf("startMatrix %v", got)
	}
}
