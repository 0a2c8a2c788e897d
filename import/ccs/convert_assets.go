package ccs

import (
	"fmt"

	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/model"
)

// AssetOptions choose the assets Convert adds beside the animations.
type AssetOptions struct {
	// NoMeshes leaves meshes, materials, textures, cameras and lights
	// out: the animation-only output. Skins stay (format.Options.NoMeshes):
	// they make a clump's bones an armature.
	NoMeshes bool
	// Shadows adds shadow models (kept out by default: the game draws them
	// as projected shadows, not as geometry), each on a child node
	// "<object>:shadow".
	Shadows bool
}

// assetConverter turns decoded asset chunks into the model's assets.
type assetConverter struct {
	s    *Scene
	a    *Assets
	ns   *nodeSet
	f    *model.File
	opts AssetOptions
	warn func(string, ...any)

	names    map[string]map[string]bool // kind → names taken
	texName  map[uint32]string
	texAlpha map[uint32]alphaUse
	matName  map[uint32]string
	models   map[uint32]*Model
	meshName map[uint32]string // model id → mesh name
	clumpOf  map[uint32]*Clump // object id → its clump
	skinName map[uint32]string // clump id → skin name
	world    [][16]float64     // rest world matrix per node
	refused  []string
}

// unique returns name, or name#id when kind already has it.
func (ac *assetConverter) unique(kind, name string, id uint32) string {
	taken := ac.names[kind]
	if taken == nil {
		taken = map[string]bool{}
		ac.names[kind] = taken
	}
	if name == "" || taken[name] {
		name = fmt.Sprintf("%s#%d", name, id)
	}
	taken[name] = true
	return name
}

// convertAssets adds textures, materials, meshes and skins to f, and the
// nodes the meshes hang on (every object with a model, at its clump's bind
// pose).
func convertAssets(s *Scene, a *Assets, ns *nodeSet, f *model.File, opts AssetOptions, warn func(string, ...any)) error {
	ac := &assetConverter{s: s, a: a, ns: ns, f: f, opts: opts, warn: warn,
		names: map[string]map[string]bool{}, texName: map[uint32]string{}, texAlpha: map[uint32]alphaUse{},
		matName: map[uint32]string{}, models: map[uint32]*Model{}, meshName: map[uint32]string{},
		clumpOf: map[uint32]*Clump{}, skinName: map[uint32]string{}}
	for _, err := range a.Refused {
		ac.refuse("%v", err)
	}
	for _, m := range a.Models {
		if _, dup := ac.models[m.ID]; !dup {
			ac.models[m.ID] = m
		}
	}
	for _, cl := range a.Clumps {
		for _, id := range cl.Nodes {
			if _, dup := ac.clumpOf[id]; !dup {
				ac.clumpOf[id] = cl
			}
		}
	}
	if !opts.NoMeshes {
		ac.textures()
		ac.materials()
	}
	// Every object with a model becomes a node before rest poses and
	// world matrices are worked out.
	for _, o := range a.Objects {
		if !opts.NoMeshes && (o.Model != 0 || opts.Shadows && o.Shadow != 0) {
			if _, err := ns.add(o.ID, o.Off+8); err != nil {
				return err
			}
		}
	}
	for _, cl := range a.Clumps {
		if ac.deformableIn(cl) {
			for _, id := range cl.Nodes {
				if _, err := ns.add(id, cl.Off+16); err != nil {
					return err
				}
			}
		}
	}
	if !opts.NoMeshes {
		if err := ac.camerasAndLights(); err != nil {
			return err
		}
	}
	ac.restPoses()
	for _, cl := range a.Clumps {
		if ac.deformableIn(cl) {
			if _, err := ac.skin(cl); err != nil {
				return err
			}
		}
	}
	if !opts.NoMeshes {
		for _, o := range a.Objects {
			if err := ac.objectMeshes(o); err != nil {
				return err
			}
		}
	}
	if len(ac.refused) > 0 {
		f.Extras["ccsRefused"] = ac.refused
	}
	return nil
}

