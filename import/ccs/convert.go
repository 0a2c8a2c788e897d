package ccs

import (
	"fmt"

	"github.com/animbake/bake/model"
)

// NativeFPS is ccAnm's playback rate: one frame per field-pair step, 30
// frames a second (ccs-anime-playback.txt "Frame rate", inferred).
const NativeFPS = 30

// Axes is the CCS convention: right-handed, Z up, 1 unit = 1 cm
// (axes.md §4): (x, y, z) → (x, z, −y) in glTF, times 0.01.
var Axes = model.Axes{Name: "ccs", Basis: [9]float64{1, 0, 0, 0, 0, 1, 0, -1, 0}, Scale: 0.01}

// Convert turns a parsed scene into a model file with its assets (see
// ConvertWith).
func Convert(s *Scene, warn func(string, ...any)) (*model.File, error) {
	return ConvertWith(s, AssetOptions{}, warn)
}

// ConvertWith turns a parsed scene into a model file: one animation per
// Anime chunk, in file order, one node per object the animations drive,
// the skins of clumps with deformable models, and unless opts.NoMeshes
// the scene's textures, materials and meshes (on their objects' nodes, at
// their clumps' bind poses).
func ConvertWith(s *Scene, opts AssetOptions, warn func(string, ...any)) (*model.File, error) {
	if warn == nil {
		warn = func(string, ...any) {}
	}
	ns := newNodeSet(s)
	assets, err := s.ReadAssets()
	if err != nil {
		return nil, err
	}
	ns.bindMorphs(assets)
	f := &model.File{Axes: Axes, Extras: map[string]any{
		"ccsName": s.Header.Name, "ccsVersion": int64(s.Header.Version), "ccsAnimeChunks": int64(len(s.Animes))}}
	seen := map[string]int{}
	for _, a := range s.Animes {
		anim, err := convertAnime(a, ns, s.Header.Later(), warn)
		if err != nil {
			return nil, err
		}
		if n := seen[anim.Name]; n > 0 {
			anim.Name = fmt.Sprintf("%s#%d", anim.Name, n+1)
		}
		seen[a.Name]++
		f.Animations = append(f.Animations, *anim)
	}
	if err := convertAssets(s, assets, ns, f, opts, warn); err != nil {
		return nil, err
	}
	f.Nodes = ns.nodes
	bindAssetChannels(f, warn)
	bindCameraLightChannels(f)
	setSkeletonRoots(f)
	return f, nil
}

// timing is the CCS-SEM model form of an Anime's playback facts.
func timing(a *Anime) model.CcAnmTiming {
	return model.CcAnmTiming{Frames: a.FrameCount, Loop: a.Loops()}
}

// convertAnime builds one animation: controllers first (in record order),
// then the per-frame records.
func convertAnime(a *Anime, ns *nodeSet, later bool, warn func(string, ...any)) (*model.Animation, error) {
	tm := timing(a)
	name := a.Name
	if name == "" {
		name = fmt.Sprintf("anime@0x%x", a.Off)
	}
	anim := &model.Animation{Name: name, FPS: NativeFPS, Frames: float64(a.FrameCount), End: tm.End(),
		Period: tm.Period(), Loop: tm.LoopMode(),
		Extras: map[string]any{"ccsObject": int64(a.Object), "ccsSourceFile": a.SourceFile, "ccsOffset": a.Off}}
	// The frame count is the clip's Frames (sourceFrames in the outputs),
	// and the end word's two usual values are its loop mode: only another
	// value needs saying.
	if a.End != EndLoop && a.End != EndOnce {
		anim.Extras["ccsEnd"] = int64(a.End)
	}
	if len(a.Skipped) > 0 {
		sk := map[string]any{}
		for code, n := range a.Skipped {
			sk[fmt.Sprintf("0x%04x", code)] = int64(n)
		}
		anim.Extras["ccsSkippedRecords"] = sk
	}
	cv := &animConverter{a: a, ns: ns, tm: tm, anim: anim, warn: warn, driven: map[string]int{}}
	steps := []func() error{cv.objectControllers, cv.materialControllers, cv.lightControllers,
		cv.cameraControllers, cv.morphControllers, cv.objFrames, cv.morphFrames, cv.matFrames,
		cv.camFrames, cv.lightFrames, cv.notes}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	cv.dropDuplicateTargets()
	return anim, nil
}

