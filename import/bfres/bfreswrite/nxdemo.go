package bfreswrite

import (
	"github.com/animbake/bake/import/bntx/bntxwrite"
)

// DemoSwitch describes Demo_Switch.bfres, the Switch layout of the demo:
// DemoModel's skeleton, meshes and materials with DemoAnimation's
// skeletal clips, texture SRT (as the FMAA Scroll_fst) and bone
// visibility (Blink, as an FBVS) in one file, as Switch games keep them,
// and the textures embedded as textures.bntx: bntxwrite's demo_rgba
// (pixel (x, y) = (16x, 16y, 128, 255 − 8x)) under both of the materials'
// texture names. The material visibility clip Hide has no Switch form in
// the writer and is left out. Tests and the hostile-input seeds use it.
func DemoSwitch() *File {
	f := DemoModel()
	a := DemoAnimation()
	f.Switch, f.Version, f.Name = true, VSwitch, "Demo_Switch"
	f.FSKA = a.FSKA
	f.FSHU = a.FSHU
	f.FSHU[0].Name += "_fst"
	for _, v := range a.FVIS {
		if !v.Material {
			f.FVIS = append(f.FVIS, v)
		}
	}
	f.Textures = nil
	var rgba bntxwrite.Texture
	for _, t := range bntxwrite.DemoFile().Textures {
		if t.Name == "demo_rgba" {
			rgba = t
		}
	}
	albedo, mask := rgba, rgba
	albedo.Name, mask.Name = DemoAlbedo, DemoMask
	data, err := (&bntxwrite.File{Name: "textures", Textures: []bntxwrite.Texture{albedo, mask}}).Bytes()
	if err != nil {
		panic("bfreswrite: DemoSwitch: " + err.Error())
	}
	f.Embedded = []Embedded{{Name: "textures.bntx", Data: data}}
	return f
}
