package model

import "testing"

// ccs-anime-playback.txt "Playback": a loop (−2) is posed at N − 1 and then
// reset to 0, so it is N − 1 frames long; a play-once clip (−1) ends at
// N − 1 and holds.
func TestCcAnmTimingLoopIsNMinusOne(t *testing.T) {
	for _, tc := range []struct {
		timing      CcAnmTiming
		end, period float64
		mode        string
	}{
		{CcAnmTiming{Frames: 31, Loop: true}, 30, 30, LoopRepeat},
		{CcAnmTiming{Frames: 31}, 30, 0, LoopOnce},
		{CcAnmTiming{Frames: 2, Loop: true}, 1, 1, LoopRepeat},
		{CcAnmTiming{Frames: 1, Loop: true}, 0, 0, LoopOnce},
		{CcAnmTiming{Frames: 0}, 0, 0, LoopOnce},
	} {
		if e, p, m := tc.timing.End(), tc.timing.Period(), tc.timing.LoopMode(); e != tc.end || p != tc.period || m != tc.mode {
			t.Errorf("%+v: end %v period %v mode %s, want %v %v %s", tc.timing, e, p, m, tc.end, tc.period, tc.mode)
		}
	}
}

func TestCcAnmValidate(t *testing.T) {
	bad := []CurveValidator{
		&CcAnmTrack{Kind: CcAnmKeyed, Width: 1},
		&CcAnmTrack{Kind: CcAnmKeyed, Width: 3, Frames: []uint32{0}, Values: []float32{1}},
		&CcAnmTrack{Kind: CcAnmStepped, Width: 1, Frames: []uint32{2, 2}, Values: []float32{1, 2}},
		&CcAnmTrack{Kind: CcAnmConstant, Width: 0},
		&CcAnmTrack{Kind: 3, Width: 1, Values: []float32{1}},
		&CcAnmRotation{Kind: CcAnmConstant},
		&CcAnmRotation{Kind: CcAnmKeyed, Frames: []uint32{0}, Degrees: []float32{1, 2}},
		&CcAnmRotation{Kind: CcAnmQuatKeyed, Frames: []uint32{0}, Quats: []float32{0, 0, 0}},
		&CcAnmRotation{Kind: 7},
	}
	for i, c := range bad {
		if c.Validate() == nil {
			t.Errorf("case %d: %+v validated", i, c)
		}
	}
	good := []CurveValidator{
		&CcAnmTrack{Kind: CcAnmAbsent, Width: 3, Values: []float32{1, 1, 1}},
		// Keys that go back or repeat are legal: they are part of the semantics.
		&CcAnmTrack{Kind: CcAnmKeyed, Width: 1, Frames: []uint32{0, 4, 2, 2}, Values: []float32{1, 2, 3, 4}},
		&CcAnmRotation{Kind: CcAnmAbsent},
		&CcAnmRotation{Kind: CcAnmKeyed, Frames: []uint32{0}, Degrees: []float32{1, 2, 3}},
	}
	for i, c := range good {
		if err := c.Validate(); err != nil {
			t.Errorf("good case %d: %v", i, err)
		}
	}
}
