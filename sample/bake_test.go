package sample

import (
	"math"
	"testing"

	"github.com/animbake/bake/model"
)

func rampFile(loop string) *model.File {
	return &model.File{
		Axes:  model.GLTFAxes,
		Nodes: []model.Node{{Name: "a", Parent: -1}},
		Animations: []model.Animation{{
			Name: "ramp", FPS: 10, Frames: 5, End: 4, Period: 5, Loop: loop,
			Channels: []model.Channel{{Node: "a", Path: model.PathTranslation, Curve: &model.Keyed{
				Interp: model.InterpLinear, Width: 3, Frames: []float64{0, 4}, Values: []float64{0, 0, 0, 8, 0, 0}}}},
		}},
	}
}

func bakeX(t *testing.T, f *model.File, o Options) ([]float64, []float64) {
	t.Helper()
	b, err := Bake(f, o)
	if err != nil {
		t.Fatal(err)
	}
	a := b.Animations[0]
	var xs []float64
	for i := range a.Times {
		xs = append(xs, a.Channels[0].Values[3*i])
	}
	return a.Times, xs
}

func equal(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-12 {
			return false
		}
	}
	return true
}

// Play once ends at the last frame: frames 0..4 at 10 fps.
func TestBakeOnce(t *testing.T) {
	times, xs := bakeX(t, rampFile(model.LoopOnce), Options{})
	if !equal(times, []float64{0, 0.1, 0.2, 0.3, 0.4}) || !equal(xs, []float64{0, 2, 4, 6, 8}) {
		t.Fatalf("times %v xs %v", times, xs)
	}
}

// Repeat adds a seam sample at the period whose value equals frame 0.
func TestBakeRepeatSeam(t *testing.T) {
	times, xs := bakeX(t, rampFile(model.LoopRepeat), Options{})
	if !equal(times, []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5}) || !equal(xs, []float64{0, 2, 4, 6, 8, 0}) {
		t.Fatalf("times %v xs %v", times, xs)
	}
}

// Ping-pong is baked as one whole cycle 0..End..0.
func TestBakePingPong(t *testing.T) {
	times, xs := bakeX(t, rampFile(model.LoopPingPong), Options{})
	if len(times) != 9 || !equal(xs, []float64{0, 2, 4, 6, 8, 6, 4, 2, 0}) || times[8] != 0.8 {
		t.Fatalf("times %v xs %v", times, xs)
	}
}

// Resampling at 4 samples/s over 0.4 s: 0, 0.25 and the end 0.4 exactly.
func TestBakeResampleEndsAtSpan(t *testing.T) {
	times, xs := bakeX(t, rampFile(model.LoopOnce), Options{FPS: 4})
	if !equal(times, []float64{0, 0.25, 0.4}) || !equal(xs, []float64{0, 5, 8}) {
		t.Fatalf("times %v xs %v", times, xs)
	}
	// --timebase 20 halves the duration.
	times, _ = bakeX(t, rampFile(model.LoopOnce), Options{Timebase: 20})
	if times[len(times)-1] != 0.2 {
		t.Fatalf("timebase: %v", times)
	}
}

