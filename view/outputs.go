package view

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/animbake/bake/manifest"
)

// Output is one glTF output a manifest lists, as the page's list shows it.
type Output struct {
	// ID names the output in URLs: the index of the PATH it is under, a
	// slash, and its path below that PATH.
	ID string `json:"id"`
	// URL is where the page loads it from (/files/ID).
	URL string `json:"url"`
	// Root is the PATH (as given) the output is under.
	Root string `json:"root"`
	// Path is the output's path relative to the manifest's folder.
	Path string `json:"path"`
	// Source is the input's path as the manifest records it.
	Source string `json:"source"`
	Format string `json:"format"`
	Size   int64  `json:"size"`
	// Others are the input's other outputs (JSON, Godot sidecars, other
	// glTF files of a --split run).
	Others   []string `json:"others,omitempty"`
	Clips    []Clip   `json:"clips"`
	Warnings []string `json:"warnings"`

	rootIndex int
	rel       string // path below the PATH, slash-separated
	input     manifest.Input
	options   map[string]string
	manDir    string // the manifest's folder
}

// Clip is one animation of a glTF output, from its clip table
// (scenes[0].extras.bake, docs/clients.md).
type Clip struct {
	Name string `json:"name"`
	// Duration is the clip's length in seconds (frameEnd / the table's fps).
	Duration float64 `json:"duration"`
	// FPS is the clip's output rate, SourceFPS its source frames per
	// second, SourceFrames its length in source frames.
	FPS          float64 `json:"fps"`
	SourceFPS    float64 `json:"sourceFps"`
	SourceFrames float64 `json:"sourceFrames"`
	// Loop is bake's mode: once, repeat or pingpong.
	Loop string `json:"loop"`
	// SourceName is the source's name of a renamed clip ("" when the
	// glTF name is the source's).
	SourceName string `json:"sourceName,omitempty"`
}

// maxManifests bounds the manifests one PATH may hold (each is read whole).
const maxManifests = 256

// findOutputs reads the manifests under each PATH (the PATH's own
// bake-manifest.json and those of its sub-folders; symbolic links are not
// followed) and lists their glTF outputs.
func findOutputs(paths []string, sources, version string) ([]*Output, error) {
	var outs []*Output
	for pi, root := range paths {
		var mans []string
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && p != root && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			if d.Type().IsRegular() && d.Name() == manifest.DefaultName {
				if len(mans) == maxManifests {
					return fmt.Errorf("more than %d manifests", maxManifests)
				}
				mans = append(mans, p)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", root, err)
		}
		if len(mans) == 0 {
			return nil, fmt.Errorf("%s: no %s in it or below it (bake view shows the outputs of a conversion run)", root, manifest.DefaultName)
		}
		for _, mp := range mans {
			m, err := manifest.ReadFile(mp)
			if err != nil {
				return nil, err
			}
			dir, _ := filepath.Rel(root, filepath.Dir(mp))
			for _, in := range m.Inputs {
				for _, o := range outputsOf(pi, root, filepath.Dir(mp), filepath.ToSlash(dir), in, m.Options.Values, sources) {
					if version != "" && m.Bake != version {
						o.Warnings = append(o.Warnings, fmt.Sprintf("written by bake %s, not this bake (%s): the readout measures the file's keys, "+
							"bake stats this bake's", m.Bake, version))
					}
					outs = append(outs, o)
				}
			}
		}
	}
	sort.SliceStable(outs, func(i, j int) bool { return outs[i].ID < outs[j].ID })
	return outs, nil
}

