# Godot 4 side of the Godot 4 client check (see godot4_check.py): loads
# every imported scene the plan names and records what Godot made of it:
# its skeletons, mesh instances and textured materials (and, in a file
# without animation, the planned nodes it lacks), each animation's name,
# loop mode, length and tracks (path, type, key
# times; value tracks also their values at bake's sample times), and the
# global transform of the planned nodes and skeleton bones at Godot's own
# key times of each planned animation. Run with
#   godot --headless --path PROJECT -s res://godot4_check.gd
# after `godot --headless --path PROJECT --import`; it reads res://plan.json
# and writes res://actual.json and, as little-endian float32 (Godot holds
# transforms in float32), res://poses.bin: per query, the key times sought,
# then per time, per node found, 12 numbers (origin, then basis columns).
#
# The work runs on the first _process call, not in _init: a scene instanced
# in _init is not ready yet, and AnimationPlayer.seek then changes nothing.
extends SceneTree

var poses: FileAccess
var started := false


func _process(_delta: float) -> bool:
	if started:
		return true
	started = true
	quit(run())
	return true


func run() -> int:
	var text := FileAccess.get_file_as_string("res://plan.json")
	var plan = JSON.parse_string(text)
	if plan == null:
		printerr("godot4 check: cannot read res://plan.json")
		return 2
	poses = FileAccess.open("res://poses.bin", FileAccess.WRITE)
	if poses == null:
		printerr("godot4 check: cannot write res://poses.bin")
		return 2
	var out := []
	for item in plan["files"]:
		out.append(check_file(item))
	poses.close()
	var f := FileAccess.open("res://actual.json", FileAccess.WRITE)
	if f == null:
		printerr("godot4 check: cannot write res://actual.json")
		return 2
	f.store_string(JSON.stringify({"files": out}))
	f.close()
	return 0


func check_file(item: Dictionary) -> Dictionary:
	var res := {"scene": item["scene"]}
	var packed = load(item["scene"])
	if packed == null:
		res["error"] = "Godot could not load the imported scene"
		return res
	var scene: Node = packed.instantiate()
	root.add_child(scene)
	res["skeletons"] = scene.find_children("*", "Skeleton3D", true, false).size()
	# Meshes and textures: each MeshInstance3D's name, and the names of the
	# materials whose albedo has a texture.
	var meshes := []
	var textured := {}
	for m in scene.find_children("*", "MeshInstance3D", true, false):
		meshes.append(str(m.name))
		if m.mesh == null:
			continue
		for i in range(m.mesh.get_surface_count()):
			var mat = m.mesh.surface_get_material(i)
			if mat is BaseMaterial3D and mat.albedo_texture != null:
				textured[mat.resource_name] = true
	res["meshes"] = meshes
	res["textured"] = textured.keys()
	if item["queries"].is_empty():
		# No clip: no pose query looks for the nodes, so look them up here.
		res["missing"] = []
		for name in item["nodes"]:
			if find_in_scene(scene, name) == null:
				res["missing"].append(name)
	var players := scene.find_children("*", "AnimationPlayer", true, false)
	if players.is_empty():
		if not item["queries"].is_empty():
			res["error"] = "no AnimationPlayer"
		else:
			res["animations"] = []
			res["queries"] = []
		root.remove_child(scene)
		scene.free()
		return res
	var player: AnimationPlayer = players[0]
	var anims := []
	for name in player.get_animation_list():
		var anim := player.get_animation(name)
		var tracks := []
		for t in range(anim.get_track_count()):
			var times := []
			for k in range(anim.track_get_key_count(t)):
				times.append(anim.track_get_key_time(t, k))
			tracks.append({"path": str(anim.track_get_path(t)), "type": anim.track_get_type(t), "times": times})
		anims.append({"name": str(name), "loop": anim.loop_mode, "length": anim.length, "tracks": tracks})
	res["animations"] = anims
	var queries := []
	for q in item["queries"]:
		queries.append(pose_query(scene, player, q, item["nodes"]))
	res["queries"] = queries
	root.remove_child(scene)
	scene.free()
	return res