// dropDuplicateTargets keeps the first channel of each target and path:
// controllers (converted first) win over per-frame records of the same
// property (a camera with both a controller and frames, say), and an
// animation never holds two channels glTF would reject.
func (cv *animConverter) dropDuplicateTargets() {
	type key struct{ node, mat, path string }
	seen := map[key]bool{}
	kept := cv.anim.Channels[:0]
	for _, c := range cv.anim.Channels {
		k := key{c.Node, c.Material, c.Path}
		if seen[k] {
			cv.warn("Anime %s: a second %s channel for %s is dropped; the controller's is kept", cv.a.Name, c.Path, c.Node+c.Material)
			continue
		}
		seen[k] = true
		kept = append(kept, c)
	}
	cv.anim.Channels = kept
}

// animConverter carries the state of one Anime's conversion.
type animConverter struct {
	a    *Anime
	ns   *nodeSet
	tm   model.CcAnmTiming
	anim *model.Animation
	warn func(string, ...any)
	// driven maps a node name to the index of the first channel an object
	// controller gave it, so later records for it can be recognised.
	driven map[string]int
	// restarts holds the effectRestart events of F_Obj records, in file
	// order; notes merges them into the event list.
	restarts []model.Event
}

func (cv *animConverter) channel(node, path string, c model.Curve) {
	cv.anim.Channels = append(cv.anim.Channels, model.Channel{Node: node, Path: path, Curve: c})
}

// floatTrack turns a stored float or vector track into a ccAnm track,
// with the path's default for an absent one. A keyed track without keys
// is treated as absent.
func (cv *animConverter) floatTrack(t *Track, width int, def float32) *model.CcAnmTrack {
	ct := &model.CcAnmTrack{Timing: cv.tm, Kind: model.CcAnmKind(t.Kind), Width: width}
	if t.Kind == KindKeyed && len(t.Frames) == 0 {
		cv.warn("Anime %s: keyed track at 0x%x has no keys; treated as absent", cv.a.Name, t.Off)
		ct.Kind = model.CcAnmAbsent
	}
	switch ct.Kind {
	case model.CcAnmAbsent:
		ct.Values = make([]float32, width)
		for i := range ct.Values {
			ct.Values[i] = def
		}
	case model.CcAnmConstant:
		ct.Values = t.Values
	default:
		ct.Frames, ct.Values = t.Frames, t.Values
	}
	return ct
}

// rotation turns a stored rotation track into a ccAnm rotation.
func (cv *animConverter) rotation(t *Track) *model.CcAnmRotation {
	r := &model.CcAnmRotation{Timing: cv.tm, Kind: model.CcAnmKind(t.Kind)}
	switch t.Kind {
	case KindConstant:
		r.Degrees = t.Values
	case KindKeyed:
		if len(t.Frames) == 0 {
			cv.warn("Anime %s: keyed rotation at 0x%x has no keys; treated as absent", cv.a.Name, t.Off)
			r.Kind = model.CcAnmAbsent
			break
		}
		r.Frames, r.Degrees = t.Frames, t.Values
	case KindQuat:
		if len(t.Frames) == 0 {
			r.Kind = model.CcAnmAbsent
			break
		}
		r.Kind = model.CcAnmQuatKeyed
		r.Frames, r.Quats = t.Frames, t.Values
	}
	return r
}

// objectControllers converts the 0x0102 records: the node's T, R, S (the
// local matrix is T·R·S) and its transparency when a track gives one. When
// two records drive one object, the later one's SetAnmCtrlWork overwrites
// the earlier's, so only the last is kept (with a notice).
func (cv *animConverter) objectControllers() error {
	var last orderedKeys[string, *ObjectController]
	for i := range cv.a.ObjCtrls {
		c := &cv.a.ObjCtrls[i]
		node, err := cv.ns.node(c.Object, c.Off+8, "object controller", "")
		if err != nil {
			return err
		}
		if prev := last.get(node, func() *ObjectController { return c }); prev != c {
			cv.warn("Anime %s: the controller at 0x%x overrides the one at 0x%x for %s", cv.a.Name, c.Off, prev.Off, node)
			last.m[node] = c
		}
	}
	for _, node := range last.keys {
		c := last.m[node]
		cv.driven[node] = len(cv.anim.Channels)
		cv.channel(node, model.PathTranslation, cv.floatTrack(&c.Position, 3, 0))
		cv.channel(node, model.PathRotation, cv.rotation(&c.Rotation))
		cv.channel(node, model.PathScale, cv.floatTrack(&c.Scale, 3, 1))
		if c.Alpha.Present() {
			cv.channel(node, model.PathAlpha, cv.floatTrack(&c.Alpha, 1, 1))
		}
	}
	return nil
}

