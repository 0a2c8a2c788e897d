package godot

import (
	"fmt"
	"maps"
	"strconv"
	"strings"

	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// Clip names in Godot. Godot 3.2.3 keeps a glTF animation's name as written
// (bake's names are already in the characters it keeps), so two clips never
// meet under one name there. Godot 4's scene importer renames a clip whose
// name ends in a loop hint (ImportedName4), and a rename onto a name already
// taken fails (the clip keeps its name, and the sidecar's settings for the
// name meant for it go to the other clip), so bake used to refuse such a
// file. Rename now picks distinct names instead (docs/names.md, rule 6).

// loopHints are the words Godot 4's importer tests a clip's name for, in its
// order (resource_importer_scene.cpp, _pre_fix_node: "loop_mode", "loop",
// "cycle").
var loopHints = []string{"loop_mode", "loop", "cycle"}

// ImportedName4 is the name Godot 4's scene importer gives a glTF animation
// (and under which it looks up the animation's _subresources settings): the
// first of the hints "loop_mode", "loop", "cycle" that the name ends with,
// after a "-" or "_" and in any case (trailing digits, spaces and '_' set
// aside first and put back after), or that it holds after a "$", is removed.
// Only the first takes: Godot renames the clip by its original name at each
// hint, so the later renames find no clip ("Animation not found"). Measured
// on Godot 4.6.3: D_Cycle_loop → D_Cycle, C_loop_2 → C_2, M_LOOP → M,
// E-loop_mode → E, Lloop and loopF unchanged. The rename succeeds only when
// no other clip has that name (see Rename).
func ImportedName4(name string) string {
	for _, s := range loopHints {
		if fixed, ok := fixSuffix(name, s); ok {
			return fixed
		}
	}
	return name
}

// fixSuffix removes the import hint s from name the way Godot 4 does
// (_teststr and _fixstr): the tail of digits, characters up to space and
// '_' is set aside; then "$"+s anywhere (found in any case, removed where it
// matches exactly), or a final "-"+s or "_"+s (any case), is removed and the
// tail put back. ok reports whether name holds the hint.
func fixSuffix(name, s string) (string, bool) {
	what := strings.TrimRightFunc(name, func(c rune) bool {
		return c >= '0' && c <= '9' || c <= ' ' || c == '_'
	})
	end := name[len(what):]
	lower := strings.ToLower(what)
	switch {
	case strings.Contains(lower, "$"+s):
		return strings.ReplaceAll(what, "$"+s, "") + end, true
	case strings.HasSuffix(lower, "-"+s), strings.HasSuffix(lower, "_"+s):
		return what[:len(what)-len(s)-1] + end, true
	}
	return name, false
}

// Protective tails for a clip whose Godot 4 name is taken: Godot 4 strips
// "-loop" from a name that does not end in "-loop_mode" whatever comes
// before it, so a repeating clip written as NAME-loop shows as NAME; a clip
// that plays once gets "_once" (as in names.md rule 4), which Godot leaves
// alone. The sidecar sets both clips' loop modes explicitly.
const (
	repeatTail = sample.LoopSuffix
	onceTail   = "_once"
)

// Rename gives b's clips names under which Godot (version 3 or 4) imports
// every clip under a name of its own, and returns a warning per renamed
// clip. Godot 3 keeps names, so only Godot 4 renames: the clips Godot keeps
// unchanged keep their names first; then, in clip order, a clip that Godot
// would rename onto a name already taken (another clip's name, or the name
// Godot gives an earlier clip) gets "-loop" behind when it repeats (Godot
// then shows the name bake had given it) or "_once" when it plays once; if
// that is taken too, "_2", "_3", ... before the tail, the name cut to
// sample.MaxNameBytes. A renamed clip keeps its source name in
// extras.sourceName. b.Animations is replaced, not changed in place.
func Rename(b *sample.Baked, version int) []string {
	if version != 4 {
		return nil
	}
	anims := b.Animations
	names := make(map[string]bool, len(anims)) // output names
	shown := make(map[string]bool, len(anims)) // Godot 4 names given out
	for _, a := range anims {
		names[a.Name] = true
		if ImportedName4(a.Name) == a.Name {
			shown[a.Name] = true
		}
	}
	var warnings []string
	var out []sample.BakedAnimation
	for i, a := range anims {
		g := ImportedName4(a.Name)
		if g == a.Name {
			continue
		}
		delete(names, a.Name)
		if !shown[g] && !names[g] {
			names[a.Name] = true
			shown[g] = true
			continue
		}
		name := protectedName(a.Name, a.Loop, func(c string) bool {
			return !names[c] && !shown[ImportedName4(c)] && !names[ImportedName4(c)]
		})
		names[name] = true
		shown[ImportedName4(name)] = true
		warnings = append(warnings, fmt.Sprintf(
			"godot 4 would import clip %q as %q, a name another clip has: it is written as %q, which Godot 4 shows as %q",
			a.Name, g, name, ImportedName4(name)))
		if out == nil {
			out = append([]sample.BakedAnimation(nil), anims...)
		}
		if _, ok := a.Extras[sample.SourceNameKey]; !ok {
			a.Extras = maps.Clone(a.Extras)
			if a.Extras == nil {
				a.Extras = map[string]any{}
			}
			a.Extras[sample.SourceNameKey] = a.Name
		}
		a.Name = name
		out[i] = a
	}
	if out != nil {
		b.Animations = out
	}
	return warnings
}

// protectedName is the first of name+tail, name_2+tail, name_3+tail, ...
// (each at most sample.MaxNameBytes, the name cut to make room) that free
// accepts; tail is "-loop" for a clip that repeats, "_once" otherwise.
func protectedName(name, loop string, free func(string) bool) string {
	tail := onceTail
	if loop == model.LoopRepeat || loop == model.LoopPingPong {
		tail = repeatTail
	}
	for k := 1; ; k++ {
		number := ""
		if k > 1 {
			number = "_" + strconv.Itoa(k)
		}
		stem := name
		if room := sample.MaxNameBytes - len(number) - len(tail); len(stem) > room {
			stem = stem[:room] // output names are ASCII
		}
		if c := stem + number + tail; free(c) {
			return c
		}
	}
}
