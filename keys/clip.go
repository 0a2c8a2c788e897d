package keys

import (
	"math"

	"github.com/animbake/bake/fidelity"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// Kinds of channel error.
const (
	kindTranslation = iota
	kindRotation
	kindScale
	kindData
)

// maxGapAt is the largest u(1−u)|1−2u| over [0, 1] (√3/18, at
// u = (3 − √3)/6): slerpGap times it is the farthest slerp and nlerp of
// two keys get apart anywhere between them. A rotation segment keeps that
// within a quarter of the channel's allowed error, so that between the
// frames, where the probes do not look, Blender's nlerp stays near glTF's
// slerp: keys two frames apart are alike at the frame between (u = ½,
// where the gap is 0) but not a quarter of the way.
const maxGapAt = 0.09622504486493762

// minKeyDot is the least |dot| of two neighbouring rotation keys (about 90°
// apart): keys stay in one hemisphere far from the 180° where the short way
// and nlerp become ambiguous.
const minKeyDot = 0.7

// channel is one channel's samples at every probe and its chosen keys.
type channel struct {
	path  string
	width int
	step  bool
	node  int // the node it moves, -1 for data channels
	kind  int
	// vals are the engine's values at every probe (rotations kept in one
	// hemisphere from probe to probe), v32 the same rounded to float32.
	vals, v32 []float64
	// factor turns a value difference into metres (or the channel's own
	// unit for data); allowed is the error allowed in those units.
	factor, allowed float64
	keys            []int
	constant        bool // the engine gives one value throughout (sample.IsConstant)
	// errs is the error at every probe with the keys chosen, for the
	// hierarchy's bound (playedErrors); unit the unit-length term in it.
	errs     []float64
	unit     float64
	cursor   int    // playAt's key, for probes that come in order
	lastFail int    // the probe where the last check (ok) failed
	bad      int    // the first probe whose value is not finite, or -1
	gapSeg   [2]int // the segment gap was worked out for (gapAt)
	gap      float64
	blend    []float64 // a constant channel's value between its two keys (constantAt)
	mods     [][2]int  // probe ranges whose errors the last repairs changed
	short    bool      // keys written as normalized 16-bit integers
	slack    []float64 // each probe's allowed error as a multiple of allowed (nil: 1; see probeSlack)
	// q16 is the 16-bit rounding of every probe (in float32, as v32) of a
	// rotation channel whose rounding is within half the tolerance but not
	// within the half of its allowed error that quantize gives it:
	// shareProbes may still write it so at every probe. q16Unit is its
	// length term (neighbourLengthError).
	q16     []float64
	q16Unit float64
	// floatKeys are the keys chosen in floats of a channel that shareProbes
	// moved to 16 bits at every probe: unshort puts them back.
	floatKeys []int
	// partner is the other channel of a co-located rotation pair rounded
	// together (pair.go), pairErr (the child's) the product's error per
	// unit of reach at every probe.
	partner *channel
	pairErr []float64
	alone   bool      // a pair's parent in 16 bits on its own (quantize): it stays so without the child
	own     []float64 // a constant parent's own 16-bit values the pair replaced (unpair restores them)
	buf     [16]float64
}

// err is the error of a client value against the engine's.
func (c *channel) err(got, want []float64) float64 {
	switch c.kind {
	case kindTranslation:
		var s float64
		for j := range got {
			d := got[j] - want[j]
			s += d * d
		}
		return math.Sqrt(s) * c.factor
	case kindRotation:
		return fidelity.RotationDisplacement(got, want) * c.factor
	}
	var e float64
	for j := range got {
		e = max(e, math.Abs(got[j]-want[j]))
	}
	return e * c.factor
}

// ok reports whether keys at probes i and j alone play every probe
// between them (and at them, where the probe's time is not the key's
// float32 time) within the allowed error, with nlerp and (unless nlerpOnly)
// with slerp.
func (c *channel) ok(i, j int, probes []fidelity.Probe, t32 []float64, nlerpOnly bool) bool {
	w := c.width
	a, b := c.v32[i*w:i*w+w], c.v32[j*w:j*w+w]
	rot := c.kind == kindRotation && !c.step
	if rot && (math.Abs(a[0]*b[0]+a[1]*b[1]+a[2]*b[2]+a[3]*b[3]) < minKeyDot || c.gapTooWide(a, b)) {
		return false
	}
	// A client finds the segment by the float32 key times: the probe at a
	// key whose time rounded up to the key's float32 time plays before the
	// key (in the segment ending there), one rounded down after it.
	lo, hi := i+1, j-1
	if probes[i].Time > t32[i] {
		lo = i
	}
	if probes[j].Time < t32[j] {
		hi = j
	}
	// The probe that failed the last check tends to fail this one too
	// (the search tries segments that differ by their end): it goes first.
	if f := c.lastFail; f >= lo && f <= hi && !c.okAt(f, i, j, a, b, rot, probes, t32, nlerpOnly) {
		return false
	}
	for k := lo; k <= hi; k++ {
		if !c.okAt(k, i, j, a, b, rot, probes, t32, nlerpOnly) {
			c.lastFail = k
			return false
		}
	}
	return true
}

// gapTooWide reports whether slerpGap(a, b)·maxGapAt·factor exceeds a
// quarter of the allowed error (see maxGapAt). Most segments the search
// tries are far from that limit either way: bounds on the angle without
// its arccosine decide them, and only those within a margin of the limit
// are worked out exactly (the answer is always the exact one's).
func (c *channel) gapTooWide(a, b []float64) bool {
	limit := c.allowed / 4
	d := math.Abs(a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3])
	n := math.Sqrt((a[0]*a[0] + a[1]*a[1] + a[2]*a[2] + a[3]*a[3]) * (b[0]*b[0] + b[1]*b[1] + b[2]*b[2] + b[3]*b[3]))
	if n != 0 {
		// With s = sin(φ/2) = √((1 − cos φ)/2): 2s ≤ φ ≤ 2s/√(1 − s²)
		// (sin x ≤ x ≤ tan x on [0, π/2]).
		s2 := (1 - min(d/n, 1)) / 2
		lo := 2 * math.Sqrt(s2)
		hi := lo / math.Sqrt(1-s2)
		kLo, kHi := 1.07, 1.33
		if lo > 0.8 {
			kLo = 1.33
		}
		if hi <= 0.8 {
			kHi = 1.07
		}
		scale := 2 * maxGapAt * c.factor / 6
		if kHi*hi*hi*hi*scale*(1+1e-6) < limit {
			return false
		}
		if kLo*lo*lo*lo*scale*(1-1e-6) > limit {
			return true
		}
	}
	return slerpGap(a, b)*maxGapAt*c.factor > limit
}

