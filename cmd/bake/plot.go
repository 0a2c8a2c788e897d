package main

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"

	"github.com/spf13/pflag"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

const plotUsage = `Usage: bake plot FILE --anim NAME [--node N] -o plot.svg

Draws each channel over time, one panel per component: the engine's curve
evaluated densely (line), the baked samples at --fps (crosses) and the source
keys (dots), so the exact baking can be checked by eye. Components that never
change (by more than 1e-6) are left out unless --all is given.

Flags:
`

func runPlot(args []string, stdout, stderr io.Writer) error {
	fs := pflag.NewFlagSet("bake plot", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	anim := fs.String("anim", "", "animation name")
	node := fs.String("node", "", "only the channels of this node (or material)")
	out := fs.StringP("out", "o", "", "SVG file to write")
	fps := fs.String("fps", "native", "samples per second of the drawn curve")
	axes := fs.String("axes", "source", "source or gltf")
	all := fs.Bool("all", false, "also draw components that never change")
	var imp importFlags
	if err := parseFlags(fs, &imp, args, plotUsage, stdout); err != nil {
		return err
	}
	if fs.NArg() != 1 || *anim == "" || *out == "" {
		return usagef("plot needs FILE, --anim NAME and -o OUT.svg")
	}
	if filepath.Ext(*out) != ".svg" {
		return usagef("plot writes SVG: -o must end in .svg")
	}
	rate, err := parseFPS(*fps)
	if err != nil {
		return err
	}
	path := fs.Arg(0)
	files, _, err := decodePath(path, imp.options(func(msg string) { fmt.Fprintf(stderr, "%s: warning: %s\n", path, msg) }))
	if err != nil && len(files) == 0 {
		return fmt.Errorf("%s: %w", path, err)
	} else if err != nil {
		fmt.Fprintf(stderr, "%s: %v (the other members are read)\n", path, err)
	}
	f, a := findAnimation(files, *anim)
	if a == nil {
		return fmt.Errorf("%s: no animation named %q (see bake list)", path, *anim)
	}
	one := *f
	one.Animations = []model.Animation{*a}
	one.Curves = nil
	baked, err := sample.Bake(&one, sample.Options{FPS: rate, Axes: *axes})
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	srcFPS := a.FPS
	dense, err := sample.Bake(&one, sample.Options{FPS: denseSamples * max(srcFPS, rate), Axes: *axes})
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	clip, err := sample.CompileClip(a)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	only := *node
	for i, out := range sample.NodeNames(f.Nodes) {
		if f.Nodes[i].Name == only {
			only = out // the baked channels carry output names
		}
	}
	svg, err := drawPlot(&baked.Animations[0], &dense.Animations[0], clip, converterFor(f, *axes), only, *all)
	if err != nil {
		return err
	}
	return writeAtomic(*out, svg)
}

var componentNames = map[string][]string{
	model.PathTranslation: {"x", "y", "z"},
	model.PathScale:       {"x", "y", "z"},
	model.PathRotation:    {"x", "y", "z", "w"},
	model.PathUVOffset:    {"u", "v"},
	model.PathUVScale:     {"u", "v"},
}

// denseSamples is how many curve evaluations the line has per baked sample.
const denseSamples = 8

// drawPlot renders one panel per channel component, stacked vertically:
// the dense evaluation as a line, the baked samples as crosses and the
// source keys as dots.
func drawPlot(a, dense *sample.BakedAnimation, clip *sample.Clip, cv *sample.Converter, only string, all bool) ([]byte, error) {
	var panels []*plot.Plot
	for ci, c := range a.Channels {
		if only != "" && c.Node != only && c.Material != only {
			continue
		}
		target := c.Node + c.Material
		for comp := range c.Width {
			name := fmt.Sprint(comp)
			if names, ok := componentNames[c.Path]; ok && comp < len(names) {
				name = names[comp]
			}
			if !all && constant(dense.Channels[ci].Values, c.Width, comp) {
				continue
			}
			p := plot.New()
			p.Title.Text = fmt.Sprintf("%s  %s.%s", target, c.Path, name)
			p.X.Label.Text = "time (s)"
			dc := dense.Channels[ci]
			line := make(plotter.XYs, len(dense.Times))
			for i, t := range dense.Times {
				line[i] = plotter.XY{X: t, Y: dc.Values[i*dc.Width+comp]}
			}
			l, err := plotter.NewLine(line)
			if err != nil {
				return nil, err
			}
			l.Color = color.RGBA{R: 30, G: 90, B: 200, A: 255}
			if c.Step {
				l.StepStyle = plotter.PostStep
			}
			p.Add(l)
			samples := make(plotter.XYs, len(a.Times))
			for i, t := range a.Times {
				samples[i] = plotter.XY{X: t, Y: c.Values[i*c.Width+comp]}
			}
			if len(samples) <= 4000 {
				sc, err := plotter.NewScatter(samples)
				if err != nil {
					return nil, err
				}
				sc.GlyphStyle.Color = color.RGBA{R: 20, G: 20, B: 20, A: 255}
				sc.GlyphStyle.Radius = vg.Points(1.5)
				sc.GlyphStyle.Shape = draw.CrossGlyph{}
				p.Add(sc)
			}
			if len(panels) == 0 {
				p.Title.Text = "line: engine curve   ×: baked samples   •: source keys\n" + p.Title.Text
			}
			if len(c.KeyFrames) > 0 {
				var keys plotter.XYs
				for _, fr := range c.KeyFrames {
					if fr < 0 || fr/a.SourceFPS > a.Duration+1e-9 {
						continue
					}
					v := clip.Values(ci, fr, cv)
					keys = append(keys, plotter.XY{X: fr / a.SourceFPS, Y: v[comp]})
				}
				if len(keys) > 0 && len(keys) <= 2000 {
					s, err := plotter.NewScatter(keys)
					if err != nil {
						return nil, err
					}
					s.GlyphStyle.Color = color.RGBA{R: 210, G: 60, B: 30, A: 255}
					s.GlyphStyle.Radius = vg.Points(2)
					s.GlyphStyle.Shape = draw.CircleGlyph{}
					p.Add(s)
				}
			}
			panels = append(panels, p)
		}
	}
	if len(panels) == 0 {
		return nil, fmt.Errorf("animation %q has nothing to plot (no channel changes; try --all or another --node)", a.Name)
	}
	const rowHeight = 2.2 * vg.Inch
	width := 8 * vg.Inch
	height := rowHeight * vg.Length(len(panels))
	canvas := vgsvg.New(width, height)
	dc := draw.New(canvas)
	tiles := draw.Tiles{Rows: len(panels), Cols: 1, PadX: vg.Millimeter, PadY: vg.Millimeter,
		PadTop: vg.Millimeter, PadBottom: vg.Millimeter, PadLeft: vg.Millimeter, PadRight: vg.Millimeter}
	grid := make([][]*plot.Plot, len(panels))
	for i, p := range panels {
		grid[i] = []*plot.Plot{p}
	}
	canvases := plot.Align(grid, tiles, dc)
	for i, p := range panels {
		p.Draw(canvases[i][0])
	}
	var buf bytes.Buffer
	if _, err := canvas.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// constant reports whether component comp stays within 1e-6 of its first
// value in every row (float noise such as 1e-8 in a quaternion component
// would otherwise fill a panel).
func constant(values []float64, width, comp int) bool {
	for i := comp + width; i < len(values); i += width {
		if math.Abs(values[i]-values[comp]) > 1e-6 {
			return false
		}
	}
	return true
}
