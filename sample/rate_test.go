package sample

import "testing"

// rateClip makes a baked clip of n samples at fps.
func rateClip(name, loop string, fps float64, n int) BakedAnimation {
	times := make([]float64, n)
	for i := range times {
		times[i] = float64(i) / fps
	}
	return BakedAnimation{Name: name, Loop: loop, FPS: fps, Times: times}
}

// Least common multiples worked by hand: lcm(24, 30) = 120, lcm(30, 60) =
// 60, lcm(25, 30) = 150, lcm(30, 100) = 300, lcm(25, 60) = 300,
// lcm(24, 25, 30) = 600.
func TestCommonRate(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rates []float64
		want  float64
		warn  bool
	}{
		{"one rate", []float64{30, 30}, 30, false},
		{"no clip", nil, 30, false},
		{"24 and 30: lcm 120", []float64{24, 30}, 120, false},
		{"30 and 60: lcm 60", []float64{60, 30}, 60, false},
		{"25 and 30: lcm 150", []float64{25, 30}, 150, false},
		{"30 and 100: lcm 300", []float64{30, 100}, 300, false},
		{"25 and 60: lcm 300", []float64{25, 60}, 300, false},
		{"25, 30 and 24: lcm 600 too high", []float64{25, 30, 24}, 30, true},
		{"non-integer rates", []float64{30, 75.02638522427441}, 75.02638522427441, true},
		{"one non-integer rate", []float64{75.02638522427441}, 75.02638522427441, false},
	} {
		var anims []BakedAnimation
		for _, r := range tc.rates {
			anims = append(anims, rateClip("a", "once", r, 5))
		}
		got, warn := CommonRate(anims)
		if got != tc.want || (warn != "") != tc.warn {
			t.Errorf("%s: CommonRate = %v, %q; want %v, warning %v", tc.name, got, warn, tc.want, tc.warn)
		}
	}
	// A single-sample clip sets no rate.
	got, warn := CommonRate([]BakedAnimation{rateClip("a", "once", 30, 5), rateClip("pose", "once", 24, 1)})
	if got != 30 || warn != "" {
		t.Errorf("single-sample clip: CommonRate = %v, %q; want 30", got, warn)
	}
}
