package oni

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/oni/oniwrite"
)

var le = binary.LittleEndian

// validLevel is a level file with the probe OBAN as its only instance.
// Layout (oni-container.md §1.1): header 0x40, one descriptor (0x40–0x54),
// one name descriptor, one template descriptor, the data table at 0x80
// (instance header 0x80, payload 0x88), the name table after it.
func validLevel() []byte { return levelWith(oniwrite.ObanInstance("probe", probe(0))) }

// payloadOff is the file offset of descriptor 0's payload.
func payloadOff(data []byte) int { return int(le.Uint32(data[0x20:]) + le.Uint32(data[0x44:])) }

func TestValidLevelLayout(t *testing.T) {
	data := validLevel()
	if got := payloadOff(data); got != 0x88 {
		t.Fatalf("payload at 0x%x, want 0x88", got)
	}
	decodeBytes(t, "level3_Final.dat", data)
}

// Every bad input listed in docs/formats/oni.md "Validation" fails with a
// *binread.FormatError naming the offset and what was expected.
func TestBadInputs(t *testing.T) {
	p := 0x88 // payload of the probe in validLevel
	key1 := p + 0x78 + 0x20
	nan := math.Float32bits(float32(math.NaN()))
	cases := []struct {
		name   string
		mutate func(d []byte) []byte
		off    int64
		frags  []string
	}{
		{"wrong version", func(d []byte) []byte { copy(d[8:], "03RV"); return d }, 0x08, []string{"version", "VR31"}},
		{"wrong signature", func(d []byte) []byte { d[0x0C] = 0x41; return d }, 0x0C, []string{"signature"}},
		{"truncated header", func(d []byte) []byte { return d[:0x30] }, 0x30, []string{"truncated header"}},
		{"empty file", func(d []byte) []byte { return d[:0] }, 0, []string{"truncated header"}},
		{"descriptor count past the end", func(d []byte) []byte { le.PutUint32(d[0x14:], 0x10000000); return d }, 0x14, []string{"descriptors"}},
		{"data table past the end", func(d []byte) []byte { le.PutUint32(d[0x24:], 0x7fffffff); return d }, 0x20, []string{"data table"}},
		{"file cut in the data table", func(d []byte) []byte { return d[:0x100] }, 0x20, []string{"data table"}},
		{"name table past the end", func(d []byte) []byte { le.PutUint32(d[0x28:], uint32(len(d))); return d }, 0x28, []string{"name table"}},
		{"descriptor offset outside the data table", func(d []byte) []byte { le.PutUint32(d[0x44:], 0x10000); return d }, 0x44, []string{"data table"}},
		{"descriptor size outside the data table", func(d []byte) []byte { le.PutUint32(d[0x4C:], 0x1000); return d }, 0x44, []string{"data table"}},
		{"descriptor offset inside the instance header", func(d []byte) []byte { le.PutUint32(d[0x44:], 4); return d }, 0x44, []string{"data table"}},
		{"name offset outside the name table", func(d []byte) []byte { le.PutUint32(d[0x48:], 0x999); return d }, 0x48, []string{"name offset"}},
		{"name without NUL", func(d []byte) []byte { d[len(d)-1] = 'x'; return d }, int64(len(validLevel()) - len("OBANprobe") - 1), []string{"NUL"}},
		{"key count larger than the data", func(d []byte) []byte { le.PutUint16(d[p+0x76:], 100); return d }, int64(p + 0x76), []string{"key count 100"}},
		{"zero frames", func(d []byte) []byte { le.PutUint16(d[p+0x72:], 0); return d }, int64(p + 0x72), []string{"frame count is 0"}},
		{"zero keys", func(d []byte) []byte { le.PutUint16(d[p+0x76:], 0); return d }, int64(p + 0x76), []string{"key count is 0"}},
		{"repeated key frame", func(d []byte) []byte { le.PutUint32(d[key1+0x1C:], 0); return d }, int64(key1 + 0x1C), []string{"strictly increasing"}},
		{"decreasing key frame", func(d []byte) []byte {
			le.PutUint32(d[p+0x78+0x1C:], 20)
			return d
		}, int64(key1 + 0x1C), []string{"strictly increasing"}},
		{"NaN quaternion", func(d []byte) []byte { le.PutUint32(d[p+0x78+4:], nan); return d }, int64(p + 0x78), []string{"NaN"}},
		{"NaN position", func(d []byte) []byte { le.PutUint32(d[key1+0x14:], nan); return d }, int64(key1), []string{"NaN"}},
		{"infinite position", func(d []byte) []byte { le.PutUint32(d[key1+0x10:], 0x7f800000); return d }, int64(key1), []string{"infinite"}},
		{"NaN base matrix", func(d []byte) []byte { le.PutUint32(d[p+0x40+8:], nan); return d }, int64(p + 0x40), []string{"base matrix"}},
		{"NaN start matrix", func(d []byte) []byte { le.PutUint32(d[p+0x10:], nan); return d }, int64(p + 0x10), []string{"start matrix"}},
		{"payload shorter than the OBAN header", func(d []byte) []byte { le.PutUint32(d[0x4C:], 0x40); return d }, int64(p), []string{"OBAN header"}},
	}
	for _, c := range cases {
		data := c.mutate(validLevel())
		_, err := Decode("level3_Final.dat", data, nil)
		wantFormatError(t, c.name, err, c.off, c.frags...)
	}
}

func TestNoObanIsAnError(t *testing.T) {
	_, err := Decode("level3_Final.dat", levelWith(oniwrite.DOORInstance("hall", -1)), nil)
	wantFormatError(t, "no OBAN", err, 0x40, "OBAN")
}

// The sniffer looks at the version at 0x08 and the signature at 0x0C only.
func TestSniff(t *testing.T) {
	level := validLevel()
	oni := (&oniwrite.File{Kind: oniwrite.OniFile, Instances: []oniwrite.Instance{oniwrite.ObanInstance("a", probe(0))}}).Bytes()
	if !sniff(level[:64]) || !sniff(oni[:64]) {
		t.Fatal("sniff rejects a VR31 or VR32 file")
	}
	bad := append([]byte(nil), level[:64]...)
	copy(bad[8:], "33RV")
	if sniff(bad) || sniff(level[:0x13]) {
		t.Error("sniff accepts VR33 or a short head")
	}
	bad = append([]byte(nil), level[:64]...)
	bad[0x0C] = 0
	if sniff(bad) {
		t.Error("sniff accepts a wrong signature")
	}
	f, err := format.Identify(format.BytesInput("x.bin", oni).R, int64(len(oni)))
	if err != nil || f.Name != "oni" {
		t.Errorf("registry identifies %q, %v", f.Name, err)
	}
	_, files, err := format.Decode(format.BytesInput("x.bin", level), nil)
	if err != nil || len(files) != 1 || files[0].Animations[0].Name != "probe" || files[0].Source.Format != "oni" {
		t.Errorf("registry decode: %v", err)
	}
}
