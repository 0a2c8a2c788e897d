package ccs

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"io"
)

// Sniff recognises a plain CCSF file by its header chunk, and a gzip stream
// by peeking into its first inflated bytes for that header: gzip alone says
// nothing about the content. When the head is too short to inflate 12 bytes
// (a dynamic Huffman block's tables alone can fill it), the block's
// literal code lengths are read instead: the header's first bytes can only
// be literals, so a block without the literals 00 01 0D 43 46 53 CC cannot
// start a CCSF file. A stream that passes is accepted when its FNAME field
// ends in ".ccs" or ".cmp", or is absent (no other bake format is
// gzip-compressed); Decode then checks the header for certain.
func Sniff(head []byte) bool {
	if isCCSF(head) {
		return true
	}
	if !isGzipMagic(head) {
		return false
	}
	body, fname, ok := gzipBody(head)
	if !ok {
		return false
	}
	peek := make([]byte, 12)
	n, _ := io.ReadFull(flate.NewReader(bytes.NewReader(body)), peek)
	if n == len(peek) {
		return isCCSF(peek)
	}
	if maybe, decided := headerLiteralsPresent(body); decided && !maybe {
		return false
	}
	if fname == nil {
		return true
	}
	ext := bytes.ToLower(fname[max(len(fname)-4, 0):])
	return string(ext) == ".ccs" || string(ext) == ".cmp"
}

// gzipBody skips a gzip member header (RFC 1952) within head and returns
// the deflate data that follows and the FNAME field, if any. ok is false
// when the header does not fit in head.
func gzipBody(head []byte) (body, fname []byte, ok bool) {
	const (
		fhcrc    = 1 << 1
		fextra   = 1 << 2
		fnameBit = 1 << 3
		fcomment = 1 << 4
	)
	if len(head) < 10 {
		return nil, nil, false
	}
	flg := head[3]
	p := 10
	if flg&fextra != 0 {
		if p+2 > len(head) {
			return nil, nil, false
		}
		p += 2 + int(binary.LittleEndian.Uint16(head[p:]))
	}
	var name []byte
	for _, field := range []byte{fnameBit, fcomment} {
		if flg&field == 0 {
			continue
		}
		i := bytes.IndexByte(head[min(p, len(head)):], 0)
		if i < 0 {
			return nil, nil, false
		}
		if field == fnameBit {
			name = head[p : p+i]
		}
		p += i + 1
	}
	if flg&fhcrc != 0 {
		p += 2
	}
	if p > len(head) {
		return nil, nil, false
	}
	return head[p:], name, true
}

// ccsfHeaderBytes are the distinct byte values of a CCSF file's first 12
// bytes (01 00 CC CC 0D 00 00 00 "CCSF"). The first occurrence of each in
// the stream has no earlier data to copy from, so each must be a literal
// of the first deflate block.
var ccsfHeaderBytes = []int{0x00, 0x01, 0x0D, 0x43, 0x46, 0x53, 0xCC}

// headerLiteralsPresent reads the code lengths of a dynamic-Huffman deflate
// block (RFC 1951 §3.2.7) at the start of body and reports whether every
// byte of ccsfHeaderBytes has a literal code. decided is false when body is
// not a dynamic block or ends before the lengths up to 0xCC are known.
func headerLiteralsPresent(body []byte) (maybe, decided bool) {
	br := bitReader{data: body}
	br.bits(1) // BFINAL
	if btype, ok := br.bits(2); !ok || btype != 2 {
		return false, false
	}
	hlit, _ := br.bits(5)
	br.bits(5) // HDIST
	hclen, ok := br.bits(4)
	if !ok {
		return false, false
	}
	order := [19]int{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}
	var clen [19]uint8
	for i := range int(hclen) + 4 {
		v, ok := br.bits(3)
		if !ok {
			return false, false
		}
		clen[order[i]] = uint8(v)
	}
	codes := canonicalCodes(clen[:])
	need := 0xCC + 1
	lengths := make([]uint8, 0, need+138)
	for len(lengths) < need && len(lengths) < int(hlit)+257 {
		sym, ok := br.decode(clen[:], codes)
		if !ok {
			return false, false
		}
		switch {
		case sym < 16:
			lengths = append(lengths, uint8(sym))
		case sym == 16:
			if len(lengths) == 0 {
				return false, true // invalid: nothing to repeat
			}
			n, ok := br.bits(2)
			if !ok {
				return false, false
			}
			for range n + 3 {
				lengths = append(lengths, lengths[len(lengths)-1])
			}
		default:
			extra, base := uint32(3), uint32(3)
			if sym == 18 {
				extra, base = 7, 11
			}
			n, ok := br.bits(extra)
			if !ok {
				return false, false
			}
			for range n + base {
				lengths = append(lengths, 0)
			}
		}
	}
	if len(lengths) < need {
		return false, true // fewer literal codes than 0xCC: 0xCC has none
	}
	for _, b := range ccsfHeaderBytes {
		if lengths[b] == 0 {
			return false, true
		}
	}
	return true, true
}

// canonicalCodes assigns deflate's canonical Huffman codes to code lengths.
func canonicalCodes(lens []uint8) []uint32 {
	var count [16]uint32
	for _, l := range lens {
		count[l]++
	}
	count[0] = 0
	var next [16]uint32
	code := uint32(0)
	for l := 1; l < 16; l++ {
		code = (code + count[l-1]) << 1
		next[l] = code
	}
	codes := make([]uint32, len(lens))
	for s, l := range lens {
		if l != 0 {
			codes[s] = next[l]
			next[l]++
		}
	}
	return codes
}

// bitReader reads deflate's LSB-first bit stream.
type bitReader struct {
	data []byte
	pos  int // bit position
}

func (b *bitReader) bits(n uint32) (uint32, bool) {
	var v uint32
	for i := range n {
		if b.pos/8 >= len(b.data) {
			return 0, false
		}
		bit := uint32(b.data[b.pos/8]>>(b.pos%8)) & 1
		v |= bit << i
		b.pos++
	}
	return v, true
}

// decode reads one Huffman-coded symbol (codes are packed most significant
// bit first).
func (b *bitReader) decode(lens []uint8, codes []uint32) (int, bool) {
	code := uint32(0)
	for l := uint8(1); l < 16; l++ {
		bit, ok := b.bits(1)
		if !ok {
			return 0, false
		}
		code = code<<1 | bit
		for s, sl := range lens {
			if sl == l && codes[s] == code {
				return s, true
			}
		}
	}
	return 0, false
}
