package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/pflag"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

const listUsage = `Usage: bake list [--json] PATH...

Lists, per recognised file, its format, animations (name, loop mode, source
frame rate, source frames, duration, channel count), nodes and curves.

Flags:
`

// listFile is one file in bake list's JSON output.
type listFile struct {
	File       string          `json:"file"`
	Name       string          `json:"name,omitempty"`
	Format     string          `json:"format"`
	Animations []listAnimation `json:"animations"`
	Nodes      []listNode      `json:"nodes"`
	Curves     []listCurve     `json:"curves,omitempty"`
	Error      string          `json:"error,omitempty"`
}

type listAnimation struct {
	Name         string  `json:"name"`
	Loop         string  `json:"loop"`
	SourceFPS    float64 `json:"sourceFps"`
	SourceFrames float64 `json:"sourceFrames"`
	Duration     float64 `json:"duration"`
	Channels     int     `json:"channels"`
	DrivenBy     string  `json:"drivenBy,omitempty"`
}

type listNode struct {
	Name   string  `json:"name"`
	Parent *string `json:"parent"`
}

type listCurve struct {
	Name   string  `json:"name"`
	Closed bool    `json:"closed"`
	Length float64 `json:"length"`
}

func runList(args []string, stdout, stderr io.Writer) error {
	fs := pflag.NewFlagSet("bake list", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "print JSON")
	timebase := fs.Float64("timebase", 0, "override the source frame rate (source frames per second)")
	verbose := fs.BoolP("verbose", "v", false, "also list skipped files")
	var imp importFlags
	if err := parseFlags(fs, &imp, args, listUsage, stdout); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("no input paths given")
	}
	jobs, err := collect(fs.Args())
	if err != nil {
		return err
	}
	out := struct {
		Files []listFile `json:"files"`
	}{Files: []listFile{}}
	failed := false
	for _, j := range jobs {
		files, fmtName, err := decodePath(j.path, imp.options(func(msg string) {
			fmt.Fprintf(stderr, "%s: warning: %s\n", j.path, msg)
		}))
		if errors.Is(err, format.ErrUnknown) {
			if *verbose {
				fmt.Fprintf(stderr, "%s: skipped (not a recognised animation file)\n", j.path)
			}
			continue
		}
		if err != nil {
			failed = true
			fmt.Fprintf(stderr, "%s: %v\n", j.path, err)
		}
		for _, f := range files {
			out.Files = append(out.Files, describe(j.path, fmtName, f, *timebase))
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return err
		}
	} else {
		printList(stdout, out.Files)
	}
	if failed {
		return errSomeFailed
	}
	return nil
}

func describe(path, fmtName string, f *model.File, timebase float64) listFile {
	lf := listFile{File: path, Name: f.Name, Format: fmtName, Animations: []listAnimation{}, Nodes: []listNode{}}
	for i := range f.Animations {
		a := &f.Animations[i]
		fps := a.FPS
		if timebase > 0 {
			fps = timebase
		}
		la := listAnimation{Name: a.Name, Loop: a.Loop, SourceFPS: fps, SourceFrames: a.Frames,
			Duration: sample.Span(a) / fps, Channels: len(a.Channels)}
		if d, ok := a.Extras["drivenBy"].(string); ok {
			la.DrivenBy = d
		}
		lf.Animations = append(lf.Animations, la)
	}
	for _, n := range f.Nodes {
		ln := listNode{Name: n.Name}
		if n.Parent >= 0 {
			p := f.Nodes[n.Parent].Name
			ln.Parent = &p
		}
		lf.Nodes = append(lf.Nodes, ln)
	}
	for _, c := range f.Curves {
		lf.Curves = append(lf.Curves, listCurve{Name: c.Name, Closed: c.Closed, Length: c.Length})
	}
	return lf
}

func printList(w io.Writer, files []listFile) {
	for _, f := range files {
		name := f.File
		if f.Name != "" {
			name += " [" + f.Name + "]"
		}
		fmt.Fprintf(w, "%s (%s): %d animations, %d nodes", name, f.Format, len(f.Animations), len(f.Nodes))
		if len(f.Curves) > 0 {
			fmt.Fprintf(w, ", %d curves", len(f.Curves))
		}
		fmt.Fprintln(w)
		tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
		if len(f.Animations) > 0 {
			fmt.Fprintln(tw, "  animation\tloop\tsourceFps\tsourceFrames\tduration\tchannels\tdriven by")
		}
		for _, a := range f.Animations {
			driven := a.DrivenBy
			if driven == "" {
				driven = "frames"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%g\t%g\t%.3fs\t%d\t%s\n", a.Name, a.Loop, a.SourceFPS, a.SourceFrames, a.Duration, a.Channels, driven)
		}
		tw.Flush()
		for _, c := range f.Curves {
			closed := "open"
			if c.Closed {
				closed = "closed"
			}
			fmt.Fprintf(w, "  curve %s: %s, length %.2f\n", c.Name, closed, c.Length)
		}
		if len(f.Nodes) > 0 {
			fmt.Fprint(w, "  nodes:")
			for _, n := range f.Nodes {
				if n.Parent != nil {
					fmt.Fprintf(w, " %s(<%s)", n.Name, *n.Parent)
				} else {
					fmt.Fprintf(w, " %s", n.Name)
				}
			}
			fmt.Fprintln(w)
		}
	}
}
