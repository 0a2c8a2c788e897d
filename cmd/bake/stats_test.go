package main

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

func TestByteSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0 bytes", 9999: "9999 bytes", 90112: "90112 bytes (90.1 kB)",
		21090840: "21090840 bytes (21.1 MB)", 3e9: "3000000000 bytes (3 GB)"} {
		if got := byteSize(n); got != want {
			t.Errorf("byteSize(%d) = %q, want %q", n, got, want)
		}
	}
}

// bake stats on the demo inputs: every clip within the default tolerance
// at the frames, at --tolerance 0 larger errors between the frames and
// more keys.
func TestStatsDemo(t *testing.T) {
	demo := filepath.Join("..", "..", "testdata", "demo")
	type stats struct {
		Files []struct {
			File  string  `json:"file"`
			Keys  int     `json:"keys"`
			Max   float64 `json:"maxError"`
			Data  float64 `json:"maxDataError"`
			Clips []struct {
				Name string  `json:"name"`
				Max  float64 `json:"maxError"`
				P99  float64 `json:"p99Error"`
			} `json:"animations"`
		} `json:"files"`
	}
	read := func(args ...string) stats {
		code, stdout, stderr := runCLI(append([]string{"stats", "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var s stats
		if err := json.Unmarshal([]byte(stdout), &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	def, zero := read("--at-frames", demo), read("--tolerance", "0", demo)
	if len(def.Files) == 0 || len(def.Files) != len(zero.Files) {
		t.Fatalf("%d and %d files", len(def.Files), len(zero.Files))
	}
	worse := false
	for i, f := range def.Files {
		if f.Max > 1e-4 || f.Data > 1 {
			t.Errorf("%s: max error %g m, data %g of its tolerance", f.File, f.Max, f.Data)
		}
		for _, c := range f.Clips {
			if c.P99 > c.Max*1.003 {
				t.Errorf("%s %s: p99 %g above max %g", f.File, c.Name, c.P99, c.Max)
			}
		}
		worse = worse || zero.Files[i].Max > 1e-4
	}
	if !worse {
		t.Errorf("no demo file plays off its frames at --tolerance 0")
	}
}
