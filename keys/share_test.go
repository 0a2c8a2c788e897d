package keys

import (
	"slices"
	"testing"
)

// TestShareProbes works the byte counts of shareProbes by hand for a clip
// of n = 10 probes (ownTimesJSON = 100: m own key times cost 4m + 100
// bytes; a float translation key 12 bytes, a float rotation key 16, a
// 16-bit one 8).
func TestShareProbes(t *testing.T) {
	const n = 10
	tr := func(keys ...int) *channel {
		return &channel{node: 0, width: 3, kind: kindTranslation, keys: keys}
	}
	rot := func(keys ...int) *channel {
		c := &channel{node: 1, width: 4, kind: kindRotation, keys: keys,
			vals: make([]float64, 4*n), v32: make([]float64, 4*n), q16: make([]float64, 4*n), q16Unit: 1e-6}
		for k := range n {
			c.vals[4*k+3], c.v32[4*k+3], c.q16[4*k+3] = 1, 1, 32767.0/32767
		}
		c.q16[3] = 32766.0 / 32767 // a rounding that differs from the floats
		return c
	}
	// a: 8 keys; 2 more values (24 B) cost less than its times (132 B).
	a := tr(0, 2, 4, 5, 6, 7, 8, 9)
	// b, c: the same 3 keys, times shared (112 B); 7 more values each,
	// 2·7·12 = 168 B: they keep their keys.
	b, c := tr(0, 3, 9), tr(0, 3, 9)
	// d: 3 keys of its own; 7·12 = 84 B < 112 B: every probe.
	d := tr(0, 4, 9)
	// e: 6 float rotation keys and their times, 6·16 + 24 + 100 = 220 B;
	// 16 bits at every probe, 80 B. Floats at every probe (160 B) would
	// also beat its own keys: no float keys are kept for unshort.
	e := rot(0, 1, 2, 4, 6, 9)
	// f: 2 float rotation keys, 2·16 + 8 + 100 = 140 B; 16 bits at every
	// probe 80 B; floats at every probe 160 B: its 2 keys are kept for
	// unshort.
	f := rot(0, 9)
	// g: constant: keeps its two keys.
	g := tr(0, 9)
	g.constant = true
	shareProbes([]*channel{a, b, c, d, e, f, g}, n)
	every := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	for _, x := range []struct {
		name string
		c    *channel
		want []int
	}{{"a", a, every}, {"b", b, []int{0, 3, 9}}, {"c", c, []int{0, 3, 9}}, {"d", d, every},
		{"e", e, every}, {"f", f, every}, {"g", g, []int{0, 9}}} {
		if !slices.Equal(x.c.keys, x.want) {
			t.Errorf("%s: keys %v, want %v", x.name, x.c.keys, x.want)
		}
	}
	if !e.short || !f.short || a.short {
		t.Fatalf("16 bits: e %v, f %v, a %v; want true, true, false", e.short, f.short, a.short)
	}
	if e.v32[3] != 32766.0/32767 || e.unit != 1e-6 {
		t.Errorf("e plays %v with length term %g, want its 16-bit rounding and 1e-6", e.v32[:4], e.unit)
	}
	if e.floatKeys != nil || !slices.Equal(f.floatKeys, []int{0, 9}) {
		t.Errorf("float keys kept: e %v (want none), f %v (want [0 9])", e.floatKeys, f.floatKeys)
	}
	// The hierarchy's check puts floats back: f its own 2 keys, e every
	// probe in floats.
	e.unshort()
	f.unshort()
	if e.short || f.short || !slices.Equal(e.keys, every) || !slices.Equal(f.keys, []int{0, 9}) || f.v32[3] != 1 {
		t.Errorf("unshort: e %v %v, f %v %v (v32 %v)", e.short, e.keys, f.short, f.keys, f.v32[:4])
	}
}

// TestShareProbesAlone: a channel alone on every probe pays for their
// times itself, so it goes only where what it adds, (n − m)·(bytes + 4),
// is below an accessor's JSON (100).
func TestShareProbesAlone(t *testing.T) {
	// 8 of 10 keys: 2·(12 + 4) = 32 bytes: it goes.
	a := &channel{node: 0, width: 3, kind: kindTranslation, keys: []int{0, 1, 2, 3, 5, 6, 8, 9}}
	shareProbes([]*channel{a}, 10)
	if len(a.keys) != 10 {
		t.Errorf("8 of 10 keys alone: keys %v, want every probe", a.keys)
	}
	// 3 of 11 keys (a ramp, as TestTeleportingLoopSeam): 8·16 = 128 bytes:
	// it stays, though with company it would go (8·12 < 4·3 + 100).
	b := &channel{node: 0, width: 3, kind: kindTranslation, keys: []int{0, 9, 10}}
	shareProbes([]*channel{b}, 11)
	if len(b.keys) != 3 {
		t.Errorf("3 of 11 keys alone: keys %v, want them kept", b.keys)
	}
	c := &channel{node: 1, width: 3, kind: kindTranslation, keys: []int{0, 9, 10}}
	full := &channel{node: 2, width: 3, kind: kindTranslation, keys: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}}
	shareProbes([]*channel{c, full}, 11)
	if len(c.keys) != 11 {
		t.Errorf("3 of 11 keys beside a channel at every probe: keys %v, want every probe", c.keys)
	}
}