// deformableIn reports whether an object of the clump has a deformable
// model (so the clump needs a skin).
func (ac *assetConverter) deformableIn(cl *Clump) bool {
	for _, o := range ac.a.Objects {
		if m := ac.models[o.Model]; m != nil && m.Type&ModelDeformable != 0 && ac.clumpOf[o.ID] == cl {
			return true
		}
	}
	return false
}

func (ac *assetConverter) refuse(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	ac.warn("%s", msg)
	ac.refused = append(ac.refused, msg)
}

// restPoses gives every node of a clump object its bind pose and works
// out each node's rest world matrix.
func (ac *assetConverter) restPoses() {
	nodes := ac.ns.nodes
	for i := range nodes {
		id, ok := nodes[i].Extras["ccsObject"].(int64)
		if !ok {
			continue
		}
		cl := ac.clumpOf[uint32(id)]
		if cl == nil || cl.Pose == nil {
			continue
		}
		for j, nid := range cl.Nodes {
			if int64(nid) == id {
				p := cl.Pose[j]
				nodes[i].Translation = [3]float64{float64(p.Position[0]), float64(p.Position[1]), float64(p.Position[2])}
				nodes[i].Rotation = eulerQuat(p.Rotation)
				nodes[i].Scale = [3]float64{float64(p.Scale[0]), float64(p.Scale[1]), float64(p.Scale[2])}
				break
			}
		}
	}
	ac.world = make([][16]float64, len(nodes))
	for i := range nodes {
		local := trsMatrix(nodes[i].Translation, nodes[i].Rotation, nodes[i].Scale)
		if p := nodes[i].Parent; p >= 0 {
			ac.world[i] = matMul(&ac.world[p], &local)
		} else {
			ac.world[i] = local
		}
	}
}

// objectMeshes hangs an object's model (and shadow, when asked for) on
// its node.
func (ac *assetConverter) objectMeshes(o ObjectChunk) error {
	if o.Model != 0 {
		m := ac.models[o.Model]
		if m == nil {
			ac.warn("object %s: its model %d has no Model chunk", ac.s.Index.ObjectName(o.ID), o.Model)
		} else {
			mesh, skin, err := ac.mesh(m, o)
			if err != nil {
				return err
			}
			switch {
			case mesh != "" && skin != "":
				// A skinned mesh goes on a node of its own at the root, not
				// on the object (a joint): glTF ignores a skinned mesh
				// node's transform, and clients (Blender) make joints bones,
				// not mesh objects.
				name := mesh
				if ac.ns.names[name] {
					name = ac.ns.nodes[ac.ns.byID[o.ID]].Name + ":mesh"
				}
				if !ac.ns.names[name] {
					ac.ns.pseudo(name, "")
					n := &ac.ns.nodes[len(ac.ns.nodes)-1]
					n.Mesh, n.Skin = mesh, skin
					n.Extras = map[string]any{"ccsObject": int64(o.ID)}
				}
			case mesh != "":
				n := &ac.ns.nodes[ac.ns.byID[o.ID]]
				n.Mesh = mesh
			}
		}
	}
	if ac.opts.Shadows && o.Shadow != 0 {
		m := ac.models[o.Shadow]
		if m == nil {
			return nil
		}
		mesh, _, err := ac.mesh(m, o)
		if err != nil || mesh == "" {
			return err
		}
		parent := ac.ns.byID[o.ID]
		name := ac.ns.pseudo(ac.ns.nodes[parent].Name+":shadow", "")
		n := &ac.ns.nodes[len(ac.ns.nodes)-1]
		if n.Name == name {
			n.Parent, n.Mesh = parent, mesh
		}
	}
	return nil
}

