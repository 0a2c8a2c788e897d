package sample

// VirtoolsEase is the ease curve of the Virtools TCB controllers
// (virtools-controllers.md §3): it remaps a segment's time fraction u with
// from = the left key's EaseFrom and to = the right key's EaseTo: constant
// acceleration over [0, from), constant speed, constant deceleration over
// [1−to, 1]. Zero ease is the identity. Ease sums above 1 are scaled down
// to 1.
func VirtoolsEase(u, from, to float64) float64 {
	if u == 0 || u == 1 {
		return u
	}
	s := from + to
	if s == 0 {
		return u
	}
	if s > 1 {
		from, to = from/s, to/s
	}
	k := 1 / (2 - from - to)
	switch {
	case u < from:
		return k / from * u * u
	case u >= 1-to:
		v := 1 - u
		return 1 - k/to*v*v
	default:
		return k * (2*u - from)
	}
}
