package sample

// vxSegment is the key search shared by every Virtools controller
// (virtools-curves-and-object-animations.txt §5.3, virtools-controllers.md
// §2): at or before the first key it returns (0, 0, false) meaning "key 0
// exactly", at or after the last key (n−1, 0, false), otherwise the segment
// (a, a+1) found by the engine's binary search and the time fraction u in
// (0, 1]. times must be non-decreasing; the search keeps
// times[lo] < t <= times[hi], so the segment never has zero length.
func vxSegment(times []float64, t float64) (a int, u float64, inside bool) {
	n := len(times)
	if !(t > times[0]) {
		return 0, 0, false
	}
	if t >= times[n-1] {
		return n - 1, 0, false
	}
	lo, hi := 0, n-1
	for lo < hi-1 {
		mid := (lo + hi) >> 1
		if t <= times[mid] {
			hi = mid
		} else {
			lo = mid
		}
	}
	a = hi - 1
	return a, (t - times[a]) / (times[hi] - times[a]), true
}

// vxTCBFactors returns the key-interval correction of a TCB key i
// (virtools-controllers.md §4.1): fp and fn scale the incoming and outgoing
// tangents by the relative lengths of the neighbouring intervals, pulled
// towards 1 by |continuity|. End keys and degenerate spacing give 1.
func vxTCBFactors(times []float64, i int, continuity float64) (fp, fn float64) {
	n := len(times)
	if i == 0 || i == n-1 {
		return 1, 1
	}
	span := times[i+1] - times[i-1]
	if !(span > 0) {
		return 1, 1
	}
	fp = 2 * (times[i] - times[i-1]) / span
	fn = 2 * (times[i+1] - times[i]) / span
	c := continuity
	if c < 0 {
		c = -c
	}
	return fp + c - c*fp, fn + c - c*fn
}

// vxTCBWeights returns the four Kochanek–Bartels weights of a key with
// tension t, continuity c and bias b (virtools-controllers.md §4.1, §5):
// incoming = wsp·Lp + wsn·Ln and outgoing = wdp·Lp + wdn·Ln, before the
// interval factors.
func vxTCBWeights(t, c, b float64) (wsp, wsn, wdp, wdn float64) {
	h := (1 - t) / 2
	return h * (1 - c) * (1 + b), h * (1 + c) * (1 - b), h * (1 + c) * (1 + b), h * (1 - c) * (1 - b)
}
