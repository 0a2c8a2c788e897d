package sample

import (
	"fmt"
	"maps"
	"strings"

	"github.com/animbake/bake/model"
)

// Output names. Every exporter writes the names a bake carries, so the glTF
// and the JSON form agree; the rules are in docs/names.md:
//
//   - A node, bone or clip name keeps only ASCII letters, digits, '_' and
//     '-'; each run of other characters becomes one '_'. Godot 3.2's glTF
//     importer deletes every other character from node and animation names
//     (its _sanitize_scene_name keeps [a-zA-Z0-9_ -]), Godot 4 deletes
//     `. : @ / " %`, three.js deletes `[ ] . : /` and turns spaces into '_'
//     in the names its animation bindings look up, and Godot reads ',' and
//     '[' in track paths; spaces go too so that one name reads the same in
//     every client.
//   - Names are at most 63 bytes, Blender's limit (a longer one is cut and
//     then made unique by Blender with ".001").
//   - Names are unique within their kind: a name that needs no change keeps
//     it, and a changed one that collides gets "_2", "_3", ...
//   - A clip that plays once (or has no loop mode) and whose name starts or
//     ends with "loop" or "cycle" in any case gets "once_" in front or
//     "_once" behind, so that Godot's name-based loop detection (Godot 3:
//     case-sensitive prefix or suffix "loop"/"cycle"; Godot 4: the same,
//     case-insensitive) does not make it loop.
//   - With LoopSuffix, repeating and ping-pong clips (a ping-pong bake is
//     one whole cycle, so it repeats too) end in "-loop": Godot 3 loops a
//     name ending in "loop", Godot 4 loops it and strips "-loop".
//
// A node or clip whose output name differs from its source name records the
// source name in its extras as "sourceName".

// MaxNameBytes is the longest output name (Blender's 63-byte limit).
const MaxNameBytes = 63

// LoopSuffix is appended to repeating clips' names with Options.LoopSuffix.
const LoopSuffix = "-loop"

// SourceNameKey is the extras key that keeps a renamed object's source name.
const SourceNameKey = "sourceName"

// safeName maps s to the output character set (see above), cut to room bytes.
func safeName(s string, room int) string {
	var b strings.Builder
	run := false
	for _, r := range s {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-'
		if !ok {
			if !run {
				b.WriteByte('_')
			}
			run = true
			continue
		}
		run = false
		b.WriteRune(r)
	}
	out := b.String()
	if out == "" {
		out = "_"
	}
	if len(out) > room {
		out = out[:room] // ASCII only: any byte is a boundary
	}
	return out
}

// uniqueNames returns safe, unique names for names: unchanged ones are kept
// first, so a changed name never takes a name the source already uses.
// room is how many bytes a name may have.
func uniqueNames(names []string, room int) []string {
	out := make([]string, len(names))
	taken := make(map[string]bool, len(names))
	for i, n := range names {
		if s := safeName(n, room); s == n && !taken[s] {
			out[i] = s
			taken[s] = true
		}
	}
	for i, n := range names {
		if out[i] != "" {
			continue
		}
		s := safeName(n, room)
		for k := 2; taken[s]; k++ {
			suffix := fmt.Sprintf("_%d", k)
			s = safeName(n, room-len(suffix)) + suffix
		}
		out[i] = s
		taken[s] = true
	}
	return out
}

// NodeNames returns the output name of every node (same order).
func NodeNames(nodes []model.Node) []string {
	names := make([]string, len(nodes))
	for i, n := range nodes {
		names[i] = n.Name
	}
	return uniqueNames(names, MaxNameBytes)
}

// loopWordPrefix and loopWordSuffix report whether Godot would read s as a
// looping clip's name (case-insensitively, as Godot 4 does; Godot 3 only
// matches lower case).
func loopWordPrefix(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "loop") || strings.HasPrefix(l, "cycle")
}

func loopWordSuffix(s string) bool {
	l := strings.ToLower(s)
	return strings.HasSuffix(l, "loop") || strings.HasSuffix(l, "cycle")
}

// repeats reports whether a clip of this loop mode plays again and again.
func repeats(loop string) bool {
	return loop == model.LoopRepeat || loop == model.LoopPingPong
}

// ClipNames returns the output name of every animation (same order); see
// the rules above. loopSuffix adds "-loop" to repeating clips.
func ClipNames(anims []model.Animation, loopSuffix bool) []string {
	room := MaxNameBytes - len("once_") - len("_once")
	if loopSuffix {
		room = min(room, MaxNameBytes-len(LoopSuffix))
	}
	names := make([]string, len(anims))
	for i, a := range anims {
		names[i] = a.Name
	}
	// The stems are unique, so the names stay unique after Godot 4 strips
	// the "-loop" suffix again.
	out := uniqueNames(names, room)
	for i, a := range anims {
		switch {
		case repeats(a.Loop) && loopSuffix:
			out[i] += LoopSuffix
		case !repeats(a.Loop):
			if loopWordPrefix(out[i]) {
				out[i] = "once_" + out[i]
			}
			if loopWordSuffix(out[i]) {
				out[i] += "_once"
			}
		}
	}
	return out
}

// withSourceName returns a copy of extras with the source name added.
func withSourceName(extras map[string]any, source string) map[string]any {
	out := make(map[string]any, len(extras)+1)
	maps.Copy(out, extras)
	out[SourceNameKey] = source
	return out
}

