package bntx_test

import (
	"testing"

	"github.com/animbake/bake/import/bntx"
	"github.com/animbake/bake/import/bntx/bntxwrite"
)

// BenchmarkTextures parses a BNTX and decodes its two textures: 512×512
// BC1 (block height 16 GOBs) and 256×256 RGBA8 (8 GOBs), untiled from the
// block-linear layout, decoded and channel-swizzled.
func BenchmarkTextures(b *testing.B) {
	bc1 := make([]byte, 128*128*8)
	for i := range bc1 {
		bc1[i] = byte(i * 31)
	}
	rgba := make([]byte, 256*256*4)
	for i := range rgba {
		rgba[i] = byte(i * 7)
	}
	data, err := bntxwrite.File{Textures: []bntxwrite.Texture{
		{Name: "bc1", Format: 0x1A06, Width: 512, Height: 512, BlockHeightLog2: 4, Packed: bc1},
		{Name: "rgba", Format: 0x0B01, Width: 256, Height: 256, BlockHeightLog2: 3, ChannelSources: [4]byte{4, 3, 2, 5}, Packed: rgba},
	}}.Bytes()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := bntx.Textures(data, nil); err != nil {
			b.Fatal(err)
		}
	}
}
