package ccs

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/model"
)

// FormatName is the name the importer registers under.
const FormatName = "ccs"

func init() {
	format.Register(format.Format{Name: FormatName, Sniff: Sniff, Decode: Decode})
}

// isCCSF reports whether b starts with the header chunk 0xCCCC0001 and
// the magic "CCSF".
func isCCSF(b []byte) bool {
	return len(b) >= 12 && binary.LittleEndian.Uint32(b) == 0xCCCC0000|CodeHeader && string(b[8:12]) == "CCSF"
}

// Decode reads a plain CCSF file, a gzip-compressed one, or a DATA.BIN of
// gzip members, into one model file per CCSF file. Archive members are
// named from their CCSF header (File.Name); a member that is not a CCSF
// file is skipped with a notice; one that fails to decode does not stop the
// others: the files that did decode are returned together with the first
// member's error, so the caller writes them and still reports the failure.
func Decode(in *format.Input, opts *format.Options) ([]*model.File, error) {
	data, err := binread.ReadFile(in.R, in.Size)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	members, err := SplitMembers(data, opts.Inflate(), func(f string, a ...any) {
		opts.Warnf(f, a...)
	})
	if err != nil {
		return nil, err
	}
	archive := len(members) > 1
	seen := map[string]bool{}
	var files []*model.File
	var firstErr error
	for i, m := range members {
		if archive && !isCCSF(m.Data) {
			opts.Warnf("gzip member at 0x%x is not a CCSF file; skipped", m.Off)
			continue
		}
		warn := func(f string, a ...any) {
			msg := fmt.Sprintf(f, a...)
			if m.Compressed {
				msg = fmt.Sprintf("gzip member at 0x%x: %s", m.Off, msg)
			}
			opts.Warnf("%s", msg)
		}
		s, err := ReadScene(m.Data, warn)
		if err == nil {
			var f *model.File
			if f, err = ConvertWith(s, AssetOptions{NoMeshes: opts.NoMeshes, Shadows: opts.Shadows}, warn); err == nil {
				f.Source = model.Source{Path: in.Path, Format: FormatName, SHA256: hex.EncodeToString(sum[:])}
				if archive {
					f.Name = memberName(s.Header.Name, i, seen)
					f.Extras["ccsMemberOffset"] = m.Off
				}
				files = append(files, f)
				continue
			}
		}
		if !archive {
			return nil, memberError(m, err)
		}
		// One broken file of a DATA.BIN does not stop the others.
		if firstErr == nil {
			firstErr = memberError(m, err)
		} else {
			opts.Warnf("also failed: %v", memberError(m, err))
		}
	}
	if len(files) == 0 {
		if firstErr != nil {
			return nil, firstErr
		}
		return nil, binread.Errorf(0, "no CCSF file found in %d gzip members", len(members))
	}
	return files, firstErr
}

// memberError names the gzip member an error's offset belongs to: offsets
// inside a compressed member are offsets in its inflated stream.
func memberError(m Member, err error) error {
	if !m.Compressed {
		return err
	}
	var fe *binread.FormatError
	if errors.As(err, &fe) {
		return &binread.FormatError{Off: fe.Off, Msg: fmt.Sprintf("in the gzip member at file offset 0x%x, inflated: %s", m.Off, fe.Msg)}
	}
	return fmt.Errorf("gzip member at file offset 0x%x: %w", m.Off, err)
}
