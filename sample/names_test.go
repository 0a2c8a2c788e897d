package sample

import (
	"slices"
	"strings"
	"testing"

	"github.com/animbake/bake/model"
)

func TestNodeNamesSafeAndUnique(t *testing.T) {
	nodes := []model.Node{
		{Name: "door.left:1"}, // three.js and Godot delete '.' and ':'
		{Name: "Bip01 Spine"}, // space: three.js makes it '_', Godot 3 bones too
		{Name: "a/b,c[0]"},    // a run of several becomes one '_'
		{Name: "door_left_1"}, // already safe: keeps its name, so the first becomes door_left_1_2
		{Name: "Skl_Root"},    // unchanged
		{Name: "ナ"},           // non-ASCII: Godot 3.2 deletes it
		{Name: strings.Repeat("x", 70)},
	}
	got := NodeNames(nodes)
	want := []string{"door_left_1_2", "Bip01_Spine", "a_b_c_0_", "door_left_1", "Skl_Root", "_", strings.Repeat("x", 63)}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

func TestClipNamesLoopWords(t *testing.T) {
	anims := []model.Animation{
		{Name: "Wait", Loop: model.LoopRepeat},
		{Name: "Dead", Loop: model.LoopOnce},
		{Name: "Loop_Start", Loop: model.LoopOnce}, // Godot 4 prefix match (any case)
		{Name: "Swim_cycle", Loop: model.LoopOnce}, // Godot 3 and 4 suffix match
		{Name: "loop", Loop: model.LoopOnce},       // both ends
		{Name: "Run_Loop", Loop: model.LoopRepeat}, // repeating: kept, -loop added
		{Name: "Swing", Loop: model.LoopPingPong},  // a ping-pong bake is one whole cycle
		{Name: "Walk.Cycle", Loop: model.LoopOnce}, // '.' first, then the suffix rule
		{Name: "Cyclek", Loop: model.LoopOnce},     // starts with "cycle" in any case
	}
	got := ClipNames(anims, true)
	want := []string{"Wait-loop", "Dead", "once_Loop_Start", "Swim_cycle_once", "once_loop_once",
		"Run_Loop-loop", "Swing-loop", "Walk_Cycle_once", "once_Cyclek"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	// Without --loop-suffix repeating clips keep their names; once clips are still protected.
	got = ClipNames(anims, false)
	if got[0] != "Wait" || got[5] != "Run_Loop" || got[2] != "once_Loop_Start" {
		t.Fatalf("without suffix: %q", got)
	}
	for _, n := range ClipNames(anims, true) {
		godot3 := strings.HasPrefix(n, "loop") || strings.HasSuffix(n, "loop") || strings.HasPrefix(n, "cycle") || strings.HasSuffix(n, "cycle")
		l := strings.ToLower(n)
		godot4 := strings.HasPrefix(l, "loop") || strings.HasSuffix(l, "loop") || strings.HasPrefix(l, "cycle") || strings.HasSuffix(l, "cycle")
		loops := strings.HasSuffix(n, LoopSuffix)
		if godot3 != loops || godot4 != loops {
			t.Errorf("%q: Godot 3 loops %v, Godot 4 loops %v, want %v", n, godot3, godot4, loops)
		}
	}
}

func TestClipNamesUniqueStems(t *testing.T) {
	// "A.b" and "A_b" share the safe stem; the changed one gets _2 before -loop.
	anims := []model.Animation{{Name: "A.b", Loop: model.LoopRepeat}, {Name: "A_b", Loop: model.LoopOnce}}
	got := ClipNames(anims, true)
	if !slices.Equal(got, []string{"A_b_2-loop", "A_b"}) {
		t.Fatalf("got %q", got)
	}
}

func TestBakeRenamesReferences(t *testing.T) {
	f := &model.File{
		Axes: model.GLTFAxes,
		Nodes: []model.Node{
			{Name: "root", Parent: -1},
			{Name: "arm:L", Parent: 0, Kind: "bone", Extras: map[string]any{"flag": 1}},
		},
		Animations: []model.Animation{{
			Name: "loop.idle", FPS: 30, Frames: 2, End: 1, Loop: model.LoopOnce,
			Channels: []model.Channel{{Node: "arm:L", Path: model.PathScale,
				Curve: &model.Constant{Value: []float64{1, 1, 1}}}},
			Events: []model.Event{{Frame: 1, Name: "hit", Node: "arm:L"}},
		}},
		Assets: model.Assets{Skins: []model.Skin{{Name: "s", Joints: []string{"root", "arm:L"},
			InverseBind: [][16]float64{ident16(), ident16()}, Skeleton: "root"}}},
	}
	b, err := Bake(f, Options{LoopSuffix: true})
	if err != nil {
		t.Fatal(err)
	}
	n := b.Nodes[1]
	if n.Name != "arm_L" || n.Extras[SourceNameKey] != "arm:L" || n.Extras["flag"] != 1 {
		t.Fatalf("node %q extras %v", n.Name, n.Extras)
	}
	if _, touched := f.Nodes[1].Extras[SourceNameKey]; touched {
		t.Fatal("the model's extras were modified")
	}
	if _, renamed := b.Nodes[0].Extras[SourceNameKey]; renamed {
		t.Fatal("an unchanged name gained a sourceName")
	}
	a := b.Animations[0]
	if a.Name != "once_loop_idle" || a.Extras[SourceNameKey] != "loop.idle" {
		t.Fatalf("clip %q extras %v", a.Name, a.Extras)
	}
	if a.Channels[0].Node != "arm_L" || a.Events[0].Node != "arm_L" {
		t.Fatalf("references not renamed: %q %q", a.Channels[0].Node, a.Events[0].Node)
	}
	if s := b.Assets.Skins[0]; s.Joints[1] != "arm_L" || s.Skeleton != "root" || f.Assets.Skins[0].Joints[1] != "arm:L" {
		t.Fatalf("skin joints %q (model %q)", s.Joints, f.Assets.Skins[0].Joints)
	}
}

func ident16() [16]float64 {
	return [16]float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}
}

// Asset names follow the node rules per kind, and every reference follows:
// "MAT_/#1" → "MAT__1" (the '_' stays, the run "/#" becomes one more), which
// a later "MAT__1" (unchanged, kept first) pushes to "MAT__1_2"; the node,
// primitive and channel then name the new names.
func TestAssetNames(t *testing.T) {
	f := &model.File{
		Axes:  model.GLTFAxes,
		Nodes: []model.Node{{Name: "n", Parent: -1, Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}, Mesh: "body.mesh"}},
		Assets: model.Assets{
			Meshes:    []model.Mesh{{Name: "body.mesh", Primitives: []model.Primitive{{Positions: []float32{0, 0, 0}, Mode: model.ModePoints, Material: "MAT_/#1"}}}},
			Materials: []model.Material{{Name: "MAT_/#1", BaseColorTexture: model.TextureRef{Texture: "tex:a"}}, {Name: "MAT__1"}},
			Textures:  []model.Texture{{Name: "tex:a", Image: model.Image{URI: "a.bmp"}}},
		},
		Animations: []model.Animation{{Name: "fade", FPS: 30, Frames: 2, End: 1, Loop: model.LoopOnce,
			Channels: []model.Channel{{Material: "MAT_/#1", Path: model.PathAlpha, Curve: &model.Constant{Value: []float64{0.5}}}}}},
	}
	b, err := Bake(f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := b.Assets
	if a.Materials[0].Name != "MAT__1_2" || a.Materials[1].Name != "MAT__1" || a.Materials[0].Extras[SourceNameKey] != "MAT_/#1" {
		t.Errorf("materials %q %q %v", a.Materials[0].Name, a.Materials[1].Name, a.Materials[0].Extras)
	}
	if a.Meshes[0].Name != "body_mesh" || b.Nodes[0].Mesh != "body_mesh" || a.Meshes[0].Primitives[0].Material != "MAT__1_2" {
		t.Errorf("mesh %q, node's %q, primitive's material %q", a.Meshes[0].Name, b.Nodes[0].Mesh, a.Meshes[0].Primitives[0].Material)
	}
	if a.Textures[0].Name != "tex_a" || a.Materials[0].BaseColorTexture.Texture != "tex_a" {
		t.Errorf("texture %q, bound as %q", a.Textures[0].Name, a.Materials[0].BaseColorTexture.Texture)
	}
	if c := b.Animations[0].Channels[0]; c.Material != "MAT__1_2" {
		t.Errorf("channel material %q", c.Material)
	}
	if f.Materials[0].Name != "MAT_/#1" || f.Meshes[0].Primitives[0].Material != "MAT_/#1" {
		t.Error("the source file was changed")
	}
}
