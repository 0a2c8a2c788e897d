package oniwrite

import (
	"fmt"
	"math"
)

// Figures of the retail CD (oni-oban.txt): OBANs, frames over all of
// them, loops, and quarter-turned doors.
const (
	CorpusObans  = 1067
	CorpusFrames = 334386
	CorpusLoops  = 37
	CorpusDoors  = 13
	corpusLevels = 14 // level1..level14; the doors go to level0
)

// Corpus builds a synthetic CD-sized set of level files for benchmarks:
// CorpusObans OBANs holding CorpusFrames frames in all, CorpusDoors doors
// (flag 0x10, 100 frames, open at 50) in level0_Final.dat with
// placeholders for them in the other levels, CorpusLoops looping props,
// one key about every 10 frames, and OBOA arrays naming half of the
// unnamed animations. It is deterministic.
func Corpus() []NamedFile {
	frames := corpusFrameCounts()
	levels := make([]*File, corpusLevels+1)
	for i := range levels {
		levels[i] = &File{Kind: LevelFile, Level: i}
	}
	var doors []string
	for i := range CorpusDoors {
		name := fmt.Sprintf("door_%02d", i)
		doors = append(doors, name)
		levels[0].Instances = append(levels[0].Instances, ObanInstance(name, corpusDoor(frames[i])))
	}
	loops := 0
	for i := CorpusDoors; i < CorpusObans; i++ {
		lv := levels[1+i%corpusLevels]
		o := corpusProp(i, frames[i])
		if loops < CorpusLoops && i%7 == 0 {
			o.Flags |= FlagLoop
			loops++
		}
		name := ""
		if i%3 != 0 {
			name = fmt.Sprintf("prop_%04d", i)
		}
		lv.Instances = append(lv.Instances, ObanInstance(name, o))
	}
	out := []NamedFile{}
	for n, lv := range levels {
		if n > 0 {
			var objs []ObjectSetup
			for j, in := range lv.Instances {
				if in.Name == "" && j%2 == 0 {
					objs = append(objs, ObjectSetup{Anim: j, Name: fmt.Sprintf("object_%d_%d", n, j)})
				}
			}
			lv.Instances = append(lv.Instances, OBOAInstance("", objs))
			for _, d := range doors {
				lv.Instances = append(lv.Instances, Placeholder("OBAN", d))
			}
		}
		out = append(out, NamedFile{Name: fmt.Sprintf("level%d_Final.dat", n), Data: lv.Bytes()})
	}
	return out
}

// corpusFrameCounts spreads CorpusFrames over the OBANs: 100 for each
// door, a deterministic spread between 60 and 580 for the rest, then the
// difference shared out one frame at a time.
func corpusFrameCounts() []int {
	f := make([]int, CorpusObans)
	sum := 0
	for i := range f {
		if i < CorpusDoors {
			f[i] = 100
		} else {
			f[i] = 60 + (i*7919)%521
		}
		sum += f[i]
	}
	for d, i := CorpusFrames-sum, CorpusDoors; d != 0; i++ {
		if i == CorpusObans {
			i = CorpusDoors
		}
		if d > 0 {
			f[i]++
			d--
		} else if f[i] > 2 {
			f[i]--
			d++
		}
	}
	return f
}

// corpusDoor is a door like DemoDoor with the given frame count.
func corpusDoor(frames int) *Oban {
	o := &Oban{Flags: FlagLocalized, Start: Identity, Base: Identity, TicksPerFrame: 80, Frames: uint16(frames), HalfStopFrame: uint16(frames / 2)}
	half := uint32(frames / 2)
	o.Keys = []Key{
		{Quaternion: AxisAngle(0, 0, 1, 0), Frame: 0},
		{Quaternion: AxisAngle(0, 0, 1, math.Pi/2), Frame: half},
		{Quaternion: AxisAngle(0, 0, 1, 0), Frame: uint32(frames - 1)},
	}
	return o
}

// corpusProp is a prop wandering on a circle while it turns, keyed about
// every 10 frames from 0 to frames−1.
func corpusProp(i, frames int) *Oban {
	o := &Oban{Start: Identity, Base: Scale(1.82, 1.82, 1.82), TicksPerFrame: 80, Frames: uint16(frames)}
	last := frames - 1
	for f := 0; ; f += 10 {
		if f > last {
			f = last
		}
		u := float64(f) / float64(max(last, 1))
		ang := 2 * math.Pi * (u + float64(i)/CorpusObans)
		o.Keys = append(o.Keys, Key{
			Quaternion: AxisAngle(0, 1, 0, ang),
			Position:   [3]float32{float32(100 * math.Cos(ang)), float32(i % 50), float32(100 * math.Sin(ang))},
			Frame:      uint32(f),
		})
		if f == last {
			break
		}
	}
	o.Start[9], o.Start[10], o.Start[11] = o.Keys[0].Position[0], o.Keys[0].Position[1], o.Keys[0].Position[2]
	return o
}
