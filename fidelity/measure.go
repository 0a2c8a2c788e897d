package fidelity

import (
	"math"
	"slices"

	"github.com/animbake/bake/model"
)

// Result is the metric of one clip.
type Result struct {
	// Max and P99 are the largest and the 99th-percentile vertex error in
	// metres over every (node, probe) pair; P99 is read from a histogram
	// with 0.25 % wide bins (an upper bound within that).
	Max, P99 float64
	// WorstNode and WorstTime say where Max is; WorstInterp which rotation
	// blend showed it.
	WorstNode   string
	WorstTime   float64
	WorstInterp Interp
	// NodeMax is each node's largest error.
	NodeMax []float64
	// Probes is the number of probe times, Samples the (node, probe) pairs.
	Probes, Samples int
	// Hist counts the (node, probe) errors in the bins P99 is read from,
	// so that clips can be pooled (Percentile).
	Hist []int64
	// DataMax is the worst non-TRS channel's error as a fraction of its
	// tolerance (ChannelTolerance): above 1 fails. DataChannel (its index in
	// the played clip) and DataTime say where.
	DataMax     float64
	DataChannel int
	DataTime    float64
	// Frames is the metric at every source frame k alone, asked at k/fps
	// in float64 as an application asks for frame k (FrameProbes), and
	// AnyTime the bound at any time; set with MeasureOptions.AnyTime.
	Frames  *Result
	AnyTime *AnyTime
}

// Meter measures clips of one hierarchy. It holds the per-probe buffers, so
// one Meter serves one goroutine.
type Meter struct {
	h           *Hierarchy
	dist        Distances
	refL, playL []TRS
	refW, playW [][16]float64
	nodeErr     []float64
	hist        []int64
	dref, dplay [16]float64
	data        []DataChannel
}

// histogram: 1000 bins per decade from 1e-12 m to 1e4 m.
const (
	histLo      = -12
	histDecades = 16
	histPer     = 1000
)

// NewMeter prepares a meter for hierarchy h with the given shell distance
// (DefaultShell when 0).
func NewMeter(h *Hierarchy, shell float64) *Meter {
	if shell <= 0 {
		shell = DefaultShell
	}
	n := len(h.Parent)
	return &Meter{h: h, dist: Shells(len(h.Parent), shell), refL: make([]TRS, n), playL: make([]TRS, n),
		refW: make([][16]float64, n), playW: make([][16]float64, n), nodeErr: make([]float64, n), hist: make([]int64, histDecades*histPer+2)}
}

// SetDistances sets the nodes' error distances (NodeDistances: the mesh's
// vertices where the output has one) in place of the shell.
func (m *Meter) SetDistances(d Distances) { m.dist = d }

// DataChannel is a non-TRS channel to compare: its index in the reference
// player and in the played clip, and its width and tolerance.
type DataChannel struct {
	Ref, Play, Width int
	Tolerance        float64
}

// DataChannels sets the data channels the next Measure compares (none by
// default).
func (m *Meter) DataChannels(chans []DataChannel) { m.data = chans }

// Measure compares the reference player with each of plays (typically the
// same keys with Slerp and with Nlerp) at every probe and reports the
// worse. modes names each play's rotation blend for the report. The plays
// must animate the same nodes (they share one pose buffer).
func (m *Meter) Measure(ref Player, plays []Player, modes []Interp, probes []Probe) Result {
	h := m.h
	res := Result{NodeMax: make([]float64, len(h.Parent)), Probes: len(probes), DataChannel: -1}
	clear(m.hist)
	// Players overwrite what they animate at every probe, the same nodes
	// each time, so the rest pose is laid down once.
	copy(m.refL, h.Rest)
	copy(m.playL, h.Rest)
	for _, p := range probes {
		ref.Pose(p, m.refL)
		h.World(m.refL, m.refW)
		for pi, play := range plays {
			play.Pose(p, m.playL)
			h.World(m.playL, m.playW)
			for i := range m.refW {
				e := VertexError(&m.refW[i], &m.playW[i], m.dist.Of[i])
				if pi == 0 || e > m.nodeErr[i] {
					m.nodeErr[i] = e
				}
				if e > res.Max {
					res.Max, res.WorstNode, res.WorstTime, res.WorstInterp = e, h.Names[i], p.Time, modes[pi]
				}
			}
			if len(m.data) > 0 {
				m.measureData(ref, play, p, &res)
			}
		}
		for i, e := range m.nodeErr {
			m.record(e)
			res.NodeMax[i] = max(res.NodeMax[i], e)
		}
	}
	res.Samples = len(probes) * len(h.Parent)
	res.Hist = slices.Clone(m.hist)
	res.P99 = Percentile(0.99, res.Hist)
	return res
}

func (m *Meter) measureData(ref, play Player, p Probe, res *Result) {
	rd, ok1 := ref.(DataPlayer)
	pd, ok2 := play.(DataPlayer)
	if !ok1 || !ok2 {
		return
	}
	for _, c := range m.data {
		w := c.Width
		if w > len(m.dref) {
			continue
		}
		if !rd.Data(p, c.Ref, m.dref[:w]) || !pd.Data(p, c.Play, m.dplay[:w]) {
			continue
		}
		var e float64
		for j := range w {
			e = max(e, math.Abs(m.dref[j]-m.dplay[j]))
		}
		if r := e / c.Tolerance; r > res.DataMax {
			res.DataMax, res.DataChannel, res.DataTime = r, c.Play, p.Time
		}
	}
}

// record counts one (node, probe) pair's error, the worse of the blends,
// for the percentile.
func (m *Meter) record(e float64) {
	if e <= 0 {
		m.hist[0]++
		return
	}
	b := int(math.Floor((math.Log10(e)-histLo)*histPer)) + 1
	b = min(max(b, 0), len(m.hist)-1)
	m.hist[b]++
}

// Percentile reads the q-quantile of the errors counted in hist (one or
// more Results' Hist added together), as the upper edge of its bin.
func Percentile(q float64, hist []int64) float64 {
	var sum int64
	for _, c := range hist {
		sum += c
	}
	if sum == 0 {
		return 0
	}
	need := int64(math.Ceil(q * float64(sum)))
	var acc int64
	for b, c := range hist {
		acc += c
		if acc >= need {
			if b == 0 {
				return 0
			}
			return math.Pow(10, histLo+float64(b)/histPer)
		}
	}
	return math.Inf(1)
}

// ChannelTolerance is the absolute tolerance of a non-TRS channel in its
// own units (docs/fidelity.md): visibility and texture patterns are exact
// (0.5 of their integer step, so any wrong step fails), alpha 1/1024 (a
// quarter of an 8-bit display step), morph weights 1e-4 (0.1 mm on a
// target that moves a vertex 1 m), UV offset and scale 1e-4 (a tenth of a
// texel of a 1024-texel texture), UV rotation 1e-4 rad, anything else
// (camera and light values) 1e-4 in its unit.
func ChannelTolerance(path string) float64 {
	switch path {
	case model.PathVisibility, model.PathTexturePattern:
		return 0.5
	case model.PathAlpha:
		return 1.0 / 1024
	}
	return 1e-4
}
