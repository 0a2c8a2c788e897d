package bfres

import (
	"strings"
	"testing"

	"github.com/animbake/bake/import/bfres/bfreswrite"
)

// A texture whose mip-data offset (FTEX 0xB4) points outside the file
// still gives its level 0, the only level converted, with a notice naming
// the texture; so does one in the texture archive. Breath of the Wild's
// X.Tex1 files point it past their end, at the mipmaps kept in X.Tex2
// (Npc_Rito_Musician.Tex1.sbfres: +763736 from 0xca8 is 0xbb400, the
// file's size).
func TestUnusableMipPointer(t *testing.T) {
	good := (&bfreswrite.File{Version: bfreswrite.V4, Name: "M", Textures: []bfreswrite.Texture{rgbaTexture("tex")}}).Bytes()
	for _, c := range []struct {
		v    uint32
		word string
	}{
		{0x7FFFFFF0, "outside the file"},
		{0xFFFF0000, "before the start"},
	} {
		data := ftexField(t, good, 0xB4, c.v)
		// In the model file itself.
		texs, notes, err := texInputs(t, map[string][]byte{"M.bfres": data}, "M.bfres", nil, "")
		if err != nil || len(texs) != 1 || len(notes) != 1 {
			t.Fatalf("mip offset 0x%x: %d textures, %q, %v; want the texture and one notice", c.v, len(texs), notes, err)
		}
		if !strings.Contains(notes[0], "texture tex (this file): its mipmaps are not read") || !strings.Contains(notes[0], c.word) {
			t.Errorf("mip offset 0x%x: notice %q", c.v, notes[0])
		}
		if got := pixelAt(texs[0], 3, 1); got != [4]byte{3, 1, 7, 255} {
			t.Errorf("mip offset 0x%x: level 0 (3,1) = %v, want (3, 1, 7, 255)", c.v, got)
		}
		// In the texture archive beside a model that names it.
		model := (&bfreswrite.File{Version: bfreswrite.V4, Name: "N"}).Bytes()
		texs, notes, err = texInputs(t, map[string][]byte{"N.sbfres": bfreswrite.Yaz0(model), "N.Tex1.sbfres": bfreswrite.Yaz0(data)}, "N.sbfres", []string{"tex"}, "")
		if err != nil || len(texs) != 1 || len(notes) != 1 || !strings.Contains(notes[0], "texture tex (N.Tex1.sbfres): its mipmaps are not read") {
			t.Errorf("mip offset 0x%x in the archive: %d textures, %q, %v", c.v, len(texs), notes, err)
		}
	}
}
