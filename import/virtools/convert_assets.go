package virtools

import (
	"fmt"
	"math"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/model"
)

// assetConverter builds the model's meshes, materials, textures, cameras
// and lights from a scene's decoded assets, each on first use so that only
// what a node shows is written.
type assetConverter struct {
	s    *Scene
	a    *Assets
	opts *format.Options
	file *model.File
	dir  string // the input's folder, where external textures are looked up

	meshNames    map[int]string
	materialKeys map[materialKey]string
	textureKeys  map[textureKey]string
	textureFiles map[int]*textureImage
	usedMesh     map[string]bool
	usedMaterial map[string]bool
	usedTexture  map[string]bool
	warned       map[string]bool
	missing      []string         // texture files not found, in order of use
	groups       map[int][]string // object → the groups holding it
}

type materialKey struct {
	index  int
	prelit bool
}

type textureKey struct {
	index   int
	sampler [4]int
}

func newAssetConverter(s *Scene, opts *format.Options, file *model.File, dir string) *assetConverter {
	return &assetConverter{s: s, a: s.Assets, opts: opts, file: file, dir: dir,
		meshNames: map[int]string{}, materialKeys: map[materialKey]string{}, textureKeys: map[textureKey]string{},
		textureFiles: map[int]*textureImage{}, usedMesh: map[string]bool{}, usedMaterial: map[string]bool{},
		usedTexture: map[string]bool{}, warned: map[string]bool{}}
}

func (ax *assetConverter) warnf(f string, args ...any) { ax.opts.Warnf(f, args...) }

// warnOnce warns once per kind and object.
func (ax *assetConverter) warnOnce(kind string, index int, f string, args ...any) {
	k := fmt.Sprintf("%s/%d", kind, index)
	if !ax.warned[k] {
		ax.warned[k] = true
		ax.warnf(f, args...)
	}
}

// unique returns name (or a placeholder for an empty one), suffixed with
// the object's table index when a same-kind asset already has it, and
// with a counter after that when the object gives several assets (a
// texture sampled three ways).
func (ax *assetConverter) unique(used map[string]bool, name, placeholder string, index int) string {
	if name == "" {
		name = placeholder
	}
	base := name
	for k := 1; used[name]; k++ {
		name = base + "#" + itoa(index)
		if k > 1 {
			name += "." + itoa(k)
		}
	}
	used[name] = true
	return name
}

// assetEntities lists, in table order, the 3D entities that show
// something: a mesh with triangles or lines, a camera or a light.
func (cv *converter) assetEntities() []int {
	a := cv.s.Assets
	if a == nil {
		return nil
	}
	var out []int
	for _, e := range sortedKeys(cv.s.Entities) {
		ent := cv.s.Entities[e]
		m := a.Meshes[ent.Mesh]
		if (ent.Mesh != noRef && m != nil && (m.FaceCount() > 0 || len(m.Lines) > 0)) || a.Cameras[e] != nil || a.Lights[e] != nil {
			out = append(out, e)
		}
	}
	return out
}

// addAssets hangs meshes, cameras and lights on the nodes of their
// entities and records group and place membership in node extras.
func (cv *converter) addAssets() {
	if cv.s.Assets == nil {
		return
	}
	ax := cv.ax
	groups := cv.groupsOf()
	ax.groups = groups
	for _, e := range sortedKeys(cv.nodeOf) {
		n := &cv.file.Nodes[cv.nodeOf[e]]
		ent := cv.s.Entities[e]
		if ent.Mesh != noRef && ax.a.Meshes[ent.Mesh] != nil {
			if name, ok := ax.meshName(ent.Mesh); ok {
				n.Mesh = name
			}
		}
		if c := ax.a.Cameras[e]; c != nil {
			n.Camera = ax.camera(c, n.Name)
		}
		if l := ax.a.Lights[e]; l != nil {
			n.Light = ax.light(l, n.Name)
		}
		if g := groups[e]; len(g) > 0 {
			n.Extras["virtoolsGroups"] = g
		}
		if ent.Place != noRef {
			n.Extras["virtoolsPlace"] = cv.s.Objects[ent.Place].Name
		}
		if ent.Hidden {
			n.Extras["virtoolsHidden"] = true
		}
	}
	ax.reportMissing()
}

// groupsOf maps each object to the names of the groups holding it.
func (cv *converter) groupsOf() map[int][]string {
	out := map[int][]string{}
	for _, g := range sortedKeys(cv.s.Assets.Groups) {
		for _, m := range cv.s.Assets.Groups[g] {
			out[m] = append(out[m], cv.s.Objects[g].Name)
		}
	}
	return out
}

// camera converts a CKCamera. Virtools' fov is horizontal
// (VxMatrix::Perspective puts cot(fov/2) in the x scale and multiplies it
// by the aspect for y), so glTF's vertical yfov = 2·atan(tan(fov/2)/aspect).
// Orthographic: x_ndc = zoom·x and y_ndc = zoom·aspect·y, so xmag = 1/zoom
// and ymag = 1/(zoom·aspect). Virtools cameras look down their +Z, which
// the axis conversion (Z mirrored) turns into glTF's −Z: no extra node.
func (ax *assetConverter) camera(c *Camera, node string) string {
	name := node // one camera per node, and node names are unique
	aspect := 4.0 / 3
	if c.Width > 0 && c.Height > 0 {
		aspect = float64(c.Width) / float64(c.Height)
	}
	mc := model.Camera{Name: name, Aspect: aspect, Znear: float64(c.Near), Zfar: float64(c.Far),
		Extras: map[string]any{"virtoolsFov": float64(c.Fov), "virtoolsProjection": c.Projection,
			"virtoolsZoom": float64(c.Zoom), "virtoolsAspect": []int{int(c.Width), int(c.Height)}}}
	if c.Target != noRef {
		mc.Extras["virtoolsTarget"] = ax.s.Objects[c.Target].Name
	}
	if c.Projection == ProjectionOrthographic {
		mc.Type = model.CameraOrthographic
		z := float64(c.Zoom)
		if !(z > 0) {
			z = 1
		}
		mc.XMag, mc.YMag = 1/z, 1/(z*aspect)
	} else {
		mc.Type = model.CameraPerspective
		mc.Yfov = 2 * math.Atan(math.Tan(float64(c.Fov)/2)/aspect)
	}
	if !(mc.Znear > 0) {
		mc.Znear = 0.01
	}
	if mc.Zfar <= mc.Znear {
		mc.Zfar = 0
	}
	ax.file.Cameras = append(ax.file.Cameras, mc)
	return name
}

