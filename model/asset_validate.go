package model

import (
	"fmt"
	"math"
)

// WeightTolerance is how far a vertex's skin weights may sum from 1.
const WeightTolerance = 1e-3

// validate checks the assets' own rules and every reference by name: unique
// names per kind, attribute counts that agree, indices and joints in range,
// weights that sum to 1, finite values, and nodes that name existing assets.
func (a *Assets) validate(nodes []Node) error {
	meshes, err := uniqueNames("mesh", len(a.Meshes), func(i int) string { return a.Meshes[i].Name })
	if err != nil {
		return err
	}
	materials, err := uniqueNames("material", len(a.Materials), func(i int) string { return a.Materials[i].Name })
	if err != nil {
		return err
	}
	textures, err := uniqueNames("texture", len(a.Textures), func(i int) string { return a.Textures[i].Name })
	if err != nil {
		return err
	}
	skins, err := uniqueNames("skin", len(a.Skins), func(i int) string { return a.Skins[i].Name })
	if err != nil {
		return err
	}
	cameras, err := uniqueNames("camera", len(a.Cameras), func(i int) string { return a.Cameras[i].Name })
	if err != nil {
		return err
	}
	lights, err := uniqueNames("light", len(a.Lights), func(i int) string { return a.Lights[i].Name })
	if err != nil {
		return err
	}
	nodeNames := make(map[string]bool, len(nodes))
	for _, n := range nodes {
		nodeNames[n.Name] = true
	}
	for _, n := range nodes {
		for _, ref := range []struct {
			kind, name string
			set        map[string]int
		}{{"mesh", n.Mesh, meshes}, {"skin", n.Skin, skins}, {"camera", n.Camera, cameras}, {"light", n.Light, lights}} {
			if _, ok := ref.set[ref.name]; ref.name != "" && !ok {
				return fmt.Errorf("node %q: %s %q does not exist", n.Name, ref.kind, ref.name)
			}
		}
		if n.Skin != "" && n.Mesh == "" {
			return fmt.Errorf("node %q: skin %q without a mesh", n.Name, n.Skin)
		}
		// glTF ignores a skinned mesh node's own and parents' transforms
		// (the joints place it); the validator warns when it has any.
		if n.Skin != "" && (n.Parent >= 0 || n.Matrix != nil || n.Translation != [3]float64{} ||
			(n.Rotation != [4]float64{} && n.Rotation != [4]float64{0, 0, 0, 1}) || (n.Scale != [3]float64{} && n.Scale != [3]float64{1, 1, 1})) {
			return fmt.Errorf("node %q: a skinned mesh node must be a root with the identity transform", n.Name)
		}
	}
	for _, s := range a.Skins {
		if len(s.Joints) == 0 {
			return fmt.Errorf("skin %q has no joints", s.Name)
		}
		if len(s.InverseBind) != len(s.Joints) {
			return fmt.Errorf("skin %q: %d inverse bind matrices for %d joints", s.Name, len(s.InverseBind), len(s.Joints))
		}
		for _, j := range s.Joints {
			if !nodeNames[j] {
				return fmt.Errorf("skin %q: joint %q is not a node", s.Name, j)
			}
		}
		if s.Skeleton != "" && !nodeNames[s.Skeleton] {
			return fmt.Errorf("skin %q: skeleton root %q is not a node", s.Name, s.Skeleton)
		}
		for i := range s.InverseBind {
			if !finite(s.InverseBind[i][:]) {
				return fmt.Errorf("skin %q: inverse bind matrix %d is not finite", s.Name, i)
			}
		}
	}
	jointCount := map[string]int{}
	for _, n := range nodes {
		if n.Skin != "" {
			j := len(a.Skins[skins[n.Skin]].Joints)
			if c, seen := jointCount[n.Mesh]; seen && c != j {
				return fmt.Errorf("mesh %q is skinned by skins with %d and %d joints", n.Mesh, c, j)
			}
			jointCount[n.Mesh] = j
		}
	}
	for _, m := range a.Meshes {
		if len(m.Primitives) == 0 {
			return fmt.Errorf("mesh %q has no primitive", m.Name)
		}
		if len(m.Weights) != 0 && len(m.Weights) != len(m.TargetNames) {
			return fmt.Errorf("mesh %q: %d default weights for %d targets", m.Name, len(m.Weights), len(m.TargetNames))
		}
		joints, skinned := jointCount[m.Name]
		for i := range m.Primitives {
			if err := m.Primitives[i].validate(materials, len(m.TargetNames), joints, skinned); err != nil {
				return fmt.Errorf("mesh %q primitive %d: %w", m.Name, i, err)
			}
		}
	}
	for _, m := range a.Materials {
		for _, t := range []TextureRef{m.BaseColorTexture, m.MetallicRoughnessTexture, m.Normal, m.Occlusion, m.EmissiveTexture} {
			if _, ok := textures[t.Texture]; t.Texture != "" && !ok {
				return fmt.Errorf("material %q: texture %q does not exist", m.Name, t.Texture)
			}
		}
		if !finite(m.BaseColor[:]) || !finite(m.Emissive[:]) || !finite([]float64{m.Metallic, m.Roughness, m.AlphaCutoff}) {
			return fmt.Errorf("material %q: a factor is not finite", m.Name)
		}
		switch m.AlphaMode {
		case "", AlphaOpaque, AlphaMask, AlphaBlend:
		default:
			return fmt.Errorf("material %q: alpha mode %q", m.Name, m.AlphaMode)
		}
	}
	for _, t := range a.Textures {
		im := t.Image
		switch {
		case im.RGBA != nil:
			if im.Width <= 0 || im.Height <= 0 || len(im.RGBA) != 4*im.Width*im.Height {
				return fmt.Errorf("texture %q: %d bytes of RGBA for %d×%d", t.Name, len(im.RGBA), im.Width, im.Height)
			}
		case im.Bytes != nil:
			if im.MIME == "" {
				return fmt.Errorf("texture %q: image bytes without a MIME type", t.Name)
			}
		case im.URI == "":
			return fmt.Errorf("texture %q has no image", t.Name)
		}
	}
	for _, c := range a.Cameras {
		if c.Type != CameraPerspective && c.Type != CameraOrthographic {
			return fmt.Errorf("camera %q: type %q", c.Name, c.Type)
		}
		if !finite([]float64{c.Yfov, c.Aspect, c.XMag, c.YMag, c.Znear, c.Zfar}) {
			return fmt.Errorf("camera %q: a value is not finite", c.Name)
		}
	}
	for _, l := range a.Lights {
		if l.Type != LightPoint && l.Type != LightSpot && l.Type != LightDirectional {
			return fmt.Errorf("light %q: type %q", l.Name, l.Type)
		}
		if !finite(l.Color[:]) || !finite([]float64{l.Intensity, l.Range, l.InnerCone, l.OuterCone}) {
			return fmt.Errorf("light %q: a value is not finite", l.Name)
		}
	}
	return nil
}