# pose_query plays one animation and writes each planned node's global
# transform at each of Godot's own key times of the clip (the times of its
# transform track with the most keys: Godot resamples every translation,
# rotation and scale channel at the sidecar's animation/fps and adds a key at
# the clip's end) to poses.bin; "found" lists the nodes written. Each value
# track is also read at bake's sample times (the plan's "times").
func pose_query(scene: Node, player: AnimationPlayer, q: Dictionary, nodes: Array) -> Dictionary:
	var out := {"anim": q["anim"], "found": [], "missing": [], "values": []}
	if not player.has_animation(q["anim"]):
		out["error"] = "no animation"
		return out
	var anim := player.get_animation(q["anim"])
	read_values(player, anim, q, out)
	var times := key_times(anim)
	out["times"] = times.size()
	for time in times:
		poses.store_float(time)
	var targets := []
	for name in nodes:
		var target = find_in_scene(scene, name)
		if target == null:
			out["missing"].append(name)
		else:
			targets.append(target)
			out["found"].append(name)
	player.play(q["anim"])
	for time in times:
		player.seek(time, true)
		player.advance(0)
		for target in targets:
			var g := global_of(target)
			var b := g.basis
			for v in [g.origin, b.x, b.y, b.z]:
				poses.store_float(v.x)
				poses.store_float(v.y)
				poses.store_float(v.z)
	player.stop()
	return out


# read_values plays the clip and reads, at bake's sample times, the live
# property each value track animates (a material's albedo_color, a node's
# visible, a light's light_color, ...): what the user sees, not the track's
# keys. A track whose node path does not resolve from the player's root
# plays nothing; it is listed with "resolved": false.
func read_values(player: AnimationPlayer, anim: Animation, q: Dictionary, out: Dictionary) -> void:
	var base: Node = player.get_node(player.root_node)
	var live := []
	for t in range(anim.get_track_count()):
		if anim.track_get_type(t) != Animation.TYPE_VALUE:
			continue
		var path := anim.track_get_path(t)
		var entry := {"path": str(path), "values": [], "resolved": false}
		out["values"].append(entry)
		var node_path := NodePath(path.get_concatenated_names())
		if path.get_name_count() > 0 and not base.has_node(node_path):
			continue
		var found := base.get_node_and_resource(path)
		if found[0] == null:
			continue
		entry["resolved"] = true
		live.append([entry, found])
	if live.is_empty():
		return
	player.play(q["anim"])
	for time in q["times"]:
		player.seek(time, true)
		player.advance(0)
		for e in live:
			var owner: Object = e[1][1] if e[1][1] != null else e[1][0]
			e[0]["values"].append(numbers(owner.get_indexed(e[1][2])))
	player.stop()


func key_times(anim: Animation) -> Array:
	var best := -1
	for t in range(anim.get_track_count()):
		var ty := anim.track_get_type(t)
		if ty != Animation.TYPE_POSITION_3D and ty != Animation.TYPE_ROTATION_3D and ty != Animation.TYPE_SCALE_3D:
			continue
		if best < 0 or anim.track_get_key_count(t) > anim.track_get_key_count(best):
			best = t
	var out := []
	if best < 0:
		return [0.0]
	for k in range(anim.track_get_key_count(best)):
		out.append(anim.track_get_key_time(best, k))
	return out


# numbers writes a value track's value as a list of floats: a Color as
# r, g, b, a; a vector by components; a bool as 0 or 1.
func numbers(v) -> Array:
	match typeof(v):
		TYPE_COLOR:
			return [v.r, v.g, v.b, v.a]
		TYPE_VECTOR2:
			return [v.x, v.y]
		TYPE_VECTOR3:
			return [v.x, v.y, v.z]
		TYPE_BOOL:
			return [1.0 if v else 0.0]
		TYPE_FLOAT, TYPE_INT:
			return [float(v)]
	return []


# find_in_scene looks for a node or bone among the scene root's
# descendants: the root is Godot's own node, named after the glTF scene,
# which may share a node's name (Switch BFRES BlockShine: scene and root
# bone both "BlockShine").
func find_in_scene(scene, name):
	for c in scene.get_children():
		var t = find_target(c, name)
		if t != null:
			return t
	return null


# find_target is a bone [skeleton, index] or a Node3D named name (Godot 4
# keeps bake's node and bone names).
func find_target(node: Node, name: String):
	if node is Skeleton3D:
		var i: int = node.find_bone(name)
		if i >= 0:
			return [node, i]
	if node is Node3D and str(node.name) == name and not (node is Skeleton3D):
		return node
	for c in node.get_children():
		var t = find_target(c, name)
		if t != null:
			return t
	return null


func global_of(target) -> Transform3D:
	if target is Array:
		var skel: Skeleton3D = target[0]
		return skel.global_transform * skel.get_bone_global_pose(target[1])
	return target.global_transform