// light converts a CKLight. Colour is the diffuse colour (sRGB-decoded);
// the intensity is the power divided by the D3D attenuation at one unit,
// a0 + a1 + a2 (exact for a light with only the quadratic factor, which
// falls off as glTF's physical 1/d²); the range stays. Spot cones are
// saved as full angles; glTF's are half angles. A light saved switched off
// (no 0x100 flag) gets intensity 0. Virtools lights shine
// down their +Z, glTF's down −Z: the axis conversion maps one to the
// other.
func (ax *assetConverter) light(l *Light, node string) string {
	name := node
	c := argb(l.Color)
	ml := model.Light{Name: name, Color: [3]float64{srgbToLinear(c[0]), srgbToLinear(c[1]), srgbToLinear(c[2])},
		Range: float64(l.Range), Extras: map[string]any{"virtoolsType": l.Type, "virtoolsFlags": l.Flags,
			"virtoolsAttenuation": []float64{float64(l.Attenuation[0]), float64(l.Attenuation[1]), float64(l.Attenuation[2])},
			"virtoolsPower":       float64(l.Power)}}
	if l.Target != noRef {
		ml.Extras["virtoolsTarget"] = ax.s.Objects[l.Target].Name
	}
	att := float64(l.Attenuation[0]) + float64(l.Attenuation[1]) + float64(l.Attenuation[2])
	ml.Intensity = float64(l.Power)
	switch l.Type {
	case LightDirectional:
		ml.Type = model.LightDirectional
		ml.Range = 0
	case LightSpot:
		ml.Type = model.LightSpot
		ml.OuterCone = clampCone(float64(l.Outer) / 2)
		ml.InnerCone = math.Min(clampCone(float64(l.Inner)/2), ml.OuterCone)
		ml.Extras["virtoolsFalloff"] = float64(l.Falloff)
	default:
		ml.Type = model.LightPoint
	}
	if ml.Type != model.LightDirectional && att > 0 {
		ml.Intensity /= att
	}
	ml.Intensity = math.Max(ml.Intensity, 0)
	if l.Flags&LightActive == 0 {
		// Switched off when saved (a script may switch it on): it lights
		// nothing, like in the game; its intensity is kept in extras.
		ml.Extras["virtoolsInactive"] = true
		ml.Extras["virtoolsIntensity"] = ml.Intensity
		ml.Intensity = 0
	}
	if !(ml.Range > 0) {
		ml.Range = 0
	}
	ax.file.Lights = append(ax.file.Lights, ml)
	return name
}

// clampCone keeps a spot half-angle inside glTF's (0, π/2].
func clampCone(a float64) float64 {
	if !(a > 0) {
		return 0
	}
	return math.Min(a, math.Pi/2)
}

// scrolledMaterials names the converted materials whose base-colour
// texture a Texture Scroller moves, and marks those textures as animated.
// Texture Scroller shifts a mesh's UVs; glTF moves a material's texture
// transform instead, which is the same as long as the material textures no
// other mesh (a warning says when it does). Only the mesh's own UVs
// (channel -1) map to a material texture.
func (cv *converter) scrolledMaterials(s uvScroll) []string {
	if cv.ax == nil {
		return nil
	}
	ax := cv.ax
	m := ax.a.Meshes[s.Target]
	if m == nil || ax.meshNames[s.Target] == "" {
		return nil
	}
	if s.Channel != -1 {
		cv.opts.Warnf("%s scrolls the UVs of material channel %d, which no glTF material texture uses; kept as data", s.DrivenBy, s.Channel)
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, mi := range m.Materials {
		if mi == noRef {
			continue
		}
		name, ok := ax.materialKeys[materialKey{mi, m.Flags&MeshPrelit != 0}]
		if !ok || seen[name] {
			continue
		}
		seen[name] = true
		for i := range cv.file.Materials {
			mat := &cv.file.Materials[i]
			if mat.Name == name && mat.BaseColorTexture.Texture != "" {
				mat.BaseColorTexture.Transform = true
				out = append(out, name)
				if users := ax.meshesUsing(mi); len(users) > 1 {
					cv.opts.Warnf("%s: material %q is shared by meshes %v; its texture scrolls on all of them", s.DrivenBy, name, users)
				}
			}
		}
	}
	return out
}

// meshesUsing names the converted meshes with a slot holding material mi.
func (ax *assetConverter) meshesUsing(mi int) []string {
	var out []string
	for _, i := range sortedKeys(ax.meshNames) {
		if ax.meshNames[i] == "" {
			continue
		}
		for _, s := range ax.a.Meshes[i].Materials {
			if s == mi {
				out = append(out, ax.meshNames[i])
				break
			}
		}
	}
	return out
}
