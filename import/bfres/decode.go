package bfres

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/model"
)

// contents are the decoded sub-files of one FRES image, in file order.
type contents struct {
	header    Header
	res       *resFile
	models    []*Model
	skeletons []*Skeleton
	skeletal  []*SkeletalAnim
	shader    []*ShaderParamAnim
	pattern   []*TexPatternAnim
	vis       []*VisibilityAnim
}

// readContents decodes every sub-file the importer uses.
func readContents(data []byte, opts *format.Options) (*contents, error) {
	if isSwitch(data) {
		return readNXContents(data, opts)
	}
	f, err := readHeader(data)
	if err != nil {
		return nil, err
	}
	c := &contents{header: f.header, res: f}
	if c.models, err = f.readModelsFull(); err != nil {
		return nil, err
	}
	for _, m := range c.models {
		if m.Skeleton != nil {
			c.skeletons = append(c.skeletons, m.Skeleton)
		}
	}
	each := func(group int, fn func(e dictEntry) error) error {
		off := f.header.Groups[group]
		if off == 0 {
			return nil
		}
		entries, err := f.readDict(off, groupNames[group])
		if err != nil {
			return err
		}
		if len(entries) != int(f.header.GroupCounts[group]) {
			opts.Warnf("bfres: %s index group holds %d entries, the header counts %d", groupNames[group], len(entries), f.header.GroupCounts[group])
		}
		for _, e := range entries {
			if err := fn(e); err != nil {
				return err
			}
		}
		return nil
	}
	err = each(GroupSkeletalAnims, func(e dictEntry) error {
		a, err := f.readFSKA(e.Data, e.Name)
		c.skeletal = append(c.skeletal, a)
		return err
	})
	for _, g := range []int{GroupShaderParamAnims, GroupColorAnims, GroupTexSRTAnims} {
		if err == nil {
			err = each(g, func(e dictEntry) error {
				a, err := f.readFSHU(e.Data, e.Name, g)
				c.shader = append(c.shader, a)
				return err
			})
		}
	}
	if err == nil {
		err = each(GroupTexPatternAnims, func(e dictEntry) error {
			a, err := f.readFTXP(e.Data, e.Name)
			c.pattern = append(c.pattern, a)
			return err
		})
	}
	for _, g := range []int{GroupBoneVisAnims, GroupMatVisAnims} {
		if err == nil {
			err = each(g, func(e dictEntry) error {
				a, err := f.readFVIS(e.Data, e.Name)
				c.vis = append(c.vis, a)
				return err
			})
		}
	}
	if err != nil {
		return nil, err
	}
	for g, n := range f.header.GroupCounts {
		switch g {
		case GroupShapeAnims, GroupSceneAnims:
			if n > 0 {
				opts.Warnf("bfres: %d %s are not converted", n, groupNames[g])
			}
		case GroupTextures:
			if n > 0 && f.header.GroupCounts[GroupModels] == 0 {
				opts.Warnf("bfres: this file holds only textures (%d FTEX): they are decoded for the materials of the model file they belong to (X.Tex1.sbfres beside X.sbfres, or --textures-from)", n)
			}
		}
	}
	return c, nil
}

