package bfres

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/bfres/bfreswrite"
	"github.com/animbake/bake/import/binread"
)

// decodeErr decodes data and returns the error, which must be a FormatError.
func decodeErr(t *testing.T, data []byte, opts *format.Options) *binread.FormatError {
	t.Helper()
	_, err := Decode(format.BytesInput("bad.bfres", data), opts)
	if err == nil {
		t.Fatal("bad input decoded without error")
	}
	var fe *binread.FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v (%T) is not a *binread.FormatError", err, err)
	}
	return fe
}

func expectErr(t *testing.T, data []byte, off int64, words ...string) {
	t.Helper()
	fe := decodeErr(t, data, nil)
	if off >= 0 && fe.Off != off {
		t.Errorf("error %q at 0x%x, want 0x%x", fe, fe.Off, off)
	}
	for _, w := range words {
		if !strings.Contains(fe.Error(), w) {
			t.Errorf("error %q does not mention %q", fe, w)
		}
	}
}

// firstEntry returns the node position and data offset of entry 0 of group g.
func firstEntry(t *testing.T, data []byte, g int) (node, sub int) {
	t.Helper()
	f, err := readHeader(data)
	if err != nil {
		t.Fatal(err)
	}
	es, err := f.readDict(f.header.Groups[g], "test")
	if err != nil {
		t.Fatal(err)
	}
	return es[0].Node, es[0].Data
}

func TestBadHeader(t *testing.T) {
	good := richFile(v4).Bytes()
	expectErr(t, good[:0x40], 0, "FRES header")
	bad := append([]byte(nil), good...)
	copy(bad, "FRAS")
	expectErr(t, bad, 0, "FRES magic")
	bad = append([]byte(nil), good...)
	binary.BigEndian.PutUint16(bad[8:], 0xFFFE)
	expectErr(t, bad, 8, "byte-order mark")
	bad = append([]byte(nil), good...)
	binary.BigEndian.PutUint32(bad[0x0C:], uint32(len(good)+1))
	expectErr(t, bad, 0x0C, "file size")
	bad = append([]byte(nil), good...)
	binary.BigEndian.PutUint32(bad[4:], 0x02030000)
	expectErr(t, bad, 4, "older than 2.4")
}

// Offsets pointing outside the file name the field holding them.
func TestBadOffsets(t *testing.T) {
	good := richFile(v4).Bytes()
	bad := append([]byte(nil), good...)
	binary.BigEndian.PutUint32(bad[0x28:], 0x7FFFFFF0) // skeletal animation group
	expectErr(t, bad, 0x28, "skeletal animations index group offset", "outside the file")
	_, fska := firstEntry(t, good, GroupSkeletalAnims)
	bad = append([]byte(nil), good...)
	binary.BigEndian.PutUint32(bad[fska+0x20:], 0x80000000) // bone anim array, far negative
	expectErr(t, bad, int64(fska+0x20), "bone anim array offset", "outside the file")
	// A string whose length runs past the end.
	node, _ := firstEntry(t, good, GroupSkeletalAnims)
	f, _ := readHeader(good)
	name, _, _ := f.offsetAt(node+8, "")
	bad = append([]byte(nil), good...)
	binary.BigEndian.PutUint32(bad[name-4:], 0x00FFFFFF)
	expectErr(t, bad, int64(name-4), "name length")
}

// A dictionary whose links reach a node twice is refused (§3).
func TestBadDictionaryCycle(t *testing.T) {
	tf := richFile(v4)
	tf.FSKA = append(tf.FSKA, bfreswrite.FSKA{Name: "Second", Frames: 1}, bfreswrite.FSKA{Name: "Third", Frames: 1})
	good := tf.Bytes()
	f, _ := readHeader(good)
	g := f.header.Groups[GroupSkeletalAnims]
	// The writer's chain: root → 1 → 2 → 3 with reference bits 2, 1, 0,
	// each right link pointing back at the node itself. Pointing node 1's
	// right link down at node 3 makes node 3 reachable twice.
	bad := append([]byte(nil), good...)
	binary.BigEndian.PutUint16(bad[g+8+16*1+6:], 3) // node 1 right → 3
	expectErr(t, bad, int64(g+8+16*3), "reached twice", "cycle")
	// Links to nodes that do not exist.
	bad = append([]byte(nil), good...)
	binary.BigEndian.PutUint16(bad[g+8+16*2+4:], 9)
	expectErr(t, bad, int64(g+8+16*2+4), "links to node 9")
	// An entry that cannot be reached.
	bad = append([]byte(nil), good...)
	binary.BigEndian.PutUint16(bad[g+8+16*2+4:], 2) // node 2 left → itself: node 3 unreachable
	expectErr(t, bad, int64(g+8+16*3), "not reachable")
	// A count that does not fit.
	bad = append([]byte(nil), good...)
	binary.BigEndian.PutUint32(bad[g+4:], 0x10000000)
	expectErr(t, bad, int64(g+8), "does not fit")
}

