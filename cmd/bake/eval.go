package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

const evalUsage = `Usage:
  bake eval [--json] FILE --anim NAME --frames F,F,... [--axes source|gltf] [--world]
  bake eval [--json] FILE --anim NAME --times T,T,... [--axes source|gltf] [--world]
  bake eval [--json] FILE --curve NAME --progress P,P,... [--axes source|gltf]

Evaluates an animation's channels at source frames (fractions allowed) or at
times in seconds since the clip starts, optionally with every node's world
matrix (column-major, column vectors); or a 3D curve's world position and
direction at progressions in [0,1]. Axes default to the engine's own.

Flags:
`

func runEval(args []string, stdout, stderr io.Writer) error {
	fs := pflag.NewFlagSet("bake eval", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "print JSON")
	anim := fs.String("anim", "", "animation name")
	curve := fs.String("curve", "", "curve name")
	framesArg := fs.String("frames", "", "source frames, comma separated")
	timesArg := fs.String("times", "", "seconds since the clip starts, comma separated")
	progArg := fs.String("progress", "", "curve progressions in [0,1], comma separated")
	axes := fs.String("axes", "source", "source (the engine's coordinates) or gltf")
	world := fs.Bool("world", false, "also print every node's world matrix")
	timebase := fs.Float64("timebase", 0, "override the source frame rate (source frames per second)")
	var imp importFlags
	if err := parseFlags(fs, &imp, args, evalUsage, stdout); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("eval takes exactly one FILE")
	}
	if *axes != "source" && *axes != "gltf" {
		return usagef("--axes must be source or gltf, not %q", *axes)
	}
	if (*anim == "") == (*curve == "") {
		return usagef("give exactly one of --anim and --curve")
	}
	path := fs.Arg(0)
	files, _, err := decodePath(path, imp.options(func(msg string) {
		fmt.Fprintf(stderr, "%s: warning: %s\n", path, msg)
	}))
	if err != nil && len(files) == 0 {
		return fmt.Errorf("%s: %w", path, err)
	} else if err != nil {
		fmt.Fprintf(stderr, "%s: %v (the other members are read)\n", path, err)
	}
	if *curve != "" {
		progress, err := parseList(*progArg, "--progress")
		if err != nil {
			return err
		}
		return evalCurve(stdout, path, files, *curve, progress, *axes, *asJSON)
	}
	if (*framesArg == "") == (*timesArg == "") {
		return usagef("give exactly one of --frames and --times")
	}
	f, a := findAnimation(files, *anim)
	if a == nil {
		return fmt.Errorf("%s: no animation named %q (see bake list)", path, *anim)
	}
	fps := a.FPS
	if *timebase > 0 {
		fps = *timebase
	}
	var frames, times []float64
	if *timesArg != "" {
		if times, err = parseList(*timesArg, "--times"); err != nil {
			return err
		}
		for _, t := range times {
			// Times run along the baked timeline, so loops wrap and
			// ping-pongs come back.
			frames = append(frames, sample.SourceFrame(a, t*fps))
		}
	} else if frames, err = parseList(*framesArg, "--frames"); err != nil {
		return err
	}
	return evalAnimation(stdout, path, f, a, fps, frames, times, *axes, *world, *asJSON)
}

func parseList(s, flag string) ([]float64, error) {
	if s == "" {
		return nil, usagef("%s needs a comma-separated list of numbers", flag)
	}
	var out []float64
	for _, part := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(part), 64)
		if err != nil {
			return nil, usagef("%s: %q is not a number", flag, part)
		}
		out = append(out, v)
	}
	return out, nil
}

// findAnimation finds a clip by its source name or by the output name the
// glTF and JSON carry (sample.ClipNames, with or without --loop-suffix).
func findAnimation(files []*model.File, name string) (*model.File, *model.Animation) {
	for _, f := range files {
		for i := range f.Animations {
			if f.Animations[i].Name == name {
				return f, &f.Animations[i]
			}
		}
	}
	for _, suffix := range []bool{false, true} {
		for _, f := range files {
			for i, out := range sample.ClipNames(f.Animations, suffix) {
				if out == name {
					return f, &f.Animations[i]
				}
			}
		}
	}
	return nil, nil
}

func converterFor(f *model.File, axes string) *sample.Converter {
	if axes == "gltf" {
		return sample.NewConverter(f.Axes)
	}
	return sample.NewConverter(model.GLTFAxes)
}