// Decode reads a Wii U or Switch BFRES (or Yaz0 .sbfres) file into one model.File.
func Decode(in *format.Input, opts *format.Options) ([]*model.File, error) {
	raw, err := binread.ReadFile(in.R, in.Size)
	if err != nil {
		return nil, err
	}
	data, err := unwrap(raw, opts.Inflate())
	if err != nil {
		return nil, err
	}
	c, err := readContents(data, opts)
	if err != nil {
		return nil, err
	}
	var animFiles []string
	skelOpts := opts
	if hasMeshes(c) {
		if animFiles, err = addAnimationFiles(in, c, opts); err != nil {
			return nil, err
		}
		// A model file's meshes are bound to its own skeleton: --skeleton
		// is for animation files.
		if opts != nil && opts.Skeleton != "" {
			o := *opts
			o.Skeleton = ""
			skelOpts = &o
		}
	}
	skel, from, err := chooseSkeleton(in, c, skelOpts)
	if err != nil {
		return nil, err
	}
	file, err := build(c, skel, opts)
	if err != nil {
		return nil, err
	}
	if c.res.nx != nil {
		file.Axes.Scale = SwitchUnit
		for i := range file.Animations {
			file.Animations[i].FPS = NativeFPSSwitch
		}
	}
	if animFiles != nil {
		file.Extras["animationFiles"] = animFiles
	}
	if skel != nil && from == "this file" {
		if err := addModel(in, file, c, skel, opts); err != nil {
			return nil, err
		}
	} else if hasMeshes(c) {
		opts.Warnf("bfres: the file's models have shapes but the skeleton used is not theirs (%s); meshes are not converted", skeletonSource(skel, from))
	}
	if err := addBoneSkin(file, skel, in.Path); err != nil {
		return nil, err
	}
	sum := sha256.Sum256(raw)
	file.Source = model.Source{Path: in.Path, Format: "bfres", SHA256: hex.EncodeToString(sum[:])}
	if skel != nil {
		file.Extras["skeleton"] = map[string]any{"model": skel.Model, "from": from,
			"scaleMode": scaleModeNames[skel.ScaleMode()], "rotationMode": rotationModeName(skel.RotationMode())}
	}
	return []*model.File{file}, nil
}

// build assembles the model file from decoded contents and a skeleton.
func build(c *contents, skel *Skeleton, opts *format.Options) (*model.File, error) {
	ns, err := newNodeSet(skel)
	if err != nil {
		return nil, err
	}
	warn := func(f string, args ...any) { opts.Warnf("bfres: "+f, args...) }
	file := &model.File{
		Axes:   model.Axes{Name: "bfres", Basis: model.IdentityBasis, Scale: 1},
		Extras: map[string]any{"version": c.header.VersionString(), "name": c.header.Name},
	}
	var anims []model.Animation
	var sscAnims []model.Animation
	for _, a := range c.skeletal {
		sk := buildSkeletal(a, ns, warn)
		sscAnims = append(sscAnims, sk)
		anims = addAnimation(anims, sk)
	}
	for _, a := range c.shader {
		anims = addAnimation(anims, buildShaderParam(a, warn))
	}
	for _, a := range c.pattern {
		anims = addAnimation(anims, buildTexPattern(a))
	}
	for _, a := range c.vis {
		anims = addAnimation(anims, buildVisibility(a, ns, warn))
	}
	if len(ns.flat) > 0 {
		warn("no skeleton found (give --skeleton or put the model file beside the animations): %d bones are flat root nodes with the identity rest pose", len(ns.flat))
	}
	if len(ns.unbound) > 0 {
		warn("%d animated bones are not in the skeleton of model %s; the game binds tracks by bone name and plays none for them, so their channels are dropped (listed per clip in extras.unboundBones): %s", len(ns.unbound), skel.Model, strings.Join(ns.unbound, ", "))
	}
	maya := skel != nil && skel.ScaleMode() == ScaleMaya
	inexact, affected := 0, 0
	for i, a := range c.skeletal {
		if maya || skel == nil && scaleMode(a.Flags) == ScaleMaya {
			compensated, _ := sscAnims[i].Extras["segmentScaleCompensate"].([]string)
			if n := markInexactSSC(&sscAnims[i], ns, compensated); n > 0 {
				inexact += n
				affected++
			}
		}
	}
	if inexact > 0 {
		warn("%d bones in %d skeletal animations use Maya segment-scale compensation under a scaled parent, which glTF cannot express; they are listed in the animations' extras (segmentScaleCompensateInexact)", inexact, affected)
	}
	file.Nodes = ns.nodes
	file.Animations = anims
	return file, nil
}

// skeletonSource names where the skeleton came from, for messages.
func skeletonSource(skel *Skeleton, from string) string {
	if skel == nil {
		return "none found"
	}
	return "model " + skel.Model + " from " + from
}

