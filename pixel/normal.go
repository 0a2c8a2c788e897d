package pixel

import "math"

// ReconstructNormalZ fills the blue channel of two-channel normal-map
// pixels (BC5, RG8: X in red, Y in green, each 0..255 for −1..1) with the
// Z that makes the normal unit length, z = √max(0, 1 − x² − y²), encoded
// back as round((z/2 + 1/2)·255): what a shader that samples two channels
// computes, and what a glTF normal texture must store. Alpha is left alone.
func ReconstructNormalZ(rgba []byte) {
	for i := 0; i+4 <= len(rgba); i += 4 {
		x := float64(rgba[i])/255*2 - 1
		y := float64(rgba[i+1])/255*2 - 1
		z := math.Sqrt(max(0, 1-x*x-y*y))
		rgba[i+2] = byte(math.Floor((z/2+0.5)*255 + 0.5))
	}
}