// Counts that do not fit in the bytes present are refused before any
// allocation.
func TestBadCounts(t *testing.T) {
	good := richFile(v4).Bytes()
	_, fska := firstEntry(t, good, GroupSkeletalAnims)
	bad := append([]byte(nil), good...)
	binary.BigEndian.PutUint16(bad[fska+0x14:], 0xFFFF) // bone anim count
	expectErr(t, bad, -1, "bone anims", "does not fit")
	// numKey of the first curve of the first bone anim.
	f, _ := readHeader(good)
	arr, _, _ := f.offsetAt(fska+0x20, "")
	curves, _, _ := f.offsetAt(arr+0x10, "")
	bad = append([]byte(nil), good...)
	binary.BigEndian.PutUint16(bad[curves+2:], 0xFFFF)
	expectErr(t, bad, -1, "does not fit")
	// Undefined curve type 3.
	bad = append([]byte(nil), good...)
	bad[curves+1] = bad[curves+1]&0x8F | 3<<4
	expectErr(t, bad, int64(curves), "curve type 3")
	// A bone parent outside the skeleton.
	_, fmdl := firstEntry(t, good, GroupModels)
	sk, _, _ := f.offsetAt(fmdl+0x0C, "")
	bones, _, _ := f.offsetAt(sk+0x14, "")
	bad = append([]byte(nil), good...)
	binary.BigEndian.PutUint16(bad[bones+0x40+6:], 7)
	expectErr(t, bad, int64(bones+0x40+6), "parent index 7")
	// A bone that is its own ancestor.
	bad = append([]byte(nil), good...)
	binary.BigEndian.PutUint16(bad[bones+6:], 2) // Root's parent = Hand
	expectErr(t, bad, -1, "own ancestor")
}

// Yaz0 streams that overrun, reach back too far, end early or exceed the
// inflate cap give FormatErrors.
func TestBadYaz0(t *testing.T) {
	plain := richFile(v4).Bytes()
	packed := bfreswrite.Yaz0(plain)
	expectErr(t, packed[:len(packed)-5], -1, "Yaz0 stream ends")
	// A back-reference before anything is decoded: group 0x7F (first
	// chunk a reference), distance 1 at output 0.
	hdr := append([]byte("Yaz0"), 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0)
	expectErr(t, append(hdr, 0x00, 0x10, 0x00), 16+1, "reaches 1 bytes back")
	// A back-reference longer than the declared size: 4 literals, then a
	// long reference of 0x12+0xFF bytes.
	over := append([]byte("Yaz0"), 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0)
	over = append(over, 0xF0, 'F', 'R', 'E', 'S', 0x00, 0x03, 0xFF)
	expectErr(t, over, 16+5, "overruns the declared size")
	// The cap.
	_, err := Decode(format.BytesInput("x.sbfres", packed), &format.Options{MaxInflate: 1000})
	var fe *binread.FormatError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "exceeds the limit") {
		t.Errorf("inflate cap: %v", err)
	}
	// A declared size the input could never produce.
	huge := append([]byte("Yaz0"), 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 1)
	expectErr(t, huge, 4, "cannot come from")
}

// Every truncation and every single-byte corruption of a valid file
// decodes or fails with a FormatError; none panics.
func TestCorruptionSweep(t *testing.T) {
	sweepCorruptions(t, richFile(v4).Bytes(), func(b []byte, n int) {
		if n >= 0x10 {
			binary.BigEndian.PutUint32(b[0x0C:], uint32(n))
		}
	})
}

// sweepCorruptions decodes every third truncation of good (setSize writes
// the shorter size into the header) and every single-byte corruption.
func sweepCorruptions(t *testing.T, good []byte, setSize func(b []byte, n int)) {
	t.Helper()
	try := func(data []byte) {
		_, err := Decode(format.BytesInput("x.bfres", data), nil)
		var fe *binread.FormatError
		if err != nil && !errors.As(err, &fe) {
			t.Fatalf("error %v is not a FormatError", err)
		}
	}
	for n := 0; n < len(good); n += 3 {
		bad := append([]byte(nil), good[:n]...)
		setSize(bad, n)
		try(bad)
	}
	for i := range good {
		for _, v := range []byte{0xFF, 0x80, 0x01} {
			bad := append([]byte(nil), good...)
			bad[i] ^= v
			try(bad)
		}
	}
}

// Regression (import/all's hostile test on the demo's Demo_Animation.bfres:
// a flipped bit made the FSKA frame count 134,217,788, and 0x7fffffff at
// its offset 0x7c was accepted too, so baking sampled billions of frames):
// a frame count above MaxFrameCount is a FormatError at the count, for
// skeletal and for material and visibility animations (decision 15).
func TestFrameCountBeyondLimit(t *testing.T) {
	for _, g := range []int{GroupSkeletalAnims, GroupBoneVisAnims} {
		good := richFile(v4).Bytes()
		_, sub := firstEntry(t, good, g)
		for _, n := range []uint32{MaxFrameCount + 1, 0x7fffffff} {
			bad := append([]byte(nil), good...)
			binary.BigEndian.PutUint32(bad[sub+0x10:], n)
			expectErr(t, bad, int64(sub+0x10), "frame count", "more than the 65536")
		}
		ok := append([]byte(nil), good...)
		binary.BigEndian.PutUint32(ok[sub+0x10:], MaxFrameCount)
		if _, err := Decode(format.BytesInput("ok.bfres", ok), nil); err != nil {
			t.Errorf("frame count %d refused: %v", MaxFrameCount, err)
		}
	}
	tf := richFile(v3)
	tf.FSKA[0].Frames = -1 // s16 0xFFFF
	expectErr(t, tf.Bytes(), -1, "negative frame count")
}