// mesh returns the name of model m's mesh as object o draws it, building
// it on first use; skin names the clump skin of a deformable model.
func (ac *assetConverter) mesh(m *Model, o ObjectChunk) (mesh, skin string, err error) {
	var cl *Clump
	if m.Type&ModelDeformable != 0 {
		if cl = ac.clumpOf[o.ID]; cl == nil {
			return "", "", binread.Errorf(m.Off, "deformable model %s: its object %s is in no clump", ac.s.Index.ObjectName(m.ID), ac.s.Index.ObjectName(o.ID))
		}
		if skin, err = ac.skin(cl); err != nil {
			return "", "", err
		}
	}
	if name, ok := ac.meshName[m.ID]; ok {
		return name, skin, nil
	}
	if m.Unsupport != "" {
		ac.refuse("model %s: %s", ac.s.Index.ObjectName(m.ID), m.Unsupport)
		ac.meshName[m.ID] = ""
		return "", "", nil
	}
	me := model.Mesh{Extras: map[string]any{"ccsObject": int64(m.ID), "ccsModelType": int64(m.Type),
		"ccsVertexScale": float64(m.Scale)}}
	if m.DrawFlags != [4]byte{} {
		me.Extras["ccsDrawFlags"] = fmt.Sprintf("%02x%02x%02x%02x", m.DrawFlags[0], m.DrawFlags[1], m.DrawFlags[2], m.DrawFlags[3])
	}
	var subNames []string
	targets := ac.morphTargetsOf(m)
	for _, t := range targets {
		me.TargetNames = append(me.TargetNames, ac.s.Index.ObjectName(t.ID))
	}
	for i := range m.Meshes {
		sm := &m.Meshes[i]
		var p model.Primitive
		if cl != nil {
			p, err = ac.deformablePrimitive(m, sm, cl)
		} else {
			p, err = ac.rigidPrimitive(sm)
		}
		if err != nil {
			return "", "", err
		}
		if len(p.Indices) == 0 {
			continue // a strip of restarts only draws nothing
		}
		for _, t := range targets {
			p.Targets = append(p.Targets, ac.morphTarget(m, i, t))
		}
		me.Primitives = append(me.Primitives, p)
		if sm.Name != 0 {
			subNames = append(subNames, ac.s.Index.ObjectName(sm.Name))
		}
	}
	if len(me.Primitives) == 0 {
		ac.meshName[m.ID] = ""
		return "", skin, nil
	}
	if subNames != nil {
		me.Extras["ccsSubMeshes"] = subNames
	}
	me.Name = ac.unique("mesh", ac.s.Index.ObjectName(m.ID), m.ID)
	ac.meshName[m.ID] = me.Name
	ac.f.Meshes = append(ac.f.Meshes, me)
	return me.Name, skin, nil
}

// skin returns the skin of a clump, building it on first use: its nodes
// as joints in clump order, each inverse bind the inverse of the node's
// rest world matrix.
func (ac *assetConverter) skin(cl *Clump) (string, error) {
	if name, ok := ac.skinName[cl.ID]; ok {
		return name, nil
	}
	sk := model.Skin{Name: ac.unique("skin", ac.s.Index.ObjectName(cl.ID), cl.ID)}
	for i, id := range cl.Nodes {
		ni, ok := ac.ns.byID[id]
		if !ok {
			return "", binread.Errorf(cl.Off+16+4*int64(i), "clump %s: node %d has no node", ac.s.Index.ObjectName(cl.ID), id)
		}
		inv, ok := invertAffine(&ac.world[ni])
		if !ok {
			return "", binread.Errorf(cl.Off, "clump %s: node %s's bind pose is singular (a zero scale)", ac.s.Index.ObjectName(cl.ID), ac.ns.nodes[ni].Name)
		}
		sk.Joints = append(sk.Joints, ac.ns.nodes[ni].Name)
		sk.InverseBind = append(sk.InverseBind, inv)
	}
	ac.skinName[cl.ID] = sk.Name
	ac.f.Skins = append(ac.f.Skins, sk)
	return sk.Name, nil
}
