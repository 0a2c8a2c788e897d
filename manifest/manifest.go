// Package manifest is bake's record of one conversion: for every input the
// bytes it had, the other files its conversion read and the outputs it
// produced, plus the bake version and the options that shape output bytes.
// A later run compares the files on disk with it to convert only what
// changed; CI shards each write one and Merge joins them; `bake check`
// uses it to say whether committed outputs are up to date.
//
// The package holds the schema, its validation, a deterministic encoding
// (sorted, indented, no time or machine in it), the merge of shard
// manifests and the partition of inputs into shards. It does no file
// system work beyond reading a manifest: writing it atomically, hashing
// and converting are the command's job. The schema is documented in
// docs/manifest.md.
package manifest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"strings"
)

// Schema names this layout. A manifest with any other schema is foreign:
// it is reported and ignored, never half understood.
const Schema = "bake-manifest/1"

// DefaultName is the manifest's file name inside the output folder.
const DefaultName = "bake-manifest.json"

// MaxSize caps the manifest file bake reads: about 50 times a manifest of
// a 100,000-file game dump, so a hostile or mistaken file is refused
// before it is read.
const MaxSize = 256 << 20

// Manifest is one run's record. Encode sorts every list, so two runs that
// saw the same inputs write the same bytes.
type Manifest struct {
	// Schema is always the constant Schema.
	Schema string `json:"schema"`
	// Bake is the version of the bake that wrote the outputs (see
	// docs/manifest.md: the module version plus an output-format number).
	Bake string `json:"bake"`
	// Options are the settings that change output bytes.
	Options Options `json:"options"`
	// Shard is set when the run converted one shard of its inputs.
	Shard *Shard `json:"shard,omitempty"`
	// Inputs are the converted (or failed) inputs, sorted by path.
	// Files no importer recognises are not recorded.
	Inputs []Input `json:"inputs"`
	// Orphans are outputs bake wrote for inputs that are gone or no longer
	// produce them, kept until --prune deletes them, sorted by path.
	Orphans []Orphan `json:"orphans,omitempty"`
}

// Options are the values of every option that changes output bytes, and
// their hash. Two manifests agree on options when their hashes agree.
type Options struct {
	// SHA256 hashes Values (see NewOptions).
	SHA256 string `json:"sha256"`
	// Values maps each option's name to its value as text, so a person can
	// see which option changed.
	Values map[string]string `json:"values"`
}

// NewOptions returns values with their hash: the SHA-256 of the lines
// "name=value\n" in byte order of name.
func NewOptions(values map[string]string) Options {
	names := make([]string, 0, len(values))
	for k := range values {
		names = append(names, k)
	}
	slices.Sort(names)
	h := sha256.New()
	for _, k := range names {
		fmt.Fprintf(h, "%s=%s\n", k, values[k])
	}
	v := make(map[string]string, len(values))
	for k, x := range values {
		v[k] = x
	}
	return Options{SHA256: hex.EncodeToString(h.Sum(nil)), Values: v}
}

