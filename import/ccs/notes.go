package ccs

import (
	"math"

	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/model"
)

// Event names of the events an Anime produces.
const (
	// EventNote is an F_Note handed to the note function.
	EventNote = "note"
	// EventEffectRestart is an F_Obj record on an effect object, which
	// restarts the effect's animation when playback reads it.
	EventEffectRestart = "effectRestart"
)

// notes converts F_Note records into events in delivery order
// (ccs-anime-playback.txt "Notes"). At the native speed every step moves
// one frame, so a step to frame f collects frame f's notes; the list is
// last in, first out, so they go out in reverse file order: a frame's
// last record first. Frames come out in increasing order. Each event's
// Args hold the record's event and param and, as noteTime, the ccAnmNote's
// time field (a frame), which for frame old+1's notes is the step's old
// frame, f-1. Notes at frame 0, or
// past N-1, are never handed on; Extras counts them. Effect restarts
// (F_Obj on an effect object) come before the notes of their step.
func (cv *animConverter) notes() error {
	end := uint32(cv.tm.End())
	dropped := 0
	var group []model.Event
	restarts := cv.restarts
	// upTo appends the restarts read up to frame f: DecodeFrameChunk reads
	// them during the step, before NoteProcess hands on the step's notes.
	upTo := func(f float64) {
		for len(restarts) > 0 && restarts[0].Frame <= f {
			cv.anim.Events = append(cv.anim.Events, restarts[0])
			restarts = restarts[1:]
		}
	}
	flush := func() {
		if len(group) > 0 {
			upTo(group[0].Frame)
		}
		for i := len(group) - 1; i >= 0; i-- {
			cv.anim.Events = append(cv.anim.Events, group[i])
		}
		group = group[:0]
	}
	for i := range cv.a.Notes {
		n := &cv.a.Notes[i]
		node, err := cv.ns.node(n.Object, n.Off+8, "F_Note", "")
		if err != nil {
			return err
		}
		if n.Frame == 0 || uint32(n.Frame) > end {
			dropped++
			continue
		}
		if len(group) > 0 && group[0].Frame != float64(n.Frame) {
			flush()
		}
		group = append(group, model.Event{Frame: float64(n.Frame), Name: EventNote, Node: node,
			Args: map[string]any{"event": int64(n.Event), "param": int64(n.Param), "noteTime": int64(n.Frame) - 1}})
	}
	flush()
	upTo(math.Inf(1))
	if dropped > 0 {
		cv.anim.Extras["ccsNotesNeverDelivered"] = int64(dropped)
	}
	return nil
}

// errorAt builds a FormatError at a file offset.
func errorAt(off int64, format string, args ...any) error {
	return binread.Errorf(off, format, args...)
}
