package pixel

import "testing"

// astcBlock builds a 16-byte ASTC block: fields from bit 0 up (value,
// bits), then weights from bit 127 down (each weight's bits bit-reversed
// into the top of the block, as the specification stores them).
func astcBlock(fields []int, weights []int, weightBits int) []byte {
	b := make([]byte, 16)
	set := func(p int) { b[p/8] |= 1 << (p % 8) }
	pos := 0
	for i := 0; i < len(fields); i += 2 {
		for k := range fields[i+1] {
			if fields[i]>>k&1 == 1 {
				set(pos + k)
			}
		}
		pos += fields[i+1]
	}
	for i, w := range weights {
		for k := range weightBits {
			if w>>k&1 == 1 {
				set(127 - (i*weightBits + k))
			}
		}
	}
	return b
}

// TestASTCVoidExtent: a constant-colour block (bits 0–8 = 0x1FC, LDR,
// reserved bits 11, no extent) with UNORM16 (0xFFFF, 0x8000, 0, 0x4000):
// linear 8-bit values round(v·255/65535) = 255, 128 (127.502), 0, 64
// (63.75); sRGB takes the top byte: 255, 128, 0, 64.
func TestASTCVoidExtent(t *testing.T) {
	b := astcBlock([]int{0x1FC, 9, 0, 1, 3, 2, 1<<26 - 1, 26, 1<<26 - 1, 26, 0xFFFF, 16, 0x8000, 16, 0, 16, 0x4000, 16}, nil, 0)
	for _, srgb := range []bool{false, true} {
		out := make([]byte, 4*4*4)
		DecodeASTCBlock(ASTC{4, 4, srgb}, b, out)
		if got := [4]byte(out[60:64]); got != [4]byte{255, 128, 0, 64} {
			t.Errorf("srgb %v: texel 15 = %v", srgb, got)
		}
	}
	// Bit 9 set (an HDR void extent) is an error in the LDR profile.
	b[1] |= 2
	out := make([]byte, 4*4*4)
	DecodeASTCBlock(ASTC{4, 4, false}, b, out)
	if got := [4]byte(out[:4]); got != astcErrorColor {
		t.Errorf("HDR void extent = %v, want the error colour", got)
	}
}

// TestASTCSinglePartition decodes a 4×4 block built by hand: block mode
// 0x042 (bits 1:0 = 10, R = 100 → weight range 4, 2 bits each; bits 3:2 =
// 00 → grid B+4 × A+2 = 4×4 with A = 2, B = 0; one plane), one partition,
// colour endpoint mode 8 (LDR RGB direct). The 16 weights take 32 bits, so
// 79 bits remain for 6 endpoint values: range 256, plain bytes. Endpoints
// (10, 20, 30) and (250, 200, 100): sums 60 ≤ 550, no blue contraction.
// Weights 0, 3, 1, 2 (then 0) unquantize by replication to 6 bits to 0,
// 64 (63 + 1), 21, 43 (42 + 1). Widened ×257 and interpolated
// ((64 − w)·e0 + w·e1 + 32) >> 6, rounded to 8 bits:
// texel 2 (w 21): red (2570·43 + 64250·21 + 32) >> 6 = 22809 → 88.75 → 89,
// green 20319 → 79.06 → 79, blue 13613 → 52.97 → 53;
// texel 3 (w 43): red 44011 → 171.25 → 171, green 36221 → 140.94 → 141,
// blue 19797 → 77.03 → 77.
func TestASTCSinglePartition(t *testing.T) {
	b := astcBlock([]int{0x042, 11, 0, 2, 8, 4, 10, 8, 250, 8, 20, 8, 200, 8, 30, 8, 100, 8},
		[]int{0, 3, 1, 2}, 2)
	out := make([]byte, 4*4*4)
	DecodeASTCBlock(ASTC{4, 4, false}, b, out)
	want := map[int][4]byte{0: {10, 20, 30, 255}, 1: {250, 200, 100, 255}, 2: {89, 79, 53, 255}, 3: {171, 141, 77, 255}, 9: {10, 20, 30, 255}}
	for i, w := range want {
		if got := [4]byte(out[4*i : 4*i+4]); got != w {
			t.Errorf("texel %d = %v, want %v", i, got, w)
		}
	}
}

