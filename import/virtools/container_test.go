package virtools

import (
	"bytes"
	"hash/adler32"
	"strings"
	"testing"

	"github.com/animbake/bake/import/virtools/vtwrite"
)

// TestAdler32Seed0 works the CRC of §3.2 by hand: Adler-32 of "abc" from
// seed 0 has s1 = 97+98+99 = 294 and s2 = 97+195+294 = 586, so 0x024A0126;
// from zlib's usual seed 1 it is 0x024D0127, hash/adler32's value.
func TestAdler32Seed0(t *testing.T) {
	if got := adler32From(0, []byte("abc")); got != 0x024A0126 {
		t.Errorf("seed 0: 0x%08x, want 0x024A0126", got)
	}
	if got := adler32From(1, []byte("abc")); got != 0x024D0127 {
		t.Errorf("seed 1: 0x%08x, want 0x024D0127", got)
	}
	// Long input: the modulo must be taken often enough not to overflow.
	long := bytes.Repeat([]byte{0xff}, 100000)
	if got, want := adler32From(1, long), adler32.Checksum(long); got != want {
		t.Errorf("seed 1, 100000 × 0xff: 0x%08x, hash/adler32 says 0x%08x", got, want)
	}
	// Continuing a checksum equals summing the concatenation.
	if adler32From(adler32From(0, long[:7000]), long[7000:]) != adler32From(0, long) {
		t.Error("continued checksum differs")
	}
}

// TestSniff accepts exactly the 8-byte signature of §2.1.
func TestSniff(t *testing.T) {
	for head, want := range map[string]bool{
		"Nemo Fi\x00\x01\x02": true,
		"Nemo Fi\x00":         true,
		"Nemo Fi ":            false,
		"Nemo":                false,
		"":                    false,
	} {
		if Sniff([]byte(head)) != want {
			t.Errorf("Sniff(%q) = %v", head, !want)
		}
	}
}

// TestWriterContainer reads back a file from vtwrite: header
// fields, FileIndex (= 64 + Hdr1UnPackSize + block offset in Data), the CRC
// and the chunk header bytes.
func TestWriterContainer(t *testing.T) {
	for _, raw := range []bool{false, true} {
		tf := vtwrite.SampleScene()
		tf.RawData = raw
		data := tf.Bytes()
		var warnings []string
		c, err := ParseContainer(data, 1<<20, func(f string, a ...any) { warnings = append(warnings, f) })
		if err != nil {
			t.Fatal(err)
		}
		if len(warnings) != 0 || !c.CRCMatches {
			t.Errorf("raw %v: warnings %q, CRC matches %v", raw, warnings, c.CRCMatches)
		}
		if len(c.Objects) != 10 || len(c.Managers) != 1 || c.Objects[2].Name != "Move" || c.Objects[2].ClassID != ClassObjectAnimation ||
			c.Objects[2].FileID != 102 {
			t.Fatalf("raw %v: objects %+v", raw, c.Objects[:3])
		}
		// The first object's block starts after the manager block:
		// GUID (8) + size (4) + chunk (8 header bytes + 3 data dwords) = 32.
		if got, want := c.Objects[0].FileIndex, uint32(64+c.Header.Hdr1UnPackSize+32); got != want {
			t.Errorf("FileIndex %d, want %d", got, want)
		}
		m := c.Managers[0].Chunk
		if m.ClassByte != 82 || m.Options != 0x18 || m.ChunkVersion != 7 || m.Words() != 3 {
			t.Errorf("manager chunk %+v", *m)
		}
	}
}

// TestCRCMismatchWarns: a wrong CRC is a warning, not a failure (§3.2).
func TestCRCMismatchWarns(t *testing.T) {
	tf := vtwrite.SampleScene()
	tf.BadCRC = true
	var warnings []string
	c, err := ParseContainer(tf.Bytes(), 1<<20, func(f string, a ...any) { warnings = append(warnings, f) })
	if err != nil {
		t.Fatal(err)
	}
	if c.CRCMatches || len(warnings) != 1 {
		t.Errorf("CRC matches %v, warnings %q", c.CRCMatches, warnings)
	}
}

