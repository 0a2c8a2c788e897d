package virtools

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/model"
)

// DefaultFrameRate is the frame rate of an object animation that no keyed
// animation owns: Virtools plays those by step, so bake assumes 30 frames
// per second (the CLI's --timebase overrides it).
const DefaultFrameRate = 30

// Axes is the Virtools convention: left-handed, Y up, one unit per metre.
// Mirroring Z maps it to glTF (axes.md §2.2).
var Axes = model.Axes{Name: "virtools", Basis: [9]float64{1, 0, 0, 0, 1, 0, 0, 0, -1}, Scale: 1}

// converter builds one model.File from a decoded Scene.
type converter struct {
	s    *Scene
	opts *format.Options
	file *model.File

	nodeOf      map[int]int    // entity table index → node index
	local       map[int]affine // entity table index → local matrix
	parentKeyed map[int]int    // object animation → the keyed animation owning it
	rootAnim    map[int]int    // keyed animation → its root object animation
	rootOffset  map[int][3]float32
	anims       map[animKey]*model.VirtoolsObjectAnimation
	visiting    map[int]bool
	gx          *graphState     // behaviour-graph timing; nil with --timing frames
	ax          *assetConverter // meshes, materials...; nil without s.Assets
	dir         string          // the input's folder (external textures)
}

// Convert turns a decoded scene into a model.File: a node for every 3D
// entity an animation or curve touches and, when the scene's assets were
// decoded, every entity showing a mesh, camera or light (with their
// ancestors; the assets hang on them), one animation
// per keyed animation and per object animation, and one path per curve
// with a follower node and animation.
func Convert(s *Scene, opts *format.Options) (*model.File, error) {
	return convertAt(s, opts, "")
}

// convertAt is Convert for an input in folder dir, where external
// textures are looked up ("" looks nowhere).
func convertAt(s *Scene, opts *format.Options, dir string) (*model.File, error) {
	cv := &converter{dir: dir, s: s, opts: opts, file: &model.File{Axes: Axes},
		nodeOf: map[int]int{}, local: map[int]affine{}, parentKeyed: map[int]int{},
		rootAnim: map[int]int{}, rootOffset: map[int][3]float32{},
		anims: map[animKey]*model.VirtoolsObjectAnimation{}, visiting: map[int]bool{}}
	cv.file.Extras = cv.fileExtras()
	cv.linkKeyed()
	cv.gx = cv.readGraph()
	if s.Assets != nil {
		cv.ax = newAssetConverter(s, opts, cv.file, dir)
	}
	if err := cv.buildNodes(); err != nil {
		return nil, err
	}
	cv.addAssets()
	for _, k := range sortedKeys(s.KeyedAnimations) {
		if err := cv.addKeyedAnimation(s.KeyedAnimations[k]); err != nil {
			return nil, err
		}
	}
	for _, i := range sortedKeys(s.ObjectAnimations) {
		if err := cv.addObjectAnimation(i); err != nil {
			return nil, err
		}
	}
	for _, i := range sortedKeys(s.Curves) {
		if err := cv.addCurve(s.Curves[i]); err != nil {
			return nil, err
		}
	}
	cv.addGraphAnimations()
	return cv.file, nil
}

// fileExtras records the header facts worth keeping.
func (cv *converter) fileExtras() map[string]any {
	h := &cv.s.Header
	return map[string]any{
		"virtoolsCKVersion":    fmt.Sprintf("0x%08x", h.CKVersion),
		"virtoolsProductBuild": fmt.Sprintf("0x%08x", h.ProductBuild),
		"virtoolsFileVersion":  h.FileVersion,
		"virtoolsObjects":      len(cv.s.Objects),
		"virtoolsCRCMatches":   cv.s.CRCMatches,
	}
}

// linkKeyed records which keyed animation owns each object animation (the
// first one listing it, as the engine's load order leaves it), the root
// animation of each keyed animation (the child animating its root
// entity) and the root offset (the app-data vector of the last child that
// has a nonzero one, §5.6).
func (cv *converter) linkKeyed() {
	for _, k := range sortedKeys(cv.s.KeyedAnimations) {
		ka := cv.s.KeyedAnimations[k]
		for _, c := range ka.Animations {
			a := cv.s.ObjectAnimations[c]
			if a == nil {
				continue
			}
			if _, owned := cv.parentKeyed[c]; !owned {
				cv.parentKeyed[c] = k
			}
			if a.AppData != ([3]float32{}) {
				cv.rootOffset[k] = a.AppData
			}
			if _, found := cv.rootAnim[k]; !found && ka.RootEntity != noRef && a.Entity == ka.RootEntity {
				cv.rootAnim[k] = c
			}
		}
	}
}

