// Package gltf writes baked animations as glTF 2.0 (.glb, or .gltf with a
// .bin buffer) through github.com/qmuntal/gltf. Output is deterministic:
// the same baked input always gives the same bytes.
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
	// LoopSuffix appends "-loop" to repeating animations' names, Godot's
	// import convention for looping clips.
	LoopSuffix bool
}

// DataNodeName names the empty node that carries clips whose channels are
// all data (visibility, material, camera values): glTF needs at least one
// channel per animation, so such clips hold a constant STEP scale on it.
const DataNodeName = "bake:data"

// Encode writes b as glTF. It returns the main file and, for .gltf output,
// the .bin buffer (nil for .glb).
func Encode(b *sample.Baked, opts Options) (main, bin []byte, err error) {
	w := newWriter(b)
	doc, err := w.document(opts)
	if err != nil {
		return nil, nil, err
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
		return nil, nil, err
	}
	return out.Bytes(), bin, nil
}

type writer struct {
	b     *sample.Baked
	doc   *gltf.Document
	buf   []byte
	index map[string]int
	assetIndex
}

func newWriter(b *sample.Baked) *writer {
	return &writer{b: b, doc: &gltf.Document{Asset: gltf.Asset{Version: "2.0", Generator: Generator}},
		index: make(map[string]int, len(b.Nodes)), assetIndex: newAssetIndex()}
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
	if ex := fileExtras(w.b); len(ex) > 0 {
		doc.Extras = ex
	}
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
