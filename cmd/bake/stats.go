package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"text/tabwriter"

	"github.com/qmuntal/gltf"
	"github.com/spf13/pflag"

	"github.com/animbake/bake/fidelity"
	"github.com/animbake/bake/format"
	"github.com/animbake/bake/sample"
)

const statsUsage = `Usage: bake stats [--json] [--tolerance M] [--fps R] PATH...

Bakes every recognised file as the conversion would (same --fps, --axes,
--timebase, --tolerance) and reports per clip the keys written, the bytes
their accessors take, and the fidelity metric (docs/fidelity.md): the
largest and the 99th-percentile distance, in metres, between where the
engine and a glTF client (slerp and nlerp, the worse) put virtual vertices
along every node's axes (at its farthest mesh vertex where the output has
a mesh, else at --shell, 3 cm), probed at every key, 4 times per source frame,
at every source key and on both sides of every discontinuity. It also
prints each clip's largest error at the source frames k alone (asked at
k/fps, as an application asks for frame k) and a bound on the error at any
time (docs/fidelity.md, "Any time"): the error measured at the probes plus
what the curves' derivatives allow between them, with the probe intervals
halved (up to 8 times, measuring only) where the bound exceeds --between
(1 mm when not given).

Flags:
`

type statsFile struct {
	File       string      `json:"file"`
	Name       string      `json:"name,omitempty"`
	Format     string      `json:"format"`
	Keys       int         `json:"keys"`
	Bytes      int         `json:"bytes"`
	Max        float64     `json:"maxError"`
	P99        float64     `json:"p99Error"`
	Clips      []statsClip `json:"animations"`
	Error      string      `json:"error,omitempty"`
	Tolerance  float64     `json:"tolerance"`
	DataMax    float64     `json:"maxDataError"`
	DataFailed int         `json:"dataChannelsOverTolerance"`
	// Distance says where the virtual vertices are: "mesh" (each joint's
	// farthest mesh vertex, fidelity.NodeDistances) or "shell".
	Distance string `json:"errorDistance"`
}

type statsClip struct {
	Name string `json:"name"`
	// Keys counts keys over every channel, Bytes their accessor bytes
	// (times shared between channels counted once).
	Keys        int     `json:"keys"`
	Bytes       int     `json:"bytes"`
	Max         float64 `json:"maxError"`
	P99         float64 `json:"p99Error"`
	WorstNode   string  `json:"worstNode,omitempty"`
	WorstTime   float64 `json:"worstTime"`
	WorstInterp string  `json:"worstInterpolation"`
	// DataMax is the worst non-TRS channel error over its tolerance.
	DataMax float64 `json:"maxDataError"`
	Probes  int     `json:"probes"`
	// Frames is the largest error at the source frames k/fps alone;
	// AnyTime bounds the error at any time (null when no bound could be
	// derived: AnyTimeHow says why).
	Frames     float64  `json:"framesMaxError"`
	FramesHow  string   `json:"framesHow"`
	AnyTime    *float64 `json:"anyTimeBound"`
	AnyTimeHow string   `json:"anyTimeHow"`
	// AnyTimeProbes is the largest error measured at the probes the bound
	// was refined with: the true largest error lies between it and the
	// bound.
	AnyTimeProbes float64 `json:"anyTimeMeasured"`
}

// defaultAnyTimeLimit is where stats refines the any-time bound without
// --between: 1 mm.
const defaultAnyTimeLimit = 1e-3

// framesHow says how the error at frames is obtained.
const framesHow = "measured at every source frame k, asked at k/fps in float64, the hierarchy composed, slerp and nlerp"

// withFrames adds a clip's error at frames and its any-time bound.
func (c *statsClip) withFrames(r *fidelity.Result) {
	if r.Frames != nil {
		c.Frames, c.FramesHow = r.Frames.Max, framesHow
	}
	if a := r.AnyTime; a != nil {
		c.AnyTimeHow, c.AnyTimeProbes = a.How(), a.Probes
		if !math.IsInf(a.Bound, 0) {
			b := a.Bound
			c.AnyTime = &b
		}
	}
}

