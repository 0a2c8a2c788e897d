package ccs

import (
	"fmt"
	"testing"
	"time"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/ccs/ccswrite"
)

// Scale of .hack//Infection's DATA.BIN (ccs-anime-playback.txt, "The
// chunk"; imoqReader's driver): 4,091 Anime chunks in 1,447 CCS files.
const (
	benchAnimes  = 4091
	benchMembers = 1447
)

// benchDataBIN builds a synthetic DATA.BIN at that scale: every member a
// generation-1 file of two or three 30-frame Animes, each with a keyed
// object controller (10 position and 10 rotation keys), a transparency
// track and a note every fifth frame.
func benchDataBIN() (bin []byte, inflated int) {
	var members [][]byte
	left := benchAnimes
	for i := range benchMembers {
		n := 2
		if left-2 > 2*(benchMembers-i-1) {
			n = 3
		}
		left -= n
		b := ccswrite.New(fmt.Sprintf("f%04d", i), 0x110)
		obj := b.Object("OBJ_body", "body.max")
		note := b.Object("OBJ_xnote", "body.max")
		b.ObjectChunk(obj, 0)
		for a := range n {
			anm := b.Object(fmt.Sprintf("ANM_clip%d", a), fmt.Sprintf("clip%d.max", a))
			var pos, rot []ccswrite.Key
			for k := range 10 {
				fk := float32(k)
				pos = append(pos, ccswrite.K(uint32(3*k), fk, 2*fk, 3*fk))
				rot = append(rot, ccswrite.K(uint32(3*k), 10*fk, 20*fk, 30*fk))
			}
			frames := make([][]ccswrite.Record, 30)
			frames[0] = []ccswrite.Record{ccswrite.ObjCtrl(obj, ccswrite.Keyed(pos...), ccswrite.Keyed(rot...), ccswrite.Const(1, 1, 1), ccswrite.Keyed(ccswrite.K(0, 1), ccswrite.K(29, 0)))}
			for f := 5; f < 30; f += 5 {
				frames[f] = []ccswrite.Record{ccswrite.Note(note, 2, uint32(f))}
			}
			b.Anime(anm, 30, a%2 == 0, frames...)
		}
		data := b.Bytes()
		inflated += len(data)
		members = append(members, ccswrite.Gzip(data, fmt.Sprintf("f%04d.cmp", i)))
	}
	return ccswrite.DataBIN(members...), inflated
}

// BenchmarkDecodeDataBIN decodes the synthetic DATA.BIN: gzip, chunk walk,
// records and conversion to the model. It reports Anime chunks a second
// and inflated MB a second; SetBytes gives the DATA.BIN bytes a second.
func BenchmarkDecodeDataBIN(b *testing.B) {
	bin, inflated := benchDataBIN()
	b.SetBytes(int64(len(bin)))
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		files, err := Decode(format.BytesInput("DATA.BIN", bin), &format.Options{})
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for _, f := range files {
			n += len(f.Animations)
		}
		if n != benchAnimes || len(files) != benchMembers {
			b.Fatalf("%d animations in %d files, want %d in %d", n, len(files), benchAnimes, benchMembers)
		}
	}
	sec := time.Since(start).Seconds()
	b.ReportMetric(float64(benchAnimes*b.N)/sec, "chunks/s")
	b.ReportMetric(float64(inflated*b.N)/sec/1e6, "inflatedMB/s")
}

// BenchmarkDecodeS01 decodes S01.CCS (1.28 MB: 22 Animes, 90 models,
// 113 textures) with its assets and animation-only (--no-meshes, which
// still walks and reads the asset chunks but decodes no texture or mesh
// into the model).
func BenchmarkDecodeS01(b *testing.B) {
	data := readSample(b, "ccsf/S01.CCS")
	for _, c := range []struct {
		name string
		opts format.Options
	}{{"assets", format.Options{}}, {"no-meshes", format.Options{NoMeshes: true}}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Decode(format.BytesInput("S01.CCS", data), &c.opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