// frameRateOf is the frame rate an object animation plays at: its keyed
// animation's, or DefaultFrameRate.
func (cv *converter) frameRateOf(index int) float64 {
	if k, ok := cv.parentKeyed[index]; ok {
		if r := cv.s.KeyedAnimations[k].FrameRate; r > 0 {
			return float64(r)
		}
	}
	return DefaultFrameRate
}

// addKeyedAnimation adds one animation holding the channels of every
// object animation of a CKKeyedAnimation.
func (cv *converter) addKeyedAnimation(k *KeyedAnimation) error {
	name := cv.s.Objects[k.Index].Name
	rate := float64(k.FrameRate)
	if !(rate > 0) || rate > 1e6 {
		cv.opts.Warnf("keyed animation %q: frame rate %v is not usable; %d assumed", name, k.FrameRate, DefaultFrameRate)
		rate = DefaultFrameRate
	}
	anim := newAnimation(name, rate, float64(k.Length))
	anim.Extras = map[string]any{"virtoolsClass": "CKKeyedAnimation", "virtoolsFlags": k.Flags,
		"virtoolsMerged": k.Merged, "virtoolsMergeFactor": float64(k.MergeFactor)}
	if k.RootEntity != noRef {
		anim.Extras["virtoolsRootEntity"] = cv.s.Objects[k.RootEntity].Name
	}
	if r, ok := cv.rootAnim[k.Index]; ok {
		anim.Extras["virtoolsRootAnimation"] = cv.s.Objects[r].Name
		off := cv.rootOffset[k.Index]
		anim.Extras["virtoolsRootOffset"] = []float64{float64(off[0]), float64(off[1]), float64(off[2])}
	}
	for _, c := range k.Animations {
		if c == noRef {
			continue
		}
		if cv.s.ObjectAnimations[c] == nil {
			return cv.objectError(k.Index, "lists object #%d, which is not an object animation", c)
		}
		if err := cv.addChannels(&anim, c, k.Length); err != nil {
			return err
		}
	}
	anim.Channels = cv.lastChannelPerTarget(name, anim.Channels)
	cv.timeClip(&anim, k.Index)
	cv.file.Animations = append(cv.file.Animations, anim)
	return nil
}

// lastChannelPerTarget keeps one channel per node and path: when two
// object animations of a keyed animation drive the same entity, the engine
// steps them in list order and the later one's value is what stays.
func (cv *converter) lastChannelPerTarget(name string, chans []model.Channel) []model.Channel {
	type target struct{ node, path string }
	last := map[target]int{}
	for i, c := range chans {
		last[target{c.Node, c.Path}] = i
	}
	if len(last) == len(chans) {
		return chans
	}
	out := chans[:0]
	for i, c := range chans {
		if last[target{c.Node, c.Path}] == i {
			out = append(out, c)
		} else {
			cv.opts.Warnf("keyed animation %q: two object animations drive %s of %q; the later one is kept", name, c.Path, c.Node)
		}
	}
	return out
}

// addObjectAnimation adds one animation for a single CKObjectAnimation.
func (cv *converter) addObjectAnimation(index int) error {
	a := cv.s.ObjectAnimations[index]
	src, err := cv.sharedSource(a)
	if err != nil {
		return err
	}
	anim := newAnimation(cv.s.Objects[index].Name, cv.frameRateOf(index), float64(src.Length))
	anim.Extras = map[string]any{"virtoolsClass": "CKObjectAnimation", "virtoolsFlags": a.Flags}
	if k, ok := cv.parentKeyed[index]; ok {
		anim.Extras["virtoolsKeyedAnimation"] = cv.s.Objects[k].Name
	}
	if len(a.Unsupported) > 0 || a.Morph {
		anim.Extras["virtoolsSkippedControllers"] = len(a.Unsupported) + btoi(a.Morph)
	}
	if err := cv.addChannels(&anim, index, 0); err != nil {
		return err
	}
	cv.timeClip(&anim, index)
	cv.file.Animations = append(cv.file.Animations, anim)
	return nil
}

// newAnimation starts a play-once clip of length frames. SetStep maps step
// 0..1 to frames 0..length, so the clip ends at frame length and, looped,
// is back at frame 0 there.
func newAnimation(name string, fps, length float64) model.Animation {
	if !(length >= 0) {
		length = 0
	}
	return model.Animation{Name: name, FPS: fps, Frames: length, End: length, Period: length, Loop: model.LoopOnce}
}