// materialControllers converts the 0x0202 records: U and V into a uvOffset
// channel, later generations' scales into uvScale, further fields by name.
func (cv *animConverter) materialControllers() error {
	for i := range cv.a.MatCtrls {
		c := &cv.a.MatCtrls[i]
		mat, err := cv.ns.material(c.Material, c.Off+8)
		if err != nil {
			return err
		}
		field := func(j int, def float32) model.Curve {
			if j < len(c.Fields) {
				return cv.floatTrack(&c.Fields[j], 1, def)
			}
			return cv.floatTrack(&Track{}, 1, def)
		}
		add := func(path string, cu model.Curve) {
			cv.anim.Channels = append(cv.anim.Channels, model.Channel{Material: mat, Path: path, Curve: cu})
		}
		add(model.PathUVOffset, &model.Vector{Components: []model.Curve{field(0, 0), field(1, 0)}})
		if len(c.Fields) > 2 {
			add(model.PathUVScale, &model.Vector{Components: []model.Curve{field(2, 1), field(3, 1)}})
		}
		for j := 4; j < len(c.Fields); j++ {
			if c.Fields[j].Present() {
				add(MaterialFieldNames[j], field(j, 0))
			}
		}
	}
	return nil
}

// lightControllers converts the light controller records into channels of
// a light node: translation, rotationDegrees (Euler, as the controller
// gives them), color (bytes 0..255) and the float fields by name.
func (cv *animConverter) lightControllers() error {
	for i := range cv.a.LightCtrls {
		c := &cv.a.LightCtrls[i]
		node, err := cv.ns.node(c.Light, c.Off+8, "light controller", "light")
		if err != nil {
			return err
		}
		if c.Position.Present() {
			cv.channel(node, model.PathTranslation, cv.floatTrack(&c.Position, 3, 0))
		}
		if c.Rotation.Present() {
			cv.channel(node, PathRotationDegrees, cv.floatTrack(&c.Rotation, 3, 0))
		}
		if c.Color.Present() {
			cv.channel(node, PathColor, cv.floatTrack(&c.Color, 4, 0))
		}
		for j := range c.Floats {
			if c.Floats[j].Present() {
				cv.channel(node, LightFloatNames[j], cv.floatTrack(&c.Floats[j], 1, 0))
			}
		}
	}
	return nil
}

// cameraControllers converts 0x0503 records into channels of a camera node.
func (cv *animConverter) cameraControllers() error {
	for i := range cv.a.CamCtrls {
		c := &cv.a.CamCtrls[i]
		node, err := cv.ns.node(c.Camera, c.Off+8, "camera controller", "camera")
		if err != nil {
			return err
		}
		if c.Position.Present() {
			cv.channel(node, model.PathTranslation, cv.floatTrack(&c.Position, 3, 0))
		}
		switch c.Rotation.Kind {
		case KindQuat:
			cv.channel(node, model.PathRotation, cv.rotation(&c.Rotation))
		case KindAbsent:
		default:
			cv.channel(node, PathRotationDegrees, cv.floatTrack(&c.Rotation, 3, 0))
		}
		for j := range c.Floats {
			if c.Floats[j].Present() {
				cv.channel(node, CameraFloatNames[j], cv.floatTrack(&c.Floats[j], 1, 0))
			}
		}
	}
	return nil
}

// morphControllers converts later generations' 0x1902 records into a
// weights channel of the morpher node: one float track per target.
func (cv *animConverter) morphControllers() error {
	for i := range cv.a.MorphCtrls {
		c := &cv.a.MorphCtrls[i]
		node, err := cv.ns.morphNode(c.Morpher, c.Off+8, "morph controller")
		if err != nil {
			return err
		}
		if len(c.Targets) == 0 {
			continue
		}
		// One component per target, in the bound mesh's TargetNames order
		// when there is one (targets the record leaves out weigh 0).
		order := cv.ns.morphTargets(c.Morpher)
		if order == nil {
			order = c.Targets
		}
		comps := make([]model.Curve, len(order))
		labels := make([]string, len(order))
		for j, t := range order {
			comps[j] = cv.floatTrack(&Track{}, 1, 0)
			labels[j] = cv.ns.s.Index.ObjectName(t)
			for k := range c.Targets {
				if c.Targets[k] == t {
					comps[j] = cv.floatTrack(&c.Weights[k], 1, 0)
				}
			}
		}
		cv.anim.Channels = append(cv.anim.Channels, model.Channel{Node: node, Path: model.PathWeights,
			Curve: &model.Vector{Components: comps}, Labels: labels})
	}
	return nil
}

// Format-specific channel paths of CCS camera and light nodes.
const (
	// PathRotationDegrees is an Euler rotation (x, y, z) in degrees, as a
	// light or camera controller or frame gives it.
	PathRotationDegrees = "rotationDegrees"
	// PathColor is an RGBA colour in bytes 0..255.
	PathColor = "color"
)
