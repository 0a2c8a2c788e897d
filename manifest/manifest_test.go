package manifest

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// SHA-256 test values from FIPS 180-2 (the empty string, "abc").
const (
	sumEmpty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
	sumABC   = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
)

// The options hash is the SHA-256 of "name=value\n" lines in name order;
// the expected value is sha256sum of the text "axes=gltf\nfps=30\n".
func TestNewOptionsHash(t *testing.T) {
	o := NewOptions(map[string]string{"fps": "30", "axes": "gltf"})
	if want := "896bf358bb072dc99bd302d9ded6e985500b4e0c10f168a021ba2c5a2593e043"; o.SHA256 != want {
		t.Errorf("sha256 %s, want %s", o.SHA256, want)
	}
	p := NewOptions(map[string]string{"fps": "native", "axes": "gltf", "split": "true"})
	got := o.Changed(p)
	want := []string{"fps: 30 → native", "split: (none) → true"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Changed = %q, want %q", got, want)
	}
}

func TestSum(t *testing.T) {
	n, s, err := Sum(strings.NewReader("abc"))
	if err != nil || n != 3 || s != sumABC {
		t.Errorf("Sum(abc) = %d %s %v", n, s, err)
	}
	if SumBytes(nil) != sumEmpty {
		t.Errorf("SumBytes(nil) = %s", SumBytes(nil))
	}
}

// FNV-1a 64-bit test vectors from the FNV reference (Noll's test suite):
// "a" → 0xaf63dc4c8601ec8c, "foobar" → 0x85944171f73967e8. Their
// remainders worked out by hand: 0xaf63dc4c8601ec8c mod 3 = 1, mod 4 = 0
// (…8c is divisible by 4), mod 7 = 5; 0x85944171f73967e8 mod 3 = 0, mod 7 = 6.
func TestShardOf(t *testing.T) {
	for _, c := range []struct {
		key   string
		count int
		want  int
	}{
		{"a", 3, 2}, {"a", 4, 1}, {"a", 7, 6}, {"foobar", 3, 1}, {"foobar", 7, 7}, {"anything", 1, 1},
	} {
		if got := ShardOf(c.key, c.count); got != c.want {
			t.Errorf("ShardOf(%q, %d) = %d, want %d", c.key, c.count, got, c.want)
		}
	}
	s := &Shard{Index: 2, Count: 3}
	if !s.Holds("a") || s.Holds("foobar") || !(*Shard)(nil).Holds("x") {
		t.Error("Holds disagrees with ShardOf")
	}
}

func TestParseShard(t *testing.T) {
	if s, err := ParseShard("2/4"); err != nil || s != (Shard{2, 4}) {
		t.Errorf("2/4: %v %v", s, err)
	}
	for _, bad := range []string{"", "1", "0/3", "4/3", "1/0", "a/b", "1/3/4", "-1/3", "1/-3"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q) accepted", bad)
		}
	}
}

func sample() *Manifest {
	return &Manifest{
		Bake:    "v1.2.3 output/1",
		Options: NewOptions(map[string]string{"fps": "30", "axes": "gltf"}),
		Inputs: []Input{
			{Path: "in/b.oni", Size: 3, SHA256: sumABC, Format: "oni", Base: "b",
				Outputs: []File{{Path: "b.json", Size: 0, SHA256: sumEmpty}, {Path: "b.glb", Size: 3, SHA256: sumABC}}},
			{Path: "in/X_Animation.bfres", Size: 0, SHA256: sumEmpty, Format: "bfres", Base: "X_Animation",
				Uses:    []Use{{Path: "in/X.sbfres", Absent: true}, {Path: "in/X.bfres", Size: 3, SHA256: sumABC}},
				Outputs: []File{{Path: "X_Animation.glb", Size: 0, SHA256: sumEmpty}}},
			{Path: "in/bad.dat", Size: 3, SHA256: sumABC, Format: "oni", Base: "bad", Error: "offset 0x10: expected OBAN"},
		},
	}
}

