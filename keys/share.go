package keys

import (
	"encoding/binary"
	"slices"
)

// Key times a glTF output shares. A channel with its own key times pays
// for them apart from its values: 4 bytes a key and an input accessor in
// the JSON. The writer keeps each distinct content once, so channels whose
// keys fall on the same probes share those costs; a channel that keeps
// most of a clip's probes costs fewer bytes with a key at every probe, on
// the times every such channel of the clip shares, than with its own
// subset of them.

// ownTimesJSON is what a set of key times costs in a GLB beside their 4
// bytes a key: the JSON of their input accessor, with the min and max
// glTF requires of an input, such as
// {"bufferView":1,"byteOffset":2388,"componentType":5126,"count":46,"type":"SCALAR","max":[1.5],"min":[0]},
// (105 bytes; 100 is a round figure for shorter offsets and times).
const ownTimesJSON = 100

// keyBytes is what one key's value costs in a GLB: a normalized 16-bit
// quaternion (8 bytes) or width float32s.
func (c *channel) keyBytes() int {
	if c.short {
		return 8
	}
	return 4 * c.width
}

// shareProbes gives a key at every one of the n probes (the keys
// --tolerance 0 writes, with the sides of the jumps kept) to the channels
// for which that costs fewer bytes than their own key times. Channels with
// the same keys share their times (4m + ownTimesJSON bytes for m keys): a
// group of them takes every probe when the values that adds,
// Σ (n − m)·keyBytes, cost less than those times. Before that, a rotation
// channel whose 16-bit rounding is within the tolerance but not within the
// half of its allowed error its keys' choice left for it (quantize; q16)
// goes to 16 bits at every probe where its 8n bytes cost less than its
// float keys and its part of their times: at a key no interpolation adds
// to the rounding. Should the hierarchy's check put floats back there
// (unshort), the cheaper of its float keys and float keys at every probe
// comes back.
//
// The choice depends on the clip's channels alone, so that clips that play
// the same curves write the same keys (whose accessors the writer then
// shares). Constant channels keep their two keys (their times are shared
// by every constant channel of the clip), and only node channels count (a
// data channel's keys go to extras or to pointers of other types). The
// hierarchy's check that follows measures the result at every probe, adds
// keys where it misses and writes floats where the roundings along a
// chain add up to too much.
func shareProbes(chans []*channel, n int) {
	groups := map[string][]*channel{}
	var order []string
	for _, c := range chans {
		if c.node < 0 || c.constant || c.width > 16 {
			continue
		}
		k := keysKey(c.keys)
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], c)
	}
	type move struct {
		c         *channel
		m         int
		short     bool
		floatKeys []int // kept for unshort
	}
	var moves []move
	everyProbe := false // some channel keeps every probe anyway
	for _, k := range order {
		g := groups[k]
		m := len(g[0].keys)
		times := 4*m + ownTimesJSON
		if m == n {
			times, everyProbe = 0, true // the times the clip shares
		}
		// 16 bits at every probe, channel by channel.
		rest := g[:0:0]
		for _, c := range g {
			own := m*c.keyBytes() + times/len(g)
			if c.q16 == nil || c.short || 8*n >= own {
				rest = append(rest, c)
				continue
			}
			mv := move{c: c, m: m, short: true}
			if n*c.keyBytes() >= own {
				mv.floatKeys = slices.Clone(c.keys)
			}
			moves = append(moves, mv)
		}
		// The rest in their own encoding, as a group.
		added := 0
		for _, c := range rest {
			added += (n - m) * c.keyBytes()
		}
		if m < n && added < times {
			for _, c := range rest {
				moves = append(moves, move{c: c, m: m})
			}
		}
	}
	// A channel alone on every probe pays for those times itself, 4 bytes
	// a probe more than for its own keys: it goes only where what it adds,
	// values and times, costs less than that an accessor's JSON (a few
	// probes short of every one: clips that play the same curves then
	// still get the same keys) or, in 16 bits, less than its float keys.
	if len(moves) == 1 && !everyProbe {
		mv := moves[0]
		b := mv.c.keyBytes()
		if mv.short && 12*n >= (4*mv.c.width+4)*mv.m || !mv.short && (n-mv.m)*(b+4) >= ownTimesJSON {
			return
		}
	}
	for _, mv := range moves {
		c := mv.c
		c.every(n)
		if mv.short {
			c.short, c.floatKeys = true, mv.floatKeys
			copy(c.v32, c.q16)
			c.unit = c.q16Unit
		}
	}
}

// keysKey names a set of keys for a map: their indices as bytes.
func keysKey(keys []int) string {
	b := make([]byte, 0, 4*len(keys))
	for _, k := range keys {
		b = binary.LittleEndian.AppendUint32(b, uint32(k))
	}
	return string(b)
}