// Changed lists the options whose values differ between o and p, as
// "name: old → new", in name order.
func (o Options) Changed(p Options) []string {
	seen := map[string]bool{}
	var names []string
	for k := range o.Values {
		seen[k] = true
		names = append(names, k)
	}
	for k := range p.Values {
		if !seen[k] {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	var out []string
	for _, k := range names {
		a, inA := o.Values[k]
		b, inB := p.Values[k]
		switch {
		case !inA:
			out = append(out, fmt.Sprintf("%s: (none) → %s", k, b))
		case !inB:
			out = append(out, fmt.Sprintf("%s: %s → (none)", k, a))
		case a != b:
			out = append(out, fmt.Sprintf("%s: %s → %s", k, a, b))
		}
	}
	return out
}

// Shard says which part of the inputs a run converted: Index of Count,
// counting from 1.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Input is one input file and what its conversion produced.
type Input struct {
	// Path is the input's path as bake was given it (slash-separated), the
	// same text the JSON output records as its source file.
	Path string `json:"path"`
	// Size and SHA256 are the input's length and hash when it was read.
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
	// Format is the importer that read it.
	Format string `json:"format"`
	// Base is where its outputs go under the output folder, without
	// extension: each output is Base plus a suffix. It depends on the other
	// inputs too (x.dat beside x.oni writes x_dat.glb), so a change of Base
	// makes the input stale.
	Base string `json:"base"`
	// Uses are the other files the conversion looked for: a BFRES model
	// beside its animation file, the --skeleton file, texture archives.
	// Changing, adding or removing any of them makes the input stale.
	Uses []Use `json:"uses,omitempty"`
	// Outputs are the files written, relative to the output folder.
	Outputs []File `json:"outputs"`
	// Error is set when the conversion failed; such an input is converted
	// again by the next run whatever its bytes.
	Error string `json:"error,omitempty"`
}

// Use is another file a conversion looked for. Absent records that it
// was not there (so its later arrival makes the input stale); then Size
// and SHA256 are zero.
type Use struct {
	Path   string `json:"path"`
	Absent bool   `json:"absent,omitempty"`
	Size   int64  `json:"size,omitempty"`
	SHA256 string `json:"sha256,omitempty"`
}

// File is one output, by its slash-separated path under the output folder.
type File struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// Orphan is an output no current input produces; Input names the input
// that wrote it, which decides the shard that handles it.
type Orphan struct {
	File
	Input string `json:"input"`
}

// Sum returns the size and SHA-256 of everything r yields.
func Sum(r io.Reader) (int64, string, error) {
	h := sha256.New()
	n, err := io.Copy(h, r)
	if err != nil {
		return n, "", err
	}
	return n, hex.EncodeToString(h.Sum(nil)), nil
}

// SumBytes returns the SHA-256 of data as lowercase hex.
func SumBytes(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// Encode normalises m (every list sorted by path) and returns its JSON
// form: two-space indented, ending in a newline, the same bytes for the
// same record on any machine.
func (m *Manifest) Encode() ([]byte, error) {
	m.Schema = Schema
	m.sort()
	if err := m.Validate(); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func (m *Manifest) sort() {
	if m.Inputs == nil {
		m.Inputs = []Input{}
	}
	slices.SortFunc(m.Inputs, func(a, b Input) int { return strings.Compare(a.Path, b.Path) })
	for i := range m.Inputs {
		in := &m.Inputs[i]
		if in.Outputs == nil {
			in.Outputs = []File{}
		}
		slices.SortFunc(in.Outputs, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
		slices.SortFunc(in.Uses, func(a, b Use) int { return strings.Compare(a.Path, b.Path) })
	}
	slices.SortFunc(m.Orphans, func(a, b Orphan) int { return strings.Compare(a.Path, b.Path) })
}

// Decode parses and validates a manifest. Unknown fields, a foreign
// schema, malformed hashes, unsafe output paths and duplicates are errors:
// a manifest is trusted whole or not at all.
func Decode(data []byte) (*Manifest, error) {
	var probe struct {
		Schema *string `json:"schema"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, jsonError(data, err)
	}
	if probe.Schema == nil {
		return nil, errors.New("not a bake manifest: no \"schema\" field")
	}
	if *probe.Schema != Schema {
		return nil, fmt.Errorf("not a manifest this bake reads: schema %q, expected %q", *probe.Schema, Schema)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var m Manifest
	if err := dec.Decode(&m); err != nil {
		return nil, jsonError(data, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("offset %d: expected the end of the manifest", dec.InputOffset())
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return &m, nil
}

// jsonError names the byte offset of a JSON error where encoding/json knows it.
func jsonError(data []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		// Offset counts the bytes read, the offending one included.
		off := se.Offset
		if off > 0 && off <= int64(len(data)) && !strings.HasPrefix(se.Error(), "unexpected end") {
			off--
		}
		return fmt.Errorf("offset %d: %v", off, err)
	case errors.As(err, &te):
		return fmt.Errorf("offset %d: field %s: expected %v, found JSON %s", te.Offset, te.Field, te.Type, te.Value)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("offset %d: unexpected end of the manifest", len(data))
	}
	return err
}

// ReadFile reads and decodes the manifest at path. A missing file gives
// an error satisfying errors.Is(err, os.ErrNotExist).
func ReadFile(name string) (*Manifest, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxSize {
		return nil, fmt.Errorf("larger than %d bytes: not a manifest bake wrote", MaxSize)
	}
	return Decode(data)
}

// Validate checks what Decode promises: the schema, a version, hex
// hashes that match the options, sizes not negative, output paths that
// stay inside the output folder, every list sorted and free of duplicates,
// and no output claimed twice.
func (m *Manifest) Validate() error {
	if m.Schema != Schema {
		return fmt.Errorf("schema %q, expected %q", m.Schema, Schema)
	}
	if m.Bake == "" {
		return errors.New("bake: expected the version of bake, found nothing")
	}
	if NewOptions(m.Options.Values).SHA256 != m.Options.SHA256 {
		return errors.New("options: sha256 does not match the values")
	}
	if s := m.Shard; s != nil && (s.Count < 1 || s.Index < 1 || s.Index > s.Count) {
		return fmt.Errorf("shard %d/%d: expected 1 <= index <= count", s.Index, s.Count)
	}
	owner := map[string]string{}
	for i, in := range m.Inputs {
		where := fmt.Sprintf("inputs[%d] (%s)", i, in.Path)
		if in.Path == "" {
			return fmt.Errorf("inputs[%d]: empty path", i)
		}
		if i > 0 && m.Inputs[i-1].Path >= in.Path {
			return fmt.Errorf("%s: inputs not sorted by path or listed twice", where)
		}
		if err := checkSum(in.Size, in.SHA256); err != nil {
			return fmt.Errorf("%s: %v", where, err)
		}
		if in.Format == "" {
			return fmt.Errorf("%s: expected a format name", where)
		}
		if !LocalPath(in.Base) {
			return fmt.Errorf("%s: base %q: expected a clean relative path inside the output folder", where, in.Base)
		}
		for j, u := range in.Uses {
			if u.Path == "" || (j > 0 && in.Uses[j-1].Path >= u.Path) {
				return fmt.Errorf("%s: uses[%d]: empty, unsorted or repeated path", where, j)
			}
			if u.Absent {
				if u.Size != 0 || u.SHA256 != "" {
					return fmt.Errorf("%s: uses[%d] (%s): an absent file has no size or hash", where, j, u.Path)
				}
			} else if err := checkSum(u.Size, u.SHA256); err != nil {
				return fmt.Errorf("%s: uses[%d] (%s): %v", where, j, u.Path, err)
			}
		}
		for j, o := range in.Outputs {
			if err := checkFile(o); err != nil {
				return fmt.Errorf("%s: outputs[%d]: %v", where, j, err)
			}
			if prev, dup := owner[o.Path]; dup {
				return fmt.Errorf("%s: output %s is also an output of %s", where, o.Path, prev)
			}
			owner[o.Path] = in.Path
		}
	}
	for i, o := range m.Orphans {
		if err := checkFile(o.File); err != nil {
			return fmt.Errorf("orphans[%d]: %v", i, err)
		}
		if o.Input == "" {
			return fmt.Errorf("orphans[%d] (%s): expected the input that wrote it", i, o.Path)
		}
		if prev, dup := owner[o.Path]; dup {
			return fmt.Errorf("orphans[%d]: %s is also an output of %s", i, o.Path, prev)
		}
		owner[o.Path] = o.Input
	}
	return nil
}

func checkSum(size int64, sum string) error {
	if size < 0 {
		return fmt.Errorf("size %d: expected a length of 0 or more", size)
	}
	if len(sum) != 64 || strings.Trim(sum, "0123456789abcdef") != "" {
		return fmt.Errorf("sha256 %q: expected 64 lowercase hex digits", sum)
	}
	return nil
}

func checkFile(f File) error {
	if !LocalPath(f.Path) {
		return fmt.Errorf("path %q: expected a clean relative path inside the output folder", f.Path)
	}
	return checkSum(f.Size, f.SHA256)
}

// LocalPath reports whether p is a clean, relative, slash-separated path
// that stays inside its folder: no "..", no leading "/", no "." element,
// no backslash or drive letter, no NUL. Outputs must be local, because
// --prune deletes them.
func LocalPath(p string) bool {
	if p == "" || strings.ContainsAny(p, "\\\x00") || path.IsAbs(p) || path.Clean(p) != p {
		return false
	}
	if len(p) >= 2 && p[1] == ':' {
		return false
	}
	return p != "." && p != ".." && !strings.HasPrefix(p, "../")
}