// TestTrailingBytesIgnored: records after the Data section (the 3.5
// thumbnail) are not read and not covered by the CRC (§5).
func TestTrailingBytesIgnored(t *testing.T) {
	tf := vtwrite.SampleScene()
	tf.Trailing = append(vtwrite.LE32(nil, 15), []byte("vtthumbnail.jpg\x04\x00\x00\x00JPEG")...)
	c, err := ParseContainer(tf.Bytes(), 1<<20, func(string, ...any) { t.Error("unexpected warning") })
	if err != nil {
		t.Fatal(err)
	}
	if c.TrailingBytes != len(tf.Trailing) || !c.CRCMatches {
		t.Errorf("trailing %d, CRC %v", c.TrailingBytes, c.CRCMatches)
	}
}

// TestChunkHeaderWord decodes word 0 as §6.1's example 0x08072B0A:
// DataVersion 10, class 43, ChunkVersion 7, options 8.
func TestChunkHeaderWord(t *testing.T) {
	c := &vtwrite.Chunk{ClassByte: 43, Sections: []vtwrite.Section{{ID: 0x4, Words: nil}}}
	b := c.Bytes()
	if got := vtwrite.LE32(nil, 0x08072B0A); !bytes.Equal(b[:4], got) {
		t.Fatalf("writer word 0 = % x", b[:4])
	}
	ch, err := parseChunk(readerOf(b))
	if err != nil {
		t.Fatal(err)
	}
	if ch.DataVersion != 10 || ch.ClassByte != 43 || ch.ChunkVersion != 7 || ch.Options != 8 || ch.Words() != 2 {
		t.Errorf("%+v", *ch)
	}
	// The empty 0x4 section is found (payload of 0 dwords).
	s, err := ch.section(0x4, nil)
	if err != nil || s == nil || s.Size() != 0 {
		t.Errorf("section 0x4: %v %v", s, err)
	}
}

