package keys

import "sync"

// arena hands out float64 slices for one clip's reduction from a few large
// chunks that are kept for the next clip: the samples of every channel at
// every probe (the bulk of the reduction's memory) are then allocated, and
// collected, once per worker instead of once per channel. Slices it hands
// out are not zeroed.
type arena struct {
	chunks [][]float64
	cur    int // the chunk being filled
	used   int // how much of it
}

// minChunk is the smallest chunk allocated (8 MB).
const minChunk = 1 << 20

var arenas = sync.Pool{New: func() any { return new(arena) }}

// take returns a slice of n values, with arbitrary contents. A nil arena
// allocates.
func (a *arena) take(n int) []float64 {
	if a == nil {
		return make([]float64, n)
	}
	for a.cur < len(a.chunks) {
		c := a.chunks[a.cur]
		if a.used+n <= len(c) {
			s := c[a.used : a.used+n : a.used+n]
			a.used += n
			return s
		}
		a.cur++
		a.used = 0
	}
	c := make([]float64, max(n, minChunk))
	a.chunks = append(a.chunks, c)
	a.cur, a.used = len(a.chunks)-1, n
	return c[:n:n]
}

// reset makes every chunk available again; slices handed out before must
// no longer be used.
func (a *arena) reset() { a.cur, a.used = 0, 0 }
