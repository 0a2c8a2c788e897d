package ccs

import (
	"github.com/animbake/bake/model"
)

// objPose is the stepped pose an F_Obj object takes.
type objPose struct {
	pos, rot, scale, alpha *series
}

var (
	restPos   = []float32{0, 0, 0}
	restScale = []float32{1, 1, 1}
	restAlpha = []float32{1}
)

// objFrames converts F_Obj records (ccs-anime-playback.txt "F_Obj") into
// stepped T, R, S and alpha channels of the objects no controller drives,
// and an F_Obj on an effect object (0x0E00) into an effectRestart event.
// Frame 0's records are never read (DecodeFrameChunk starts at frame 1);
// before its first record an object shows its rest pose; transparency is
// clamped to 0..1 as DecodeF_Obj stores it.
func (cv *animConverter) objFrames() error {
	var poses orderedKeys[string, *objPose]
	for i := range cv.a.ObjFrames {
		f := &cv.a.ObjFrames[i]
		node, err := cv.ns.node(f.Object, f.Off+8, "F_Obj", "")
		if err != nil {
			return err
		}
		if f.Frame == 0 {
			continue
		}
		if target, _ := cv.ns.resolve(f.Object, f.Off+8, "F_Obj"); cv.ns.s.Kinds[target] == CodeEffect {
			if float64(f.Frame) > cv.tm.End() {
				continue // never read
			}
			// DecodeF_Obj restarts an effect object's animation instead of
			// posing it.
			cv.restarts = append(cv.restarts, model.Event{Frame: float64(f.Frame), Name: EventEffectRestart, Node: node})
			continue
		}
		if _, driven := cv.driven[node]; driven {
			cv.warn("Anime %s: F_Obj at 0x%x poses %s, which a controller drives; the controller wins", cv.a.Name, f.Off, node)
			continue
		}
		p := poses.get(node, func() *objPose {
			return &objPose{newSeries(3), newSeries(3), newSeries(3), newSeries(1)}
		})
		fr := uint32(f.Frame)
		p.pos.set(fr, f.Position[:])
		p.rot.set(fr, f.Rotation[:])
		p.scale.set(fr, f.Scale[:])
		p.alpha.set(fr, []float32{clamp01(f.Alpha)})
	}
	for _, node := range poses.keys {
		p := poses.m[node]
		p.pos.startAtZero(restPos)
		p.rot.startAtZero(restPos)
		p.scale.startAtZero(restScale)
		p.alpha.startAtZero(restAlpha)
		cv.channel(node, model.PathTranslation, p.pos.track(cv.tm))
		cv.channel(node, model.PathRotation, p.rot.rotation(cv.tm))
		cv.channel(node, model.PathScale, p.scale.track(cv.tm))
		cv.channel(node, model.PathAlpha, p.alpha.track(cv.tm))
	}
	return nil
}

// clamp01 clamps a transparency to 0..1 (a NaN stays as it is).
func clamp01(v float32) float32 {
	if v < 0 {
		return 0
	}
	if v > 1 {
		return 1
	}
	return v
}

// morphFrames converts F_Morpher records into one stepped weights channel
// per morpher. Its targets are every target any record names, in first-seen
// order (Labels); a record sets the morpher's whole target list, so targets
// it does not name weigh 0. Frame 0's records are never applied.
func (cv *animConverter) morphFrames() error {
	type morph struct {
		targets []uint32
		index   map[uint32]int
		recs    []*MorphFrame
	}
	var morphs orderedKeys[string, *morph]
	for i := range cv.a.MorphFrames {
		m := &cv.a.MorphFrames[i]
		node, err := cv.ns.morphNode(m.Morpher, m.Off+8, "F_Morpher")
		if err != nil {
			return err
		}
		for j, t := range m.Targets {
			if t == 0 || uint64(t) >= uint64(len(cv.ns.s.Index.Objects)) {
				return errorAt(m.Off+16+8*int64(j), "F_Morpher target id %d is outside the object table (1..%d)", t, len(cv.ns.s.Index.Objects)-1)
			}
		}
		if m.Frame == 0 {
			continue
		}
		mo := morphs.get(node, func() *morph {
			mo := &morph{index: map[uint32]int{}}
			// A morpher bound to a mesh weighs its targets in the mesh's
			// TargetNames order: every target of the file's records.
			for _, t := range cv.ns.morphTargets(m.Morpher) {
				mo.index[t] = len(mo.targets)
				mo.targets = append(mo.targets, t)
			}
			return mo
		})
		for _, t := range m.Targets {
			if _, ok := mo.index[t]; !ok {
				mo.index[t] = len(mo.targets)
				mo.targets = append(mo.targets, t)
			}
		}
		mo.recs = append(mo.recs, m)
	}
	for _, node := range morphs.keys {
		mo := morphs.m[node]
		s := newSeries(len(mo.targets))
		for _, m := range mo.recs {
			w := make([]float32, len(mo.targets))
			for j, t := range m.Targets {
				w[mo.index[t]] = m.Weights[j]
			}
			s.set(uint32(m.Frame), w)
		}
		s.startAtZero(make([]float32, len(mo.targets)))
		labels := make([]string, len(mo.targets))
		for j, t := range mo.targets {
			labels[j] = cv.ns.s.Index.ObjectName(t)
		}
		cv.anim.Channels = append(cv.anim.Channels, model.Channel{Node: node, Path: model.PathWeights,
			Curve: s.track(cv.tm), Labels: labels})
	}
	return nil
}