// TestSectionLookupExact: SeekIdentifier compares identifiers for
// equality, not as bit masks (§7.1): 0xffc00000 is one identifier, and
// looking for 0x400000 must not find it.
func TestSectionLookupExact(t *testing.T) {
	c := &vtwrite.Chunk{Sections: []vtwrite.Section{{ID: 0xffc00000, Words: []uint32{1, 2}}, {ID: 0x400, Words: []uint32{3}}}}
	ch, err := parseChunk(readerOf(c.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := ch.section(0x400000, nil); s != nil {
		t.Error("0x400000 matched 0xffc00000")
	}
	s, _ := ch.section(0x400, nil)
	if s == nil || s.Size() != 1 {
		t.Fatal("0x400 not found")
	}
	if v, _ := s.U32("x"); v != 3 {
		t.Errorf("payload %d", v)
	}
	s, _ = ch.section(0xffc00000, nil)
	if s == nil || s.Size() != 2 {
		t.Errorf("0xffc00000 payload size %v", s)
	}
}

// TestPositionLists: the ID, sub-chunk and manager lists follow the data
// in the order IDS, CHN, MAN whatever the bit order (§6.1).
func TestPositionLists(t *testing.T) {
	b := vtwrite.LE32(nil, 10|7<<16|uint32(ChunkOptIDs|ChunkOptManagers|ChunkOptChunks|ChunkOptFile)<<24, 2, 0x4, 0,
		1, 0xAAAA, // IDS: 1 entry
		2, 0xBBBB, 0xBBBB, // CHN: 2 entries
		0) // MAN: empty
	ch, err := parseChunk(readerOf(b))
	if err != nil {
		t.Fatal(err)
	}
	if ch.Words() != 2 {
		t.Errorf("data words %d", ch.Words())
	}
	// One byte more is an error: the lists must end the block.
	if _, err := parseChunk(readerOf(append(b, 0, 0, 0, 0))); err == nil {
		t.Error("extra dword after the lists accepted")
	}
}

// TestDecodeNameCP1252: names are read as Windows-1252.
func TestDecodeNameCP1252(t *testing.T) {
	for in, want := range map[string]string{
		"I_Ball_Stone": "I_Ball_Stone",
		"Caf\xe9 \x80": "Café €",
		"a\x81b":       "a\u0081b",
		"Name\x00":     "Name",
	} {
		if got := decodeName([]byte(in)); got != want {
			t.Errorf("decodeName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSubChunk reads sub-chunks as §7.5 lays them out: a null one (S = 0),
// one with file references (hasFile 1: table indices) and one with raw
// CK_IDs (hasFile 0), each followed by the parent's next dword.
func TestSubChunk(t *testing.T) {
	sub := func(hasFile uint32, data ...uint32) []uint32 {
		w := []uint32{uint32(7 + len(data) + 1), 0xffffffff, 10 | 7<<16, uint32(len(data)), hasFile, 1, 0, 0}
		w = append(w, data...)
		return append(w, 0) // one ID-list entry
	}
	// Each sub-chunk holds one section: identifier 0x10, then a reference.
	words := []uint32{0}
	words = append(words, sub(1, 0x10, 0, 2)...)   // index 2
	words = append(words, sub(0, 0x10, 0, 101)...) // CK_ID 101 = index 1
	words = append(words, 0xabcd)
	tf := vtwrite.SampleScene()
	c, err := ParseContainer(tf.Bytes(), 1<<20, func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	parent := &vtwrite.Chunk{Sections: []vtwrite.Section{{ID: 0x200000, Words: words}}}
	ch, err := parseChunk(readerOf(parent.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	s, _ := ch.section(0x200000, c)
	for i, want := range []int{-2, 2, 1} {
		sc, err := s.SubChunk("sub-chunk")
		if err != nil {
			t.Fatalf("sub-chunk %d: %v", i, err)
		}
		if want == -2 {
			if sc != nil {
				t.Errorf("null sub-chunk read as %+v", sc)
			}
			continue
		}
		if sc.DataVersion != 10 || sc.ChunkVersion != 7 || sc.ClassByte != 0xff || sc.Words() != 3 {
			t.Errorf("sub-chunk %d header %+v", i, *sc)
		}
		ss, err := sc.section(0x10, c)
		if err != nil || ss == nil {
			t.Fatalf("sub-chunk %d section: %v", i, err)
		}
		if got, err := ss.Ref("ref"); err != nil || got != want {
			t.Errorf("sub-chunk %d ref %d (%v), want %d", i, got, err, want)
		}
	}
	if v, _ := s.U32("after"); v != 0xabcd {
		t.Errorf("after the sub-chunks: %#x", v)
	}
	// A size that disagrees with the header is an error.
	bad := &vtwrite.Chunk{Sections: []vtwrite.Section{{ID: 0x200000, Words: []uint32{9, 0, 10 | 7<<16, 1, 1, 0, 0, 0, 5, 6}}}}
	ch, _ = parseChunk(readerOf(bad.Bytes()))
	s, _ = ch.section(0x200000, c)
	if _, err := s.SubChunk("sub-chunk"); err == nil || !strings.Contains(err.Error(), "does not equal") {
		t.Errorf("bad size: %v", err)
	}
}

// TestOlderFileVersions reads the layouts of §2.4 written by the test
// writer: version 7 (object table right after the header, uncompressed;
// Data starting with SaveIDMax and the object count; CRC over the
// inflated Data) and versions 6 and 5 (no table: FileId before each block,
// the class from the chunk, the name from section 1; version 5 has no
// manager blocks). The converted model must equal the version 8 one.
func TestOlderFileVersions(t *testing.T) {
	want, _ := decodeTestFile(t, vtwrite.SampleScene())
	for _, v := range []uint32{7, 6, 5} {
		for _, raw := range []bool{false, true} {
			tf := vtwrite.SampleScene()
			tf.Version, tf.RawData = v, raw
			var warnings []string
			c, err := ParseContainer(tf.Bytes(), 1<<20, func(f string, a ...any) { warnings = append(warnings, f) })
			if err != nil {
				t.Fatalf("version %d raw %v: %v", v, raw, err)
			}
			if !c.CRCMatches || len(warnings) != 0 {
				t.Errorf("version %d: CRC %v warnings %q", v, c.CRCMatches, warnings)
			}
			if len(c.Objects) != 10 || c.Objects[iCurve].Name != "Path" || c.Objects[iCurve].ClassID != ClassCurve ||
				c.Objects[iCurve].FileID != 106 {
				t.Errorf("version %d: object %+v", v, c.Objects[iCurve])
			}
			if wantM := map[uint32]int{7: 1, 6: 1, 5: 0}[v]; len(c.Managers) != wantM {
				t.Errorf("version %d: %d managers", v, len(c.Managers))
			}
			got, _ := decodeTestFile(t, tf)
			if len(got.Nodes) != len(want.Nodes) || len(got.Animations) != len(want.Animations) || len(got.Curves) != 1 {
				t.Errorf("version %d: %d nodes %d animations", v, len(got.Nodes), len(got.Animations))
			}
		}
	}
	tf := vtwrite.SampleScene()
	tf.Version = 4
	if _, err := DecodeBytes(tf.Bytes(), nil); err == nil || !strings.Contains(err.Error(), "file version 4") {
		t.Errorf("version 4: %v", err)
	}
}