// applyNames gives b's nodes and clips their output names and updates
// every reference to a node (channels, events, curves, skins).
func applyNames(b *Baked, src *model.File, loopSuffix bool) {
	nodeNames := NodeNames(src.Nodes)
	rename := make(map[string]string)
	for i := range b.Nodes {
		n := &b.Nodes[i]
		if out := nodeNames[i]; out != n.Name {
			rename[n.Name] = out
			n.Extras = withSourceName(n.Extras, n.Name)
			n.Name = out
		}
	}
	clipNames := ClipNames(src.Animations, loopSuffix)
	for i := range b.Animations {
		a := &b.Animations[i]
		if out := clipNames[i]; out != a.Name {
			a.Extras = withSourceName(a.Extras, a.Name)
			a.Name = out
		}
	}
	if len(rename) == 0 {
		return
	}
	node := func(s string) string {
		if out, ok := rename[s]; ok && s != "" {
			return out
		}
		return s
	}
	for i := range b.Animations {
		a := &b.Animations[i]
		for j := range a.Channels {
			a.Channels[j].Node = node(a.Channels[j].Node)
		}
		for j := range a.Events {
			a.Events[j].Node = node(a.Events[j].Node)
		}
	}
	for i := range b.Curves {
		b.Curves[i].Node = node(b.Curves[i].Node)
	}
	if len(b.Assets.Skins) > 0 {
		skins := make([]model.Skin, len(b.Assets.Skins))
		for i, s := range b.Assets.Skins {
			joints := make([]string, len(s.Joints))
			for j, n := range s.Joints {
				joints[j] = node(n)
			}
			s.Joints = joints
			s.Skeleton = node(s.Skeleton)
			skins[i] = s
		}
		b.Assets.Skins = skins
	}
}

// applyAssetNames gives the assets output names by the same rules, per
// kind: three.js's KHR_animation_pointer binding names a material in a track
// path (".materials.NAME.opacity"), which '/', '.', ':' or '[' break, and
// Blender cuts every name at 63 bytes. Every reference by name follows
// (nodes' assets, primitives' materials, materials' textures, channels'
// materials); a renamed asset keeps its source name in its extras.
func applyAssetNames(b *Baked) {
	a := &b.Assets
	type kind struct {
		n    int
		name func(int) *string
		ex   func(int) *map[string]any
	}
	a.Meshes = append([]model.Mesh(nil), a.Meshes...)
	a.Materials = append([]model.Material(nil), a.Materials...)
	a.Textures = append([]model.Texture(nil), a.Textures...)
	a.Skins = append([]model.Skin(nil), a.Skins...)
	a.Cameras = append([]model.Camera(nil), a.Cameras...)
	a.Lights = append([]model.Light(nil), a.Lights...)
	kinds := []kind{
		{len(a.Meshes), func(i int) *string { return &a.Meshes[i].Name }, func(i int) *map[string]any { return &a.Meshes[i].Extras }},
		{len(a.Materials), func(i int) *string { return &a.Materials[i].Name }, func(i int) *map[string]any { return &a.Materials[i].Extras }},
		{len(a.Textures), func(i int) *string { return &a.Textures[i].Name }, func(i int) *map[string]any { return &a.Textures[i].Extras }},
		{len(a.Skins), func(i int) *string { return &a.Skins[i].Name }, nil}, // skins have no extras
		{len(a.Cameras), func(i int) *string { return &a.Cameras[i].Name }, func(i int) *map[string]any { return &a.Cameras[i].Extras }},
		{len(a.Lights), func(i int) *string { return &a.Lights[i].Name }, func(i int) *map[string]any { return &a.Lights[i].Extras }},
	}
	renames := make([]map[string]string, len(kinds))
	for k, kd := range kinds {
		names := make([]string, kd.n)
		for i := range names {
			names[i] = *kd.name(i)
		}
		out := uniqueNames(names, MaxNameBytes)
		renames[k] = map[string]string{}
		for i, o := range out {
			if o != names[i] {
				renames[k][names[i]] = o
				*kd.name(i) = o
				if kd.ex != nil {
					ex := kd.ex(i)
					*ex = withSourceName(*ex, names[i])
				}
			}
		}
	}
	ren := func(k int, s string) string {
		if o, ok := renames[k][s]; ok && s != "" {
			return o
		}
		return s
	}
	const mesh, material, texture, skin, camera, light = 0, 1, 2, 3, 4, 5
	for i := range b.Nodes {
		n := &b.Nodes[i]
		n.Mesh, n.Skin, n.Camera, n.Light = ren(mesh, n.Mesh), ren(skin, n.Skin), ren(camera, n.Camera), ren(light, n.Light)
	}
	for i := range a.Meshes {
		m := &a.Meshes[i]
		prims := append([]model.Primitive(nil), m.Primitives...)
		for j := range prims {
			prims[j].Material = ren(material, prims[j].Material)
		}
		m.Primitives = prims
	}
	for i := range a.Materials {
		m := &a.Materials[i]
		for _, r := range []*model.TextureRef{&m.BaseColorTexture, &m.MetallicRoughnessTexture, &m.Normal, &m.Occlusion, &m.EmissiveTexture} {
			r.Texture = ren(texture, r.Texture)
		}
	}
	for i := range b.Animations {
		for j := range b.Animations[i].Channels {
			c := &b.Animations[i].Channels[j]
			c.Material = ren(material, c.Material)
		}
	}
}
