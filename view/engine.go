package view

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/qmuntal/gltf"

	"github.com/animbake/bake/fidelity"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// clipView is the engine side of one clip of one output: the source clip
// compiled with the importer's rules, the glTF's keys of it, and the
// comparison of the two at any time.
type clipView struct {
	mu       sync.Mutex
	cmp      *fidelity.Comparison
	anim     *model.Animation
	fps      float64 // source frames per second (after --timebase)
	span     float64 // the baked timeline's length in source frames
	parents  []int
	names    []string
	distance string // where the virtual vertices are: mesh or shell
	warnings []string
}

// clipKey names a clipView in the cache.
type clipKey struct{ output, clip string }

// cache keeps the last few clipViews (a Gerudo-sized source takes seconds
// to decode).
type cache struct {
	mu    sync.Mutex
	max   int
	order []clipKey
	views map[clipKey]*clipView
}

func newCache(n int) *cache { return &cache{max: n, views: map[clipKey]*clipView{}} }

func (c *cache) get(k clipKey) *clipView {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.views[k]
}

func (c *cache) put(k clipKey, v *clipView) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.views[k]; !ok {
		c.order = append(c.order, k)
	}
	c.views[k] = v
	for len(c.order) > c.max {
		delete(c.views, c.order[0])
		c.order = c.order[1:]
	}
}

// errNotFound marks an output or clip the manifest does not list.
var errNotFound = errors.New("not found")

// clip returns the engine side of clip name of output id, loading it on
// first use: only outputs the manifests list, and only their sources.
func (s *Server) clip(id, name string) (*clipView, error) {
	o, ok := s.byID[id]
	if !ok {
		return nil, fmt.Errorf("output %q: %w in the manifests", id, errNotFound)
	}
	found := false
	for _, c := range o.Clips {
		found = found || c.Name == name
	}
	if !found {
		return nil, fmt.Errorf("clip %q: %w in %s", name, errNotFound, o.Path)
	}
	k := clipKey{id, name}
	if v := s.cache.get(k); v != nil {
		return v, nil
	}
	s.load.Lock()
	defer s.load.Unlock()
	if v := s.cache.get(k); v != nil {
		return v, nil
	}
	v, err := s.loadClip(o, name)
	if err != nil {
		return nil, err
	}
	s.cache.put(k, v)
	return v, nil
}

// loadClip decodes o's source as its run did, finds the clip, reads the
// glTF output and sets up their comparison in the output's axes.
func (s *Server) loadClip(o *Output, name string) (*clipView, error) {
	src := sourcePath(s.cfg.Sources, o.input.Path)
	d, err := s.decode(o, src)
	if err != nil {
		return nil, err
	}
	v := &clipView{warnings: d.warnings}
	files, opts := d.files, d.opts
	f, a := findClip(files, name, opts.LoopSuffix, o.Path)
	if a == nil {
		return nil, fmt.Errorf("%s: no animation gives the clip %q of %s", src, name, o.Path)
	}
	one := *f
	one.Animations = []model.Animation{*a}
	one.Curves = nil
	opts.NoSamples = true
	b, err := sample.Bake(&one, opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src, err)
	}
	doc, err := s.openGLTF(o)
	if err != nil {
		return nil, err
	}
	anim := -1
	for i, da := range doc.Animations {
		if da.Name == name {
			anim = i
		}
	}
	if anim < 0 {
		return nil, fmt.Errorf("%s: no animation %q", o.Path, name)
	}
	// The metric bake stats reports: virtual vertices at the mesh's
	// farthest vertices where the output has a mesh, else the 3 cm shell.
	v.cmp, err = fidelity.NewGLTFComparison(&one, b, &one.Animations[0], doc, anim, fidelity.MeasureOptions{Mesh: true})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.Path, err)
	}
	v.anim = &one.Animations[0]
	v.fps = b.Animations[0].SourceFPS
	v.span = sample.Span(v.anim)
	h := v.cmp.Hierarchy()
	v.names, v.parents, v.distance = h.Names, h.Parent, v.cmp.Distance()
	return v, nil
}

// decoded is a source file read for an output, kept for its other clips.
type decoded struct {
	output   string
	files    []*model.File
	opts     sample.Options
	warnings []string
}

// decode reads o's source with its run's options, or returns the last
// one read when it was o's (switching clips of one output reads the file
// once). Called with s.load held.
func (s *Server) decode(o *Output, src string) (*decoded, error) {
	if s.last != nil && s.last.output == o.ID {
		return s.last, nil
	}
	d := &decoded{output: o.ID}
	files, opts, err := s.cfg.Import(src, o.options, func(msg string) { d.warnings = append(d.warnings, msg) })
	if err != nil && len(files) == 0 {
		return nil, fmt.Errorf("%s: %w", src, err)
	}
	d.files, d.opts = files, opts
	s.last = d
	return d, nil
}

// openGLTF reads an output through its folder's os.Root (a .gltf's
// buffers and images too), so nothing outside the folder is read.
func (s *Server) openGLTF(o *Output) (*gltf.Document, error) {
	root := s.roots[o.rootIndex]
	dir, file := filepath.Split(filepath.FromSlash(o.rel))
	fsys := root.FS()
	if dir != "" {
		sub, err := root.OpenRoot(filepath.Clean(dir))
		if err != nil {
			return nil, err
		}
		defer sub.Close()
		fsys = sub.FS()
	}
	r, err := fsys.Open(file)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	doc := new(gltf.Document)
	if err := gltf.NewDecoderFS(r, fsys).Decode(doc); err != nil {
		return nil, fmt.Errorf("%s: %w", o.Path, err)
	}
	return doc, nil
}

