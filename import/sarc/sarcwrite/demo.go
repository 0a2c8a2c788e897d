package sarcwrite

import (
	"github.com/animbake/bake/import/bfres/bfreswrite"
	"github.com/animbake/bake/internal/demofiles"
)

// Demo returns the SARC demo input written to testdata/demo/sarc:
// Demo.szs, a Yaz0 big-endian archive (as the Wii U's) holding the BFRES
// demo model and its animation file, which find each other as siblings,
// and a BYML file that no importer reads (skipped).
func Demo() []demofiles.File {
	var members []File
	for _, f := range bfreswrite.Demo() {
		if f.Name == "Demo.bfres" || f.Name == "Demo_Animation.bfres" {
			members = append(members, File{Name: f.Name, Data: f.Data, Align: 0x100})
		}
	}
	members = append(members, File{Name: "InitModel.byml", Data: []byte("BY\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00")})
	return []demofiles.File{{Name: "Demo.szs", Data: Compressed(members, Options{Align: 0x80})}}
}