// outputsOf lists an input's glTF outputs, reading each one's clip table.
func outputsOf(pi int, root, manDir, dir string, in manifest.Input, options map[string]string, sources string) []*Output {
	var outs []*Output
	for _, f := range in.Outputs {
		ext := path.Ext(f.Path)
		if ext != ".glb" && ext != ".gltf" {
			continue
		}
		rel := path.Join(dir, f.Path)
		o := &Output{ID: fmt.Sprintf("%d/%s", pi, rel), Root: root, Path: f.Path, Source: in.Path, Format: in.Format,
			Size: f.Size, Clips: []Clip{}, Warnings: []string{}, rootIndex: pi, rel: rel, input: in, options: options, manDir: manDir}
		o.URL = "/files/" + o.ID
		for _, g := range in.Outputs {
			if g.Path != f.Path {
				o.Others = append(o.Others, g.Path)
			}
		}
		if in.Error != "" {
			o.Warnings = append(o.Warnings, "the last conversion failed: "+in.Error)
		}
		file := filepath.Join(manDir, filepath.FromSlash(f.Path))
		if st, err := os.Lstat(file); err != nil {
			o.Warnings = append(o.Warnings, "missing: "+f.Path)
		} else if st.Size() != f.Size {
			o.Warnings = append(o.Warnings, fmt.Sprintf("%s has %d bytes, the manifest says %d: changed since bake wrote it", f.Path, st.Size(), f.Size))
		}
		if st, err := os.Stat(sourcePath(sources, in.Path)); err != nil {
			o.Warnings = append(o.Warnings, "source not found from here: "+in.Path+" (run bake view where the conversion ran, or give --sources)")
		} else if st.Size() != in.Size {
			o.Warnings = append(o.Warnings, "the source has changed since the bake: "+in.Path)
		}
		if clips, err := readClips(file); err != nil {
			o.Warnings = append(o.Warnings, err.Error())
		} else {
			o.Clips = clips
		}
		outs = append(outs, o)
	}
	return outs
}

// sourcePath is where an input the manifest records (as bake was given
// it, relative to where bake ran) is read from: relative paths are taken
// from the folder sources.
func sourcePath(sources, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(sources, filepath.FromSlash(p))
}

// maxJSON bounds the glTF JSON read for the clip table.
const maxJSON = 64 << 20

// readClips reads a glTF's animations and clip table: the JSON chunk of
// a GLB only, or a .gltf file whole.
func readClips(file string) ([]Clip, error) {
	data, err := gltfJSON(file)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Animations []struct {
			Name string `json:"name"`
		} `json:"animations"`
		Scenes []struct {
			Extras struct {
				Bake map[string]any `json:"bake"`
			} `json:"extras"`
		} `json:"scenes"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Base(file), err)
	}
	var table map[string]any
	if len(doc.Scenes) > 0 {
		table = doc.Scenes[0].Extras.Bake
	}
	entries, _ := table["clips"].(map[string]any)
	clips := []Clip{}
	for _, a := range doc.Animations {
		entry, _ := entries[a.Name].(map[string]any)
		// A clip's value for a key is its entry's, else the table's
		// (docs/clients.md).
		num := func(key string, def float64) float64 {
			if v, ok := entry[key].(float64); ok {
				return v
			}
			if v, ok := table[key].(float64); ok {
				return v
			}
			return def
		}
		str := func(key, def string) string {
			if v, ok := entry[key].(string); ok {
				return v
			}
			if v, ok := table[key].(string); ok {
				return v
			}
			return def
		}
		tableFPS, _ := table["fps"].(float64)
		c := Clip{Name: a.Name, FPS: num("fps", tableFPS), Loop: str("loop", "once"), SourceName: str("sourceName", "")}
		c.SourceFPS = num("sourceFps", c.FPS)
		frameEnd := num("frameEnd", math.NaN())
		if tableFPS > 0 && !math.IsNaN(frameEnd) {
			c.Duration = frameEnd / tableFPS
			c.SourceFrames = num("sourceFrames", frameEnd*c.SourceFPS/tableFPS)
		}
		clips = append(clips, c)
	}
	return clips, nil
}

// gltfJSON returns a glTF file's JSON: a GLB's first chunk, or a .gltf.
func gltfJSON(file string) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var head [20]byte
	n, err := io.ReadFull(f, head[:])
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, fmt.Errorf("%s: %v", filepath.Base(file), err)
	}
	if n >= 4 && bytes.Equal(head[:4], []byte("glTF")) {
		if n < 20 || binary.LittleEndian.Uint32(head[16:]) != 0x4E4F534A {
			return nil, fmt.Errorf("%s: offset 0x10: expected the GLB's JSON chunk", filepath.Base(file))
		}
		size := binary.LittleEndian.Uint32(head[12:])
		if size > maxJSON {
			return nil, fmt.Errorf("%s: offset 0xc: JSON chunk of %d bytes, more than %d", filepath.Base(file), size, maxJSON)
		}
		data := make([]byte, size)
		if _, err := io.ReadFull(f, data); err != nil {
			return nil, fmt.Errorf("%s: offset 0x14: JSON chunk: %v", filepath.Base(file), err)
		}
		return data, nil
	}
	rest, err := io.ReadAll(io.LimitReader(f, maxJSON))
	if err != nil {
		return nil, err
	}
	return append(head[:n:n], rest...), nil
}