// findClip finds the animation that became glTF clip name: by the output
// name bake gives it (sample.ClipNames, with the run's loop suffix), else
// by its source name. Among an archive's members that both have it, the
// member whose name the output path carries wins.
func findClip(files []*model.File, name string, loopSuffix bool, outPath string) (*model.File, *model.Animation) {
	var bestF *model.File
	var bestA *model.Animation
	for _, f := range files {
		names := sample.ClipNames(f.Animations, loopSuffix)
		for i := range f.Animations {
			if names[i] != name && f.Animations[i].Name != name {
				continue
			}
			if bestA == nil || (f.Name != "" && strings.Contains(outPath, f.Name)) {
				bestF, bestA = f, &f.Animations[i]
			}
		}
	}
	return bestF, bestA
}

// evalResult is the engine's pose at one time and its distance to the
// glTF's (the /api/eval answer).
type evalResult struct {
	Frame     float64 `json:"frame"`
	Time      float64 `json:"time"`
	SourceFPS float64 `json:"sourceFps"`
	Span      float64 `json:"span"`
	// Error is the fidelity metric at this time (metres; docs/fidelity.md),
	// WorstNode where it is, Interp which rotation blend gave it.
	Error     float64 `json:"error"`
	WorstNode string  `json:"worstNode"`
	Interp    string  `json:"interpolation"`
	// Distance says where the virtual vertices are: "mesh" (each node's
	// farthest mesh vertex) or "shell" (3 cm).
	Distance  string    `json:"distance"`
	Nodes     []string  `json:"nodes"`
	Parents   []int     `json:"parents"`
	Engine    []float64 `json:"engine"` // x, y, z of every node's origin
	NodeError []float64 `json:"nodeError"`
	Warnings  []string  `json:"warnings"`
}

// at evaluates the clip at source frame frame (clamped to the baked
// timeline).
func (v *clipView) at(frame float64) evalResult {
	v.mu.Lock()
	defer v.mu.Unlock()
	frame = min(max(frame, 0), v.span)
	r := v.cmp.At(frame, v.fps)
	world := v.cmp.EngineWorld()
	res := evalResult{Frame: frame, Time: fidelity.ProbeAt(frame, v.fps).Time, SourceFPS: v.fps, Span: v.span,
		Error: r.Max, WorstNode: r.WorstNode, Interp: r.WorstInterp.String(), Distance: v.distance, Nodes: v.names, Parents: v.parents,
		Engine: make([]float64, 0, 3*len(world)), NodeError: r.NodeMax, Warnings: v.warnings}
	if res.Warnings == nil {
		res.Warnings = []string{}
	}
	for _, m := range world {
		res.Engine = append(res.Engine, m[12], m[13], m[14])
	}
	return res
}

// curveChannel is one channel of a node over a clip: the engine's curve
// sampled densely and the glTF's keys.
type curveChannel struct {
	Path        string    `json:"path"`
	Width       int       `json:"width"`
	EngineTimes []float64 `json:"engineTimes"`
	Engine      []float64 `json:"engine"`
	KeyTimes    []float64 `json:"keyTimes"`
	Keys        []float64 `json:"keys"`
	Step        bool      `json:"step"`
}

// curveSamples is how many engine evaluations a source frame gets, and
// maxCurveSamples the most a channel gets.
const (
	curveSamples    = 8
	maxCurveSamples = 4096
)

// curves returns the channels that move node over the clip.
func (v *clipView) curves(node string) ([]curveChannel, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	h := v.cmp.Hierarchy()
	ni, ok := h.Index(node)
	if !ok {
		return nil, fmt.Errorf("node %q: %w", node, errNotFound)
	}
	n := int(min(v.span*curveSamples, maxCurveSamples))
	keys := v.cmp.Keys(ni)
	out := []curveChannel{}
	for ci, t := range v.cmp.Engine().Targets() {
		if t != ni {
			continue
		}
		path := v.anim.Channels[ci].Path
		c := curveChannel{Path: path}
		var key *fidelity.KeyChannel
		for _, k := range keys {
			if k.Path == path {
				key = k
			}
		}
		w := v.cmp.Engine().Evals()[ci].Width()
		if w > 16 {
			continue
		}
		c.Width = w
		var buf, kv [16]float64
		for j := 0; j <= n; j++ {
			fr := v.span * float64(j) / float64(max(n, 1))
			p := fidelity.ProbeAt(fr, v.fps)
			v.cmp.Engine().Data(p, ci, buf[:])
			if key != nil && path == model.PathRotation && w == 4 {
				// A quaternion and its negation are one rotation: draw
				// the engine's on the keys' side.
				key.At(p.Time, fidelity.Slerp, kv[:4])
				if buf[0]*kv[0]+buf[1]*kv[1]+buf[2]*kv[2]+buf[3]*kv[3] < 0 {
					for i := range 4 {
						buf[i] = -buf[i]
					}
				}
			}
			c.EngineTimes = append(c.EngineTimes, p.Time)
			c.Engine = append(c.Engine, buf[:w]...)
		}
		if key != nil {
			c.KeyTimes, c.Keys, c.Step = key.Times, key.Values, key.Step
		}
		out = append(out, c)
	}
	return out, nil
}
