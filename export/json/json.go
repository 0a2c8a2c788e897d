// Package json writes baked animations in bake's documented JSON form
// ("bake.animation/1", see docs/json.md). Numbers are written with float32
// precision, the precision of the glTF output, in their shortest form.
package json

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"

	"github.com/animbake/bake/sample"
)

// FormatID is the value of the top-level "format" member.
const FormatID = "bake.animation/1"

// F32 is a number written with float32 precision in its shortest form.
type F32 float64

// MarshalJSON implements json.Marshaler.
func (f F32) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, v, 'g', -1, 32), nil
}

// Document is the top level of the JSON form.
type Document struct {
	Format     string         `json:"format"`
	Name       string         `json:"name,omitempty"`
	Source     Source         `json:"source"`
	Axes       string         `json:"axes"`
	Nodes      []Node         `json:"nodes"`
	Animations []Animation    `json:"animations"`
	Curves     []Curve        `json:"curves,omitempty"`
	Assets     *Assets        `json:"assets,omitempty"`
	Extras     map[string]any `json:"extras,omitempty"`
}

// Source names the input file.
type Source struct {
	File   string `json:"file"`
	Format string `json:"format"`
	SHA256 string `json:"sha256"`
}

// Node is a node with its rest transform.
type Node struct {
	Name        string         `json:"name"`
	Parent      *string        `json:"parent"`
	Kind        string         `json:"kind,omitempty"`
	Translation []F32          `json:"translation"`
	Rotation    []F32          `json:"rotation"`
	Scale       []F32          `json:"scale"`
	Matrix      []F32          `json:"matrix,omitempty"`
	Mesh        string         `json:"mesh,omitempty"`
	Skin        string         `json:"skin,omitempty"`
	Camera      string         `json:"camera,omitempty"`
	Light       string         `json:"light,omitempty"`
	Extras      map[string]any `json:"extras,omitempty"`
}

// Animation is one baked clip.
type Animation struct {
	Name         string         `json:"name"`
	Loop         string         `json:"loop"`
	SourceFPS    F32            `json:"sourceFps"`
	SourceFrames F32            `json:"sourceFrames"`
	FPS          F32            `json:"fps"`
	Duration     F32            `json:"duration"`
	Channels     []Channel      `json:"channels"`
	Events       []Event        `json:"events"`
	Extras       map[string]any `json:"extras,omitempty"`
}

// Channel is one animated property with its samples.
type Channel struct {
	Node          string   `json:"node,omitempty"`
	Material      string   `json:"material,omitempty"`
	TextureSlot   string   `json:"textureSlot,omitempty"`
	Path          string   `json:"path"`
	Interpolation string   `json:"interpolation"`
	Labels        []string `json:"labels,omitempty"`
	Times         []F32    `json:"times"`
	Values        [][]F32  `json:"values"`
}

// Event is a timed notification.
type Event struct {
	Time  F32            `json:"time"`
	Frame F32            `json:"frame"`
	Name  string         `json:"name"`
	Node  string         `json:"node,omitempty"`
	Args  map[string]any `json:"args,omitempty"`
}

// Curve is a 3D path with positions every 1/100 of its length.
type Curve struct {
	Name       string         `json:"name"`
	Closed     bool           `json:"closed"`
	Length     F32            `json:"length"`
	Positions  [][]F32        `json:"positions"`
	Directions [][]F32        `json:"directions"`
	Extras     map[string]any `json:"extras,omitempty"`
}

// Encode returns the JSON form of b on one line (the sample arrays make an
// indented form several times larger), ending in a newline.
func Encode(b *sample.Baked) ([]byte, error) {
	doc := Build(b)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Build converts a bake into the JSON document structure.
func Build(b *sample.Baked) *Document {
	doc := &Document{Format: FormatID, Name: b.Name, Axes: b.Axes, Extras: b.Extras,
		Source: Source{File: b.Source.Path, Format: b.Source.Format, SHA256: b.Source.SHA256},
		Nodes:  make([]Node, 0, len(b.Nodes)), Animations: make([]Animation, 0, len(b.Animations))}
	for _, n := range b.Nodes {
		jn := Node{Name: n.Name, Kind: n.Kind, Extras: n.Extras, Mesh: n.Mesh, Skin: n.Skin, Camera: n.Camera, Light: n.Light,
			Translation: f32s(n.Translation[:]), Rotation: f32s(n.Rotation[:]), Scale: f32s(n.Scale[:])}
		if n.Parent >= 0 {
			p := b.Nodes[n.Parent].Name
			jn.Parent = &p
		}
		if n.Matrix != nil {
			jn.Matrix = f32s(n.Matrix[:])
		}
		doc.Nodes = append(doc.Nodes, jn)
	}
	for _, a := range b.Animations {
		ja := Animation{Name: a.Name, Loop: a.Loop, SourceFPS: F32(a.SourceFPS), SourceFrames: F32(a.SourceFrames),
			FPS: F32(a.FPS), Duration: F32(a.Duration), Extras: a.Extras,
			Channels: make([]Channel, 0, len(a.Channels)), Events: make([]Event, 0, len(a.Events))}
		for _, c := range a.Channels {
			interp := "LINEAR"
			if c.Step {
				interp = "STEP"
			}
			ja.Channels = append(ja.Channels, Channel{Node: c.Node, Material: c.Material, TextureSlot: c.TextureSlot, Path: c.Path,
				Interpolation: interp, Labels: c.Labels, Times: f32s(c.KeyTimes(&a)), Values: rows(c.Values, c.Width)})
		}
		for _, e := range a.Events {
			ja.Events = append(ja.Events, Event{Time: F32(e.Time), Frame: F32(e.Frame), Name: e.Name, Node: e.Node, Args: e.Args})
		}
		doc.Animations = append(doc.Animations, ja)
	}
	for _, c := range b.Curves {
		doc.Curves = append(doc.Curves, Curve{Name: c.Name, Closed: c.Closed, Length: F32(c.Length),
			Positions: rows(c.Positions, 3), Directions: rows(c.Directions, 3), Extras: c.Extras})
	}
	doc.Assets = buildAssets(&b.Assets)
	return doc
}

func f32s(v []float64) []F32 {
	out := make([]F32, len(v))
	for i, x := range v {
		out[i] = F32(x)
	}
	return out
}

func rows(values []float64, width int) [][]F32 {
	out := make([][]F32, 0, len(values)/max(width, 1))
	for i := 0; i+width <= len(values); i += width {
		out = append(out, f32s(values[i:i+width]))
	}
	return out
}