// Quaternion outputs are unit length and sign-continuous.
func TestBakeQuaternionContinuity(t *testing.T) {
	f := rampFile(model.LoopOnce)
	// Key values alternate sign for the same orientation, and are not unit.
	f.Animations[0].Channels = []model.Channel{{Node: "a", Path: model.PathRotation, Curve: &model.Keyed{
		Interp: model.InterpStep, Width: 4, Frames: []float64{0, 1, 2},
		Values: []float64{0, 0, 0, 2, 0, 0, 0, -1, 0, 0, 1, 0}}}}
	b, err := Bake(f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	v := b.Animations[0].Channels[0].Values
	for i := 0; i+4 <= len(v); i += 4 {
		l := math.Sqrt(v[i]*v[i] + v[i+1]*v[i+1] + v[i+2]*v[i+2] + v[i+3]*v[i+3])
		if !near(l, 1, 1e-12) {
			t.Errorf("sample %d not unit: %v", i/4, v[i:i+4])
		}
		if i >= 4 && v[i]*v[i-4]+v[i+1]*v[i-3]+v[i+2]*v[i-2]+v[i+3]*v[i-1] < 0 {
			t.Errorf("sample %d flips sign", i/4)
		}
	}
	if v[4+3] != 1 {
		t.Errorf("sample 1 should be flipped to (0,0,0,1): %v", v[4:8])
	}
}

// axes.md §2: Virtools (left-handed, Y up) → glTF mirrors z: position
// (x, y, −z), quaternion (x, y, −z, w) for a stored... here a Hamilton
// quaternion in mirrored axes: vector part −C·v = (−x, −y, z).
// axes.md §4: CCS Z-up in cm → 0.01·(x, z, −y).
func TestConverter(t *testing.T) {
	mirror := NewConverter(model.Axes{Basis: [9]float64{1, 0, 0, 0, 1, 0, 0, 0, -1}, Scale: 1})
	p := []float64{1, 2, 3}
	mirror.Position(p)
	if !equal(p, []float64{1, 2, -3}) {
		t.Errorf("mirror position %v", p)
	}
	q := []float64{0.1, 0.2, 0.3, 0.9}
	mirror.Quaternion(q)
	if !equal(q, []float64{-0.1, -0.2, 0.3, 0.9}) {
		t.Errorf("mirror quaternion %v", q)
	}
	ccs := NewConverter(model.Axes{Basis: [9]float64{1, 0, 0, 0, 0, 1, 0, -1, 0}, Scale: 0.01})
	p = []float64{100, 200, 300}
	ccs.Position(p)
	if !equal(p, []float64{1, 3, -2}) {
		t.Errorf("ccs position %v", p)
	}
	// A 90° turn about source z (up) is a turn about glTF +y.
	s := math.Sqrt(0.5)
	q = []float64{0, 0, s, s}
	ccs.Quaternion(q)
	if !equal(q, []float64{0, s, 0, s}) {
		t.Errorf("ccs quaternion %v", q)
	}
	sc := []float64{1, 2, 3}
	ccs.Scale(sc)
	if !equal(sc, []float64{1, 3, 2}) {
		t.Errorf("ccs scale %v", sc)
	}
	// Matrix rule: the converted matrix of a TRS equals the TRS of the
	// converted parts.
	m := TRS([3]float64{100, 200, 300}, [4]float64{0, 0, s, s}, [3]float64{1, 2, 3})
	ccs.Matrix(&m)
	want := TRS([3]float64{1, 3, -2}, [4]float64{0, s, 0, s}, [3]float64{1, 3, 2})
	if !equal(m[:], want[:]) {
		t.Errorf("matrix\n got %v\nwant %v", m, want)
	}
}

func TestWorldMatricesCompose(t *testing.T) {
	f := &model.File{Axes: model.GLTFAxes, Nodes: []model.Node{
		{Name: "p", Parent: -1, Translation: [3]float64{1, 0, 0}},
		{Name: "c", Parent: 0, Translation: [3]float64{0, 2, 0}},
	}}
	w := (*Clip)(nil).WorldMatrices(f, 0, NewConverter(model.GLTFAxes))
	if w[1][12] != 1 || w[1][13] != 2 {
		t.Fatalf("child world %v", w[1])
	}
}

func BenchmarkBakeChannel(b *testing.B) {
	n := 1000
	k := &model.Keyed{Interp: model.InterpSlerp, Width: 4}
	for i := range n {
		a := float64(i) * 0.01
		k.Frames = append(k.Frames, float64(i))
		k.Values = append(k.Values, 0, math.Sin(a), 0, math.Cos(a))
	}
	ev, _ := Compile(k)
	a := &model.Animation{End: float64(n - 1), Loop: model.LoopOnce}
	frames := SampleFrames(float64(n-1), 30, 120)
	values := make([]float64, len(frames)*4)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		sampleChannel(ev, a, frames, values, 4)
	}
	b.ReportMetric(float64(len(frames))*float64(b.N)/b.Elapsed().Seconds(), "samples/s")
}

// A corrupt frame count must not drive a huge allocation.
func TestBakeRefusesHugeSpans(t *testing.T) {
	f := rampFile(model.LoopOnce)
	f.Animations[0].End = 134e6
	if _, err := Bake(f, Options{}); err == nil {
		t.Fatal("a 134-million-frame bake was accepted")
	}
}

// A period a hair past a whole frame (2.40000004 s at 30 frames/s, from a
// float32 angle) ends on one seam sample, not two samples 1e-6 frames
// apart that share a float32 time.
func TestSampleFramesNoDoubledEnd(t *testing.T) {
	span := 2.40000004 * 30
	frames := SampleFrames(span, 30, 0)
	if len(frames) != 73 || frames[72] != span || frames[71] != 71 {
		t.Fatalf("%d frames, ending %v", len(frames), frames[len(frames)-3:])
	}
	for i := 1; i < len(frames); i++ {
		if !(float32(frames[i]/30) > float32(frames[i-1]/30)) {
			t.Fatalf("times %d and %d are not increasing in float32", i-1, i)
		}
	}
}