// okAt reports whether keys a at probe i and b at probe j play probe k
// within the allowed error.
func (c *channel) okAt(k, i, j int, a, b []float64, rot bool, probes []fidelity.Probe, t32 []float64, nlerpOnly bool) bool {
	w := c.width
	u := min(max((probes[k].Time-t32[i])/(t32[j]-t32[i]), 0), 1)
	want := c.vals[k*w : k*w+w]
	out := c.buf[:w]
	allowed := c.allowed * slackAt(c.slack, k)
	if !rot {
		fidelity.Interpolate(c.path, c.step, fidelity.Slerp, a, b, u, out)
		return c.err(out, want) <= allowed
	}
	if nlerpDisplacement(a, b, u, want)*c.factor > allowed {
		return false
	}
	if !nlerpOnly {
		fidelity.Rotate(fidelity.Slerp, a, b, u, out)
		return c.err(out, want) <= allowed
	}
	return true
}

// nlerpDisplacement is fidelity.RotationDisplacement(nlerp(a, b, u), w) for
// unit quaternions, in fewer operations: with p the normalised blend and
// c = |p − w| (w turned to p's side), cos(θ/2) = 1 − c²/2, so that
// 2·sin(θ/2) = c·√(4 − c²), which keeps its precision for small angles.
func nlerpDisplacement(a, b []float64, u float64, w []float64) float64 {
	k1 := u
	if a[0]*b[0]+a[1]*b[1]+a[2]*b[2]+a[3]*b[3] < 0 {
		k1 = -u
	}
	k0 := 1 - u
	p0, p1, p2, p3 := k0*a[0]+k1*b[0], k0*a[1]+k1*b[1], k0*a[2]+k1*b[2], k0*a[3]+k1*b[3]
	n := math.Sqrt(p0*p0 + p1*p1 + p2*p2 + p3*p3)
	if n == 0 {
		return 2
	}
	inv := 1 / n
	if p0*w[0]+p1*w[1]+p2*w[2]+p3*w[3] < 0 {
		inv = -inv
	}
	d0, d1, d2, d3 := p0*inv-w[0], p1*inv-w[1], p2*inv-w[2], p3*inv-w[3]
	c2 := d0*d0 + d1*d1 + d2*d2 + d3*d3
	return math.Sqrt(c2 * max(4-c2, 0))
}

