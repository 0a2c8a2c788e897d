package pixel

import "testing"

// blockBits builds a 16-byte block from fields in order, each (value,
// bits), packed least significant bit first: the way the BC6H and BC7
// specifications lay a block out.
func blockBits(t *testing.T, fields ...int) []byte {
	t.Helper()
	var b [16]byte
	pos := 0
	for i := 0; i < len(fields); i += 2 {
		v, n := fields[i], fields[i+1]
		for k := range n {
			if v>>k&1 == 1 {
				b[(pos+k)/8] |= 1 << ((pos + k) % 8)
			}
		}
		pos += n
	}
	if pos > 128 {
		t.Fatalf("fields take %d bits", pos)
	}
	return b[:]
}

// TestBC7Mode6 decodes a mode 6 block built by hand (D3D11 BC7, mode 6:
// 7-bit RGBA endpoints, a p-bit per endpoint, 4-bit indices). Endpoint 0
// = (127, 0, 64, 127) with p = 1 → (255, 1, 129, 255); endpoint 1 =
// (0, 127, 64, 127) with p = 0 → (0, 254, 128, 254). Pixel 0 (the anchor,
// 3-bit index) 0 → endpoint 0; pixel 1 index 15 (weight 64) → endpoint 1;
// pixel 2 index 5 (weight 21): red (43·255 + 32) >> 6 = 171, green
// (43·1 + 21·254 + 32) >> 6 = 84, blue (43·129 + 21·128 + 32) >> 6 = 129,
// alpha (43·255 + 21·254 + 32) >> 6 = 255.
func TestBC7Mode6(t *testing.T) {
	b := blockBits(t,
		1<<6, 7, // mode 6
		127, 7, 0, 7, // R0 R1
		0, 7, 127, 7, // G0 G1
		64, 7, 64, 7, // B0 B1
		127, 7, 127, 7, // A0 A1
		1, 1, 0, 1, // p-bits
		0, 3, 15, 4, 5, 4) // indices of pixels 0, 1, 2 (others 0)
	want := map[int][4]byte{0: {255, 1, 129, 255}, 1: {0, 254, 128, 254}, 2: {171, 84, 129, 255}, 15: {255, 1, 129, 255}}
	checkBlock(t, BC7, b, want)
}

// TestBC7Mode1 decodes a two-subset mode 1 block built by hand (6-bit RGB
// endpoints, one shared p-bit per subset, 3-bit indices) in partition 0
// (0xCCCC: columns 2 and 3 are subset 1, whose anchor is pixel 15).
// Subset 0 (p = 1): (63, 0, 0) → 7 bits (127, 1, 1) → (255, 2, 2) and
// (0, 0, 0) → (2, 2, 2); subset 1 (p = 0): (0, 0, 63) → (0, 0, 253) and
// black. Pixel 1 index 7 → (2, 2, 2); pixel 2 index 3 (weight 27): blue
// (37·253 + 32) >> 6 = 146; pixel 4 index 4 (weight 37): red
// (27·255 + 37·2 + 32) >> 6 = 109, green and blue (27·2 + 37·2 + 32) >> 6
// = 2; pixel 15 (2-bit anchor) index 3 → blue 146.
func TestBC7Mode1(t *testing.T) {
	idx := []int{0, 2, 7, 3, 3, 3, 0, 3, 4, 3}
	fields := []int{
		1 << 1, 2, // mode 1
		0, 6, // partition
		63, 6, 0, 6, 0, 6, 0, 6, // R: s0e0 s0e1 s1e0 s1e1
		0, 6, 0, 6, 0, 6, 0, 6, // G
		0, 6, 0, 6, 63, 6, 0, 6, // B
		1, 1, 0, 1, // shared p-bits
	}
	fields = append(fields, idx...)
	for i := 5; i < 15; i++ {
		fields = append(fields, 0, 3)
	}
	fields = append(fields, 3, 2) // pixel 15, anchor of subset 1
	want := map[int][4]byte{0: {255, 2, 2, 255}, 1: {2, 2, 2, 255}, 2: {0, 0, 146, 255}, 3: {0, 0, 253, 255},
		4: {109, 2, 2, 255}, 5: {255, 2, 2, 255}, 15: {0, 0, 146, 255}}
	checkBlock(t, BC7, blockBits(t, fields...), want)
}