// TestASTCReserved: block mode 0 (bits 1:0 and 3:2 zero) is reserved and
// gives the error colour, magenta.
func TestASTCReserved(t *testing.T) {
	out := make([]byte, 5*4*4)
	DecodeASTCBlock(ASTC{5, 4, false}, make([]byte, 16), out)
	if got := [4]byte(out[76:80]); got != astcErrorColor {
		t.Errorf("texel 19 = %v", got)
	}
}

// TestASTCIntegerSequence checks the trit and quint unpacking and the
// unquantization tables against values worked out by hand from the
// specification's procedures.
func TestASTCIntegerSequence(t *testing.T) {
	// T = 1110 0011: T[4:2] = 000, so C = T[4:0] = 00011; T[6:5] = 11 →
	// t4 = 2, t3 = T[7] = 1; C[1:0] = 11 → t2 = 2, t1 = C[4] = 0,
	// t0 = {C[3], C[2]&~C[3]} = 0.
	if got := decodeTrits(0xE3); got != [5]int{0, 0, 2, 1, 2} {
		t.Errorf("trits of 0xE3 = %v", got)
	}
	// Q = 000 0110: Q[2:1] = 11, Q[6:5] = 00 → q2 = {Q0, Q4&~Q0, Q3&~Q0}
	// = 0, q1 = q0 = 4.
	if got := decodeQuints(0x06); got != [3]int{4, 4, 0} {
		t.Errorf("quints of 0x06 = %v", got)
	}
	// Q = 010 1101: q2 = Q[6:5] = 1, C = 01101, C[2:0] = 101 → q1 = 4,
	// q0 = C[4:3] = 1.
	if got := decodeQuints(0x2D); got != [3]int{1, 4, 1} {
		t.Errorf("quints of 0x2D = %v", got)
	}
	// Colour range 12 (a trit, 2 bits), value 9: D = 2, m = 01 → A = 0x1FF,
	// B = 0, C = 93: T = 186 ^ 511 = 325 → 0x80 | 325 >> 2 = 209.
	if got := unquantizeColor(9, 12); got != 209 {
		t.Errorf("colour 9 of range 12 = %d, want 209", got)
	}
	// Weight range 6 (a trit, 1 bit) gives 0, 12, 25, 39, 52, 64 in value
	// order (D, m) = (0,0), (1,0), (2,0), (2,1), (1,1), (0,1); value 5 is
	// D = 2, m = 1: A = 0x7F, T = 100 ^ 127 = 27 → 0x20 | 6 = 38 → 39.
	for v, want := range map[int]int{0: 0, 1: 64, 2: 12, 3: 52, 4: 25, 5: 39} {
		if got := unquantizeWeight(v, 6); got != want {
			t.Errorf("weight %d of range 6 = %d, want %d", v, got, want)
		}
	}
	// Bit counts: 5 trit values of 2 bits: 8 + 10 = 18; 3 quint values of
	// 1 bit: 7 + 3 = 10; 4 values of 3 bits: 12.
	if a, b, c := iseBits(5, 12), iseBits(3, 10), iseBits(4, 8); a != 18 || b != 10 || c != 12 {
		t.Errorf("ISE bits %d %d %d", a, b, c)
	}
}

// FuzzASTCBlock: any 16 bytes decode without panicking, for every
// footprint, to texels or the error colour.
func FuzzASTCBlock(f *testing.F) {
	f.Add(make([]byte, 16), byte(0))
	f.Add([]byte{0xFC, 0xFD, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0x80, 0, 0, 0, 0x40}, byte(3))
	f.Add(astcBlock([]int{0x042, 11, 0, 2, 8, 4, 10, 8, 250, 8}, []int{0, 3, 1, 2}, 2), byte(0))
	f.Fuzz(func(t *testing.T, b []byte, fp byte) {
		if len(b) < 16 {
			return
		}
		sizes := [][2]int{{4, 4}, {5, 4}, {5, 5}, {6, 5}, {6, 6}, {8, 5}, {8, 6}, {8, 8}, {10, 5}, {10, 6}, {10, 8}, {10, 10}, {12, 10}, {12, 12}}
		s := sizes[int(fp)%len(sizes)]
		for _, srgb := range []bool{false, true} {
			out := make([]byte, s[0]*s[1]*4)
			DecodeASTCBlock(ASTC{s[0], s[1], srgb}, b[:16], out)
		}
	})
}
