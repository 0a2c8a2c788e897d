package virtools

import "strings"

// cp1252High maps bytes 0x80–0x9F of Windows-1252 to Unicode; 0 marks the
// five undefined bytes, which are kept as the C1 control of the same value.
var cp1252High = [32]rune{
	0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
	0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
}

// decodeName turns an object name into UTF-8. Virtools stores names in the
// ANSI code page of the machine that saved the file and says nothing about
// which; Ballance was made on Western European Windows, so the bytes are
// read as Windows-1252 (plain ASCII, which is all the samples hold, is
// unchanged). A trailing NUL, which some writers count in the length, is
// dropped.
func decodeName(b []byte) string {
	for len(b) > 0 && b[len(b)-1] == 0 {
		b = b[:len(b)-1]
	}
	ascii := true
	for _, c := range b {
		if c >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return string(b)
	}
	var sb strings.Builder
	for _, c := range b {
		switch {
		case c < 0x80 || c >= 0xA0:
			sb.WriteRune(rune(c))
		case cp1252High[c-0x80] != 0:
			sb.WriteRune(cp1252High[c-0x80])
		default:
			sb.WriteRune(rune(c))
		}
	}
	return sb.String()
}
