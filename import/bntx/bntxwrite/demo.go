package bntxwrite

import "github.com/animbake/bake/internal/demofiles"

// Demo returns the demo inputs: Demo.bntx, whose textures cover the
// layouts and formats the reader decodes (block heights 1–8 GOBs, a
// pitch-linear texture, RGBA8, BGRA8, BC1 sRGB, BC4 with channel sources,
// BC5 SNORM). Tests and the hostile-input seeds use it.
func Demo() []demofiles.File {
	f := DemoFile()
	b, err := f.Bytes()
	if err != nil {
		panic("bntxwrite: demo: " + err.Error())
	}
	return []demofiles.File{{Name: "Demo.bntx", Data: b}}
}

// DemoFile describes Demo.bntx. Pixel (x, y) of demo_rgba is (16x, 16y,
// 128, 255 − 8x); demo_bc1 has one block per colour (red where the block
// column is even, blue where odd); demo_mask is a BC4 ramp shown as alpha.
func DemoFile() File {
	rgba := make([]byte, 16*16*4)
	for y := range 16 {
		for x := range 16 {
			i := (y*16 + x) * 4
			rgba[i], rgba[i+1], rgba[i+2], rgba[i+3] = byte(16*x), byte(16*y), 128, byte(255-8*x)
		}
	}
	var bc1 []byte
	for range 8 {
		for bx := range 8 {
			idx := byte(0x00)
			if bx%2 == 1 {
				idx = 0x55
			}
			bc1 = append(bc1, 0x00, 0xF8, 0x1F, 0x00, idx, idx, idx, idx)
		}
	}
	// BC4: e0 = 255, e1 = 0, indices 0..7 along each row pair.
	bc4 := []byte{255, 0, 0x88, 0xC6, 0xFA, 0x88, 0xC6, 0xFA}
	// BC5 SNORM: x = +127 (index 0), y = −127 (index 0), a flat tilt.
	bc5 := []byte{127, 0x81, 0, 0, 0, 0, 0, 0, 0x81, 127, 0, 0, 0, 0, 0, 0}
	bgra := []byte{0, 0, 255, 255, 0, 255, 0, 255, 255, 0, 0, 255, 40, 30, 20, 10}
	return File{Name: "Demo", Textures: []Texture{
		{Name: "demo_rgba", Format: 0x0B01, Width: 16, Height: 16, BlockHeightLog2: 1, Packed: rgba},
		{Name: "demo_bc1", Format: 0x1A06, Width: 32, Height: 32, BlockHeightLog2: 3, MipCount: 6, Packed: bc1},
		{Name: "demo_mask", Format: 0x1D01, Width: 4, Height: 4, ChannelSources: [4]byte{1, 1, 1, 2}, Packed: bc4},
		{Name: "demo_nrm", Format: 0x1E02, Width: 4, Height: 4, ChannelSources: [4]byte{2, 3, 1, 1}, Packed: bc5},
		{Name: "demo_bgra", Format: 0x0C01, Width: 2, Height: 2, Linear: true, Packed: bgra},
	}}
}
