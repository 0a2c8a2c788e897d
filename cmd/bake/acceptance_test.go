package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// bake list on the real samples shows what the issues' acceptance names:
// the BFRES clips with their frame counts, the CCS file's 22 animations,
// the Virtools curve and clips with their graph timing.
func TestListRealSamples(t *testing.T) {
	root := filepath.Join("..", "..", "..", "shared", "samples")
	if _, err := os.Stat(root); err != nil {
		t.Skip("../shared/samples is absent")
	}
	code, out, stderr := runCLI("list", "--json", root)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var l struct {
		Files []listFile `json:"files"`
	}
	if err := json.Unmarshal([]byte(out), &l); err != nil {
		t.Fatal(err)
	}
	byFile := map[string]listFile{}
	for _, f := range l.Files {
		rel, _ := filepath.Rel(root, f.File)
		byFile[filepath.ToSlash(rel)] = f
	}
	anims := func(file string) map[string]listAnimation {
		f, ok := byFile[file]
		if !ok {
			t.Fatalf("%s not listed", file)
		}
		m := map[string]listAnimation{}
		for _, a := range f.Animations {
			m[a.Name] = a
		}
		return m
	}
	// samples/SOURCES.md: Animal_Bass's seven clips and frame counts.
	for _, file := range []string{"bfres/Animal_Bass_Animation.bfres", "bfres/Animal_Bass_Animation.sbfres"} {
		bass := anims(file)
		for name, frames := range map[string]float64{"Dead": 30, "Jump": 45, "Move": 24, "Peck": 40, "Put_Down": 20, "Wait": 24, "Wait_Ground": 42} {
			if a, ok := bass[name]; !ok || a.SourceFrames != frames {
				t.Errorf("%s %s: %+v, want %v frames", file, name, a, frames)
			}
		}
		if len(bass) != 7 {
			t.Errorf("%s: %d animations, want 7", file, len(bass))
		}
	}
	if n := len(anims("bfres/Animal_Bear_Animation.bfres")); n != 96 {
		t.Errorf("bear: %d animations, want 96", n)
	}
	if n := len(anims("bfres/Npc_Gerudo_Queen_Animation.bfres")); n != 111 {
		t.Errorf("gerudo: %d animations, want 111", n)
	}
	if n := len(anims("ccsf/S01.CCS")); n != 22 {
		t.Errorf("S01.CCS: %d animations, want 22", n)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-3 }
	for _, file := range []string{"virtools/Ballance.Three.js/menulevel.nmo", "virtools/BallanceModding/MenuLevel.nmo"} {
		m := anims(file)
		if a := m["Record Anim"]; a.Loop != "repeat" || !near(a.Duration, 59.246) {
			t.Errorf("%s Record Anim: %+v, want 59.246 s repeating", file, a)
		}
		if a := m["Cam_MenuLevel on I_MenuLevel_Curve"]; a.Loop != "repeat" || !near(a.Duration, 44) {
			t.Errorf("%s camera on curve: %+v, want 44 s repeating", file, a)
		}
		if _, ok := m["Kamera02"]; !ok {
			t.Errorf("%s: no Kamera02", file)
		}
		f := byFile[file]
		if len(f.Curves) != 1 || f.Curves[0].Name != "I_MenuLevel_Curve" || math.Abs(f.Curves[0].Length-595.27) > 0.005 {
			t.Errorf("%s curves: %+v", file, f.Curves)
		}
	}
	for _, file := range []string{"virtools/Ballance.Three.js/pe_balloon.nmo", "virtools/BallanceModding/PE_Balloon.nmo"} {
		m := anims(file)
		for _, arm := range []string{"A_01", "B_01", "A_02", "B_02", "A_03", "B_03", "A_04", "B_04"} {
			if _, ok := m["PE_UFO_Arm_"+arm]; !ok {
				t.Errorf("%s: no PE_UFO_Arm_%s", file, arm)
			}
		}
	}
	ufo := anims("virtools/Ballance.Three.js/pe_balloon.nmo")
	if a := ufo["UFO_Animation"]; a.Loop != "once" || !near(a.Duration, 1) {
		t.Errorf("UFO_Animation: %+v, want 1 s once", a)
	}
	if a := ufo["PE_UFO_Body spin"]; a.Loop != "repeat" || !near(a.Duration, 2.4) {
		t.Errorf("UFO body spin: %+v, want 2.4 s repeating", a)
	}
}