type evalChannel struct {
	Node     string      `json:"node,omitempty"`
	Material string      `json:"material,omitempty"`
	Path     string      `json:"path"`
	Values   [][]float64 `json:"values"`
}

type evalResult struct {
	File      string                   `json:"file"`
	Animation string                   `json:"animation"`
	SourceFPS float64                  `json:"sourceFps"`
	Axes      string                   `json:"axes"`
	Frames    []float64                `json:"frames"`
	Times     []float64                `json:"times,omitempty"`
	Channels  []evalChannel            `json:"channels"`
	World     map[string][][16]float64 `json:"world,omitempty"`
}

func evalAnimation(w io.Writer, path string, f *model.File, a *model.Animation, fps float64,
	frames, times []float64, axes string, world, asJSON bool) error {
	if err := f.Validate(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	clip, err := sample.CompileClip(a)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	cv := converterFor(f, axes)
	res := evalResult{File: path, Animation: a.Name, SourceFPS: fps, Axes: axes, Frames: frames, Times: times,
		Channels: []evalChannel{}}
	for i, ch := range a.Channels {
		ec := evalChannel{Node: ch.Node, Material: ch.Material, Path: ch.Path}
		for _, fr := range frames {
			ec.Values = append(ec.Values, clip.Values(i, fr, cv))
		}
		res.Channels = append(res.Channels, ec)
	}
	if world {
		res.World = map[string][][16]float64{}
		for _, fr := range frames {
			m := clip.WorldMatrices(f, fr, cv)
			for i, n := range f.Nodes {
				res.World[n.Name] = append(res.World[n.Name], m[i])
			}
		}
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	fmt.Fprintf(w, "%s: %s at %g frames/s, axes %s\n", path, a.Name, fps, axes)
	for k, fr := range frames {
		if times != nil {
			fmt.Fprintf(w, "t=%gs (frame %g)\n", times[k], fr)
		} else {
			fmt.Fprintf(w, "frame %g\n", fr)
		}
		for _, ch := range res.Channels {
			fmt.Fprintf(w, "  %s.%s = %s\n", ch.Node+ch.Material, ch.Path, numbers(ch.Values[k]))
		}
		if world {
			for _, n := range f.Nodes {
				fmt.Fprintf(w, "  world %s = %s\n", n.Name, numbers(res.World[n.Name][k][:]))
			}
		}
	}
	return nil
}

func numbers(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.FormatFloat(x, 'g', 9, 64)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func evalCurve(w io.Writer, path string, files []*model.File, name string, progress []float64, axes string, asJSON bool) error {
	for _, f := range files {
		for _, c := range f.Curves {
			if c.Name != name {
				continue
			}
			ev, err := sample.Compile(c.Curve)
			if err != nil {
				return fmt.Errorf("%s: curve %q: %w", path, name, err)
			}
			if ev.Width() != 6 {
				return fmt.Errorf("%s: curve %q evaluates to %d components, want 6", path, name, ev.Width())
			}
			cv := converterFor(f, axes)
			res := struct {
				File       string       `json:"file"`
				Curve      string       `json:"curve"`
				Axes       string       `json:"axes"`
				Progress   []float64    `json:"progress"`
				Positions  [][3]float64 `json:"positions"`
				Directions [][3]float64 `json:"directions"`
			}{File: path, Curve: name, Axes: axes, Progress: progress}
			for _, p := range progress {
				var v [6]float64
				ev.Eval(p, v[:])
				cv.Position(v[:3])
				cv.Direction(v[3:])
				res.Positions = append(res.Positions, [3]float64{v[0], v[1], v[2]})
				res.Directions = append(res.Directions, [3]float64{v[3], v[4], v[5]})
			}
			if asJSON {
				enc := json.NewEncoder(w)
				enc.SetIndent("", "  ")
				return enc.Encode(res)
			}
			fmt.Fprintf(w, "%s: curve %s, axes %s\n", path, name, axes)
			for i, p := range progress {
				fmt.Fprintf(w, "  p=%g position %s direction %s\n", p, numbers(res.Positions[i][:]), numbers(res.Directions[i][:]))
			}
			return nil
		}
	}
	return fmt.Errorf("%s: no curve named %q (see bake list)", path, name)
}
