package sarc_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/import/sarc"
	"github.com/animbake/bake/import/sarc/sarcwrite"
)

// TestHash checks the SFAT name hash (docs/formats/sarc.md: h = h*101 +
// byte, modulo 2^32) against values worked by hand and against hashes
// stored in real archives' SFAT tables.
func TestHash(t *testing.T) {
	for _, c := range []struct {
		name string
		want uint32
	}{
		{"", 0},
		{"a", 0x61},      // 97
		{"ab", 0x26A7},   // 97*101 + 98 = 9895
		{"abc", 0xF4046}, // 9895*101 + 99 = 999494
		// Stored in the Super Mario Odyssey archives of ../shared/samples
		// (SOURCES.md §4b, §4c): computed by Nintendo's tools, not ours.
		{"InitDebug.byml", 0xFDCC9D8D},
		{"MarioShadowChaseCap.bfres", 0x733AA47E},
		{"DevGenericCube2U.bfres", 0x69959FCE},
		{"layout.lyarc", 0x4C375D83},
		{"timg/__Combined.bntx", 0xC3525D09},
	} {
		if got := sarc.Hash(c.name, 101); got != c.want {
			t.Errorf("Hash(%q) = 0x%08X, want 0x%08X", c.name, got, c.want)
		}
		if got := sarcwrite.Hash(c.name, 101); got != c.want {
			t.Errorf("sarcwrite.Hash(%q) = 0x%08X, want 0x%08X", c.name, got, c.want)
		}
	}
	// Bytes above 0x7F count unsigned: "\xff" is 255, not -1.
	if got := sarc.Hash("\xff", 101); got != 255 {
		t.Errorf(`Hash("\xff") = %d, want 255`, got)
	}
	// A custom multiplier: "ab" with key 31 is 97*31 + 98 = 3105.
	if got := sarc.Hash("ab", 31); got != 3105 {
		t.Errorf("Hash(ab, 31) = %d, want 3105", got)
	}
}

// TestWriteLayout checks the writer's image byte by byte against the
// layout worked out by hand for two members, big-endian: header 0x14,
// SFAT header 0x0C, two nodes 0x20, SFNT header 0x08, names "ab\0\0" and
// "a\0\0\0" (8 bytes) end at 0x48; the data section starts at 0x80
// (aligned to the largest member alignment, 0x80).
func TestWriteLayout(t *testing.T) {
	img := sarcwrite.Write([]sarcwrite.File{
		{Name: "ab", Data: []byte{1, 2, 3}, Align: 0x80},
		{Name: "a", Data: []byte{9}},
	}, sarcwrite.Options{})
	be := binary.BigEndian
	want := []struct {
		off  int
		val  uint32
		size int
		what string
	}{
		{0x04, 0x14, 2, "header size"},
		{0x06, 0xFEFF, 2, "BOM"},
		{0x08, 0x103, 4, "file size"}, // data at 0x80: "a" (1 byte), pad to 0x100, "ab" (3 bytes)
		{0x0C, 0x80, 4, "data offset"},
		{0x10, 0x0100, 2, "version"},
		{0x18, 0x0C, 2, "SFAT header size"},
		{0x1A, 2, 2, "node count"},
		{0x1C, 101, 4, "hash key"},
		// Nodes sorted by hash: "a" (0x61) first, then "ab" (0x26A7).
		{0x20, 0x61, 4, "node 0 hash"},
		{0x24, 0x01000000, 4, "node 0 attributes: named, name at 0"},
		{0x28, 0, 4, "node 0 start"},
		{0x2C, 1, 4, "node 0 end"},
		{0x30, 0x26A7, 4, "node 1 hash"},
		{0x34, 0x01000001, 4, "node 1 attributes: name at 4 (1 unit of 4)"},
		{0x38, 0x80, 4, "node 1 start: aligned to 0x80 from the file start"},
		{0x3C, 0x83, 4, "node 1 end"},
		{0x44, 0x08, 2, "SFNT header size"},
	}
	for _, w := range want {
		var got uint32
		if w.size == 2 {
			got = uint32(be.Uint16(img[w.off:]))
		} else {
			got = be.Uint32(img[w.off:])
		}
		if got != w.val {
			t.Errorf("0x%02x %s = 0x%x, want 0x%x", w.off, w.what, got, w.val)
		}
	}
	for off, s := range map[int]string{0: "SARC", 0x14: "SFAT", 0x40: "SFNT", 0x48: "a\x00\x00\x00", 0x4C: "ab\x00\x00"} {
		if got := string(img[off : off+len(s)]); got != s {
			t.Errorf("0x%02x = %q, want %q", off, got, s)
		}
	}
	if img[0x80] != 9 || !bytes.Equal(img[0x100:0x103], []byte{1, 2, 3}) || len(img) != 0x103 {
		t.Errorf("data section: 0x80 = %d, 0x100.. = % x, length 0x%x; want 9, 01 02 03, 0x103", img[0x80], img[0x100:min(len(img), 0x103)], len(img))
	}
}

