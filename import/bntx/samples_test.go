package bntx_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/import/bntx"
	"github.com/animbake/bake/internal/testfiles"
)

// sampleBNTX returns the BNTX inside a Yaz0-compressed sample archive. It
// finds the BNTX by its magic in the decompressed bytes, which holds
// whether it is a SARC member (uncompressed) or a Switch BFRES's embedded
// file, so the test needs no archive reader.
func sampleBNTX(t *testing.T, rel string) []byte {
	t.Helper()
	data, err := binread.DecodeYaz0(testfiles.ReadSample(t, rel), 64<<20)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(data, []byte(bntx.Magic))
	if i < 0 {
		t.Fatalf("%s holds no BNTX", rel)
	}
	return data[i:]
}

// TestSamples decodes the BNTX files of the real samples (SOURCES.md §4b,
// §4c): every texture decodes, with the names, formats and sizes the files
// state, and BombHei's nearly flat normal map (BC5 SNORM X ≈ Y ≈ 0,
// sources R G 1 1) decodes to within 8 of (128, 128, 255, 255) everywhere
// (0 maps to 127.5 → 128; read as UNORM, small negatives would be near 255).
func TestSamples(t *testing.T) {
	cases := []struct {
		file string
		want []string // "name format w×h"
	}{
		{"bntx/HideAndSeekIcon.szs", []string{
			"CmBaseDummy^r BC4_UNORM 8×8", "MyIconSave^s BC4_UNORM 32×32", "Seeking_Icon BC4_UNORM 128×128",
			"Hiding_Icon BC4_UNORM 128×128", "SMO_Clock BC4_UNORM 96×96", "CmLineCorner^s BC4_UNORM 8×8"}},
		{"bfres-switch/BombHei.szs", []string{
			"KillerBody_mustache BC1_SRGB 128×128", "MarioHairFace_emm BC4_UNORM 128×128", "Basic_Rgh BC4_UNORM 32×32",
			"Basic_Mtl BC4_UNORM 32×32", "Basic_Nrm BC5_SNORM 256×256", "BombHei_alb BC1_SRGB 128×128"}},
		{"bfres-switch/BlockShine.szs", []string{
			"Basic_Mtl BC4_UNORM 32×32", "Block_rgh BC4_UNORM 512×512", "Block_alb BC1_UNORM 512×512", "Block_nrm BC5_SNORM 512×512"}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			var warns []string
			texs, err := bntx.Textures(sampleBNTX(t, c.file), &format.Options{Warn: func(m string) { warns = append(warns, m) }})
			if err != nil {
				t.Fatal(err)
			}
			if len(texs) != len(c.want) || len(warns) != 0 {
				t.Fatalf("%d textures (want %d), warnings %q", len(texs), len(c.want), warns)
			}
			for i, tx := range texs {
				got := fmt.Sprintf("%s %s %d×%d", tx.Name, tx.Extras["bntx"].(map[string]any)["format"], tx.Image.Width, tx.Image.Height)
				if got != c.want[i] {
					t.Errorf("texture %d: %s, want %s", i, got, c.want[i])
				}
				if tx.Name == "Basic_Nrm" {
					for p := 0; p < len(tx.Image.RGBA); p += 4 {
						px := tx.Image.RGBA[p : p+4]
						if px[0] < 120 || px[0] > 136 || px[1] < 120 || px[1] > 136 || px[2] != 255 || px[3] != 255 {
							t.Fatalf("Basic_Nrm pixel %d = %v, want near the flat normal", p/4, px)
						}
					}
				}
			}
		})
	}
}
