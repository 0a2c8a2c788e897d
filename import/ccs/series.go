package ccs

import "github.com/animbake/bake/model"

// series collects per-frame values of one target into a stepped ccAnm
// track: each value holds from its frame on. Records of one frame replace
// each other (the last one read is the one in force).
type series struct {
	width  int
	frames []uint32
	values []float32
}

func newSeries(width int) *series { return &series{width: width} }

// set records vals at frame; frames arrive in non-decreasing order.
func (s *series) set(frame uint32, vals []float32) {
	if n := len(s.frames); n > 0 && s.frames[n-1] == frame {
		copy(s.values[(n-1)*s.width:], vals)
		return
	}
	s.frames = append(s.frames, frame)
	s.values = append(s.values, vals[:s.width]...)
}

// last returns the most recent value, or def when there is none.
func (s *series) last(def []float32) []float32 {
	if len(s.frames) == 0 {
		return def
	}
	return s.values[len(s.values)-s.width:]
}

// startAtZero prepends rest at frame 0 when the first record comes later:
// before its first record an object shows its rest pose.
func (s *series) startAtZero(rest []float32) {
	if len(s.frames) == 0 || s.frames[0] == 0 {
		return
	}
	s.frames = append([]uint32{0}, s.frames...)
	s.values = append(append([]float32(nil), rest[:s.width]...), s.values...)
}

// track returns the series as a stepped ccAnm track.
func (s *series) track(tm model.CcAnmTiming) *model.CcAnmTrack {
	return &model.CcAnmTrack{Timing: tm, Kind: model.CcAnmStepped, Width: s.width, Frames: s.frames, Values: s.values}
}

// rotation returns a width-3 series of Euler degrees as a stepped ccAnm
// rotation (each triple through sceVu0RotMatrix, not quantised).
func (s *series) rotation(tm model.CcAnmTiming) *model.CcAnmRotation {
	return &model.CcAnmRotation{Timing: tm, Kind: model.CcAnmStepped, Frames: s.frames, Degrees: s.values}
}

// orderedKeys keeps map keys in first-seen order.
type orderedKeys[K comparable, V any] struct {
	keys []K
	m    map[K]V
}

func (o *orderedKeys[K, V]) get(k K, mk func() V) V {
	if o.m == nil {
		o.m = map[K]V{}
	}
	v, ok := o.m[k]
	if !ok {
		v = mk()
		o.m[k] = v
		o.keys = append(o.keys, k)
	}
	return v
}
