package pixel

import "fmt"

// Channel selects what a channel of the output reads: one of the input's
// four channels or a constant. The values are the GX2 component selector's
// (GX2_COMPONENT_X_R … GX2_COMPONENT_C_1).
type Channel byte

const (
	ChanR Channel = iota
	ChanG
	ChanB
	ChanA
	Chan0 // constant 0
	Chan1 // constant 255 (1.0)
)

// Selector gives, for each output channel R, G, B, A in turn, its source.
type Selector [4]Channel

// Identity leaves pixels unchanged.
var Identity = Selector{ChanR, ChanG, ChanB, ChanA}

// Valid reports whether every entry is a known channel.
func (s Selector) Valid() bool {
	for _, c := range s {
		if c > Chan1 {
			return false
		}
	}
	return true
}

func (s Selector) String() string {
	const names = "RGBA01"
	b := make([]byte, 4)
	for i, c := range s {
		if c > Chan1 {
			return fmt.Sprintf("Selector%d", [4]Channel(s))
		}
		b[i] = names[c]
	}
	return string(b)
}

// Swizzle rewrites RGBA pixels in place so that output channel i takes the
// source s[i]. An invalid selector (see Valid) leaves the pixels alone and
// reports an error.
func Swizzle(rgba []byte, s Selector) error {
	if !s.Valid() {
		return fmt.Errorf("invalid channel selector %d", [4]Channel(s))
	}
	if s == Identity {
		return nil
	}
	for i := 0; i+4 <= len(rgba); i += 4 {
		src := [6]byte{rgba[i], rgba[i+1], rgba[i+2], rgba[i+3], 0, 255}
		for c := range 4 {
			rgba[i+c] = src[s[c]]
		}
	}
	return nil
}
