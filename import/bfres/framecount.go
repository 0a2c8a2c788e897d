package bfres

import "github.com/animbake/bake/import/binread"

// MaxFrameCount is the largest animation frame count the importer
// accepts: 65536 frames, over 36 minutes at 30 fps. The format allows any
// s32 (4.x) or s16 (3.x), but the real clips are far shorter (the longest
// sample clip has 805 frames), and a corrupt count in the billions would
// make every bake of the file sample billions of frames (docs/formats/
// bfres.md, decision 15).
const MaxFrameCount = 1 << 16

// checkFrameCount rejects a negative or implausibly large frame count
// read at off.
func checkFrameCount(off int, what string, n int32) error {
	if n < 0 {
		return binread.Errorf(int64(off), "%s has a negative frame count %d", what, n)
	}
	if n > MaxFrameCount {
		return binread.Errorf(int64(off), "%s has a frame count of %d, more than the %d bake accepts", what, n, MaxFrameCount)
	}
	return nil
}
