package ccs

import (
	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/ccs/ccswrite"
	"github.com/animbake/bake/internal/modeltest"
	"github.com/animbake/bake/model"
	"math"
	"testing"
)

// S01.CCS (SOURCES.md §3): version 0x123, 22 Anime chunks, the setup chunk
// written as the bare words 3, 0, 113 textures whose size counts 50 extra
// words (ccs-container.md §2.5).
func TestS01Scene(t *testing.T) {
	data := readSample(t, "ccsf/S01.CCS")
	var warnings []string
	s, err := ReadScene(data, func(f string, a ...any) { warnings = append(warnings, f) })
	if err != nil {
		t.Fatal(err)
	}
	if s.Header.Name != "s01" || s.Header.Version != 0x123 {
		t.Errorf("header: name %q version 0x%x, want s01 0x123", s.Header.Name, s.Header.Version)
	}
	if len(s.Index.Files) != 0x98 || len(s.Index.Objects) != 0x44F {
		t.Errorf("index: %d files, %d objects; want 152 and 1103", len(s.Index.Files), len(s.Index.Objects))
	}
	if len(s.Animes) != 22 {
		t.Fatalf("%d Anime chunks, want 22", len(s.Animes))
	}
	if s.Resyncs != 0 {
		t.Errorf("walk needed %d resyncs", s.Resyncs)
	}
	if s.Chunks[CodeStream] != 1 {
		t.Errorf("walk did not reach the Stream chunk: %v", s.Chunks)
	}
	for _, w := range warnings {
		t.Log("warning:", w)
	}
	for _, a := range s.Animes {
		t.Logf("%s N=%d end=%d objctrl=%d light=%d skipped=%v", a.Name, a.FrameCount, a.End, len(a.ObjCtrls), len(a.LightCtrls), a.Skipped)
	}
}

