package ccswrite

import (
	"bytes"
	"compress/gzip"
)

// Gzip compresses a CCSF file as one gzip member with FNAME name (empty
// for none), as CCSFileExplorer repacks DATA.BIN members (XFL 0, OS 3).
func Gzip(data []byte, name string) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Name = name
	zw.OS = 3
	zw.Write(data)
	zw.Close()
	return buf.Bytes()
}

// SectorSize is DATA.BIN's member alignment.
const SectorSize = 0x800

// DataBIN concatenates gzip members, each padded with zeros to the next
// 0x800-byte sector (ccs-container.md §1).
func DataBIN(members ...[]byte) []byte {
	var out []byte
	for _, m := range members {
		out = append(out, m...)
		if pad := len(out) % SectorSize; pad != 0 {
			out = append(out, make([]byte, SectorSize-pad)...)
		}
	}
	return out
}