// TestParseBothOrders reads the writer's archives in both byte orders.
func TestParseBothOrders(t *testing.T) {
	files := []sarcwrite.File{{Name: "dir/b.bin", Data: []byte("bee")}, {Name: "a.bin", Data: []byte("ay"), Align: 0x100}, {Name: "empty", Data: nil}}
	for _, le := range []bool{false, true} {
		img := sarcwrite.Write(files, sarcwrite.Options{LittleEndian: le})
		if le && (img[6] != 0xFF || img[7] != 0xFE) || !le && (img[6] != 0xFE || img[7] != 0xFF) {
			t.Fatalf("little-endian %v: BOM bytes % X", le, img[6:8])
		}
		a, err := sarc.Parse(img)
		if err != nil {
			t.Fatalf("little-endian %v: %v", le, err)
		}
		got := map[string]string{}
		for _, m := range a.Members {
			got[m.Name] = string(m.Data)
			if m.Hash != sarc.Hash(m.Name, 101) {
				t.Errorf("%s: hash 0x%x", m.Name, m.Hash)
			}
		}
		if got["dir/b.bin"] != "bee" || got["a.bin"] != "ay" || got["empty"] != "" || len(got) != 3 {
			t.Errorf("little-endian %v: members %q", le, got)
		}
		for _, m := range a.Members {
			if m.Name == "a.bin" && m.Offset%0x100 != 0 {
				t.Errorf("a.bin at 0x%x, want 0x100-aligned", m.Offset)
			}
		}
	}
}

// hostile is a damaged archive and the error it must give.
type hostile struct {
	name   string
	damage func(img []byte) []byte
	off    int64
	msg    string
}

// TestParseHostile damages a two-member big-endian archive (the layout of
// TestWriteLayout) field by field: each must fail with a FormatError at
// the damaged field's offset, naming the member when there is one.
func TestParseHostile(t *testing.T) {
	base := sarcwrite.Write([]sarcwrite.File{
		{Name: "ab", Data: []byte{1, 2, 3}, Align: 0x80},
		{Name: "a", Data: []byte{9}},
	}, sarcwrite.Options{})
	be := binary.BigEndian
	put32 := func(off int, v uint32) func([]byte) []byte {
		return func(b []byte) []byte { be.PutUint32(b[off:], v); return b }
	}
	put16 := func(off int, v uint16) func([]byte) []byte {
		return func(b []byte) []byte { be.PutUint16(b[off:], v); return b }
	}
	cases := []hostile{
		{"short", func(b []byte) []byte { return b[:0x10] }, 0, "SARC header needs 20 bytes"},
		{"magic", func(b []byte) []byte { copy(b, "SARK"); return b }, 0, `expected SARC magic, found "SARK"`},
		{"BOM", put16(6, 0x1234), 6, "byte-order mark is 12 34"},
		{"header size", put16(4, 0x18), 4, "SARC header size is 0x18"},
		{"truncated", func(b []byte) []byte { return b[:0x100] }, 8, "file size 259 is larger than the 256 bytes present"},
		{"version", put16(0x10, 0x0200), 0x10, "SARC version is 0x0200"},
		{"SFAT magic", func(b []byte) []byte { copy(b[0x14:], "SFAX"); return b }, 0x14, "expected SFAT magic"},
		{"SFAT header size", put16(0x18, 0x10), 0x18, "SFAT header size is 0x10"},
		{"huge count", put16(0x1A, 0xFFFF), 0x1A, "SFAT lists 65535 files, more than the format's 16383"},
		{"count past the file", put16(0x1A, 0x3FFF), 0x20, "count 16383 of 16-byte elements does not fit"},
		{"SFNT magic", func(b []byte) []byte { copy(b[0x40:], "SFNX"); return b }, 0x40, "expected SFNT magic"},
		{"data offset before names", put32(0x0C, 0x44), 0x0C, "data offset 0x44 lies outside 0x48..0x103"},
		{"name offset out of range", put32(0x34, 0x01000040), 0x34, "name offset 0x100 lies outside the 56-byte name table"},
		{"name without NUL", func(b []byte) []byte {
			for i := 0x48; i < 0x80; i++ {
				b[i] = 'x'
			}
			return b
		}, 0x48, "has no terminating NUL"},
		{"hash mismatch", put32(0x30, 0x26A8), 0x30, `member "ab": name hash is 0x000026A8, the name hashes to 0x000026A7`},
		{"hash order", func(b []byte) []byte {
			// Swap the two nodes: "ab" (0x26A7) before "a" (0x61).
			n0 := append([]byte(nil), b[0x20:0x30]...)
			copy(b[0x20:], b[0x30:0x40])
			copy(b[0x30:], n0)
			return b
		}, 0x30, `member "a": node 1's hash 0x00000061 is below the previous node's 0x000026A7`},
		{"data past the end", put32(0x3C, 0x84), 0x38, `member "ab": data 0x100..0x104 (data section +0x80..+0x84) lies outside the archive's 0x103 bytes`},
		{"end before start", put32(0x2C, 0xFFFFFFFF), 0x28, `member "a": data 0x80..0x10000007f`},
		{"overlap", put32(0x2C, 0x81), 0x38, `member "ab": data 0x100..0x103 overlaps member "a" (0x80..0x101)`},
		{"duplicate name", func(b []byte) []byte {
			// Node 1 names "a" too, with "a"'s hash moved up to keep the order.
			be.PutUint32(b[0x30:], 0x61)
			be.PutUint32(b[0x34:], 0x01000000)
			return b
		}, 0x30, `member "a" is listed twice (nodes 0 and 1)`},
	}
	for _, c := range cases {
		img := c.damage(append([]byte(nil), base...))
		_, err := sarc.Parse(img)
		var fe *binread.FormatError
		if !errors.As(err, &fe) {
			t.Errorf("%s: error %v is not a FormatError", c.name, err)
			continue
		}
		if fe.Off != c.off || !strings.Contains(fe.Msg, c.msg) {
			t.Errorf("%s: got offset 0x%x %q, want 0x%x containing %q", c.name, fe.Off, fe.Msg, c.off, c.msg)
		}
	}
}