// choose picks keys greedily: from each key, the farthest probe that still
// plays everything between within the allowed error (found by doubling,
// then bisection). The search blends rotations by nlerp alone, which needs
// no trigonometry; the segment found is then checked with slerp too and
// shortened (by bisection) in the rare case slerp fails.
func (c *channel) choose(probes []fidelity.Probe, t32 []float64) {
	n := len(probes)
	c.keys = append(c.keys[:0], 0)
	if c.constant && n > 1 {
		c.keys = append(c.keys, n-1)
		return
	}
	hint := 2
	for i := 0; i < n-1; {
		good := c.farthest(i, i+1, n, hint, probes, t32, true)
		if good > i+1 && c.kind == kindRotation && !c.ok(i, good, probes, t32, false) {
			good = c.farthest(i, i+1, good, 2, probes, t32, false)
		}
		c.keys = append(c.keys, good)
		hint = max(good-i, 2)
		i = good
	}
}

// farthest returns the farthest probe j < end from key i such that ok(i, j),
// given that ok(i, good) holds, trying i+hint first (the last segment's
// length: segments tend to be alike), then doubling or bisecting.
func (c *channel) farthest(i, good, end, hint int, probes []fidelity.Probe, t32 []float64, nlerpOnly bool) int {
	bad := -1
	for try := i + max(hint, 2); try < end; try = i + 2*(try-i) {
		if !c.ok(i, try, probes, t32, nlerpOnly) {
			bad = try
			break
		}
		good = try
	}
	if bad < 0 && good != end-1 {
		if c.ok(i, end-1, probes, t32, nlerpOnly) {
			return end - 1
		}
		bad = end - 1
	}
	for bad >= 0 && bad-good > 1 {
		mid := (good + bad) / 2
		if c.ok(i, mid, probes, t32, nlerpOnly) {
			good = mid
		} else {
			bad = mid
		}
	}
	return good
}

// every keeps a key at every probe.
func (c *channel) every(n int) {
	c.keys = c.keys[:0]
	for k := range n {
		c.keys = append(c.keys, k)
	}
}

func kindOf(node int, path string) int {
	if node < 0 {
		return kindData
	}
	switch path {
	case model.PathTranslation:
		return kindTranslation
	case model.PathRotation:
		return kindRotation
	}
	return kindScale
}

// sampleChannels evaluates every channel of the clip at every probe.
func sampleChannels(h *fidelity.Hierarchy, eng *fidelity.Engine, ba *sample.BakedAnimation, probes []fidelity.Probe, ar *arena) []*channel {
	return sampleChannelsFrom(h, eng, ba, probes, nil, nil, ar)
}

// sampleChannelsFrom is sampleChannels that copies probe k's values from
// prev's probe from[k] when that is not -1.
func sampleChannelsFrom(h *fidelity.Hierarchy, eng *fidelity.Engine, ba *sample.BakedAnimation, probes []fidelity.Probe,
	prev []*channel, from []int, ar *arena) []*channel {
	n := len(probes)
	chans := make([]*channel, len(ba.Channels))
	evals := eng.Evals()
	for ci := range ba.Channels {
		bc := &ba.Channels[ci]
		node := h.Target(bc.Node, bc.Path)
		c := &channel{path: bc.Path, width: bc.Width, step: bc.Step, node: node, kind: kindOf(node, bc.Path),
			constant: sample.IsConstant(evals[ci])}
		w := c.width
		c.vals, c.v32 = ar.take(n*w), ar.take(n*w) // every entry is written below
		c.bad = -1
		if c.constant && n > 0 {
			// One value throughout: the first probe's, repeated.
			if prev != nil && from[0] >= 0 {
				copy(c.vals[:w], prev[ci].vals[from[0]*w:from[0]*w+w])
			} else {
				eng.Data(probes[0], ci, c.vals[:w])
			}
			for j, v := range c.vals[:w] {
				c.v32[j] = float64(float32(v))
				if v-v != 0 { // NaN or ±Inf
					c.bad = 0
				}
			}
			repeat(c.vals, w)
			repeat(c.v32, w)
			chans[ci] = c
			continue
		}
		for k, p := range probes {
			v := c.vals[k*w : k*w+w]
			switch {
			case prev != nil && from[k] >= 0:
				copy(v, prev[ci].vals[from[k]*w:from[k]*w+w])
			default:
				eng.Data(p, ci, v)
			}
			if c.kind == kindRotation && w == 4 && k > 0 {
				q := c.vals[(k-1)*w : k*w]
				if q[0]*v[0]+q[1]*v[1]+q[2]*v[2]+q[3]*v[3] < 0 {
					v[0], v[1], v[2], v[3] = -v[0], -v[1], -v[2], -v[3]
				}
			}
		}
		for j, v := range c.vals {
			c.v32[j] = float64(float32(v))
			if v-v != 0 && c.bad < 0 { // NaN or ±Inf
				c.bad = j / w
			}
		}
		chans[ci] = c
	}
	return chans
}

