package ccs

import (
	"fmt"

	"github.com/animbake/bake/import/binread"
)

// Scene is one parsed CCSF file: header, index, what the object chunks say
// about the objects the animations drive, and the Anime chunks.
type Scene struct {
	Header Header
	Index  Index
	// Kinds maps an object id to the code of the first top-level chunk that
	// carries it (Object, Camera, Light, Morpher, Material, ...).
	Kinds map[uint32]uint16
	// Parents maps an object id to its parent from its Object chunk
	// (0x0100), when the parent is not 0.
	Parents map[uint32]uint32
	// Externals maps an External chunk's (0x0A00) id to the object it
	// copies and the parent it has in its own scene.
	Externals map[uint32]External
	// Animes holds the Anime chunks in file order.
	Animes []*Anime
	// Chunks counts the top-level chunks by code.
	Chunks map[uint16]int
	// Resyncs counts the times the walk had to scan for the next chunk.
	Resyncs int
	// Raw holds, by code and in file order, the object chunks the asset
	// decoders read later (Object, Material, Texture, CLUT, Camera, Light,
	// Model, Clump, Morpher): walking stays cheap and a file whose assets
	// are not wanted (--no-meshes) never decodes them.
	Raw map[uint16][]RawChunk

	matNames map[uint32]string // MaterialName's table, built on first use
}

// RawChunk is one top-level object chunk kept undecoded: its offset, its
// object id (the first body word) and the body after the id. A Model
// chunk's body runs to the next chunk the walk found, since its size word
// is unreliable in generation 1 (ccs-container.md §2.5).
type RawChunk struct {
	Off  int64
	ID   uint32
	Body []byte
}

// BodyOff is the file offset of Body[0].
func (c *RawChunk) BodyOff() int64 { return c.Off + 12 }

// reader reads Body with errors at file offsets.
func (c *RawChunk) reader() *binread.Reader {
	r := newReader(c.Body)
	r.Base = c.BodyOff()
	return r
}

// assetCodes lists the chunks kept in Scene.Raw.
var assetCodes = map[uint16]bool{CodeObject: true, CodeMaterial: true, CodeTexture: true, CodeCLUT: true,
	CodeCamera: true, CodeLight: true, CodeModel: true, CodeClump: true, CodeMorpher: true}

// External is an External ("ExtObj") chunk: a redirect to another object.
type External struct {
	Off    int64
	Parent uint32
	Object uint32
}

// knownTopLevel lists the top-level codes a resync scan accepts
// (ccs-container.md §2.4 and blender_ccs_importer's enumeration).
var knownTopLevel = map[uint16]bool{
	0x0100: true, 0x0200: true, 0x0300: true, 0x0400: true, 0x0500: true, 0x0600: true, 0x0700: true,
	0x0800: true, 0x0900: true, 0x0A00: true, 0x0B00: true, 0x0C00: true, 0x0D00: true, 0x0D80: true,
	0x0D90: true, 0x0E00: true, 0x1000: true, 0x1100: true, 0x1200: true, 0x1300: true, 0x1400: true,
	0x1700: true, 0x1800: true, 0x1900: true, 0x1A00: true, 0x1B00: true, 0x1C00: true, 0x1D00: true,
	0x1F00: true, 0x2000: true, 0x2200: true, 0x2300: true, 0x2400: true, 0x2700: true,
	CodeStream: true, CodeFrame: true,
}

// ReadScene parses a CCSF file held in data. warn receives non-fatal
// notices (may be nil).
func ReadScene(data []byte, warn func(string, ...any)) (*Scene, error) {
	if warn == nil {
		warn = func(string, ...any) {}
	}
	r := newReader(data)
	s := &Scene{Kinds: map[uint32]uint16{}, Parents: map[uint32]uint32{}, Externals: map[uint32]External{}, Chunks: map[uint16]int{}, Raw: map[uint16][]RawChunk{}}
	var err error
	if s.Header, err = readHeader(r); err != nil {
		return nil, err
	}
	// The header's size word is not trusted; the index follows its 0x3C
	// bytes (ccs-container.md §2.1).
	if err := r.Seek(8+headerBodyBytes, "index chunk"); err != nil {
		return nil, err
	}
	if s.Index, err = readIndex(r); err != nil {
		return nil, err
	}
	if err := readSetup(r); err != nil {
		return nil, err
	}
	return s, s.walk(r, warn)
}