// S01.CCS converts: 22 animations named from the index with their frame
// counts and loop modes (a loop is N-1 frames long), every controller's
// object redirected through its External chunk to the model file's object
// (ccs-container.md §3), and the model validates.
func TestS01Convert(t *testing.T) {
	data := readSample(t, "ccsf/S01.CCS")
	in := format.BytesInput("S01.CCS", data)
	files, err := Decode(in, &format.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 {
		t.Fatalf("%d files, want 1", len(files))
	}
	f := files[0]
	if err := f.Validate(); err != nil {
		t.Fatal(err)
	}
	if f.Name != "" {
		t.Errorf("a plain file has File.Name %q, want empty", f.Name)
	}
	want := []struct {
		name string
		n    float64
		loop string
	}{
		{"ANM_s01efe00_a0", 31, model.LoopRepeat}, {"ANM_s01efe00_a1", 5, model.LoopRepeat},
		{"ANM_s01gim000_a0", 2, model.LoopOnce}, {"ANM_s01gim000_a1", 11, model.LoopOnce},
		{"ANM_s01gim000_a2", 2, model.LoopOnce}, {"ANM_s01gim010_a0", 2, model.LoopOnce},
		{"ANM_s01gim010_a1", 26, model.LoopOnce}, {"ANM_s01gim010_a2", 2, model.LoopOnce},
		{"ANM_s01gim020_a0", 2, model.LoopOnce}, {"ANM_s01gim020_a1", 11, model.LoopOnce},
		{"ANM_s01gim030_a0", 31, model.LoopRepeat}, {"ANM_s01gim030_a1", 2, model.LoopOnce},
		{"ANM_s01gim040", 51, model.LoopRepeat}, {"ANM_s01gim050_a0", 2, model.LoopOnce},
		{"ANM_s01gim050_a1", 11, model.LoopOnce}, {"ANM_s01gim050_a2", 2, model.LoopOnce},
		{"ANM_s01gim060_a0", 2, model.LoopOnce}, {"ANM_s01gim060_a1", 11, model.LoopOnce},
		{"ANM_s01gim060_a2", 2, model.LoopOnce}, {"ANM_s01gim070_a0", 2, model.LoopOnce},
		{"ANM_s01gim070_a1", 2, model.LoopOnce}, {"ANM_stalig00", 2, model.LoopOnce},
	}
	if len(f.Animations) != len(want) {
		t.Fatalf("%d animations, want %d", len(f.Animations), len(want))
	}
	for i, w := range want {
		a := f.Animations[i]
		if a.Name != w.name || a.Frames != w.n || a.Loop != w.loop || a.End != w.n-1 || a.FPS != 30 {
			t.Errorf("animation %d: %s frames %v end %v loop %s fps %v; want %s %v %v %s 30",
				i, a.Name, a.Frames, a.End, a.Loop, a.FPS, w.name, w.n, w.n-1, w.loop)
		}
		if w.loop == model.LoopRepeat && a.Period != w.n-1 {
			t.Errorf("%s: period %v, want N-1 = %v", a.Name, a.Period, w.n-1)
		}
	}
	// ANM_s01efe00_a0 drives objects 1, 3, 5 of its own scene, Externals of
	// objects 2, 4, 6 of s01efe00.max; 4 and 6 are children of 2.
	byName := map[string]model.Node{}
	for _, n := range f.Nodes {
		byName[n.Name] = n
	}
	child, ok := byName["OBJ_efe_030_1"]
	if !ok || child.Extras["ccsObject"] != int64(4) || child.Parent < 0 || f.Nodes[child.Parent].Name != "OBJ_efe_030_" {
		t.Errorf("OBJ_efe_030_1: %+v, want object 4 under OBJ_efe_030_", child)
	}
	if l, ok := byName["LGT_dis_0"]; !ok || l.Kind != "light" {
		t.Errorf("LGT_dis_0: %+v, want a light node", l)
	}
	// The distant light controller (flags 0x48): a constant rotation and a
	// constant colour F7 F0 DF 00, which the light's colour channel plays
	// as RGB bytes /255 (the alpha byte dropped).
	light := f.Animations[21]
	var color *model.CcAnmTrack
	for _, c := range light.Channels {
		if c.Path == PathColor {
			color = c.Curve.(*model.CcAnmTrack)
		}
	}
	if color == nil || color.Kind != model.CcAnmConstant || color.Width != 3 || color.Values[0] != float32(0xF7/255.0) ||
		color.Values[1] != float32(0xF0/255.0) || color.Values[2] != float32(0xDF/255.0) {
		t.Errorf("ANM_stalig00 colour: %+v", color)
	}
}

// S01.CCS played through package sample. ANM_s01gim020_a1 (N = 11) keys
// OBJ_s01gim_0000_'s z at 0@0, 0@1, 10@2, 0@4, 5@5, 0@7, 3@8, 0@10 (read
// with a hex dump): frame 2.5 is 10 − 10·(128/512) = 7.5, frame 3 is
// 10 − 10·(256/512) = 5, frame 9 is 3 − 3·(256/512) = 1.5, all exact in
// single precision. ANM_s01gim010_a1 keys OBJ_gim_010_'s rotation (−0, 0,
// −0)@0 and (−0, 10.000001, −0)@2: quantised to int(10.000001·182.044) =
// 1820, θ = 1820·2π/65536, so frame 2 is Ry(θ) = (0, sin(θ/2), 0,
// cos(θ/2)), 9.9976° rather than 10°.
func TestS01Playback(t *testing.T) {
	data := readSample(t, "ccsf/S01.CCS")
	f := mustDecode(t, data)
	a := modeltest.Animation(t, f, "ANM_s01gim020_a1")
	for _, c := range []struct{ frame, z float64 }{{1, 0}, {2, 10}, {2.5, 7.5}, {3, 5}, {9, 1.5}, {10, 0}} {
		if z := modeltest.Eval(t, a, "OBJ_s01gim_0000_", model.PathTranslation, c.frame)[2]; z != c.z {
			t.Errorf("ANM_s01gim020_a1 frame %v: z = %v, want %v", c.frame, z, c.z)
		}
	}
	a = modeltest.Animation(t, f, "ANM_s01gim010_a1")
	th := 1820 * 2 * math.Pi / 65536
	want := [4]float64{0, math.Sin(th / 2), 0, math.Cos(th / 2)}
	if q := modeltest.Eval(t, a, "OBJ_gim_010_", model.PathRotation, 2); !quatClose(q, want, 5e-6) {
		t.Errorf("ANM_s01gim010_a1 frame 2: %v, want %v", q, want)
	}
}

// Gzipped S01.CCS: its first deflate block has literal codes for every
// CCSF header byte (read over the whole stream; its 64-byte head is too
// short to decide, so the sniffer falls back on FNAME), and it converts to
// the same 22 animations.
func TestS01Gzip(t *testing.T) {
	data := readSample(t, "ccsf/S01.CCS")
	gz := ccswrite.Gzip(data, "s01.cmp")
	body, _, _ := gzipBody(gz)
	if maybe, decided := headerLiteralsPresent(body); !maybe || !decided {
		t.Errorf("literal lengths: maybe %v decided %v", maybe, decided)
	}
	if !Sniff(gz[:64]) {
		t.Error("sniffer rejects gzipped S01")
	}
	got := mustDecode(t, gz)
	want := mustDecode(t, data)
	sameContent(t, got, want)
}