func uniqueNames(kind string, n int, name func(int) string) (map[string]int, error) {
	set := make(map[string]int, n)
	for i := range n {
		s := name(i)
		if s == "" {
			return nil, fmt.Errorf("%s %d has no name", kind, i)
		}
		if j, dup := set[s]; dup {
			return nil, fmt.Errorf("%ss %d and %d share the name %q", kind, j, i, s)
		}
		set[s] = i
	}
	return set, nil
}

func (p *Primitive) validate(materials map[string]int, targets, joints int, skinned bool) error {
	if len(p.Positions) == 0 || len(p.Positions)%3 != 0 {
		return fmt.Errorf("%d position components (need a positive multiple of 3)", len(p.Positions))
	}
	nv := len(p.Positions) / 3
	for _, at := range []struct {
		name  string
		n, by int
	}{{"normal", len(p.Normals), 3}, {"tangent", len(p.Tangents), 4}, {"colour", len(p.Colors), 4},
		{"joint", len(p.Joints), 4}, {"weight", len(p.Weights), 4}} {
		if at.n != 0 && at.n != nv*at.by {
			return fmt.Errorf("%d %s components for %d vertices (need %d)", at.n, at.name, nv, nv*at.by)
		}
	}
	for i, uv := range p.UVs {
		if len(uv) != 2*nv {
			return fmt.Errorf("UV set %d: %d components for %d vertices", i, len(uv), nv)
		}
		if !finite32(uv) {
			return fmt.Errorf("UV set %d is not finite", i)
		}
	}
	if !finite32(p.Positions) || !finite32(p.Normals) || !finite32(p.Tangents) || !finite32(p.Colors) {
		return fmt.Errorf("a vertex attribute is not finite")
	}
	if (p.Joints == nil) != (p.Weights == nil) {
		return fmt.Errorf("joints and weights must come together")
	}
	if p.Joints != nil && !skinned {
		return fmt.Errorf("skinned vertices on a mesh no node skins")
	}
	for v := 0; v < len(p.Weights); v += 4 {
		sum := 0.0
		for k := range 4 {
			w := p.Weights[v+k]
			if !(w >= 0) || w > 1 {
				return fmt.Errorf("vertex %d: weight %v outside [0,1]", v/4, w)
			}
			if w > 0 && int(p.Joints[v+k]) >= joints {
				return fmt.Errorf("vertex %d: joint %d of a %d-joint skin", v/4, p.Joints[v+k], joints)
			}
			sum += float64(w)
		}
		if math.Abs(sum-1) > WeightTolerance {
			return fmt.Errorf("vertex %d: weights sum to %v, not 1", v/4, sum)
		}
	}
	for i, ix := range p.Indices {
		if int(ix) >= nv {
			return fmt.Errorf("index %d is %d, past the %d vertices", i, ix, nv)
		}
	}
	if p.Mode < ModePoints || p.Mode > ModeTriangleFan {
		return fmt.Errorf("primitive mode %d", p.Mode)
	}
	if _, ok := materials[p.Material]; p.Material != "" && !ok {
		return fmt.Errorf("material %q does not exist", p.Material)
	}
	if len(p.Targets) != targets {
		return fmt.Errorf("%d morph targets, the mesh names %d", len(p.Targets), targets)
	}
	for i, t := range p.Targets {
		if (t.Positions != nil && len(t.Positions) != 3*nv) || (t.Normals != nil && len(t.Normals) != 3*nv) {
			return fmt.Errorf("morph target %d: counts do not match %d vertices", i, nv)
		}
		if !finite32(t.Positions) || !finite32(t.Normals) {
			return fmt.Errorf("morph target %d is not finite", i)
		}
	}
	return nil
}

func finite32(v []float32) bool {
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return false
		}
	}
	return true
}