// The encoding is fixed: every list sorted by path (byte order, so upper
// case first), two-space indent, a final newline. Written out by hand.
func TestEncodeIsSortedAndExact(t *testing.T) {
	got, err := sample().Encode()
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "schema": "bake-manifest/1",
  "bake": "v1.2.3 output/1",
  "options": {
    "sha256": "896bf358bb072dc99bd302d9ded6e985500b4e0c10f168a021ba2c5a2593e043",
    "values": {
      "axes": "gltf",
      "fps": "30"
    }
  },
  "inputs": [
    {
      "path": "in/X_Animation.bfres",
      "size": 0,
      "sha256": "` + sumEmpty + `",
      "format": "bfres",
      "base": "X_Animation",
      "uses": [
        {
          "path": "in/X.bfres",
          "size": 3,
          "sha256": "` + sumABC + `"
        },
        {
          "path": "in/X.sbfres",
          "absent": true
        }
      ],
      "outputs": [
        {
          "path": "X_Animation.glb",
          "size": 0,
          "sha256": "` + sumEmpty + `"
        }
      ]
    },
    {
      "path": "in/b.oni",
      "size": 3,
      "sha256": "` + sumABC + `",
      "format": "oni",
      "base": "b",
      "outputs": [
        {
          "path": "b.glb",
          "size": 3,
          "sha256": "` + sumABC + `"
        },
        {
          "path": "b.json",
          "size": 0,
          "sha256": "` + sumEmpty + `"
        }
      ]
    },
    {
      "path": "in/bad.dat",
      "size": 3,
      "sha256": "` + sumABC + `",
      "format": "oni",
      "base": "bad",
      "outputs": [],
      "error": "offset 0x10: expected OBAN"
    }
  ]
}
`
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	back, err := Decode(got)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := back.Encode()
	if !bytes.Equal(again, got) {
		t.Error("decode then encode changed the bytes")
	}
}

// A manifest is trusted whole or not at all: each defect is an error that
// says where and what was expected.
func TestDecodeRejects(t *testing.T) {
	good, err := sample().Encode()
	if err != nil {
		t.Fatal(err)
	}
	edit := func(old, new string) string {
		if !bytes.Contains(good, []byte(old)) {
			t.Fatalf("%q not in the sample", old)
		}
		return strings.Replace(string(good), old, new, 1)
	}
	for _, c := range []struct{ name, data, want string }{
		{"not json", "{\"schema\": \"bake-manifest/1\",", "offset"},
		{"syntax", "{\"schema\" \"x\"}", "offset 10"},
		{"no schema", `{"inputs": []}`, "no \"schema\""},
		{"foreign", `{"schema": "npm-lock/3"}`, "schema \"npm-lock/3\""},
		{"unknown field", edit(`"format": "oni",`, `"format": "oni", "mtime": 5,`), "unknown field"},
		{"unsafe base", edit(`"base": "b"`, `"base": "../b"`), "base \"../b\""},
		{"wrong type", edit(`"size": 3,`, `"size": "3",`), "expected int64"},
		{"trailing", string(good) + "{}", "offset " + strconv.Itoa(len(good)) + ": invalid character '{' after top-level value"},
		{"bad hash", edit(sumABC, strings.ToUpper(sumABC)), "64 lowercase hex"},
		{"negative size", edit(`"size": 3,`, `"size": -3,`), "size -3"},
		{"options tampered", edit(`"fps": "30"`, `"fps": "60"`), "does not match"},
		{"no version", edit(`"bake": "v1.2.3 output/1"`, `"bake": ""`), "version"},
		{"unsorted", edit(`"path": "in/X_Animation.bfres"`, `"path": "in/z.bfres"`), "not sorted"},
		{"parent path", edit(`"path": "b.glb"`, `"path": "../b.glb"`), "inside the output folder"},
		{"absolute path", edit(`"path": "b.glb"`, `"path": "/etc/b.glb"`), "inside the output folder"},
		{"unclean path", edit(`"path": "b.glb"`, `"path": "a/../b.glb"`), "inside the output folder"},
		{"drive", edit(`"path": "b.glb"`, `"path": "C:b.glb"`), "inside the output folder"},
		{"backslash", edit(`"path": "b.glb"`, `"path": "..\\b.glb"`), "inside the output folder"},
		{"twice", edit(`"path": "b.json"`, `"path": "X_Animation.glb"`), "also an output of"},
		{"absent with hash", edit(`"absent": true`, `"absent": true, "size": 1`), "absent file"},
		{"shard", edit(`"inputs": [`, `"shard": {"index": 4, "count": 3}, "inputs": [`), "shard 4/3"},
	} {
		_, err := Decode([]byte(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadFile(filepath.Join(dir, "none.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	data, _ := sample().Encode()
	p := filepath.Join(dir, DefaultName)
	os.WriteFile(p, data, 0o644)
	m, err := ReadFile(p)
	if err != nil || len(m.Inputs) != 3 {
		t.Fatalf("%v", err)
	}
}

func TestLocalPath(t *testing.T) {
	for p, want := range map[string]bool{
		"a.glb": true, "sub/a.glb": true, "ab:c.glb": true, "a:b.glb": false, "..a.glb": true,
		"": false, ".": false, "..": false, "../a": false, "/a": false, "a//b": false, "a/./b": false,
		"a/": false, "c:/x": false, "a\\b": false, "a\x00b": false,
	} {
		if LocalPath(p) != want {
			t.Errorf("LocalPath(%q) = %v", p, !want)
		}
	}
}

// split cuts the sample into shards by input path, as the command does.
func split(m *Manifest, n int) []*Manifest {
	var out []*Manifest
	for k := 1; k <= n; k++ {
		s := &Manifest{Bake: m.Bake, Options: m.Options, Shard: &Shard{k, n}}
		for _, in := range m.Inputs {
			if s.Shard.Holds(in.Path) {
				s.Inputs = append(s.Inputs, in)
			}
		}
		for _, o := range m.Orphans {
			if s.Shard.Holds(o.Input) {
				s.Orphans = append(s.Orphans, o)
			}
		}
		out = append(out, s)
	}
	return out
}

func TestMergeShardsEqualsOneRun(t *testing.T) {
	one := sample()
	one.Orphans = []Orphan{{File: File{Path: "old.glb", Size: 3, SHA256: sumABC}, Input: "in/old.oni"}}
	want, err := one.Encode()
	if err != nil {
		t.Fatal(err)
	}
	parts := split(sample(), 3)
	parts[0].Orphans = nil
	for _, p := range parts {
		if p.Shard.Holds("in/old.oni") {
			p.Orphans = one.Orphans
		}
	}
	// Round-trip every shard through its bytes, as the CI job does.
	var ms []*Manifest
	for _, p := range parts {
		data, err := p.Encode()
		if err != nil {
			t.Fatal(err)
		}
		m, err := Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	names := []string{"s1", "s2", "s3"}
	merged, err := Merge(names, []*Manifest{ms[2], ms[0], ms[1]})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := merged.Encode()
	if !bytes.Equal(got, want) {
		t.Errorf("merged shards differ from the one run:\n%s\nwant\n%s", got, want)
	}

	if _, err := Merge(names[:2], ms[:2]); err == nil || !strings.Contains(err.Error(), "shards [3] of 3 are missing") {
		t.Errorf("missing shard: %v", err)
	}
	if _, err := Merge([]string{"s1", "s1again"}, []*Manifest{ms[0], ms[0]}); err == nil || !strings.Contains(err.Error(), "both shard 1/3") {
		t.Errorf("shard twice: %v", err)
	}
	plain := sample()
	if _, err := Merge([]string{"s1", "plain"}, []*Manifest{ms[0], plain}); err == nil || !strings.Contains(err.Error(), "one is a shard") {
		t.Errorf("shard with plain: %v", err)
	}
	other := sample()
	other.Options = NewOptions(map[string]string{"fps": "60", "axes": "gltf"})
	if _, err := Merge([]string{"a", "b"}, []*Manifest{sample(), other}); err == nil || !strings.Contains(err.Error(), "fps: 30 → 60") {
		t.Errorf("options: %v", err)
	}
	ver := sample()
	ver.Bake = "v2"
	if _, err := Merge([]string{"a", "b"}, []*Manifest{sample(), ver}); err == nil || !strings.Contains(err.Error(), "bake v2") {
		t.Errorf("version: %v", err)
	}
	if _, err := Merge([]string{"a", "b"}, []*Manifest{sample(), sample()}); err == nil || !strings.Contains(err.Error(), "is in both a and b") {
		t.Errorf("same input twice: %v", err)
	}
	four := split(sample(), 4)
	if _, err := Merge([]string{"s1", "f2"}, []*Manifest{ms[0], four[1]}); err == nil || !strings.Contains(err.Error(), "different shard counts") {
		t.Errorf("counts: %v", err)
	}
}
