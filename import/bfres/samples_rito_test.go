package bfres

import (
	"strings"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/model"
)

// Npc_Rito_Musician.sbfres (Breath of the Wild, SOURCES.md §4) with its
// texture archive Npc_Rito_Musician.Tex1.sbfres beside it: the archive's
// Eyeball_Spm points its mip data past the end of the file (the mipmaps
// live in Tex2), which costs only a notice; all 15 textures decode and the
// materials take theirs.
func TestSampleRitoTextures(t *testing.T) {
	var notices []string
	f := decodeSample(t, "Npc_Rito_Musician.sbfres", &format.Options{Warn: func(s string) { notices = append(notices, s) }})
	mips := 0
	for _, n := range notices {
		if strings.Contains(n, "mipmaps are not read") {
			mips++
			if !strings.Contains(n, "texture Npc_Rito_Musician_Eyeball_Spm (Npc_Rito_Musician.Tex1.sbfres)") {
				t.Errorf("mip notice does not name its texture: %s", n)
			}
		}
		if strings.Contains(n, "not found") {
			t.Errorf("notice: %s", n)
		}
	}
	if mips != 1 {
		t.Errorf("%d mip notices, want 1 (Eyeball_Spm): %q", mips, notices)
	}
	// The formats as the FTEX headers give them (GX2 format at +0x18).
	formats := map[string]int{}
	byName := map[string]*model.Texture{}
	for i := range f.Textures {
		tx := &f.Textures[i]
		byName[strings.TrimPrefix(tx.Name, "Npc_Rito_Musician_")] = tx
		formats[tx.Extras["gx2"].(map[string]any)["format"].(string)]++
	}
	want := map[string]int{"T_BC1_SRGB": 6, "T_BC1_UNORM": 1, "T_BC4_UNORM": 3, "T_BC5_UNORM": 5}
	if len(f.Textures) != 15 || len(formats) != len(want) {
		t.Fatalf("%d textures, formats %v; want 15, %v", len(f.Textures), formats, want)
	}
	for k, n := range want {
		if formats[k] != n {
			t.Errorf("%s: %d textures, want %d", k, formats[k], n)
		}
	}
	// Every material has its albedo and normal map; the body's AO map
	// (material sampler _ao0, assigned to uking_mat's _e0) is occlusion,
	// and nothing is emissive: uking_mat's _e0 also takes the eyes'
	// shadow map (_sd0), which stays in extras (fmatbuild.go, samplerSlot).
	for _, m := range f.Materials {
		if m.BaseColorTexture.Texture == "" || m.Normal.Texture == "" {
			t.Errorf("material %s: base colour %q, normal %q", m.Name, m.BaseColorTexture.Texture, m.Normal.Texture)
		}
		if m.EmissiveTexture.Texture != "" {
			t.Errorf("material %s: emissive %q", m.Name, m.EmissiveTexture.Texture)
		}
		if want := map[bool]string{true: "Npc_Rito_Musician_Body_AO"}[m.Name == "Mt_Body"]; m.Occlusion.Texture != want {
			t.Errorf("material %s: occlusion %q, want %q", m.Name, m.Occlusion.Texture, want)
		}
	}
	// Texels worked by hand from block bytes. Each block's place in the
	// tiled image was found by an independent implementation of the GX2
	// 2D-tiled-thin1 addressing (written from the public addrlib
	// description, docs/formats/bfres-textures.md), which also matched all
	// 15 textures to bake's output within the rounding of the block
	// formats' interpolation (≤ 0.5).
	for _, c := range []struct {
		tex  string
		x, y int
		want [4]byte
	}{
		// Body_Alb (BC1 sRGB, 512×1024, pitch 128, swizzle 0x30000): block
		// (45,77) at file 0x89a58 of the decompressed Tex1 is 44 61 45 59
		// aa aa aa aa. c0 = 0x6144 → (12,10,4) → (99,40,33); c1 = 0x5945 →
		// (11,10,5) → (90,40,41); c0 > c1, every index 2: (2c0+c1)/3 =
		// (96, 40, 35.67→36).
		{"Body_Alb", 181, 309, [4]byte{96, 40, 36, 255}},
		// Body_AO (BC4, selectors R R R R): block (33,70) at 0x71b88 is 33
		// b7 2f f0 02 0f f0 00. r0 = 51 ≤ r1 = 183: six-value mode; the
		// 48-bit indices 0x00f00f02f02f give pixel 0 index 7 (255), pixel
		// 5 (bits 15–17) index 5: (51 + 4·183)/5 = 156.6 → 157, pixel 15
		// index 0 (51).
		{"Body_AO", 132, 280, [4]byte{255, 255, 255, 255}},
		{"Body_AO", 133, 281, [4]byte{157, 157, 157, 157}},
		{"Body_AO", 135, 283, [4]byte{51, 51, 51, 51}},
		// Bandoneon_Nrm (BC5, selectors R G 1 1, a normal map): block
		// (21,50) at 0x128a0: red 81 80 + indices all 1 → 128; green 86 85
		// + indices 0 for the first row (134) and 1 after (133). Z rebuilt:
		// x = 128/255·2−1, y = 134/255·2−1, z = √(1−x²−y²) = 0.99869 →
		// (z/2+½)·255 = 254.83 → 255.
		{"Bandoneon_Nrm", 84, 200, [4]byte{128, 134, 255, 255}},
		{"Bandoneon_Nrm", 85, 201, [4]byte{128, 133, 255, 255}},
	} {
		tx := byName[c.tex]
		if tx == nil {
			t.Errorf("no texture %s", c.tex)
			continue
		}
		if got := pixelAt(*tx, c.x, c.y); got != c.want {
			t.Errorf("%s (%d,%d) = %v, want %v", c.tex, c.x, c.y, got, c.want)
		}
	}
}
