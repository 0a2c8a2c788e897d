package bfres

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// hasMeshes reports whether a file holds a model with shapes: such a file
// is converted with its animations into one skinned, animated output.
func hasMeshes(c *contents) bool {
	for _, m := range c.models {
		if len(m.Shapes) > 0 {
			return true
		}
	}
	return false
}

// animationNames lists the animation files of a model file: opts.Animations
// when given, else X_Animation.bfres or X_Animation.sbfres beside X.bfres
// (the first that exists; BotW's naming).
func animationNames(path string, opts *format.Options) (names []string, explicit bool) {
	if opts != nil && len(opts.Animations) > 0 {
		return opts.Animations, true
	}
	base := filepath.Base(path)
	for _, ext := range []string{".sbfres", ".bfres"} {
		base = strings.TrimSuffix(base, ext)
	}
	if base == "" || strings.HasSuffix(base, "_Animation") {
		return nil, false
	}
	return []string{base + "_Animation.bfres", base + "_Animation.sbfres"}, false
}

// addAnimationFiles reads the animation files of a model file and appends
// their animations to c, as if the model file held them: one output then
// carries the skinned mesh and every clip. A sibling found by name that
// fails to decode is a warning; an explicit one that fails is an error.
func addAnimationFiles(in *format.Input, c *contents, opts *format.Options) ([]string, error) {
	names, explicit := animationNames(in.Path, opts)
	var used []string
	for _, name := range names {
		if in.OpenSibling == nil {
			break
		}
		ac, err := loadContents(in, name, opts)
		if errors.Is(err, os.ErrNotExist) && !explicit {
			continue
		}
		if err != nil {
			if explicit {
				return nil, fmt.Errorf("animation file %s: %w", name, err)
			}
			opts.Warnf("bfres: animation file %s: %v", name, err)
			continue
		}
		c.skeletal = append(c.skeletal, ac.skeletal...)
		c.shader = append(c.shader, ac.shader...)
		c.pattern = append(c.pattern, ac.pattern...)
		c.vis = append(c.vis, ac.vis...)
		used = append(used, name)
		if !explicit {
			break // X_Animation.bfres, else X_Animation.sbfres
		}
	}
	return used, nil
}

// loadContents opens another BFRES file and decodes its sub-files.
func loadContents(in *format.Input, path string, opts *format.Options) (*contents, error) {
	data, err := readSibling(in, path, opts)
	if err != nil {
		return nil, err
	}
	return readContents(data, opts)
}

// addModel adds the meshes, materials, textures and skin of the model whose
// skeleton the file's nodes came from, one root node per shape, and
// retargets the material and visibility channels to them. Other models of
// the file are named in a warning and in extras.modelsNotConverted. With
// opts.NoMeshes only the skin is added.
func addModel(in *format.Input, file *model.File, c *contents, skel *Skeleton, opts *format.Options) error {
	warn := func(f string, args ...any) { opts.Warnf("bfres: "+f, args...) }
	var m *Model
	var others []string
	for _, x := range c.models {
		if x.Skeleton == skel {
			m = x
		} else if len(x.Shapes) > 0 {
			others = append(others, x.Name)
		}
	}
	if m == nil || len(m.Shapes) == 0 {
		return nil
	}
	if others != nil {
		file.Extras["modelsNotConverted"] = others
		warn("the file holds %d more models with meshes (%s); only %s, whose skeleton the animations use, is converted", len(others), strings.Join(others, ", "), m.Name)
	}
	lod := 0
	if opts != nil {
		lod = opts.LOD
	}
	if opts != nil && opts.NoMeshes {
		if skin := skeletonSkin(m.Skeleton, file.Nodes); !hasSkin(file, skin.Name) {
			file.Skins = append(file.Skins, skin)
		}
		return nil
	}
	ma, err := buildModel(m, file.Nodes, lod, warn)
	if err != nil {
		return err
	}
	var names []string
	for _, mat := range m.Materials {
		names = append(names, mat.Textures...)
	}
	textures, err := modelTextures(in, c.res, names, opts)
	if err != nil {
		return err
	}
	file.Textures = append(file.Textures, textures...)
	file.Nodes = append(file.Nodes, ma.nodes...)
	file.Meshes = append(file.Meshes, ma.meshes...)
	file.Materials = append(file.Materials, ma.materials...)
	if !hasSkin(file, ma.skin.Name) {
		file.Skins = append(file.Skins, ma.skin)
		commonRoot(file, in.Path)
	}
	linkTextures(file.Materials, m.Materials, file.Textures)
	retarget(file, ma)
	restTextureTransforms(file, m, c.shader)
	return nil
}