// TestNamelessNode reads a node without a name (attributes 0) as its hash.
func TestNamelessNode(t *testing.T) {
	img := sarcwrite.Write([]sarcwrite.File{{Name: "a", Data: []byte{9}}}, sarcwrite.Options{LittleEndian: true})
	binary.LittleEndian.PutUint32(img[0x24:], 0)
	a, err := sarc.Parse(img)
	if err != nil {
		t.Fatal(err)
	}
	if a.Members[0].Name != "0x00000061" {
		t.Errorf("name %q, want 0x00000061", a.Members[0].Name)
	}
}

// BenchmarkParse reads the tables of an archive of 1,000 members (names,
// hashes, order, data ranges and the overlap check); bytes are the image's.
func BenchmarkParse(b *testing.B) {
	var files []sarcwrite.File
	for i := range 1000 {
		files = append(files, sarcwrite.File{Name: fmt.Sprintf("dir%d/member%04d.bin", i%7, i), Data: make([]byte, 64+i%100)})
	}
	img := sarcwrite.Write(files, sarcwrite.Options{LittleEndian: true})
	b.SetBytes(int64(len(img)))
	b.ReportAllocs()
	for b.Loop() {
		a, err := sarc.Parse(img)
		if err != nil || len(a.Members) != 1000 {
			b.Fatal(err)
		}
	}
}

// TestParseNameTableCost parses the largest archive the format allows,
// 16,383 members whose short names are followed by a megabyte of padding
// before the data (the alignment of one member): reading the names must
// not copy the rest of the table per name (which cost some 16 GB), so the
// whole parse allocates a few megabytes.
func TestParseNameTableCost(t *testing.T) {
	files := make([]sarcwrite.File, sarc.MaxNodes)
	for i := range files {
		files[i] = sarcwrite.File{Name: fmt.Sprintf("%04x", i), Data: []byte{byte(i)}}
	}
	files[0].Align = 1 << 20
	img := sarcwrite.Write(files, sarcwrite.Options{})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	a, err := sarc.Parse(img)
	runtime.ReadMemStats(&after)
	if err != nil || len(a.Members) != sarc.MaxNodes {
		t.Fatalf("%v", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("parse allocated %d MiB, want a few", alloc>>20)
	}
}