func runStats(args []string, stdout, stderr io.Writer) error {
	var cfg convertConfig
	fs := pflag.NewFlagSet("bake stats", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "print JSON")
	fs.StringVar(&cfg.fps, "fps", "native", "output samples per second, or native")
	fs.Float64Var(&cfg.timebase, "timebase", 0, "override the source frame rate (source frames per second)")
	fs.StringVar(&cfg.axes, "axes", "gltf", "output coordinates: gltf or source")
	cfg.keyFlags(fs)
	shell := fs.Float64("shell", fidelity.DefaultShell, "shell distance of the virtual vertices in metres")
	perFrame := fs.Int("measure-probes", fidelity.ProbesPerFrame, "regular probes per source frame of the measurement")
	midpoints := fs.Bool("midpoints", false, "also probe halfway between consecutive key times")
	atFrame := fs.Float64("at-frame", -1, "measure only at this source frame of every clip (the error bake view reads out there)")
	atFrames := fs.Bool("at-frames", false, "measure only at the source frames k/fps (float64) and the clip's end: the default keys' contract")
	against := fs.String("against", "", "measure this glTF/GLB (another tool's rendition of the one input file's bake) instead of bake's keys")
	if err := parseFlags(fs, &cfg.common, args, statsUsage, stdout); err != nil {
		return err
	}
	if *perFrame < 1 || *perFrame > 256 || !(*shell > 0) {
		return usagef("--measure-probes must be in [1, 256] and --shell positive")
	}
	cfg.formats, cfg.jobs, cfg.textures = []string{"glb"}, 1, "none"
	opts, err := cfg.check()
	if err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("no input paths given")
	}
	if *against != "" && fs.NArg() != 1 {
		return usagef("--against measures the rendition of one input file")
	}
	jobs, err := collect(fs.Args())
	if err != nil {
		return err
	}
	out := struct {
		Files []statsFile `json:"files"`
	}{Files: []statsFile{}}
	failed := false
	for _, j := range jobs {
		files, fmtName, err := decodePath(j.path, cfg.common.options(func(msg string) {
			fmt.Fprintf(stderr, "%s: warning: %s\n", j.path, msg)
		}))
		if errors.Is(err, format.ErrUnknown) {
			continue
		}
		if err != nil {
			failed = true
			fmt.Fprintf(stderr, "%s: %v\n", j.path, err)
		}
		for _, f := range files {
			sf := statsFile{File: j.path, Name: f.Name, Format: fmtName, Tolerance: cfg.tolerance, Clips: []statsClip{}}
			b, err := cfg.bake(f, opts)
			var res []fidelity.Result
			if err == nil {
				mo := fidelity.MeasureOptions{Shell: *shell, PerFrame: *perFrame, Midpoints: *midpoints, AtFrames: *atFrames,
					Mesh: true, AnyTime: true, AnyTimeLimit: cfg.between}
				if mo.AnyTimeLimit <= 0 {
					mo.AnyTimeLimit = defaultAnyTimeLimit
				}
				sf.Distance = fidelity.NodeDistances(b.Nodes, &b.Assets, *shell).Source()
				if *against != "" {
					var doc *gltf.Document
					if doc, err = gltf.Open(*against); err == nil {
						res, err = fidelity.MeasureGLTF(f, b, doc, mo)
					}
				} else if *atFrame >= 0 {
					res, err = fidelity.MeasureBakedAt(f, b, *atFrame, mo)
				} else {
					res, err = fidelity.MeasureBaked(f, b, mo)
				}
			}
			if err != nil {
				failed = true
				sf.Error = err.Error()
				fmt.Fprintf(stderr, "%s: %v\n", j.path, err)
				out.Files = append(out.Files, sf)
				continue
			}
			var hist []int64
			for i := range b.Animations {
				ba, r := &b.Animations[i], res[i]
				if hist == nil {
					hist = make([]int64, len(r.Hist))
				}
				for k, c := range r.Hist {
					hist[k] += c
				}
				keys, bytes := clipSize(ba)
				sc := statsClip{Name: ba.Name, Keys: keys, Bytes: bytes, Max: r.Max, P99: r.P99, WorstNode: r.WorstNode,
					WorstTime: r.WorstTime, WorstInterp: r.WorstInterp.String(), DataMax: r.DataMax, Probes: r.Probes}
				sc.withFrames(&r)
				sf.Clips = append(sf.Clips, sc)
				sf.Keys += keys
				sf.Bytes += bytes
				sf.Max = max(sf.Max, r.Max)
				sf.DataMax = max(sf.DataMax, r.DataMax)
				if r.DataMax > 1 {
					sf.DataFailed++
				}
			}
			sf.P99 = fidelity.Percentile(0.99, hist)
			if *against != "" {
				// The rendition measured is the other file: its size, not bake's keys.
				sf.Keys = 0
				if st, err := os.Stat(*against); err == nil {
					sf.Bytes = int(st.Size())
				}
			}
			out.Files = append(out.Files, sf)
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return err
		}
	} else {
		printStats(stdout, out.Files)
	}
	if failed {
		return errSomeFailed
	}
	return nil
}

