package ccs

import (
	"errors"
	"fmt"

	"github.com/animbake/bake/import/binread"
)

// End-marker values of the last Top record (ccs-container.md §4.2).
const (
	EndOnce = -1 // play once and hold
	EndLoop = -2 // loop; a loop is N-1 frames long
)

// Anime is one Anime chunk (0xCCCC0700) with all its records, in file
// order within each kind.
type Anime struct {
	// Off is the file offset of the chunk header.
	Off int64
	// Object is the Anime's own object id; Name is its index name (ANM_...).
	Object uint32
	Name   string
	// SourceFile is the file-table name of the Anime's object (the .max
	// scene it was exported from).
	SourceFile string
	// FrameCount is N, the frame count word.
	FrameCount uint32
	// Words is the record sequence length word.
	Words uint32
	// End is the end marker: EndOnce or EndLoop.
	End int32
	// Tops is the number of frame markers, the end marker included.
	Tops int

	ObjCtrls   []ObjectController
	MatCtrls   []MaterialController
	LightCtrls []LightController
	CamCtrls   []CameraController
	MorphCtrls []MorphController

	ObjFrames   []ObjFrame
	Notes       []Note
	MorphFrames []MorphFrame
	MatFrames   []MatFrame
	CamFrames   []CamFrame
	LightFrames []LightFrame

	// Skipped counts the records skipped by size, by code: unknown codes,
	// layouts not known for this generation, and records whose track kinds
	// are unknown.
	Skipped map[uint16]int
}

// Loops reports whether the animation loops (end marker -2).
func (a *Anime) Loops() bool { return a.End == EndLoop }

// anmHeaderWords is the Anime body before the records: object, N, words.
const anmHeaderWords = 3

// readAnime parses an Anime chunk whose header (type and size) started at
// off; body holds exactly the chunk's size words.
func readAnime(body *binread.Reader, off int64, x *Index, later bool, warn func(string, ...any)) (*Anime, error) {
	a := &Anime{Off: off, Skipped: map[uint16]int{}}
	var err error
	if a.Object, err = body.U32("Anime object"); err != nil {
		return nil, err
	}
	if uint64(a.Object) >= uint64(len(x.Objects)) {
		return nil, binread.Errorf(body.Off()-4, "Anime object id %d is outside the object table (%d entries)", a.Object, len(x.Objects))
	}
	a.Name = x.ObjectName(a.Object)
	a.SourceFile = x.FileOf(a.Object)
	if a.FrameCount, err = body.U32("Anime frame count"); err != nil {
		return nil, err
	}
	wordsOff := body.Off()
	if a.Words, err = body.U32("Anime record length"); err != nil {
		return nil, err
	}
	if uint64(a.Words)*4 > uint64(body.Remaining()) {
		return nil, binread.Errorf(wordsOff, "Anime %s: record length %d words overruns the chunk (%d words left)", a.Name, a.Words, body.Remaining()/4)
	}
	if uint64(a.Words)*4 != uint64(body.Remaining()) {
		warn("Anime %s at 0x%x: chunk size is %d words, expected 3 + %d", a.Name, off, body.Len()/4, a.Words)
	}
	recs, err := body.Sub(int(a.Words)*4, "Anime records")
	if err != nil {
		return nil, err
	}
	if err := a.readRecords(recs, later, warn); err != nil {
		return nil, err
	}
	return a, nil
}

