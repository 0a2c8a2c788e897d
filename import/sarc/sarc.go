// Package sarc opens Nintendo SARC archives (.sarc, .pack, and Yaz0-
// compressed .szs), recognised by content, and converts their members as
// if they were files in a folder named after the archive: each member is
// identified and decoded by the registered importers, siblings are looked
// for among the other members, archives inside archives open recursively
// (at most MaxDepth deep, within the --max-inflate budget), and members no
// importer recognises are skipped. See docs/formats/sarc.md.
package sarc

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/model"
)

// FormatName is the registered name.
const FormatName = "sarc"

// MaxDepth is how many archives may nest inside the one given (a SARC
// inside a SARC is depth 1); a deeper one is an error.
const MaxDepth = 8

func init() {
	format.Register(format.Format{Name: FormatName, Sniff: Sniff, Decode: Decode})
}

// Sniff accepts a SARC image and a Yaz0 stream whose first literals are
// "SARC" (a Yaz0 stream starts with a group byte whose first bits mark
// literals, then those bytes).
func Sniff(head []byte) bool {
	return IsSARC(head) || yaz0SARC(head)
}

func yaz0SARC(head []byte) bool {
	return binread.IsYaz0(head) && len(head) >= binread.Yaz0HeaderSize+5 &&
		head[16]&0xF0 == 0xF0 && string(head[17:21]) == "SARC"
}

// Decode opens the archive and decodes every member an importer
// recognises. A broken archive (header, tables, names, data ranges) is an
// error with nothing decoded. A member that fails does not stop the
// others: the files that decoded are returned with the first member's
// error (the caller writes them and still reports the failure).
func Decode(in *format.Input, opts *format.Options) ([]*model.File, error) {
	raw, err := binread.ReadFile(in.R, in.Size)
	if err != nil {
		return nil, err
	}
	d := &decoder{path: in.Path, opts: opts, outer: in.OpenSibling, budget: opts.Inflate()}
	if err := d.archive(raw, "", "", 0); err != nil {
		return nil, err
	}
	return d.files, d.firstErr
}

// decoder walks one top-level archive and the archives inside it.
type decoder struct {
	path  string // the archive's path as given
	opts  *format.Options
	outer func(string) (*format.Input, error) // the archive's own sibling opener
	// budget is what Yaz0 may still inflate: each nested .szs draws from
	// it, and members get what is left as their --max-inflate.
	budget int64

	files    []*model.File
	firstErr error
}

// MemberError is a failure inside one archive member.
type MemberError struct {
	Archive string // the top-level archive's path
	Member  string // the member's path from the top-level archive ("layout.lyarc/timg/a.bntx")
	Err     error
}

func (e *MemberError) Error() string {
	return fmt.Sprintf("member %s: %v", e.Member, e.Err)
}

func (e *MemberError) Unwrap() error { return e.Err }

// open undoes Yaz0 (within the budget) and parses the archive image.
func (d *decoder) open(raw []byte) (*Archive, error) {
	data := raw
	if binread.IsYaz0(raw) {
		out, err := binread.DecodeYaz0(raw, d.budget)
		if err != nil {
			return nil, err
		}
		d.budget -= int64(len(out))
		if !IsSARC(out) {
			return nil, binread.Errorf(binread.Yaz0HeaderSize, "the Yaz0 stream holds no SARC archive (decompressed data starts %q)", out[:min(len(out), 4)])
		}
		data = out
	}
	a, err := Parse(data)
	if err != nil && binread.IsYaz0(raw) {
		err = fmt.Errorf("in the decompressed archive: %w", err)
	}
	return a, err
}