// TestBC7Mode4 checks rotation and index selection: mode 4, rotation 1
// (red and alpha exchanged), index selection 1 (colour takes the 3-bit
// indices, alpha the 2-bit ones). Endpoints red 31 → 255 and 0, alpha
// 0 and 63 → 255. Pixel 0: 2-bit index 1 (weight 21) for alpha,
// (21·255 + 32) >> 6 = 84; 3-bit index 3 (weight 27) for colour, red
// (37·255 + 32) >> 6 = 147; rotated: (84, 0, 0, 147). Other pixels
// (index 0): (255, 0, 0, 0) rotated to (0, 0, 0, 255).
func TestBC7Mode4(t *testing.T) {
	b := blockBits(t,
		1<<4, 5, // mode 4
		1, 2, 1, 1, // rotation, index selection
		31, 5, 0, 5, 0, 5, 0, 5, 0, 5, 0, 5, // R0 R1 G0 G1 B0 B1
		0, 6, 63, 6, // A0 A1
		1, 1, 0, 30, // 2-bit indices: pixel 0 (1 bit), then 15 × 2 bits
		3, 2) // 3-bit indices: pixel 0 (2 bits), the rest 0
	checkBlock(t, BC7, b, map[int][4]byte{0: {84, 0, 0, 147}, 9: {0, 0, 0, 255}})
}

// TestBC7Reserved: a block whose first byte is 0 (mode 8) is invalid and
// decodes to transparent black.
func TestBC7Reserved(t *testing.T) {
	b := make([]byte, 16)
	b[5] = 0xFF
	out := [64]byte{1, 2, 3}
	DecodeBlock(BC7, b, &out)
	if out != ([64]byte{}) {
		t.Errorf("reserved mode gave %v", out[:8])
	}
}

// TestBPTCTables checks properties the specification states of its
// partition and anchor tables: pixel 0 is in subset 0, each anchor lies in
// the subset it anchors, and every subset has a pixel. A wrongly copied
// entry breaks one of these more often than not.
func TestBPTCTables(t *testing.T) {
	for p := range 64 {
		for n := 2; n <= 3; n++ {
			var count [3]int
			for i := range 16 {
				count[subsetOf(n, p, i)]++
			}
			if subsetOf(n, p, 0) != 0 || count[1] == 0 || (n == 3 && count[2] == 0) {
				t.Errorf("partition %d of %d subsets: counts %v", p, n, count)
			}
		}
		if subsetOf(2, p, int(anchor2[p])) != 1 {
			t.Errorf("2-subset partition %d: anchor %d not in subset 1", p, anchor2[p])
		}
		if subsetOf(3, p, int(anchor3[0][p])) != 1 || subsetOf(3, p, int(anchor3[1][p])) != 2 {
			t.Errorf("3-subset partition %d: anchors %d, %d", p, anchor3[0][p], anchor3[1][p])
		}
	}
}