// readRecords walks the record sequence: Top 0, the controllers, then Top f
// and frame f's records for f = 1 .. N-1, and the end marker.
func (a *Anime) readRecords(r *binread.Reader, later bool, warn func(string, ...any)) error {
	frame := int32(0)
	first := true
	for {
		if r.Remaining() == 0 {
			return r.Errorf("Anime %s: records end without an end marker (Top -1 or -2)", a.Name)
		}
		recOff := r.Off()
		code, size, err := chunkHead(r, "Anime record")
		if err != nil {
			return err
		}
		if uint64(size)*4 > uint64(r.Remaining()) {
			return binread.Errorf(recOff+4, "Anime %s: record 0x%04x of %d words overruns the record sequence (%d words left)", a.Name, code, size, r.Remaining()/4)
		}
		// A value Reader over the body (no heap allocation per record).
		body := binread.Reader{Data: r.Data[r.Pos : r.Pos+int(size)*4], Order: r.Order, Base: r.Off()}
		r.Pos += int(size) * 4
		if first && code != CodeFrame {
			return binread.Errorf(recOff, "Anime %s: expected the frame marker Top 0 first, found record 0x%04x", a.Name, code)
		}
		first = false
		if code == CodeFrame {
			v, err := body.I32("frame marker")
			if err != nil {
				return err
			}
			a.Tops++
			if v < 0 {
				if v != EndOnce && v != EndLoop {
					return binread.Errorf(recOff+8, "Anime %s: end marker %d (expected -1 or -2)", a.Name, v)
				}
				a.End = v
				if r.Remaining() != 0 {
					warn("Anime %s: %d bytes follow the end marker at 0x%x", a.Name, r.Remaining(), recOff)
				}
				return nil
			}
			if v < frame {
				return binread.Errorf(recOff+8, "Anime %s: frame marker %d goes back from frame %d", a.Name, v, frame)
			}
			frame = v
			continue
		}
		if err := a.readRecord(&body, code, frame, later); err != nil {
			var uk unknownKindError
			if errors.As(err, &uk) {
				warn("Anime %s: skipping record 0x%04x at 0x%x: %v", a.Name, code, recOff, uk.FormatError)
				a.Skipped[code]++
				continue
			}
			return fmt.Errorf("Anime %s: %w", a.Name, err)
		}
		if body.Remaining() != 0 {
			warn("Anime %s: record 0x%04x at 0x%x has %d bytes this reader does not know", a.Name, code, recOff, body.Remaining())
		}
	}
}

// readRecord dispatches on the full 16-bit code (never on the low byte
// alone, ccs-container.md §2.0).
func (a *Anime) readRecord(r *binread.Reader, code uint16, frame int32, later bool) error {
	switch code {
	case CodeObjCtrl:
		c, err := readObjectController(r)
		if err == nil {
			a.ObjCtrls = append(a.ObjCtrls, c)
		}
		return err
	case CodeMatCtrl:
		c, err := readMaterialController(r, later)
		if err == nil {
			a.MatCtrls = append(a.MatCtrls, c)
		}
		return err
	case CodeDistantCtrl, CodeDirectCtrl, CodeSpotCtrl, CodeOmniCtrl:
		c, err := readLightController(r, code)
		if err == nil {
			a.LightCtrls = append(a.LightCtrls, c)
		}
		return err
	case CodeCamCtrl:
		c, err := readCameraController(r)
		if err == nil {
			a.CamCtrls = append(a.CamCtrls, c)
		}
		return err
	case CodeMorphCtrl:
		c, err := readMorphController(r)
		if err == nil {
			a.MorphCtrls = append(a.MorphCtrls, c)
		}
		return err
	case CodeObjFrame:
		f, err := readObjFrame(r, frame, later)
		if err == nil {
			a.ObjFrames = append(a.ObjFrames, f)
		}
		return err
	case CodeNote:
		n, err := readNote(r, frame)
		if err == nil {
			a.Notes = append(a.Notes, n)
		}
		return err
	case CodeMorphFrame:
		m, err := readMorphFrame(r, frame)
		if err == nil {
			a.MorphFrames = append(a.MorphFrames, m)
		}
		return err
	case CodeMatFrame:
		m, err := readMatFrame(r, frame, later)
		if err == nil {
			a.MatFrames = append(a.MatFrames, m)
		}
		return err
	case CodeCamFrame:
		c, err := readCamFrame(r, frame)
		if err == nil {
			a.CamFrames = append(a.CamFrames, c)
		}
		return err
	case CodeAmbientFrame, CodeDistantFrame:
		l, err := readLightFrame(r, frame, code)
		if err == nil {
			a.LightFrames = append(a.LightFrames, l)
		}
		return err
	}
	a.Skipped[code]++
	r.Pos = r.Len()
	return nil
}