// archive decodes the members of one archive image; prefix is its own
// member path ("" for the top level, "layout.lyarc/" inside it) and outDir
// its members' output folder (each archive's name without its extension:
// "layout/").
func (d *decoder) archive(raw []byte, prefix, outDir string, depth int) error {
	a, err := d.open(raw)
	if err != nil {
		return err
	}
	byName := make(map[string]*Member, len(a.Members))
	for i := range a.Members {
		byName[a.Members[i].Name] = &a.Members[i]
	}
	members := append([]Member(nil), a.Members...)
	sort.Slice(members, func(i, j int) bool { return members[i].Name < members[j].Name })
	// A member's outputs are named after it without its extension; two
	// recognised members that would share a name both keep theirs (as
	// files beside each other in a folder do).
	formats := make([]*format.Format, len(members))
	stems := map[string]int{}
	for i, m := range members {
		if isArchive(m.Data) {
			continue
		}
		if f, err := format.Sniff(m.Data[:min(len(m.Data), format.HeadSize)]); err == nil {
			formats[i] = &f
			stems[strings.ToLower(stem(m.Name))]++
		}
	}
	for i, m := range members {
		full := prefix + m.Name
		switch {
		case isArchive(m.Data):
			if depth+1 > MaxDepth {
				return &MemberError{d.path, full, binread.Errorf(m.Offset, "archive nests more than %d archives deep", MaxDepth)}
			}
			if err := d.archive(m.Data, full+"/", outDir+stem(m.Name)+"/", depth+1); err != nil {
				var me *MemberError
				if errors.As(err, &me) {
					return err
				}
				return &MemberError{d.path, full, err}
			}
		case formats[i] == nil:
			// Not recognised: skipped, as an unrecognised file in a folder is.
		default:
			out := outDir + stem(m.Name)
			if stems[strings.ToLower(stem(m.Name))] > 1 {
				out = outDir + m.Name
			}
			d.member(*formats[i], m, full, out, byName)
		}
	}
	return nil
}

// isArchive reports whether a member is itself an archive, plain or Yaz0.
func isArchive(data []byte) bool { return IsSARC(data) || yaz0SARC(data) }

// member decodes one file of an archive with the importer that recognises
// it; out is its output name.
func (d *decoder) member(f format.Format, m Member, full, out string, byName map[string]*Member) {
	in := d.memberInput(m, full, byName)
	o := format.Options{}
	if d.opts != nil {
		o = *d.opts
	}
	o.MaxInflate = max(d.budget, 1)
	o.Warn = func(msg string) { d.opts.Warnf("%s: %s", full, msg) }
	files, err := f.Decode(in, &o)
	for _, file := range files {
		if file.Name != "" {
			file.Name = out + "/" + file.Name
		} else {
			file.Name = out
		}
		if file.Extras == nil {
			file.Extras = map[string]any{}
		}
		file.Extras["archiveMember"] = full
		file.Extras["memberFormat"] = f.Name
		d.files = append(d.files, file)
	}
	var later *format.NotYetSupported
	if errors.As(err, &later) && len(files) == 0 {
		d.opts.Warnf("%s: %v; skipped", full, later.Err)
		return
	}
	if err != nil {
		err = &MemberError{d.path, full, err}
		if d.firstErr == nil {
			d.firstErr = err
		} else {
			d.opts.Warnf("also failed: %v", err)
		}
	}
}

// memberInput makes a member an Input whose siblings are the members
// beside it in the same archive; a path that is not a bare file name
// (--textures-from /elsewhere/X.Tex1.sbfres) is opened as the archive's
// own siblings are.
func (d *decoder) memberInput(m Member, full string, byName map[string]*Member) *format.Input {
	in := format.BytesInput(d.path+"/"+full, m.Data)
	dir := path.Dir(m.Name)
	in.OpenSibling = func(p string) (*format.Input, error) {
		if strings.ContainsAny(p, `/\`) {
			if d.outer == nil {
				return nil, os.ErrNotExist
			}
			return d.outer(p)
		}
		name := p
		if dir != "." {
			name = dir + "/" + p
		}
		s, ok := byName[name]
		if !ok {
			return nil, &fs.PathError{Op: "open", Path: d.path + "/" + path.Dir(full) + "/" + p, Err: os.ErrNotExist}
		}
		return d.memberInput(*s, path.Join(path.Dir(full), p), byName), nil
	}
	return in
}

// stem is a member path without its extension ("a/b.bfres" → "a/b"), or
// the whole path when nothing would be left of its last part.
func stem(p string) string {
	s := strings.TrimSuffix(p, path.Ext(p))
	if s == "" || strings.HasSuffix(s, "/") {
		return p
	}
	return s
}