// restTextureTransforms gives each base-colour texture an animation moves
// its rest transform: the stored value of the texture-SRT parameter the
// animations animate on that material (scale, rotation, translation as
// stored, like the channels), so that the texture sits where the FMAT puts
// it whenever no clip plays. Materials animated through several SRT
// parameters (whose channels stay data) keep the identity.
func restTextureTransforms(file *model.File, m *Model, anims []*ShaderParamAnim) {
	param := map[string]string{} // material → its one animated SRT parameter
	several := map[string]bool{}
	for _, a := range anims {
		for _, ma := range a.Materials {
			for _, p := range ma.Params {
				if !isTexSRT(a.Group, p.Name) {
					continue
				}
				if prev, ok := param[ma.Material]; ok && prev != p.Name {
					several[ma.Material] = true
				}
				param[ma.Material] = p.Name
			}
		}
	}
	for i := range file.Materials {
		mat := &file.Materials[i]
		name, ok := param[mat.Name]
		if !ok || several[mat.Name] || !mat.BaseColorTexture.Transform {
			continue
		}
		for _, fm := range m.Materials {
			if fm.Name != mat.Name {
				continue
			}
			for _, p := range fm.Params {
				if p.Name == name && (p.Type == shaderParamTexSrt || p.Type == shaderParamTexSrtEx) && len(p.Data) >= srtSize {
					word := func(at int) float64 { return f32bits(binary.BigEndian.Uint32(p.Data[at:])) }
					v := []float64{word(srtScaleX), word(srtScaleX + 4), word(srtRotate), word(srtTranslateX), word(srtTranslateX + 4)}
					if !allFinite(v) {
						continue
					}
					ref := &mat.BaseColorTexture
					ref.Scale = [2]float64{word(srtScaleX), word(srtScaleX + 4)}
					ref.Rotation = word(srtRotate)
					ref.Offset = [2]float64{word(srtTranslateX), word(srtTranslateX + 4)}
				}
			}
		}
	}
}

// commonRoot gives the last skin's joints a common root, which glTF
// requires: an FSKL with several root bones gets a plain node above them
// (addRootAbove, named after the file), which becomes the skin's skeleton.
func commonRoot(file *model.File, path string) {
	skin := &file.Skins[len(file.Skins)-1]
	index := make(map[string]int, len(file.Nodes))
	for i, n := range file.Nodes {
		index[n.Name] = i
	}
	joints := make([]int, len(skin.Joints))
	for k, name := range skin.Joints {
		joints[k] = index[name]
	}
	if sample.CommonRoot(file.Nodes, joints) >= 0 {
		return
	}
	root := rootName(path, file.Nodes)
	addRootAbove(file, joints, root)
	skin.Skeleton = root
}

func allFinite(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

func hasSkin(f *model.File, name string) bool {
	for _, s := range f.Skins {
		if s.Name == name {
			return true
		}
	}
	return false
}

// retarget points the animations at the model's assets: a texture-SRT
// channel on a material of the model animates its base-colour texture
// transform (the one SRT parameter an FSHU animates per material in the
// BotW files; a material with several keeps "material:param" targets,
// which stay data); a material visibility channel becomes a visibility
// channel on every shape node drawn with that material; a bone visibility
// channel, one on every shape node that hangs on that bone (the runtime
// hides a shape whose bone is hidden).
func retarget(file *model.File, ma *modelAssets) {
	mats := map[string]int{}
	for i, m := range file.Materials {
		mats[m.Name] = i
	}
	for ai := range file.Animations {
		a := &file.Animations[ai]
		var out []model.Channel
		hidden := map[string]bool{} // shape nodes given a visibility channel in this clip
		// toShapes moves a visibility channel to the shape nodes it hides.
		// A shape hidden by both its bone and its material in one clip
		// keeps the first; the other stays as data (its original target).
		toShapes := func(ch model.Channel, nodes []string) bool {
			for _, n := range nodes {
				if hidden[n] {
					return false
				}
			}
			for _, n := range nodes {
				hidden[n] = true
				out = append(out, model.Channel{Node: n, Path: model.PathVisibility, Curve: ch.Curve})
			}
			return true
		}
		for _, ch := range a.Channels {
			switch {
			case ch.Path == model.PathVisibility && ch.Material != "" && len(ma.shapesOfMaterial[ch.Material]) > 0:
				if toShapes(ch, ma.shapesOfMaterial[ch.Material]) {
					continue
				}
			case ch.Path == model.PathVisibility && ch.Node != "" && len(ma.shapesOfBone[ch.Node]) > 0:
				if toShapes(ch, ma.shapesOfBone[ch.Node]) {
					continue
				}
			case isUVPath(ch.Path) && ch.Material != "":
				if i, ok := mats[ch.Material]; ok {
					ch.TextureSlot = ""
					file.Materials[i].BaseColorTexture.Transform = true
				}
			}
			out = append(out, ch)
		}
		a.Channels = out
	}
}

func isUVPath(p string) bool {
	return p == model.PathUVOffset || p == model.PathUVScale || p == model.PathUVRotation
}
