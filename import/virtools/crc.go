package virtools

// adlerMod is the Adler-32 modulus.
const adlerMod = 65521

// adler32From continues an Adler-32 checksum from a previous value. Virtools
// seeds it with 0, not with the usual 1, so hash/adler32 cannot be used.
func adler32From(prev uint32, p []byte) uint32 {
	s1, s2 := prev&0xffff, prev>>16
	for len(p) > 0 {
		// 5552 bytes is the most that can be summed before s2 may overflow.
		n := min(len(p), 5552)
		for _, b := range p[:n] {
			s1 += uint32(b)
			s2 += s1
		}
		s1 %= adlerMod
		s2 %= adlerMod
		p = p[n:]
	}
	return s2<<16 | s1
}

// ComputeCRC returns the file checksum Virtools 2.x/3.x stores at offset 8:
// Adler-32 seeded with 0 over the 64-byte header with the CRC field zeroed,
// then the stored Header1 bytes, then the stored Data bytes. data must
// hold at least the header and both sections.
func ComputeCRC(data []byte, h *Header) uint32 {
	var head [HeaderSize]byte
	copy(head[:], data[:HeaderSize])
	head[8], head[9], head[10], head[11] = 0, 0, 0, 0
	crc := adler32From(0, head[:])
	end := HeaderSize + int(h.Hdr1PackSize) + int(h.DataPackSize)
	return adler32From(crc, data[HeaderSize:end])
}

// computeDataOnlyCRC is the checksum files written by Virtools 4.0 and
// later carry: Adler-32 seeded with 0 over the stored Data bytes only.
func computeDataOnlyCRC(data []byte, h *Header) uint32 {
	start := HeaderSize + int(h.Hdr1PackSize)
	return adler32From(0, data[start:start+int(h.DataPackSize)])
}
