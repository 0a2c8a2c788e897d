package godot

import (
	"strings"
	"testing"

	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// The names Godot 4's importer gives animations: from its _teststr/_fixstr
// rules (resource_importer_scene.cpp) and as Godot 4.6.3 showed them for a
// glTF holding these clip names (imported headless, names listed from the
// AnimationPlayer): trailing digits, spaces and '_' are set aside, then the
// first of "loop_mode", "loop", "cycle" found as a "-"/"_" suffix (any case)
// or after "$" is removed and the tail restored; later hints do not apply.
func TestImportedName4(t *testing.T) {
	for in, want := range map[string]string{
		"Move-loop":        "Move",
		"Wait_Ground-loop": "Wait_Ground",
		"Walk_LOOP":        "Walk",   // 4.6.3: M_LOOP → M
		"Idle_loop_2":      "Idle_2", // 4.6.3: C_loop_2 → C_2
		"Run$loop":         "Run",
		"Swim-cycle":       "Swim",
		"Fly_loop_mode":    "Fly",     // 4.6.3: E-loop_mode → E
		"D_Cycle_loop":     "D_Cycle", // 4.6.3: only the first hint
		"J_loop_cycle":     "J_loop",  // 4.6.3
		"H_Loop-loop":      "H_Loop",  // 4.6.3
		"I_Cycle-cycle":    "I_Cycle", // 4.6.3
		"loop":             "loop",
		"Lloop":            "Lloop", // 4.6.3: no separator, kept (and looped)
		"loopF":            "loopF", // 4.6.3
		"Loopy":            "Loopy",
		"Dead":             "Dead",
		"loop_once":        "loop_once",
		"Walk_loop_once":   "Walk_loop_once",
	} {
		if got := ImportedName4(in); got != want {
			t.Errorf("ImportedName4(%q) = %q, want %q", in, got, want)
		}
	}
}

// renamed runs Rename on clips (name, loop) and returns the names, the
// source names recorded and the warnings.
func renamed(t *testing.T, version int, clips ...[2]string) (names, sources []string, warns []string) {
	t.Helper()
	b := &sample.Baked{}
	for _, c := range clips {
		b.Animations = append(b.Animations, clip(c[0], c[1], 30, 2))
	}
	before := append([]sample.BakedAnimation(nil), b.Animations...)
	warns = Rename(b, version)
	for i, a := range b.Animations {
		if before[i].Name != clips[i][0] {
			t.Errorf("Rename changed the caller's clip %d in place", i)
		}
		names = append(names, a.Name)
		src, _ := a.Extras[sample.SourceNameKey].(string)
		sources = append(sources, src)
	}
	return names, sources, warns
}

func TestRenameGodot4(t *testing.T) {
	once, repeat, pingpong := model.LoopOnce, model.LoopRepeat, model.LoopPingPong
	x58 := strings.Repeat("x", 58)
	for _, tc := range []struct {
		why     string
		clips   [][2]string
		want    []string // output names
		sources []string // extras.sourceName ("" when not renamed)
		shown   []string // what Godot 4 shows
	}{
		{"Gerudo: the looping clip would take the talk clip's name; with -loop Godot shows its own",
			[][2]string{{"Face_Default_Joy_Talk", once}, {"Face_Default_Joy_Talk_Loop", repeat}},
			[]string{"Face_Default_Joy_Talk", "Face_Default_Joy_Talk_Loop-loop"},
			[]string{"", "Face_Default_Joy_Talk_Loop"},
			[]string{"Face_Default_Joy_Talk", "Face_Default_Joy_Talk_Loop"}},
		{"a name Godot keeps wins whatever the order",
			[][2]string{{"A_Loop", repeat}, {"A", once}},
			[]string{"A_Loop-loop", "A"}, []string{"A_Loop", ""}, []string{"A_Loop", "A"}},
		{"two renamed onto one name: the first keeps it",
			[][2]string{{"R-loop", repeat}, {"R_loop", pingpong}},
			[]string{"R-loop", "R_loop-loop"}, []string{"", "R_loop"}, []string{"R", "R_loop"}},
		{"a clip that plays once gets _once, which Godot keeps",
			[][2]string{{"S_2", once}, {"S_loop_2", once}},
			[]string{"S_2", "S_loop_2_once"}, []string{"", "S_loop_2"}, []string{"S_2", "S_loop_2_once"}},
		{"the protected name taken: numbered",
			[][2]string{{"B", once}, {"B_loop", repeat}, {"B_loop-loop", repeat}},
			[]string{"B", "B_loop_2-loop", "B_loop-loop"}, []string{"", "B_loop", ""}, []string{"B", "B_loop_2", "B_loop"}},
		{"63 bytes: cut to make room for the number and the tail",
			[][2]string{{x58, once}, {x58 + "_Loop", repeat}},
			[]string{x58, x58[:56] + "_2-loop"}, []string{"", x58 + "_Loop"}, []string{x58, x58[:56] + "_2"}},
		{"no collision: Godot's own renaming is left alone",
			[][2]string{{"Walk_loop", repeat}, {"Run", once}},
			[]string{"Walk_loop", "Run"}, []string{"", ""}, []string{"Walk", "Run"}},
	} {
		names, sources, warns := renamed(t, 4, tc.clips...)
		var shown []string
		changed := 0
		for i, n := range names {
			shown = append(shown, ImportedName4(n))
			if n != tc.clips[i][0] {
				changed++
			}
		}
		if strings.Join(names, ",") != strings.Join(tc.want, ",") || strings.Join(sources, ",") != strings.Join(tc.sources, ",") ||
			strings.Join(shown, ",") != strings.Join(tc.shown, ",") {
			t.Errorf("%s:\n names %q want %q\n sources %q want %q\n shown %q want %q", tc.why, names, tc.want, sources, tc.sources, shown, tc.shown)
		}
		if len(warns) != changed {
			t.Errorf("%s: %d warnings for %d renamed clips: %q", tc.why, len(warns), changed, warns)
		}
		b := &sample.Baked{}
		for i, n := range names {
			b.Animations = append(b.Animations, clip(n, tc.clips[i][1], 30, 2))
		}
		if _, _, err := Sidecar(b, 4); err != nil {
			t.Errorf("%s: sidecar after renaming: %v", tc.why, err)
		}
	}
}

// A clip already renamed by bake's output-name rules keeps its first
// source name, and its other extras; Godot 3 keeps names, so nothing is
// renamed for it.
func TestRenameKeepsSourceAndGodot3(t *testing.T) {
	b := &sample.Baked{Animations: []sample.BakedAnimation{clip("T", model.LoopOnce, 30, 2), clip("T_loop", model.LoopRepeat, 30, 2)}}
	extras := map[string]any{sample.SourceNameKey: "T loop", "frames": 2}
	b.Animations[1].Extras = extras
	if w := Rename(b, 4); len(w) != 1 || !strings.Contains(w[0], `"T_loop-loop"`) {
		t.Errorf("warnings %q", w)
	}
	if ex := b.Animations[1].Extras; ex[sample.SourceNameKey] != "T loop" || ex["frames"] != 2 {
		t.Errorf("extras %v", ex)
	}
	for _, v := range []int{0, 3} {
		names, _, warns := renamed(t, v, [2]string{"Face_Default_Joy_Talk", model.LoopOnce}, [2]string{"Face_Default_Joy_Talk_Loop", model.LoopRepeat})
		if names[1] != "Face_Default_Joy_Talk_Loop" || warns != nil {
			t.Errorf("godot %d renamed: %q %q", v, names, warns)
		}
	}
}
