package binread

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func yaz0Stream(size byte, body ...byte) []byte {
	return append([]byte{'Y', 'a', 'z', '0', 0, 0, 0, size, 0, 0, 0, 0, 0, 0, 0, 0}, body...)
}

// Hand-encoded streams. Group 0xE8 = bits 1,1,1,0,1: three literals, a
// short back-reference A0 02 (length 0xA+2 = 12, distance 2+1 = 3), a
// literal; then the long form 00 00 02 (length 2+0x12 = 20, distance 1).
func TestDecodeYaz0(t *testing.T) {
	got, err := DecodeYaz0(yaz0Stream(16, 0xE8, 'a', 'b', 'c', 0xA0, 0x02, 'X'), 100)
	if err != nil || string(got) != "abcabcabcabcabcX" {
		t.Errorf("short form: %q, %v", got, err)
	}
	got, err = DecodeYaz0(yaz0Stream(21, 0x80, 'a', 0x00, 0x00, 0x02), 100)
	if err != nil || !bytes.Equal(got, bytes.Repeat([]byte{'a'}, 21)) {
		t.Errorf("long form: %q, %v", got, err)
	}
}

func TestDecodeYaz0Errors(t *testing.T) {
	for _, tc := range []struct {
		name string
		data []byte
		off  int64
		msg  string
	}{
		{"short header", []byte("Yaz0"), 0, "header"},
		{"magic", append([]byte("Yaz1"), make([]byte, 12)...), 0, "magic"},
		{"over the cap", yaz0Stream(200, 0xFF), 4, "exceeds the limit"},
		{"before the start", yaz0Stream(4, 0x00, 0x10, 0x00), 17, "reaches 1 bytes back"},
		{"overrun", yaz0Stream(4, 0xC0, 'a', 'b', 0xF0, 0x01), 19, "overruns"},
		{"ends early", yaz0Stream(8, 0xFF, 'a', 'b'), 19, "ends after 2"},
	} {
		_, err := DecodeYaz0(tc.data, 100)
		var fe *FormatError
		if !errors.As(err, &fe) || fe.Off != tc.off || !strings.Contains(fe.Msg, tc.msg) {
			t.Errorf("%s: %v (want offset 0x%x, %q)", tc.name, err, tc.off, tc.msg)
		}
	}
}
