package bfres

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/animbake/bake/format"
)

// switchRich is the Switch layout of richFile: skeleton, FSKA, FMAA and
// FBVS.
func switchRich() []byte {
	return switchOf(richFile(v4)).Bytes()
}

// Every truncation and single-byte corruption of a Switch file decodes or
// fails with a FormatError.
func TestSwitchCorruptionSweep(t *testing.T) {
	sweepCorruptions(t, switchRich(), func(b []byte, n int) {
		if n >= 0x20 {
			binary.LittleEndian.PutUint32(b[0x1C:], uint32(n))
		}
	})
}

// Malformed Switch headers and offsets give FormatErrors at the offset
// read (values worked out from the layout in nx_file.go).
func TestSwitchBadInput(t *testing.T) {
	le := binary.LittleEndian
	good := switchRich()
	mod := func(fn func(b []byte)) []byte {
		b := append([]byte(nil), good...)
		fn(b)
		return b
	}
	expectErr(t, mod(func(b []byte) { b[0x0C], b[0x0D] = 0xFE, 0xFF }), 0x0C, "byte-order mark FF FE")
	expectErr(t, mod(func(b []byte) { le.PutUint32(b[0x1C:], uint32(len(good)+1)) }), 0x1C, "file size")
	// A later version is "not yet supported" (an archive skips the
	// member), even when nothing else of its header is present.
	for _, data := range [][]byte{mod(func(b []byte) { le.PutUint32(b[8:], 0x00090000) }), []byte("FRES    \x00\x00\x0A\x00")} {
		_, err := Decode(format.BytesInput("later.bfres", data), nil)
		var later *format.NotYetSupported
		if !errors.As(err, &later) || !strings.Contains(err.Error(), "offset 0x8: Switch FRES version 0.") {
			t.Errorf("version 9+: %v", err)
		}
	}
	// The FSKA list's array offset (0x38) pointing past the end.
	expectErr(t, mod(func(b []byte) { le.PutUint64(b[0x38:], uint64(len(good))) }), 0x38, "skeletal animations array offset", "outside the file")
	// The FSKA dictionary (offset at 0x40) with a wrong magic.
	dict := int(le.Uint64(good[0x40:]))
	expectErr(t, mod(func(b []byte) { copy(b[dict:], "XXXX") }), int64(dict), "expected \"_DIC\" or 0")
	// A dictionary whose root no longer links to its one entry.
	expectErr(t, mod(func(b []byte) { le.PutUint16(b[dict+8+4:], 0) }), int64(dict+8+16), "entry 0 is not reachable from the root")
	// The FSKA's frame count (0x4C in its record) above the limit.
	fska := int(le.Uint64(good[0x38:]))
	expectErr(t, mod(func(b []byte) { le.PutUint32(b[fska+0x4C:], MaxFrameCount+1) }), int64(fska+0x4C), "more than the 65536")
	// A bone anim's curve count past the curves present.
	ba := int(le.Uint64(good[fska+0x30:]))
	expectErr(t, mod(func(b []byte) { b[ba+0x1E] = 200 }), -1, "curves")
	// A string whose length runs past the end.
	name := int(le.Uint64(good[0x20:]))
	expectErr(t, mod(func(b []byte) { le.PutUint16(b[name:], 0xFFFF) }), int64(name), "runs past the end")
}
