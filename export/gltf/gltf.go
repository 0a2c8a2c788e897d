// Package gltf writes baked animations as glTF 2.0 (.glb, or .gltf with a
// .bin buffer) through github.com/qmuntal/gltf. Output is deterministic:
// the same baked input always gives the same bytes.
//
// The JSON is kept small, since it outweighs the keys of small animation
// files, without dropping anything a reader needs: every fact about a
// clip is written once, in the scene's clip table (fileExtras), with
// values the clips share on the table and defaults left out; animation
// extras hold only channels glTF cannot animate; accessors share buffer
// views (animData, meshData); numbers are float32s in their shortest
// decimal form (Short32). docs/clients.md documents the layout.
package gltf

import (
	"bytes"
	"fmt"

	"github.com/qmuntal/gltf"

	"github.com/animbake/bake/sample"
)

// Generator is written to asset.generator.
const Generator = "bake"

// Options control the glTF output.
type Options struct {
	// Binary writes one .glb; otherwise a .gltf whose buffer is BinName.
	Binary bool
	// BinName is the .bin file name the .gltf refers to (no directories).
	BinName string
	// Textures is TexturesEmbed (""), TexturesExternal or TexturesNone.
	Textures string
	// ImagePrefix starts the names of external image files (the output's
	// base name, no directories): "<prefix>_<n>_<texture>.png".
	ImagePrefix string
}

// Texture modes: images inside the buffer, beside the output as files the
// glTF refers to by URI, or not written at all (materials keep their
// colours and name their textures in extras).
const (
	TexturesEmbed    = "embed"
	TexturesExternal = "external"
	TexturesNone     = "none"
)

// File is an extra output file (an external image), named relative to
// the glTF it belongs to.
type File struct {
	Name string
	Data []byte
}

// DataNodeName names the empty node that carries clips whose channels are
// all data (visibility, material, camera values): glTF needs at least one
// channel per animation, so such clips hold a constant STEP scale on it.
const DataNodeName = "bake_data"

// Encode writes b as glTF. It returns the main file and, for .gltf output,
// the .bin buffer (nil for .glb). External images (Options.Textures) are
// only returned by EncodeFiles.
func Encode(b *sample.Baked, opts Options) (main, bin []byte, err error) {
	main, bin, _, err = EncodeFiles(b, opts)
	return main, bin, err
}

// EncodeFiles is Encode that also returns the external image files.
func EncodeFiles(b *sample.Baked, opts Options) (main, bin []byte, images []File, err error) {
	w := newWriter(b)
	w.opts = opts
	doc, err := w.document(opts)
	if err != nil {
		return nil, nil, nil, err
	}
	var out bytes.Buffer
	enc := gltf.NewEncoder(&out)
	enc.AsBinary = opts.Binary
	if !opts.Binary {
		enc.SetJSONIndent("", " ")
		if len(doc.Buffers) > 0 {
			doc.Buffers[0].URI = opts.BinName
			bin = doc.Buffers[0].Data
		}
	}
	if err := enc.Encode(doc); err != nil {
		return nil, nil, nil, err
	}
	return out.Bytes(), bin, w.images, nil
}

type writer struct {
	b     *sample.Baked
	doc   *gltf.Document
	buf   []byte
	index map[string]int
	opts  Options
	// images are the external image files (Options.Textures external).
	images []File
	// meshViews are the buffer views mesh accessors share (meshData), by
	// target and stride, in the order made.
	meshViews     map[[2]int]*meshView
	meshViewOrder []*meshView
	assetIndex
}

func newWriter(b *sample.Baked) *writer {
	return &writer{b: b, doc: &gltf.Document{Asset: gltf.Asset{Version: "2.0", Generator: Generator}},
		index: make(map[string]int, len(b.Nodes)), assetIndex: newAssetIndex(), meshViews: map[[2]int]*meshView{}}
}

func (w *writer) document(opts Options) (*gltf.Document, error) {
	doc := w.doc
	scene := &gltf.Scene{Name: w.b.Name}
	if scene.Name == "" {
		scene.Name = "bake"
	}
	if err := w.assets(); err != nil {
		return nil, err
	}
	w.nodes(scene)
	w.attachAssets()
	w.animations(opts, scene)
	w.finishAssets()
	doc.Scenes = []*gltf.Scene{scene}
	doc.Scene = gltf.Index(0)
	scene.Extras = fileExtras(w.b, doc.Animations)
	if len(w.buf) > 0 {
		doc.Buffers = []*gltf.Buffer{{ByteLength: len(w.buf), Data: w.buf}}
	}
	return doc, nil
}

// check that Encode's result parses back; used by tests.
func decode(data []byte) (*gltf.Document, error) {
	doc := new(gltf.Document)
	if err := gltf.NewDecoder(bytes.NewReader(data)).Decode(doc); err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	return doc, nil
}
