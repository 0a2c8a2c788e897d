// Package ccswrite writes CyberConnect2 CCSF files, gzip members and
// DATA.BIN archives for bake's tests, fuzz seeds and benchmarks
// (specs/ccs-container.md). It writes exactly the layouts the importer
// reads, plus the documented traps (the Texture chunk's +50-word size, the
// bare setup chunk of later generations), so each rule can be exercised on
// hand-built input.
package ccswrite

import (
	"encoding/binary"
	"math"
)

// Builder assembles one CCSF file: header, index, setup, the object chunks
// in the order they are added, a Stream chunk and the final end marker.
type Builder struct {
	// Name is the header's file name (at most 31 bytes).
	Name string
	// Version is the header's version word (0x110 for generation 1).
	Version uint32
	// BareSetup writes the setup chunk as the words 3, 0 without the
	// 0xCCCC half, as S01.CCS (version 0x123) does.
	BareSetup bool
	files     []string
	objects   []object
	chunks    []byte
}

type object struct {
	name string
	file uint16
}

// New starts a file with the given header name and version. The index's
// slot 0 (file and object) is the reserved null entry.
func New(name string, version uint32) *Builder {
	return &Builder{Name: name, Version: version, files: []string{""}, objects: []object{{}}}
}

// Object adds an object-table entry named name, from source file file
// (added to the file table when new), and returns its id.
func (b *Builder) Object(name, file string) uint32 {
	fi := -1
	for i, f := range b.files {
		if i > 0 && f == file {
			fi = i
		}
	}
	if fi < 0 {
		b.files = append(b.files, file)
		fi = len(b.files) - 1
	}
	b.objects = append(b.objects, object{name: name, file: uint16(fi)})
	return uint32(len(b.objects) - 1)
}

// Chunk appends a top-level chunk of the given code whose body is words
// and whose size word is len(words).
func (b *Builder) Chunk(code uint16, words ...uint32) {
	b.ChunkSized(code, uint32(len(words)), words...)
}

// ChunkSized appends a chunk whose size word is size whatever its body
// holds: for the Texture trap and for hostile sizes.
func (b *Builder) ChunkSized(code uint16, size uint32, words ...uint32) {
	b.chunks = appendWords(b.chunks, 0xCCCC0000|uint32(code), size)
	b.chunks = appendWords(b.chunks, words...)
}

// Raw appends bytes as they are (for corrupt input).
func (b *Builder) Raw(p []byte) { b.chunks = append(b.chunks, p...) }

// ObjectChunk appends an Object chunk (0x0100): id, parent, model, shadow.
func (b *Builder) ObjectChunk(id, parent uint32) { b.Chunk(0x0100, id, parent, 0, 0) }

// External appends an External chunk (0x0A00) making id a copy of target,
// with parent as its parent in its own scene.
func (b *Builder) External(id, parent, target uint32) { b.Chunk(0x0A00, id, parent, target) }

// Texture appends a Texture chunk (0x0300) whose size word counts 50 words
// more than its body, as real files do (ccs-container.md §2.5).
func (b *Builder) Texture(id uint32, body ...uint32) {
	b.ChunkSized(0x0300, uint32(1+len(body)+50), append([]uint32{id}, body...)...)
}

// Bytes returns the finished file.
func (b *Builder) Bytes() []byte {
	var out []byte
	out = appendWords(out, 0xCCCC0001, 13)
	out = append(out, "CCSF"...)
	out = append(out, fixed(b.Name, 32)...)
	out = appendWords(out, b.Version, uint32(len(b.objects)), 1, 0)
	out = appendWords(out, 0xCCCC0002, uint32(2+8*len(b.files)+8*len(b.objects)), uint32(len(b.files)), uint32(len(b.objects)))
	for _, f := range b.files {
		out = append(out, fixed(f, 32)...)
	}
	for _, o := range b.objects {
		out = append(out, fixed(o.name, 30)...)
		out = binary.LittleEndian.AppendUint16(out, o.file)
	}
	if b.BareSetup {
		out = appendWords(out, 3, 0)
	} else {
		out = appendWords(out, 0xCCCC0003, 0)
	}
	out = append(out, b.chunks...)
	out = appendWords(out, 0xCCCC0005, 1, 0)
	out = appendWords(out, 0xCCCCFF01, 1, 0xFFFFFFFF)
	return out
}

func fixed(s string, n int) []byte {
	p := make([]byte, n)
	copy(p[:n-1], s)
	return p
}

func appendWords(out []byte, words ...uint32) []byte {
	for _, w := range words {
		out = binary.LittleEndian.AppendUint32(out, w)
	}
	return out
}

// F is a float32's bit pattern as a word.
func F(v float32) uint32 { return math.Float32bits(v) }

// Fs converts floats to words.
func Fs(vs ...float32) []uint32 {
	out := make([]uint32, len(vs))
	for i, v := range vs {
		out[i] = F(v)
	}
	return out
}