// addAnimation appends a, or merges its channels into an earlier animation
// of the same name: the runtime plays a model's skeletal, material and
// visibility animations of one action side by side, and one name must give
// one clip. The earlier animation (the skeletal one, which comes first)
// keeps its timing; a merged sub-file of another length or loop mode is
// recorded in extras.mergedTiming, its curves keeping their own wrap rules.
func addAnimation(list []model.Animation, a model.Animation) []model.Animation {
	for i := range list {
		b := &list[i]
		if b.Name == a.Name {
			if b.Frames != a.Frames || b.Loop != a.Loop {
				timing, _ := b.Extras["mergedTiming"].([]map[string]any)
				b.Extras["mergedTiming"] = append(timing, map[string]any{
					"subfiles": a.Extras["subfiles"], "frames": a.Frames, "loop": a.Loop})
			}
			b.Channels = append(b.Channels, a.Channels...)
			b.Extras["subfiles"] = append(b.Extras["subfiles"].([]string), a.Extras["subfiles"].([]string)...)
			if names, ok := a.Extras["unboundBones"].([]string); ok {
				addUnbound(b.Extras, names...)
			}
			for k, v := range a.Extras {
				if _, ok := b.Extras[k]; !ok {
					b.Extras[k] = v
				}
			}
			return list
		}
	}
	return append(list, a)
}

// chooseSkeleton picks the skeleton the animations bind to: the model
// named by opts.Skeleton when given; otherwise, among the FMDLs of this
// file and of the sibling model file (X_Animation.bfres → X.bfres or
// X.sbfres), the one whose bones match the most animated bone names (this
// file first on ties). It returns nil when there is none.
func chooseSkeleton(in *format.Input, c *contents, opts *format.Options) (*Skeleton, string, error) {
	var cands []*Skeleton
	var from []string
	if opts != nil && opts.Skeleton != "" {
		sks, err := loadSkeletons(in, opts.Skeleton, opts)
		if err != nil {
			return nil, "", fmt.Errorf("skeleton file %s: %w", opts.Skeleton, err)
		}
		if len(sks) == 0 {
			return nil, "", fmt.Errorf("skeleton file %s holds no model with a skeleton", opts.Skeleton)
		}
		cands = sks
		for range sks {
			from = append(from, opts.Skeleton)
		}
	} else {
		cands = append(cands, c.skeletons...)
		for range c.skeletons {
			from = append(from, "this file")
		}
		for _, name := range siblingNames(in.Path) {
			sks, err := loadSkeletons(in, name, opts)
			if errors.Is(err, os.ErrNotExist) {
				continue
			}
			if err != nil {
				opts.Warnf("bfres: sibling model %s: %v", name, err)
				continue
			}
			cands = append(cands, sks...)
			for range sks {
				from = append(from, name)
			}
			break
		}
	}
	if len(cands) == 0 {
		return nil, "", nil
	}
	names := map[string]bool{}
	for _, a := range c.skeletal {
		for _, b := range a.BoneAnims {
			names[b.Name] = true
		}
	}
	best, bestScore := 0, -1
	for i, s := range cands {
		score := 0
		for _, b := range s.Bones {
			if names[b.Name] {
				score++
			}
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return cands[best], from[best], nil
}

// siblingNames lists the model files that may hold the skeleton of an
// animation file: X_Animation.(s)bfres → X.bfres, X.sbfres.
func siblingNames(path string) []string {
	base := filepath.Base(path)
	for _, ext := range []string{".sbfres", ".bfres"} {
		base = strings.TrimSuffix(base, ext)
	}
	model, ok := strings.CutSuffix(base, "_Animation")
	if !ok || model == "" {
		return nil
	}
	return []string{model + ".bfres", model + ".sbfres"}
}

// loadSkeletons opens another BFRES file and reads the skeletons of its models.
func loadSkeletons(in *format.Input, path string, opts *format.Options) ([]*Skeleton, error) {
	f, err := loadResFile(in, path, opts)
	if err != nil {
		return nil, err
	}
	return f.readModels()
}
