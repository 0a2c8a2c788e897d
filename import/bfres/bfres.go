// Package bfres imports Wii U BFRES (NW4F G3D) animation files, plain or
// Yaz0-compressed (.sbfres), and Switch BFRES files (the nx_*.go readers,
// docs/formats/bfres-switch.md): skeletal animations (FSKA) bound to the bones
// of an FSKL skeleton, shader-parameter and texture-SRT animations (FSHU),
// texture pattern animations (FTXP) and visibility animations (FVIS). Curves
// are kept as model.NW4FCurve so that package sample evaluates them exactly
// as the runtime does. A model file (FMDL with shapes) is converted with its
// animation files into skinned meshes (FVTX, FSHP), materials (FMAT) and
// textures (FTEX). See docs/formats/bfres.md and the specs
// bfres-container.md and nw4f-curve.txt.
package bfres

import (
	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/binread"
)

func init() {
	format.Register(format.Format{Name: "bfres", Sniff: Sniff, Decode: Decode, Group: Group})
}

// Sniff accepts FRES files (Wii U and Switch) and Yaz0 streams; Decode
// rejects a Yaz0 stream that does not hold a FRES file.
func Sniff(head []byte) bool {
	if len(head) < 4 {
		return false
	}
	switch string(head[:4]) {
	case "FRES":
		return true
	case "Yaz0":
		// The first group header is followed by the first literal bytes:
		// a FRES image starts with four literals "FRES".
		return len(head) < 21 || head[16]&0xF0 != 0xF0 || string(head[17:21]) == "FRES"
	}
	return false
}

// isSwitch reports whether a FRES image is the Switch layout: "FRES" and
// four spaces (bfres-container.md §11).
func isSwitch(data []byte) bool {
	return len(data) >= 8 && string(data[:8]) == "FRES    "
}

// unwrap decompresses a Yaz0 image (capped at limit) and checks that the
// result is a FRES image.
func unwrap(data []byte, limit int64) ([]byte, error) {
	if binread.IsYaz0(data) {
		out, err := binread.DecodeYaz0(data, limit)
		if err != nil {
			return nil, err
		}
		if len(out) < 4 || string(out[:4]) != "FRES" {
			return nil, binread.Errorf(binread.Yaz0HeaderSize, "the Yaz0 stream holds no FRES file (decompressed data starts %q)", out[:min(len(out), 4)])
		}
		data = out
	}
	return data, nil
}
