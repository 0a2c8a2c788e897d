package sample

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// MaxCommonRate is the highest rate CommonRate picks as a common multiple
// of different clip rates (30 and 100 fps give 300): above it the keys a
// common grid adds outweigh the benefit, and one file per clip (--split)
// is the better answer.
const MaxCommonRate = 300

// CommonRate chooses the one frame rate for all the clips of a file, for
// clients that hold a single rate per file: Godot's importer resamples every
// clip on the grid k/rate (plus a last key at the clip's end), and Blender
// has one scene rate.
//   - Every clip at the same output rate: that rate, so one frame per
//     baked sample.
//   - Different whole-number rates whose least common multiple is at most
//     MaxCommonRate: that multiple, so every clip's samples fall on frames
//     (24 and 30 fps give 120).
//   - Otherwise no rate keeps every clip's samples on frames: the highest
//     rate, and a warning that names the rates and suggests --split.
//
// Clips with a single sample set no rate; with none the rate is 30.
func CommonRate(anims []BakedAnimation) (float64, string) {
	var rates []float64
	for i := range anims {
		r := anims[i].FPS
		if len(anims[i].Times) < 2 || !(r > 0) {
			continue
		}
		seen := false
		for _, x := range rates {
			seen = seen || math.Abs(x-r) <= 1e-9*r
		}
		if !seen {
			rates = append(rates, r)
		}
	}
	sort.Float64s(rates)
	switch len(rates) {
	case 0:
		return 30, ""
	case 1:
		return rates[0], ""
	}
	if lcm, ok := wholeMultiple(rates); ok {
		return float64(lcm), ""
	}
	top := rates[len(rates)-1]
	list := make([]string, len(rates))
	for i, r := range rates {
		list[i] = strconv.FormatFloat(r, 'f', -1, 64)
	}
	return top, fmt.Sprintf("clips at %s fps share no common rate up to %d fps: the file's rate is %s fps, on which the other clips' samples fall between frames (convert with --split for one file, and one exact rate, per clip)",
		strings.Join(list, ", "), MaxCommonRate, list[len(list)-1])
}

// wholeMultiple is the least common multiple of whole-number rates, when
// every rate is whole and the multiple is at most MaxCommonRate.
func wholeMultiple(rates []float64) (int, bool) {
	lcm := 1
	for _, r := range rates {
		n := math.Round(r)
		if math.Abs(n-r) > 1e-9 || n < 1 || n > MaxCommonRate {
			return 0, false
		}
		k := int(n)
		a, b := lcm, k
		for b != 0 {
			a, b = b, a%b
		}
		lcm = lcm / a * k
		if lcm > MaxCommonRate {
			return 0, false
		}
	}
	return lcm, true
}