// repeat fills s with copies of its first w values.
func repeat(s []float64, w int) {
	for done := w; done < len(s); done *= 2 {
		copy(s[done:], s[:done])
	}
}

// suspect reports whether the interval from probe i to i+1, whose change
// is d[i] (d holds every interval's), may hold a jump no key announced:
// its change is above floor, it is not an announced jump, and its change
// per frame is more than 8 times that of each neighbour. Per frame, not
// per interval: probes are not evenly spaced (beside a jump they are a
// sixteenth of a frame apart, and Gerudo jumps at every frame), so a
// steady motion changes 16 times as much over a whole frame as over its
// neighbour's sixteenth. A neighbour that is an announced jump is compared
// by its change (its time span is one float32 step).
func suspect(d []float64, probes []fidelity.Probe, i int, floor float64) bool {
	if d[i] <= floor || probes[i+1].Jump {
		return false
	}
	rate := func(j int) float64 { return d[j] / max(probes[j+1].Frame-probes[j].Frame, 1e-9) }
	r := rate(i)
	for _, j := range [2]int{i - 1, i + 1} {
		if j < 0 || j >= len(d) {
			continue
		}
		if probes[j+1].Jump {
			if d[i] <= 8*d[j] {
				return false
			}
		} else if r <= 8*rate(j) {
			return false
		}
	}
	return true
}

// findJumps looks for discontinuities between neighbouring probes that no
// source key announced (a teleport inside a curve): an interval whose
// change dwarfs its neighbours' (suspect) is halved, following the half
// that holds the change, down to one float32 time step; a smooth change
// splits between the halves and is let go. It returns the frames just
// after each jump.
func findJumps(eng *fidelity.Engine, chans []*channel, probes []fidelity.Probe, src float64) []float64 {
	var edges []float64
	n := len(probes)
	var d []float64 // each channel's change between neighbouring probes, in turn
	for ci, c := range chans {
		if c.constant || c.width > 16 || n < 2 {
			continue
		}
		w := c.width
		if d == nil {
			d = make([]float64, n-1)
		}
		for i := range n - 1 {
			d[i] = c.err(c.vals[i*w:i*w+w], c.vals[(i+1)*w:(i+2)*w])
		}
		var vl, vm, vh [16]float64
		for i := range n - 1 {
			if !suspect(d, probes, i, 10*c.allowed) {
				continue
			}
			lo, hi := probes[i].Frame, probes[i+1].Frame
			copy(vl[:w], c.vals[i*w:i*w+w])
			copy(vh[:w], c.vals[(i+1)*w:(i+2)*w])
			found := false
			for range 80 {
				tl, th := float32(lo/src), float32(hi/src)
				if math.Nextafter32(tl, float32(math.Inf(1))) >= th {
					found = true
					break
				}
				mid := (lo + hi) / 2
				eng.Data(fidelity.Probe{Frame: mid}, ci, vm[:w])
				whole := c.err(vl[:w], vh[:w])
				dl, dh := c.err(vl[:w], vm[:w]), c.err(vm[:w], vh[:w])
				if max(dl, dh) < 0.9*whole {
					break // smooth: the change spreads over both halves
				}
				if dl > dh {
					hi, vh = mid, vm
				} else {
					lo, vl = mid, vm
				}
			}
			if found {
				edges = append(edges, hi)
			}
		}
	}
	return edges
}
