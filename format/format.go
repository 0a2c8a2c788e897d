// Package format is bake's importer registry, in the style of the image
// package: each importer registers its name, a content sniffer and a
// decoder from its init function, and callers open files without ever
// naming a format.
package format

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/animbake/bake/model"
)

// DefaultMaxInflate is the default cap on bytes a decompressor may produce
// for one input (zlib, gzip, Yaz0): 1 GiB.
const DefaultMaxInflate = 1 << 30

// Options are the settings an importer may need. Most importers use few.
type Options struct {
	// MaxInflate caps the decompressed size of any compressed stream.
	MaxInflate int64
	// Skeleton names a model file that supplies a skeleton (BFRES).
	Skeleton string
	// Animations name the animation files converted with a model file
	// (BFRES; default: X_Animation.bfres beside X.bfres), and LOD the
	// level of detail its meshes draw (0 the finest).
	Animations []string
	LOD        int
	// Timing chooses how Virtools clips are timed: "graph" or "frames".
	Timing string
	// CurveSeconds is how long a path follower takes to travel a curve.
	CurveSeconds float64
	// NoMeshes asks for the animation-only output: importers may skip
	// decoding meshes, materials, textures, cameras and lights (skins stay,
	// they make bones an armature).
	NoMeshes bool
	// TexturesFrom names the archive that holds a model's textures (BFRES:
	// X.Tex1.sbfres); empty means look beside the input.
	TexturesFrom string
	// Shadows asks for shadow geometry the game draws as projected
	// shadows (CCS shadow models), which importers leave out by default.
	Shadows bool
	// Warn receives non-fatal notices about the input; may be nil.
	Warn func(msg string)
}

// Warnf sends a formatted notice to o.Warn when it is set.
func (o *Options) Warnf(format string, args ...any) {
	if o != nil && o.Warn != nil {
		o.Warn(fmt.Sprintf(format, args...))
	}
}

// Inflate returns the decompression cap in force.
func (o *Options) Inflate() int64 {
	if o == nil || o.MaxInflate <= 0 {
		return DefaultMaxInflate
	}
	return o.MaxInflate
}

// Input is an opened source file.
type Input struct {
	// Path is the file's path as given.
	Path string
	// R reads the file's bytes; Size is its length.
	R    io.ReaderAt
	Size int64
	// OpenSibling opens another file by path (a BFRES model beside its
	// animation file). It returns os.ErrNotExist when there is none.
	OpenSibling func(path string) (*Input, error)
}

// Format is one registered importer.
type Format struct {
	// Name is the short format name shown in listings ("oni", "bfres", ...).
	Name string
	// Sniff reports whether the file's first bytes (up to 64) belong to this
	// format. It must look at content, never at the file name alone.
	Sniff func(head []byte) bool
	// Decode reads the file into one or more model files (an archive may
	// hold several). Errors should be *binread.FormatError where possible.
	// An archive whose members fail independently may return the files
	// that decoded together with the error of the first that did not: the
	// caller writes those files and still reports the failure.
	Decode func(in *Input, opts *Options) ([]*model.File, error)
	// Group, when set, names the group of files this one is converted
	// with, from its base name alone: a file whose conversion reads others
	// (an animation file and its model, texture archives) shares a group
	// with them. It is called on every input's name before any file is
	// read, whatever the content, so it must only answer for names of its
	// own format and return "" otherwise. CI shards keep a group together.
	Group func(name string) string
}

var (
	mu      sync.RWMutex
	formats []Format
)

// Register adds an importer. It is meant to be called from init functions.
func Register(f Format) {
	mu.Lock()
	defer mu.Unlock()
	for _, g := range formats {
		if g.Name == f.Name {
			panic("format: " + f.Name + " registered twice")
		}
	}
	formats = append(formats, f)
	sort.Slice(formats, func(i, j int) bool { return formats[i].Name < formats[j].Name })
}

// Formats lists the registered importers by name.
func Formats() []Format {
	mu.RLock()
	defer mu.RUnlock()
	return append([]Format(nil), formats...)
}

// HeadSize is how many leading bytes a sniffer is shown.
const HeadSize = 64

// ErrUnknown is returned by Sniff when no importer recognises a file.
var ErrUnknown = errors.New("not a recognised animation file")

// NotYetSupported wraps the error of a file an importer recognises but has
// no reader for yet (a newer layout of its format). An archive skips such
// a member with a warning, as it skips members no importer recognises; a
// file given on its own still fails with Err.
type NotYetSupported struct{ Err error }

func (e *NotYetSupported) Error() string { return e.Err.Error() }
func (e *NotYetSupported) Unwrap() error { return e.Err }

// Sniff returns the format whose sniffer accepts the given leading bytes.
func Sniff(head []byte) (Format, error) {
	mu.RLock()
	defer mu.RUnlock()
	for _, f := range formats {
		if f.Sniff(head) {
			return f, nil
		}
	}
	return Format{}, ErrUnknown
}

// Identify reads the head of r and returns the format that recognises it.
func Identify(r io.ReaderAt, size int64) (Format, error) {
	head := make([]byte, min(size, HeadSize))
	if _, err := r.ReadAt(head, 0); err != nil && err != io.EOF {
		return Format{}, err
	}
	return Sniff(head)
}

// OpenFile opens path as an Input whose siblings are opened the same way.
// The caller closes the returned closer.
func OpenFile(path string) (*Input, io.Closer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if st.IsDir() {
		f.Close()
		return nil, nil, fmt.Errorf("%s is a directory", path)
	}
	in := &Input{Path: path, R: f, Size: st.Size()}
	in.OpenSibling = func(p string) (*Input, error) {
		p = SiblingPath(path, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		s := BytesInput(p, data)
		s.OpenSibling = in.OpenSibling
		return s, nil
	}
	return in, f, nil
}

// SiblingPath is the file OpenFile's OpenSibling opens for p, asked by
// the input at path: a bare file name is looked for beside the input,
// any other path is taken as given.
func SiblingPath(path, p string) string {
	if !filepath.IsAbs(p) && filepath.Dir(p) == "." {
		return filepath.Join(filepath.Dir(path), p)
	}
	return p
}

// GroupKey returns the key of the group of inputs the file at path (as
// given, any separator) is converted with: "format:folder/group" from the
// first registered format whose Group names one, else the path itself
// (slash-separated). Files beside each other with the same key must be
// converted by the same CI shard.
func GroupKey(path string) string {
	slash := filepath.ToSlash(path)
	dir, name := "", slash
	if i := strings.LastIndexByte(slash, '/'); i >= 0 {
		dir, name = slash[:i+1], slash[i+1:]
	}
	mu.RLock()
	defer mu.RUnlock()
	for _, f := range formats {
		if f.Group == nil {
			continue
		}
		if g := f.Group(name); g != "" {
			return f.Name + ":" + dir + g
		}
	}
	return slash
}

// BytesInput wraps in-memory data as an Input (tests, archive members).
func BytesInput(path string, data []byte) *Input {
	return &Input{Path: path, R: bytesReaderAt(data), Size: int64(len(data)),
		OpenSibling: func(string) (*Input, error) { return nil, os.ErrNotExist }}
}

type bytesReaderAt []byte

func (b bytesReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("negative offset")
	}
	if off >= int64(len(b)) {
		return 0, io.EOF
	}
	n := copy(p, b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// Decode identifies and decodes one input.
func Decode(in *Input, opts *Options) (Format, []*model.File, error) {
	f, err := Identify(in.R, in.Size)
	if err != nil {
		return Format{}, nil, err
	}
	files, err := f.Decode(in, opts)
	return f, files, err
}
