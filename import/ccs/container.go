package ccs

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"

	"github.com/animbake/bake/import/binread"
)

// SectorSize is the alignment of gzip members in DATA.BIN
// (ccs-container.md §1).
const SectorSize = 0x800

// Member is one CCSF file found in an input: the input itself when it is
// plain, or one inflated gzip member.
type Member struct {
	// Off is the member's offset in the input (0 for a plain file).
	Off int64
	// Compressed reports whether the member was a gzip stream.
	Compressed bool
	// Data is the CCSF file's bytes (inflated when Compressed).
	Data []byte
}

// isGzipMagic reports whether b starts a gzip member as DATA.BIN tools
// recognise it: 1F 8B 08 with FLG 00 or 08 (ccs-container.md §1). Members we
// write ourselves may set other FLG bits, so any FLG without the reserved
// bits (0xE0) is accepted.
func isGzipMagic(b []byte) bool {
	return len(b) >= 4 && b[0] == 0x1F && b[1] == 0x8B && b[2] == 0x08 && b[3]&0xE0 == 0
}

// SplitMembers returns the CCSF files held in data: data itself when it is
// not gzip-compressed, otherwise every gzip member, inflated. Members after
// the first start on a SectorSize boundary after the end of the previous
// member (a DATA.BIN); like the DATA.BIN tools, sectors that do not start
// with the gzip magic are passed over, with a notice when they hold
// anything but zeros. The total inflated size is capped at limit bytes: the
// guard against decompression bombs.
func SplitMembers(data []byte, limit int64, warn func(string, ...any)) ([]Member, error) {
	if !isGzipMagic(data) {
		return []Member{{Data: data}}, nil
	}
	if warn == nil {
		warn = func(string, ...any) {}
	}
	var members []Member
	var zr gzip.Reader // one decompressor, reset for every member
	budget := limit
	off := 0
	for off < len(data) {
		out, used, err := inflateMember(&zr, data[off:], budget)
		if err != nil {
			var fe *binread.FormatError
			if errors.As(err, &fe) {
				fe.Off += int64(off)
				return nil, fe
			}
			return nil, binread.Errorf(int64(off), "gzip member: %v", err)
		}
		members = append(members, Member{Off: int64(off), Compressed: true, Data: out})
		budget -= int64(len(out))
		next, skipped := nextMember(data, off+used)
		if skipped > 0 {
			warn("%d non-zero bytes between the gzip member at 0x%x and the next (0x%x) were passed over", skipped, off, next)
		}
		off = next
	}
	return members, nil
}

// nextMember finds the first sector boundary after end that starts with
// the gzip magic (len(data) when there is none) and counts the non-zero
// bytes passed over on the way.
func nextMember(data []byte, end int) (next, skipped int) {
	next = (end + SectorSize - 1) / SectorSize * SectorSize
	for next < len(data) && !isGzipMagic(data[next:]) {
		next += SectorSize
	}
	next = min(next, len(data))
	for _, c := range data[end:next] {
		if c != 0 {
			skipped++
		}
	}
	return next, skipped
}

// inflateMember inflates the single gzip member at the start of data and
// reports how many compressed bytes it used. bytes.Reader is an
// io.ByteReader, so the decompressor reads no further than the member's end.
func inflateMember(zr *gzip.Reader, data []byte, budget int64) ([]byte, int, error) {
	br := bytes.NewReader(data)
	if err := zr.Reset(br); err != nil {
		return nil, 0, binread.Errorf(0, "gzip header: %v", err)
	}
	zr.Multistream(false)
	if budget < 0 {
		budget = 0
	}
	out, err := binread.ReadAllLimited(zr, budget)
	if err != nil {
		if errors.Is(err, binread.ErrTooLarge) {
			return nil, 0, binread.Errorf(0, "gzip member inflates past the cap: %v", err)
		}
		return nil, 0, binread.Errorf(0, "gzip data: %v", err)
	}
	return out, len(data) - br.Len(), nil
}

// memberName builds a unique output name for the i-th member of an archive
// from its CCSF name, as CCSFileExplorer names extracted files after it.
func memberName(name string, i int, seen map[string]bool) string {
	if name == "" {
		name = fmt.Sprintf("member%04d", i)
	}
	out := name
	for n := 2; seen[out]; n++ {
		out = fmt.Sprintf("%s-%d", name, n)
	}
	seen[out] = true
	return out
}