// clipSize counts a clip's keys and the bytes of its accessors: float32
// values, and each distinct time array once.
func clipSize(ba *sample.BakedAnimation) (keys, bytes int) {
	seen := map[*float64]bool{}
	for i := range ba.Channels {
		c := &ba.Channels[i]
		ts := c.KeyTimes(ba)
		keys += len(ts)
		bytes += 4 * len(c.Values)
		if len(ts) > 0 && !seen[&ts[0]] {
			seen[&ts[0]] = true
			bytes += 4 * len(ts)
		}
	}
	return keys, bytes
}

func printStats(w io.Writer, files []statsFile) {
	for _, f := range files {
		name := f.File
		if f.Name != "" {
			name += " [" + f.Name + "]"
		}
		if f.Error != "" {
			fmt.Fprintf(w, "%s: %s\n", name, f.Error)
			continue
		}
		fmt.Fprintf(w, "%s (%s): %d keys, %d bytes, max error %.3g m, p99 %.3g m (tolerance %g m, virtual vertices at the %s)\n", name, f.Format, f.Keys, f.Bytes, f.Max, f.P99, f.Tolerance, map[string]string{"mesh": "mesh vertices", "shell": "shell"}[f.Distance])
		tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "  animation\tkeys\tbytes\tmax (m)\tp99 (m)\tworst at\tdata/tol\tframes (m)\tany time (m)")
		notes := map[string]bool{}
		for _, c := range f.Clips {
			anyTime := "-"
			if c.AnyTime != nil {
				anyTime = fmt.Sprintf("%.3g", *c.AnyTime)
			} else if c.AnyTimeHow != "" {
				notes[c.Name+": "+c.AnyTimeHow] = true
			}
			fmt.Fprintf(tw, "  %s\t%d\t%d\t%.3g\t%.3g\t%s t=%.4gs %s\t%.3g\t%.3g\t%s\n", c.Name, c.Keys, c.Bytes, c.Max, c.P99, c.WorstNode, c.WorstTime, c.WorstInterp, c.DataMax, c.Frames, anyTime)
		}
		tw.Flush()
		fmt.Fprintf(w, "  frames: %s; any time: %s\n", framesHow, fidelity.AnyTime{}.How())
		for _, n := range slices.Sorted(maps.Keys(notes)) {
			fmt.Fprintf(w, "  any time, %s\n", n)
		}
	}
}