// TestBC6Layouts checks each mode's layout against the mode table: the
// endpoint bits take 75 (two-bit mode field), 72 or 60 bits so that the
// block is 128 bits with its partition and indices, and each endpoint
// value gets exactly its bits once (base bits for the first endpoint, the
// delta or base bits for the others).
func TestBC6Layouts(t *testing.T) {
	for m, mode := range bc6Modes {
		want := 60
		if mode.regions == 2 {
			want = 72
			if m < 2 {
				want = 75
			}
		}
		if got := len(bc6Layouts[m]); got != want {
			t.Errorf("mode %d: %d endpoint bits, want %d", m, got, want)
		}
		var seen [12]uint32
		for _, f := range bc6Layouts[m] {
			if seen[f.value]>>f.bit&1 == 1 {
				t.Errorf("mode %d: value %d bit %d twice", m, f.value, f.bit)
			}
			seen[f.value] |= 1 << f.bit
		}
		for v := range 6 * mode.regions {
			n := mode.baseBits
			if v >= 3 && mode.transformed {
				n = mode.deltaBits[v%3]
			}
			if seen[v] != 1<<n-1 {
				t.Errorf("mode %d: value %d has bits %b, want %d bits", m, v, seen[v], n)
			}
		}
	}
}

// TestBC6HMode11 decodes a block of the specification's mode 11 (mode
// field 00011: one region, 10-bit endpoints, no deltas, 4-bit indices),
// unsigned. Endpoints: red 1023 → 0xFFFF and 0; green 462 → 462·64 + 32 =
// 29600 both; blue 0 and 1023. Green: 29600·31 >> 6 = 14337 = half 0x3801
// = 0.50049 → 128. Pixel 0 (index 0) red 0xFFFF → 0x7BFF (65504) → 255;
// pixel 1 (index 15) blue → 255; pixel 2 index 8 (weight 34): red
// (30·65535 + 32) >> 6 = 30720 → 30720·31 >> 6 = 14880 = 0x3A20 =
// 0.765625 → 195.23 → 195; blue (34·65535 + 32) >> 6 = 34815 → 16863 =
// 0x41DF = 2.94 → 255.
func TestBC6HMode11(t *testing.T) {
	b := blockBits(t, 0x03, 5, 1023, 10, 462, 10, 0, 10, 0, 10, 462, 10, 1023, 10,
		0, 3, 15, 4, 8, 4)
	checkBlock(t, BC6HU, b, map[int][4]byte{0: {255, 128, 0, 255}, 1: {0, 128, 255, 255}, 2: {195, 128, 255, 255}, 3: {255, 128, 0, 255}})
}

// TestBC6HSigned: mode 11 signed. Red −1 (0x3FF) unquantizes to
// −((1 << 15 + 0x4000) >> 9) = −96, a negative half → 0; green 200 →
// (200 << 15 + 0x4000) >> 9 = 12832 → 12832·31 >> 5 = 12431 = 0x308F =
// 0.14246 → 36.3 → 36.
func TestBC6HSigned(t *testing.T) {
	b := blockBits(t, 0x03, 5, 0x3FF, 10, 200, 10, 0, 10, 0, 10, 0, 10, 0, 10)
	checkBlock(t, BC6HS, b, map[int][4]byte{0: {0, 36, 0, 255}})
}

// TestBC6HDelta: the specification's mode 12 (mode field 00111: 11-bit
// base, 9-bit deltas). Red base 925, delta 0x1FF (−1) → 924. Unquantized
// 925·32 + 16 = 29616 and 924·32 + 16 = 29584; ×31 >> 6 → 14345 (0x3809,
// 0.50439 → 129) and 14329 (0x37F9, 0.49829 → 127).
func TestBC6HDelta(t *testing.T) {
	b := blockBits(t, 0x07, 5, 925, 10, 0, 10, 0, 10, 0x1FF, 9, 0, 1, 0, 9, 0, 1, 0, 9, 0, 1,
		0, 3, 15, 4)
	checkBlock(t, BC6HU, b, map[int][4]byte{0: {129, 0, 0, 255}, 1: {127, 0, 0, 255}})
}

// TestBC6HReserved: mode field 10011 is reserved: black.
func TestBC6HReserved(t *testing.T) {
	b := blockBits(t, 0x13, 5, 0x3FF, 10)
	checkBlock(t, BC6HU, b, map[int][4]byte{7: {0, 0, 0, 255}})
}
