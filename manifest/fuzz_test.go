package manifest

import (
	"bytes"
	"testing"
)

// FuzzDecode: any bytes either fail to decode or give a manifest that is
// valid and encodes to bytes that decode to the same encoding again;
// nothing panics.
func FuzzDecode(f *testing.F) {
	good, _ := sample().Encode()
	f.Add(good)
	f.Add([]byte(`{"schema": "bake-manifest/1"}`))
	f.Add([]byte(`{"schema": "bake-manifest/1", "bake": "x", "options": {"sha256": "", "values": null}, "inputs": null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Decode(data)
		if err != nil {
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("decoded but invalid: %v", err)
		}
		enc, err := m.Encode()
		if err != nil {
			t.Fatalf("decoded but does not encode: %v", err)
		}
		m2, err := Decode(enc)
		if err != nil {
			t.Fatalf("its encoding does not decode: %v\n%s", err, enc)
		}
		enc2, _ := m2.Encode()
		if !bytes.Equal(enc, enc2) {
			t.Fatalf("encoding is not stable:\n%s\n%s", enc, enc2)
		}
	})
}
