package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/animbake/bake/import/bfres/bfreswrite"
	"github.com/animbake/bake/import/sarc/sarcwrite"
)

// An archive's members convert into a folder named after the archive,
// nested archives into folders named after them (extensions dropped), and
// a member named to climb out ("../x") stays inside; a rerun finds the
// archive up to date and a changed archive reconverts
// (docs/formats/sarc.md, Output layout).
func TestSARCOutputLayout(t *testing.T) {
	demo := bfreswrite.Demo()
	inner := sarcwrite.Write([]sarcwrite.File{{Name: "anim/Demo_Animation.bfres", Data: demo[1].Data}}, sarcwrite.Options{LittleEndian: true})
	members := []sarcwrite.File{
		{Name: "Demo.bfres", Data: demo[0].Data},
		{Name: "../Escape.bfres", Data: demo[1].Data},
		{Name: "pack/Inner.sarc", Data: inner},
		{Name: "notes.txt", Data: []byte("not a model")},
	}
	in := t.TempDir()
	arc := filepath.Join(in, "Arc.szs")
	if err := os.WriteFile(arc, sarcwrite.Compressed(members, sarcwrite.Options{}), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	code, c, _, stderr := bakeRun(t, "-o", out, in)
	if code != 0 || c.converted != 1 {
		t.Fatalf("exit %d, %+v\n%s", code, c, stderr)
	}
	var got []string
	for name := range tree(t, out) {
		if filepath.Ext(name) == ".glb" {
			got = append(got, filepath.ToSlash(name))
		}
	}
	slices.Sort(got)
	want := []string{"Arc/Demo.glb", "Arc/_/Escape.glb", "Arc/pack/Inner/anim/Demo_Animation.glb"}
	if !slices.Equal(got, want) {
		t.Errorf("outputs %q, want %q", got, want)
	}
	if code, c, _, stderr := bakeRun(t, "-o", out, in); code != 0 || c.upToDate != 1 || c.converted != 0 {
		t.Errorf("rerun: exit %d, %+v\n%s", code, c, stderr)
	}
	members[3].Data = []byte("changed notes")
	os.WriteFile(arc, sarcwrite.Compressed(members, sarcwrite.Options{}), 0o644)
	if code, c, _, stderr := bakeRun(t, "-o", out, in); code != 0 || c.converted != 1 {
		t.Errorf("changed archive: exit %d, %+v\n%s", code, c, stderr)
	}
}
