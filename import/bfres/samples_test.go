package bfres

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/internal/modeltest"
	"github.com/animbake/bake/internal/testfiles"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// Tests against the real BotW files in ../shared/samples/bfres (see
// SOURCES.md §4). They skip when the shared directory is absent.

func decodeSample(t testing.TB, name string, opts *format.Options) *model.File {
	t.Helper()
	in, closer, err := format.OpenFile(filepath.Join(testfiles.Samples(t, "bfres"), name))
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	return decodeValid(t, in, opts)
}

// decodeValid decodes an input that must give one valid model file.
func decodeValid(t testing.TB, in *format.Input, opts *format.Options) *model.File {
	t.Helper()
	files, err := Decode(in, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := files[0].Validate(); err != nil {
		t.Fatal(err)
	}
	return files[0]
}

// SOURCES.md: Animal_Bass_Animation.bfres holds 7 FSKA with these frame
// counts; the 0x4 (loop) flag is on the loop-like clips.
func TestSampleBassAnimations(t *testing.T) {
	f := decodeSample(t, "Animal_Bass_Animation.bfres", nil)
	want := []struct {
		name   string
		frames float64
	}{{"Dead", 30}, {"Jump", 45}, {"Move", 24}, {"Peck", 40}, {"Put_Down", 20}, {"Wait", 24}, {"Wait_Ground", 42}}
	if len(f.Animations) != len(want) {
		t.Fatalf("%d animations, want 7", len(f.Animations))
	}
	for i, w := range want {
		a := f.Animations[i]
		if a.Name != w.name || a.Frames != w.frames || a.End != w.frames || a.FPS != 30 {
			t.Errorf("animation %d: %s %v frames (end %v), want %s %v", i, a.Name, a.Frames, a.End, w.name, w.frames)
		}
		loop := a.Extras["flags"].(uint32)&animFlagLoop != 0
		if loop != (a.Loop == model.LoopRepeat) || (loop && a.Period != w.frames) {
			t.Errorf("%s: loop flag %v but mode %s period %v", a.Name, loop, a.Loop, a.Period)
		}
	}
	if f.Animations[2].Loop != model.LoopRepeat || f.Animations[0].Loop != model.LoopOnce {
		t.Errorf("Move should loop and Dead not: %s, %s", f.Animations[2].Loop, f.Animations[0].Loop)
	}
}

// SOURCES.md: 96 FSKA in the bear file; 111 FSKA, 27 texture-SRT FSHU and
// 2 material FVIS in the Gerudo file.
func TestSampleCounts(t *testing.T) {
	count := func(f *model.File) map[string]int {
		n := map[string]int{}
		for _, a := range f.Animations {
			for _, s := range a.Extras["subfiles"].([]string) {
				n[s]++
			}
		}
		return n
	}
	bear := decodeSample(t, "Animal_Bear_Animation.bfres", nil)
	if n := count(bear); n["FSKA"] != 96 || len(bear.Animations) != 96 {
		t.Errorf("bear: %v in %d animations, want 96 FSKA", n, len(bear.Animations))
	}
	if len(bear.Nodes) != 32 {
		t.Errorf("bear: %d nodes, want its 32 bones", len(bear.Nodes))
	}
	ger := decodeSample(t, "Npc_Gerudo_Queen_Animation.bfres", nil)
	if n := count(ger); n["FSKA"] != 111 || n["FSHU"] != 27 || n["FVIS"] != 2 {
		t.Errorf("gerudo: %v, want 111 FSKA, 27 FSHU, 2 FVIS", n)
	}
	// Same-name sub-files merge (docs decision 2): the 27 FSHU and both FVIS
	// join FSKA clips, so every name is one clip; FVIS "Common_Sleep" (1 frame)
	// is recorded as merged with another length.
	if len(ger.Animations) != 111 {
		t.Errorf("gerudo: %d animations, want 111 after merging", len(ger.Animations))
	}
	for _, a := range ger.Animations {
		if a.Name == "Common_Sleep" && a.Extras["mergedTiming"] == nil {
			t.Errorf("Common_Sleep: the 1-frame FVIS is not recorded in extras.mergedTiming")
		}
	}
	// The texture-SRT animations move translate Y (§10.1 [DATA]).
	srt := 0
	for _, a := range ger.Animations {
		for _, c := range a.Channels {
			if c.Path == model.PathUVOffset {
				srt++
			}
		}
	}
	if srt == 0 {
		t.Error("gerudo: no uvOffset channels")
	}
}

// SOURCES.md: the .sbfres decompresses byte for byte to the .bfres; both
// decode to the same model.
func TestSampleSbfresMatchesBfres(t *testing.T) {
	a := decodeSample(t, "Animal_Bass_Animation.bfres", nil)
	b := decodeSample(t, "Animal_Bass_Animation.sbfres", nil)
	if a.Source.SHA256 == b.Source.SHA256 {
		t.Error("both inputs hash the same")
	}
	a.Source, b.Source = model.Source{}, model.Source{}
	if !reflect.DeepEqual(a, b) {
		t.Error(".sbfres and .bfres decode differently")
	}
}

// With the model file's skeleton, every bone of Animal_Bass is a node under
// its parent, and the bind pose stands where the animation gives nothing.
func TestSampleBassSkeleton(t *testing.T) {
	dir := testfiles.Samples(t, "bfres")
	f := decodeSample(t, "Animal_Bass_Animation.bfres", &format.Options{Skeleton: filepath.Join(dir, "Animal_Bass.bfres")})
	sk := f.Extras["skeleton"].(map[string]any)
	if sk["model"] != "Bass" {
		t.Errorf("skeleton %v, want model Bass of Animal_Bass.bfres", sk)
	}
	parents := map[string]string{"Root": "", "Skl_Root": "Root", "Head": "Skl_Root", "Spine_1": "Skl_Root", "Spine_2": "Spine_1", "Spine_3": "Spine_2"}
	for _, n := range f.Nodes[:6] {
		p := ""
		if n.Parent >= 0 {
			p = f.Nodes[n.Parent].Name
		}
		if want, ok := parents[n.Name]; !ok || want != p {
			t.Errorf("node %s under %q, want %q", n.Name, p, want)
		}
	}
	// The bones the animations name but the skeleton lacks bind to nothing:
	// no node for them, and each clip lists its own, worked out here from
	// the raw FSKA bone names and the raw FSKL.
	if len(f.Nodes) != 6 {
		t.Errorf("%d nodes, want the skeleton's 6 bones", len(f.Nodes))
	}
	raw, err := os.ReadFile(filepath.Join(dir, "Animal_Bass_Animation.bfres"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := readContents(raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	inSkeleton := map[string]bool{}
	for n := range parents { // the skeleton's 6 bones
		inSkeleton[n] = true
	}
	all := map[string]bool{}
	for _, a := range c.skeletal {
		var want []string
		for _, b := range a.BoneAnims {
			if !inSkeleton[b.Name] {
				want = append(want, b.Name)
				all[b.Name] = true
			}
		}
		slices.Sort(want)
		got, _ := modeltest.Animation(t, f, a.Name).Extras["unboundBones"].([]string)
		if !slices.Equal(got, want) {
			t.Errorf("%s: unboundBones %v, want %v", a.Name, got, want)
		}
	}
	// The importer's warning for this pair named these four.
	if len(all) != 4 || !all["Chin"] || !all["Arm_1_L"] || !all["Arm_1_R"] || !all["Tail"] {
		t.Errorf("unbound bones %v, want Chin, Arm_1_L, Arm_1_R, Tail", all)
	}
	// Head: bind translate (0, 0, 0.015) and Euler (0, −π/2, 0) (as read);
	// "Dead" gives it base S and R but no translate: no translation channel.
	head := f.Nodes[2]
	if head.Name != "Head" || head.Translation != [3]float64{0, 0, float64(float32(0.015))} {
		t.Errorf("Head rest translation %v", head.Translation)
	}
	s := math.Sqrt(0.5)
	if !closeTo(head.Rotation[:], []float64{0, -s, 0, s}, 1e-7) {
		t.Errorf("Head rest rotation %v, want a −90° turn about Y", head.Rotation)
	}
	dead := modeltest.Animation(t, f, "Dead")
	if modeltest.FindChannel(dead, "Head", model.PathTranslation) != nil {
		t.Error("Head has a translation channel in Dead")
	}
	if modeltest.FindChannel(dead, "Head", model.PathRotation) == nil {
		t.Error("Head has no rotation channel in Dead")
	}
}

// Hand-worked values from raw keys of Animal_Bass "Dead" (§5.3).
//
// Bone Skl_Root, curve target 0x20 (rotate X): u8 frames 0, 1, …; s16 keys;
// scale 1.8608542e-05, offset 0.09992032; key 0 = (−5370, 17406, 16330,
// −16330). At f = 0.5, t = 0.5: c3·t = −8165, +c2 = 8165, ·t = 4082.5,
// ·t = 2041.25; c1·t + c0 = 8703 − 5370 = 3333; raw = 5374.25; final =
// 5374.25 × 1.8608542e-05 + 0.09992032 = 0.1000069… + 0.0999203 = 0.1999273.
// At f = 0: raw = −5370 → −0.0000075549.
//
// Bone Spine_2, target 0x20, s8 keys, scale 0.00072539586, offset
// −0.020117965; key 0 = (28, 4, 28, −28). At t = 0.5: −14 + 28 = 14, ·t = 7,
// ·t = 3.5; 2 + 28 = 30; raw = 33.5 → 33.5 × 0.00072539586 − 0.020117965 =
// 0.0041828.
func TestSampleBassHandWorked(t *testing.T) {
	f := decodeSample(t, "Animal_Bass_Animation.bfres", nil)
	dead := modeltest.Animation(t, f, "Dead")
	for _, tc := range []struct {
		bone        string
		frame, want float64
		firstKey    []float64
	}{
		{"Skl_Root", 0.5, 0.1999273, []float64{-5370, 17406, 16330, -16330}},
		{"Skl_Root", 0, -0.0000075549, nil},
		{"Spine_2", 0.5, 0.0041828, []float64{28, 4, 28, -28}},
	} {
		rot := modeltest.Channel(t, dead, tc.bone, model.PathRotation).Curve.(*model.EulerRotation)
		x := rot.X.(*model.NW4FCurve)
		if tc.firstKey != nil && !reflect.DeepEqual(x.Keys[:4], tc.firstKey) {
			t.Errorf("%s: first key %v, want %v", tc.bone, x.Keys[:4], tc.firstKey)
		}
		if v := modeltest.EvalCurve(t, x, tc.frame); math.Abs(v[0]-tc.want) > 5e-8 {
			t.Errorf("%s rotate X at %v: %v, want %v", tc.bone, tc.frame, v[0], tc.want)
		}
	}
}

// §5.3 [DATA]: c0 + c1 + c2 + c3 of each cubic key equals c0 of the next
// (within 0.01 in final units), and the last key's c1..c3 are zero, over
// every cubic curve of the sample files; the evaluator agrees at each key.
func TestSampleCubicContinuity(t *testing.T) {
	segments, worst := 0, 0.0
	for _, name := range []string{"Animal_Bass_Animation.bfres", "Animal_Bear_Animation.bfres", "Npc_Gerudo_Queen_Animation.bfres"} {
		f := decodeSample(t, name, nil)
		forEachCurve(f, func(where string, c *model.NW4FCurve) {
			if c.CurveType != model.NW4FCubic {
				return
			}
			e := compileCurve(t, c)
			var out [1]float64
			k := c.Keys
			for i := 0; i+1 < c.NumKeys; i++ {
				end := (k[4*i] + k[4*i+1] + k[4*i+2] + k[4*i+3]) * float64(c.Scale)
				next := k[4*i+4] * float64(c.Scale)
				d := math.Abs(end - next)
				worst = max(worst, d)
				if d > 0.01 {
					t.Errorf("%s key %d: segment ends at %v, next begins at %v", where, i, end, next)
				}
				// At the next key's frame the evaluator gives that key's c0.
				fr := decodeFrame(c, i+1)
				e.Eval(fr, out[:])
				want := float64(float32(float32(k[4*i+4])*c.Scale) + c.Offset)
				if out[0] != want {
					t.Errorf("%s: value at key %d (frame %v) = %v, want c0 = %v", where, i+1, fr, out[0], want)
				}
				segments++
			}
			last := k[len(k)-3:]
			if last[0] != 0 || last[1] != 0 || last[2] != 0 {
				t.Errorf("%s: last key has c1..c3 = %v", where, last)
			}
		})
	}
	t.Logf("%d cubic segments continuous; largest jump %.3g in final units", segments, worst)
	if segments == 0 {
		t.Error("no cubic segments found")
	}
}

func decodeFrame(c *model.NW4FCurve, i int) float64 {
	if c.FrameType == model.NW4FFrameFixed {
		return c.Frames[i] / 32
	}
	return c.Frames[i]
}

// forEachCurve visits every NW4F curve of a file's channels.
func forEachCurve(f *model.File, fn func(where string, c *model.NW4FCurve)) {
	var walk func(where string, c model.Curve)
	walk = func(where string, c model.Curve) {
		switch c := c.(type) {
		case *model.NW4FCurve:
			fn(where, c)
		case *model.Vector:
			for _, p := range c.Components {
				walk(where, p)
			}
		case *model.EulerRotation:
			walk(where, c.X)
			walk(where, c.Y)
			walk(where, c.Z)
		case *model.NW4FQuaternion:
			walk(where, c.X)
			walk(where, c.Y)
			walk(where, c.Z)
			walk(where, c.W)
		}
	}
	for _, a := range f.Animations {
		for _, ch := range a.Channels {
			walk(a.Name+"/"+ch.Node+ch.Material+"/"+ch.Path, ch.Curve)
		}
	}
}

// SOURCES.md: Animal_Bass.bfres holds the texture pattern "Bass_Color"
// (2 frames). Its StepInt curve has u8 frames 0, 1, 2 and s8 keys −1, 0, 1
// with int offset 1, so the texture index runs 0, 1, 2 over its 3 textures.
func TestSampleBassTexturePattern(t *testing.T) {
	f := decodeSample(t, "Animal_Bass.bfres", nil)
	a := modeltest.Animation(t, f, "Bass_Color")
	if a.Frames != 2 || len(a.Channels) != 1 {
		t.Fatalf("Bass_Color: %v frames, %d channels", a.Frames, len(a.Channels))
	}
	ch := a.Channels[0]
	if ch.Path != model.PathTexturePattern || ch.Material == "" || len(ch.Labels) != 3 {
		t.Errorf("channel %+v", ch)
	}
	for fr, want := range []float64{0, 1, 2} {
		if v := modeltest.EvalCurve(t, ch.Curve, float64(fr)); v[0] != want {
			t.Errorf("frame %d: texture %v, want %v", fr, v[0], want)
		}
	}
	t.Logf("material %s, textures %s", ch.Material, strings.Join(ch.Labels, ", "))
}

// §5.5 real FVIS figure: "Common_Sleep_Getup_L" hides its material until
// frame 59 and shows it from then on (10.5 frames 0, 59, 290; word 6).
func TestSampleFVISFigure(t *testing.T) {
	f := decodeSample(t, "Npc_Gerudo_Queen_Animation.bfres", nil)
	a := modeltest.Animation(t, f, "Common_Sleep_Getup_L")
	var vis *model.Channel
	for i := range a.Channels {
		if a.Channels[i].Path == model.PathVisibility {
			vis = &a.Channels[i]
		}
	}
	if vis == nil || vis.Material == "" {
		t.Fatal("no material visibility channel")
	}
	c := vis.Curve.(*model.NW4FCurve)
	if c.CurveType != model.NW4FStepBool || !reflect.DeepEqual(c.Frames, []float64{0, 59 * 32, 290 * 32}) || !reflect.DeepEqual(c.Keys, []float64{6}) {
		t.Errorf("curve %+v", c)
	}
	for _, tc := range []struct{ f, want float64 }{{0, 0}, {58.5, 0}, {59, 1}, {290, 1}} {
		if v := modeltest.EvalCurve(t, vis.Curve, tc.f); v[0] != tc.want {
			t.Errorf("frame %v: %v, want %v", tc.f, v[0], tc.want)
		}
	}
}

func compileCurve(t testing.TB, c model.Curve) interface{ Eval(float64, []float64) } {
	t.Helper()
	e, err := sample.Compile(c)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// Every animation of every sample bakes (the sampler's own checks: finite
// values, compiled curves), with the timing of decision 1.
func TestSampleBakes(t *testing.T) {
	for _, name := range []string{"Animal_Bass_Animation.bfres", "Animal_Bass.bfres", "Animal_Bear_Animation.bfres", "Npc_Gerudo_Queen_Animation.bfres"} {
		f := decodeSample(t, name, nil)
		b, err := sample.Bake(f, sample.Options{Axes: "gltf"})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(b.Animations) != len(f.Animations) {
			t.Errorf("%s: %d baked animations of %d", name, len(b.Animations), len(f.Animations))
		}
		if name == "Animal_Bass_Animation.bfres" {
			move := b.Animations[2] // 24 frames, looping: 25 samples 0..24/30 s
			if move.Name != "Move" || len(move.Times) != 25 || move.Duration != 24.0/30 {
				t.Errorf("Move baked as %s with %d samples over %v s", move.Name, len(move.Times), move.Duration)
			}
		}
	}
}