// addChannels adds the channels one object animation drives: translation,
// rotation and scale where a controller (of its own, of its shared source,
// or of a merge source) drives them, plus the scale axis when it is not
// the identity. length, when nonzero, is the owning keyed animation's.
func (cv *converter) addChannels(anim *model.Animation, index int, length float32) error {
	a := cv.s.ObjectAnimations[index]
	name := cv.s.Objects[index].Name
	if a.Entity == noRef {
		cv.opts.Warnf("object animation %q animates no entity; it has no channels", name)
		return nil
	}
	node, ok := cv.nodeOf[a.Entity]
	if !ok {
		return cv.objectError(index, "animates object #%d, which is not a 3D entity", a.Entity)
	}
	if e := cv.s.Entities[a.Entity]; e.Flags&EntityIgnoreAnimation != 0 {
		cv.opts.Warnf("object animation %q: entity %q ignores animation (flag 0x400); no channels", name, cv.s.Objects[a.Entity].Name)
		return nil
	}
	m, err := cv.objectAnimation(index, length)
	if err != nil {
		return err
	}
	target := cv.file.Nodes[node].Name
	add := func(path, part string) {
		anim.Channels = append(anim.Channels, model.Channel{Node: target, Path: path,
			Curve: &model.VirtoolsTransform{Anim: m, Part: part}})
	}
	d := drivenParts(m, map[*model.VirtoolsObjectAnimation]bool{})
	if d.position {
		add(model.PathTranslation, model.VirtoolsPartTranslation)
	}
	if d.rotation {
		add(model.PathRotation, model.VirtoolsPartRotation)
	}
	if d.scale {
		add(model.PathScale, model.VirtoolsPartScale)
	}
	if d.scaleAxis {
		add("scaleAxis", model.VirtoolsPartScaleAxis)
		cv.opts.Warnf("object animation %q scales along rotated axes; glTF gets translation, rotation and scale, the scale-axis rotation goes to the %q channel", name, "scaleAxis")
	}
	return nil
}

// driven says which parts of the local transform an animation sets.
type driven struct{ position, rotation, scale, scaleAxis bool }

// drivenParts finds the parts with keys that the flags do not ignore,
// through merge sources. A scale axis counts only when some key is not the
// identity and the scale is not uniform (a uniform scale is the same along
// any axes).
func drivenParts(m *model.VirtoolsObjectAnimation, seen map[*model.VirtoolsObjectAnimation]bool) driven {
	var d driven
	if m == nil || seen[m] {
		return d
	}
	seen[m] = true
	if m.Merge != nil {
		a, b := drivenParts(m.Merge.A, seen), drivenParts(m.Merge.B, seen)
		d = driven{a.position || b.position, a.rotation || b.rotation, a.scale || b.scale, a.scaleAxis || b.scaleAxis}
	}
	hasV := func(c *model.VirtoolsVectorController) bool { return c != nil && len(c.Keys) > 0 }
	hasQ := func(c *model.VirtoolsQuatController) bool { return c != nil && len(c.Keys) > 0 }
	// The root offset applies only to an evaluated position (semantics
	// §3.2), so it does not make a position channel by itself.
	d.position = (d.position || hasV(m.Position)) && m.Flags&AnimIgnorePosition == 0
	d.rotation = (d.rotation || hasQ(m.Rotation)) && m.Flags&AnimIgnoreRotation == 0
	d.scale = (d.scale || hasV(m.Scale)) && m.Flags&AnimIgnoreScale == 0
	if m.Flags&AnimIgnoreScaleAxis == 0 && hasQ(m.ScaleAxis) && !uniformScale(m.Scale) {
		for _, k := range m.ScaleAxis.Keys {
			if k.Value[0] != 0 || k.Value[1] != 0 || k.Value[2] != 0 {
				d.scaleAxis = true
			}
		}
	}
	return d
}

// uniformScaleTolerance is the relative spread of a scale key's three
// components below which the scale counts as uniform. U·diag(s)·Uᵀ differs
// from s̄·I by at most max|sᵢ − s̄|, so below this the scale axis changes
// the matrix by less than a millionth of the scale (Kamera02's only scale
// key, (0.99975586, 0.9997559, 0.9997559), differs in the last bit).
const uniformScaleTolerance = 1e-6

// uniformScale reports whether every scale key scales all axes alike.
func uniformScale(c *model.VirtoolsVectorController) bool {
	if c == nil {
		return true
	}
	for _, k := range c.Keys {
		lo := math.Min(k.Value[0], math.Min(k.Value[1], k.Value[2]))
		hi := math.Max(k.Value[0], math.Max(k.Value[1], k.Value[2]))
		if hi-lo > uniformScaleTolerance*math.Max(math.Abs(hi), math.Abs(lo)) {
			return false
		}
	}
	return true
}

func sortedKeys[V any](m map[int]V) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	return keys
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func itoa(i int) string { return strconv.Itoa(i) }

func quote(s string) string { return strconv.Quote(s) }
