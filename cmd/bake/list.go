package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
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
	Meshes     []listMesh      `json:"meshes,omitempty"`
	Materials  []listMaterial  `json:"materials,omitempty"`
	Textures   []listTexture   `json:"textures,omitempty"`
	Skins      []listSkin      `json:"skins,omitempty"`
	Cameras    []listCamera    `json:"cameras,omitempty"`
	Lights     []listLight     `json:"lights,omitempty"`
	Error      string          `json:"error,omitempty"`
}

type listMesh struct {
	Name       string   `json:"name"`
	Nodes      []string `json:"nodes"`
	Primitives int      `json:"primitives"`
	Vertices   int      `json:"vertices"`
	Triangles  int      `json:"triangles"`
	Targets    int      `json:"morphTargets,omitempty"`
	Skinned    bool     `json:"skinned,omitempty"`
}

type listMaterial struct {
	Name     string   `json:"name"`
	Textures []string `json:"textures,omitempty"`
	Alpha    string   `json:"alphaMode,omitempty"`
}

type listTexture struct {
	Name   string `json:"name"`
	Width  int    `json:"width,omitempty"`
	Height int    `json:"height,omitempty"`
	// Image is "pixels", the stored file's MIME type, or "missing FILE".
	Image string `json:"image"`
}

type listSkin struct {
	Name   string `json:"name"`
	Joints int    `json:"joints"`
}

type listCamera struct {
	Name string  `json:"name"`
	Type string  `json:"type"`
	Yfov float64 `json:"yfov,omitempty"`
}

type listLight struct {
	Name string `json:"name"`
	Type string `json:"type"`
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
	describeAssets(&lf, f)
	return lf
}

// describeAssets lists the file's meshes (with the nodes that show them and
// their vertex and triangle counts), materials, textures, skins, cameras
// and lights.
func describeAssets(lf *listFile, f *model.File) {
	shownBy := map[string][]string{}
	skinned := map[string]bool{}
	for _, n := range f.Nodes {
		if n.Mesh != "" {
			shownBy[n.Mesh] = append(shownBy[n.Mesh], n.Name)
			skinned[n.Mesh] = skinned[n.Mesh] || n.Skin != ""
		}
	}
	for _, m := range f.Meshes {
		lm := listMesh{Name: m.Name, Nodes: shownBy[m.Name], Primitives: len(m.Primitives), Targets: len(m.TargetNames), Skinned: skinned[m.Name]}
		if lm.Nodes == nil {
			lm.Nodes = []string{}
		}
		for _, p := range m.Primitives {
			lm.Vertices += len(p.Positions) / 3
			lm.Triangles += triangles(&p)
		}
		lf.Meshes = append(lf.Meshes, lm)
	}
	for _, m := range f.Materials {
		lm := listMaterial{Name: m.Name, Alpha: m.AlphaMode}
		for _, t := range []model.TextureRef{m.BaseColorTexture, m.MetallicRoughnessTexture, m.Normal, m.Occlusion, m.EmissiveTexture} {
			if t.Texture != "" {
				lm.Textures = append(lm.Textures, t.Texture)
			}
		}
		lf.Materials = append(lf.Materials, lm)
	}
	for _, t := range f.Textures {
		lt := listTexture{Name: t.Name, Width: t.Image.Width, Height: t.Image.Height, Image: "pixels"}
		switch {
		case t.Image.RGBA != nil:
		case t.Image.Bytes != nil:
			lt.Image = t.Image.MIME
		default:
			lt.Image = "missing " + t.Image.URI
		}
		lf.Textures = append(lf.Textures, lt)
	}
	for _, s := range f.Skins {
		lf.Skins = append(lf.Skins, listSkin{Name: s.Name, Joints: len(s.Joints)})
	}
	for _, c := range f.Cameras {
		lf.Cameras = append(lf.Cameras, listCamera{Name: c.Name, Type: c.Type, Yfov: c.Yfov})
	}
	for _, l := range f.Lights {
		lf.Lights = append(lf.Lights, listLight{Name: l.Name, Type: l.Type})
	}
}

// triangles counts the triangles a primitive draws (0 for points and lines).
func triangles(p *model.Primitive) int {
	n := len(p.Indices)
	if p.Indices == nil {
		n = len(p.Positions) / 3
	}
	switch p.Mode {
	case model.ModeTriangles:
		return n / 3
	case model.ModeTriangleStrip, model.ModeTriangleFan:
		return max(n-2, 0)
	}
	return 0
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
		for _, k := range []struct {
			n    int
			kind string
		}{{len(f.Meshes), "meshes"}, {len(f.Materials), "materials"}, {len(f.Textures), "textures"},
			{len(f.Skins), "skins"}, {len(f.Cameras), "cameras"}, {len(f.Lights), "lights"}} {
			if k.n > 0 {
				fmt.Fprintf(w, ", %d %s", k.n, k.kind)
			}
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
		printAssets(w, &f)
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

func printAssets(w io.Writer, f *listFile) {
	for _, m := range f.Meshes {
		extra := ""
		if m.Skinned {
			extra += ", skinned"
		}
		if m.Targets > 0 {
			extra += fmt.Sprintf(", %d morph targets", m.Targets)
		}
		fmt.Fprintf(w, "  mesh %s: %d vertices, %d triangles, %d primitives%s, on %s\n", m.Name, m.Vertices, m.Triangles,
			m.Primitives, extra, strings.Join(m.Nodes, " "))
	}
	for _, m := range f.Materials {
		fmt.Fprintf(w, "  material %s", m.Name)
		if len(m.Textures) > 0 {
			fmt.Fprintf(w, ": %s", strings.Join(m.Textures, " "))
		}
		if m.Alpha != "" && m.Alpha != model.AlphaOpaque {
			fmt.Fprintf(w, " (%s)", strings.ToLower(m.Alpha))
		}
		fmt.Fprintln(w)
	}
	for _, t := range f.Textures {
		if t.Width > 0 {
			fmt.Fprintf(w, "  texture %s: %d×%d %s\n", t.Name, t.Width, t.Height, t.Image)
		} else {
			fmt.Fprintf(w, "  texture %s: %s\n", t.Name, t.Image)
		}
	}
	for _, s := range f.Skins {
		fmt.Fprintf(w, "  skin %s: %d joints\n", s.Name, s.Joints)
	}
	for _, c := range f.Cameras {
		fmt.Fprintf(w, "  camera %s: %s\n", c.Name, c.Type)
	}
	for _, l := range f.Lights {
		fmt.Fprintf(w, "  light %s: %s\n", l.Name, l.Type)
	}
}