// matFrames converts material frame records (0x0201) into stepped uvOffset
// (and, in later generations, uvScale) channels. A component a record
// leaves out keeps its previous value (0 for offsets, 1 for scales before
// any record).
func (cv *animConverter) matFrames() error {
	type mat struct{ off, scale *series }
	var mats orderedKeys[string, *mat]
	for i := range cv.a.MatFrames {
		f := &cv.a.MatFrames[i]
		name, err := cv.ns.material(f.Material, f.Off+8)
		if err != nil {
			return err
		}
		m := mats.get(name, func() *mat { return &mat{newSeries(2), newSeries(2)} })
		uv := append([]float32(nil), m.off.last([]float32{0, 0})...)
		if f.HasU {
			uv[0] = f.U
		}
		if f.HasV {
			uv[1] = f.V
		}
		m.off.set(uint32(f.Frame), uv)
		if f.HasScale {
			m.scale.set(uint32(f.Frame), []float32{f.ScaleU, f.ScaleV})
		}
	}
	for _, name := range mats.keys {
		m := mats.m[name]
		cv.anim.Channels = append(cv.anim.Channels, model.Channel{Material: name, Path: model.PathUVOffset, Curve: m.off.track(cv.tm)})
		if len(m.scale.frames) > 0 {
			m.scale.startAtZero([]float32{1, 1})
			cv.anim.Channels = append(cv.anim.Channels, model.Channel{Material: name, Path: model.PathUVScale, Curve: m.scale.track(cv.tm)})
		}
	}
	return nil
}

// camFrames converts camera frame records (0x0502) into stepped channels of
// the camera node. Components a record leaves out keep their last value.
// Camera and light records are read by their own players, which take frame
// 0's records too.
func (cv *animConverter) camFrames() error {
	type cam struct {
		pos, rot, fov *series
		present       uint32
	}
	var cams orderedKeys[string, *cam]
	for i := range cv.a.CamFrames {
		f := &cv.a.CamFrames[i]
		node, err := cv.ns.node(f.Camera, f.Off+8, "camera frame", "camera")
		if err != nil {
			return err
		}
		c := cams.get(node, func() *cam { return &cam{pos: newSeries(3), rot: newSeries(3), fov: newSeries(1)} })
		c.present |= f.Present
		fr := uint32(f.Frame)
		pos := append([]float32(nil), c.pos.last(restPos)...)
		rot := append([]float32(nil), c.rot.last(restPos)...)
		fov := append([]float32(nil), c.fov.last([]float32{0})...)
		for k := range 3 {
			if f.Present&(1<<uint(k)) != 0 {
				pos[k] = f.Position[k]
			}
			if f.Present&(1<<uint(3+k)) != 0 {
				rot[k] = f.Rotation[k]
			}
		}
		if f.Present&(1<<7) != 0 {
			fov[0] = f.FOV
		}
		c.pos.set(fr, pos)
		c.rot.set(fr, rot)
		c.fov.set(fr, fov)
	}
	for _, node := range cams.keys {
		c := cams.m[node]
		if c.present&7 != 0 {
			cv.channel(node, model.PathTranslation, c.pos.track(cv.tm))
		}
		if c.present&(7<<3) != 0 {
			cv.channel(node, PathRotationDegrees, c.rot.track(cv.tm))
		}
		if c.present&(1<<7) != 0 {
			cv.channel(node, CameraFloatNames[0], c.fov.track(cv.tm))
		}
	}
	return nil
}

// AmbientNode names the light node of ambient frames that name no object.
const AmbientNode = "ccs:ambient"

// lightFrames converts ambient (0x0601) and distant-light (0x0602) frame
// records into stepped color, rotationDegrees and intensity channels.
func (cv *animConverter) lightFrames() error {
	type light struct{ color, rot, intensity *series }
	var lights orderedKeys[string, *light]
	for i := range cv.a.LightFrames {
		f := &cv.a.LightFrames[i]
		var node string
		if f.Code == CodeAmbientFrame && f.Light == 0 {
			node = cv.ns.pseudo(AmbientNode, "light")
		} else {
			var err error
			if node, err = cv.ns.node(f.Light, f.Off+8, "light frame", "light"); err != nil {
				return err
			}
		}
		l := lights.get(node, func() *light { return &light{newSeries(4), newSeries(3), newSeries(1)} })
		fr := uint32(f.Frame)
		l.color.set(fr, []float32{float32(f.Color[0]), float32(f.Color[1]), float32(f.Color[2]), float32(f.Color[3])})
		if f.Code == CodeDistantFrame {
			l.rot.set(fr, f.Rotation[:])
			l.intensity.set(fr, []float32{f.Intensity})
		}
	}
	for _, node := range lights.keys {
		l := lights.m[node]
		cv.channel(node, PathColor, l.color.track(cv.tm))
		if len(l.rot.frames) > 0 {
			cv.channel(node, PathRotationDegrees, l.rot.track(cv.tm))
			cv.channel(node, LightFloatNames[0], l.intensity.track(cv.tm))
		}
	}
	return nil
}