// walk reads the object chunks until the Stream (0x0005) or the end,
// following the size rules and their traps (ccs-container.md §2.5).
func (s *Scene) walk(r *binread.Reader, warn func(string, ...any)) error {
	later := s.Header.Later()
	for {
		if r.Remaining() == 0 {
			return r.Errorf("file ends without the Stream chunk (0xCCCC0005) or the end marker (0xCCCCFF01): truncated?")
		}
		off := r.Off()
		if r.Remaining() < 8 {
			return r.Errorf("expected a chunk header (8 bytes), only %d bytes left", r.Remaining())
		}
		code, size, err := chunkHead(r, "chunk")
		if err != nil {
			next, ok := s.resync(r, r.Pos-8)
			if !ok {
				return err
			}
			warn("chunk walk out of sync at 0x%x; resumed at 0x%x", off, r.Base+int64(next))
			r.Pos = next
			continue
		}
		s.Chunks[code]++
		if code == CodeStream || code == CodeFrame {
			// The Stream's records (stream scenes) are not read; its first
			// word, the frame count, must be there.
			if size == 0 || r.Remaining() < 4 {
				return binread.Errorf(off+4, "chunk 0x%04x: expected at least one body word, size %d with %d bytes left", code, size, r.Remaining())
			}
			return nil
		}
		bodyStart := r.Pos
		words := uint64(size)
		if code == CodeTexture && words >= textureExtraWords {
			words -= textureExtraWords // the size counts 50 words more than the body
		}
		if words*4 > uint64(r.Remaining()) {
			return binread.Errorf(off+4, "chunk 0x%04x: size %d words overruns the file (%d words left)", code, size, r.Remaining()/4)
		}
		body, _ := r.Sub(int(words)*4, "chunk body")
		if err := s.readChunk(body, code, off, later, warn); err != nil {
			return err
		}
		if code == CodeModel || code == CodeTexture {
			// Sizes of these two are unreliable in generation 1: when the
			// next word is not a chunk, scan for one.
			if !s.plausibleAt(r, r.Pos, false) {
				next, ok := s.resync(r, bodyStart)
				if !ok {
					return binread.Errorf(off, "chunk 0x%04x: no chunk follows it", code)
				}
				r.Pos = next
				if code == CodeModel {
					// The model's body runs to the chunk found.
					raws := s.Raw[code]
					if last := &raws[len(raws)-1]; last.Off == off {
						last.Body = r.Data[bodyStart+4 : next]
					}
				}
			}
		}
	}
}

// plausibleAt reports whether a chunk header whose size fits the data
// starts at pos. A scan (known) also requires a known top-level code; the
// check where a size says the next chunk is accepts any object-chunk code.
func (s *Scene) plausibleAt(r *binread.Reader, pos int, known bool) bool {
	if pos+8 > len(r.Data) {
		return false
	}
	t := r.Order.Uint32(r.Data[pos:])
	size := uint64(r.Order.Uint32(r.Data[pos+4:]))
	if t>>16 != chunkMagic || known && !knownTopLevel[uint16(t)] || !known && uint16(t)&0xFF != 0 && !knownTopLevel[uint16(t)] {
		return false
	}
	if uint16(t) == CodeTexture && size >= textureExtraWords {
		size -= textureExtraWords
	}
	return size*4 <= uint64(len(r.Data)-pos-8)
}

// resync scans forward in 4-byte steps from pos for the next plausible
// chunk header.
func (s *Scene) resync(r *binread.Reader, pos int) (int, bool) {
	s.Resyncs++
	for p := pos + 4; p+8 <= len(r.Data); p += 4 {
		if s.plausibleAt(r, p, true) {
			return p, true
		}
	}
	return 0, false
}

// readChunk records what the walk needs from one top-level chunk.
func (s *Scene) readChunk(body *binread.Reader, code uint16, off int64, later bool, warn func(string, ...any)) error {
	if code == CodeAnime {
		a, err := readAnime(body, off, &s.Index, later, warn)
		if err != nil {
			return err
		}
		s.Animes = append(s.Animes, a)
		return nil
	}
	if code&0xFF != 0 || body.Len() < 4 {
		return nil // not an object chunk, or too short to name one
	}
	id, _ := body.U32("object index")
	if _, seen := s.Kinds[id]; !seen {
		s.Kinds[id] = code
	}
	if assetCodes[code] {
		s.Raw[code] = append(s.Raw[code], RawChunk{Off: off, ID: id, Body: body.Data[body.Pos:]})
	}
	switch code {
	case CodeObject:
		parent, err := body.U32("object parent")
		if err != nil {
			return fmt.Errorf("object chunk at 0x%x: %w", off, err)
		}
		if parent != 0 {
			s.Parents[id] = parent
		}
	case CodeExternal:
		parent, err := body.U32("external parent")
		if err != nil {
			return err
		}
		obj, err := body.U32("external object")
		if err != nil {
			return err
		}
		s.Externals[id] = External{Off: off, Parent: parent, Object: obj}
	}
	return nil
}
