# Godot 3 side of the Godot client check (see godot_check.py): loads every
# imported scene the plan names, and records what Godot made of it: its
# skeletons, mesh instances and textured materials (and, in a file without
# animation, the planned nodes it lacks), each
# animation's name, loop flag, length and tracks (path, type, key times), and
# the global transform of the planned nodes and skeleton bones at the planned
# times of each planned animation. Run with
#   godot3 --path PROJECT -s res://godot_check.gd
# after an editor pass has imported the project; it reads res://plan.json and
# writes res://actual.json and, as little-endian float32 (Godot 3 holds times
# and transforms in float32, so nothing is lost), res://poses.bin: per query,
# the times sought, then per time, per node found, 12 numbers (origin, then
# basis columns).
extends SceneTree

var poses = File.new()


func _init():
	var f = File.new()
	if f.open("res://plan.json", File.READ) != OK:
		printerr("godot check: cannot read res://plan.json")
		quit(2)
		return
	var parsed = JSON.parse(f.get_as_text())
	f.close()
	if parsed.error != OK:
		printerr("godot check: plan.json: ", parsed.error_string)
		quit(2)
		return
	if poses.open("res://poses.bin", File.WRITE) != OK:
		printerr("godot check: cannot write res://poses.bin")
		quit(2)
		return
	var out = []
	for item in parsed.result["files"]:
		out.append(check_file(item))
	poses.close()
	if f.open("res://actual.json", File.WRITE) != OK:
		printerr("godot check: cannot write res://actual.json")
		quit(2)
		return
	f.store_string(JSON.print({"files": out}))
	f.close()
	quit(0)


func check_file(item):
	var res = {"scene": item["scene"]}
	var packed = load(item["scene"])
	if packed == null:
		res["error"] = "Godot could not load the imported scene"
		return res
	var probe = packed.instance()
	record_assets(probe, res)
	if item["queries"].empty():
		# No clip: no pose query looks for the nodes, so look them up here.
		res["missing"] = []
		for name in item["nodes"]:
			if find_in_scene(probe, name) == null:
				res["missing"].append(name)
	var player = find_player(probe)
	if player == null:
		if item["queries"].empty():
			res["animations"] = []
			res["queries"] = []
		else:
			res["error"] = "no AnimationPlayer"
		probe.free()
		return res
	var anims = []
	for name in player.get_animation_list():
		var anim = player.get_animation(name)
		var tracks = []
		for t in range(anim.get_track_count()):
			var times = []
			for k in range(anim.track_get_key_count(t)):
				times.append(anim.track_get_key_time(t, k))
			tracks.append({"path": str(anim.track_get_path(t)), "type": anim.track_get_type(t), "times": times})
		anims.append({"name": name, "loop": anim.loop, "length": anim.length, "tracks": tracks})
	res["animations"] = anims
	probe.free()
	var queries = []
	for q in item["queries"]:
		queries.append(pose_query(packed, q, item["nodes"]))
	res["queries"] = queries
	return res


# record_assets notes what a user sees of the scene: how many Skeletons,
# each MeshInstance's name, and the names of the materials whose albedo has
# a texture (bake's sidecar keeps materials built into the meshes).
func record_assets(scene, res):
	var meshes = []
	var textured = {}
	var skeletons = [0]
	collect_assets(scene, meshes, textured, skeletons)
	res["skeletons"] = skeletons[0]
	res["meshes"] = meshes
	res["textured"] = textured.keys()


func collect_assets(node, meshes, textured, skeletons):
	if node is Skeleton:
		skeletons[0] += 1
	if node is MeshInstance:
		meshes.append(node.name)
		if node.mesh != null:
			for i in range(node.mesh.get_surface_count()):
				var mat = node.mesh.surface_get_material(i)
				if mat is SpatialMaterial and mat.albedo_texture != null:
					textured[mat.resource_name] = true
	for c in node.get_children():
		collect_assets(c, meshes, textured, skeletons)


# pose_query plays one animation on a fresh instance (so nothing another
# clip moved stays moved) and writes each planned node's global transform
# at each baked sample to poses.bin; "found" lists the nodes written.
# Sample k is read at the time of Godot's own key k * stride (the last sample
# at the last key) of the clip's first transform track: Godot 3 places key k
# at a float32 running sum of 1/fps, up to a few microseconds from k/fps
# (the check compares those times with bake's separately), and between keys
# it interpolates, which is not what is being checked here.
func pose_query(packed, q, nodes):
	var out = {"anim": q["anim"], "found": [], "missing": []}
	if q.has("skip"):
		return out
	var scene = packed.instance()
	root.add_child(scene)
	var player = find_player(scene)
	if not player.has_animation(q["anim"]):
		out["error"] = "no animation"
		root.remove_child(scene)
		scene.free()
		return out
	var times = seek_times(player.get_animation(q["anim"]), q["times"], int(q["stride"]))
	# JSON.print keeps 6 decimals: the times Godot seeks go to poses.bin too,
	# ahead of the poses, as float32 (Godot 3's key times are float32).
	for time in times:
		poses.store_float(time)
	var targets = []
	for name in nodes:
		var t = find_in_scene(scene, name)
		if t == null:
			out["missing"].append(name)
		else:
			targets.append(t)
			out["found"].append(name)
	player.play(q["anim"])
	for time in times:
		player.seek(time, true)
		for t in targets:
			var g = global_of(t)
			var b = g.basis
			for v in [g.origin, b.x, b.y, b.z]:
				poses.store_float(v.x)
				poses.store_float(v.y)
				poses.store_float(v.z)
	root.remove_child(scene)
	scene.free()
	return out


func seek_times(anim, planned, stride):
	for t in range(anim.get_track_count()):
		if anim.track_get_type(t) != Animation.TYPE_TRANSFORM:
			continue
		var n = anim.track_get_key_count(t)
		if n < (planned.size() - 1) * stride:
			break
		var out = []
		for k in range(planned.size()):
			var i = k * stride
			if k == planned.size() - 1:
				i = n - 1
			out.append(anim.track_get_key_time(t, min(i, n - 1)))
		return out
	return planned


func find_player(node):
	if node is AnimationPlayer:
		return node
	for c in node.get_children():
		var p = find_player(c)
		if p != null:
			return p
	return null


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


# find_target is a bone [skeleton, index] or a Spatial named name. Godot
# 3.2 renames bones (Skl_Root becomes skl_root, SpineA spine_a: lower case,
# '_' before inner capitals; Step003 step3: a run of zeros before a digit
# dropped), so a bone matches when the names agree without case,
# underscores and those zeros.
func find_target(node, name):
	if node is Skeleton:
		var i = node.find_bone(name)
		if i < 0:
			var want = loose(name)
			for b in range(node.get_bone_count()):
				if loose(node.get_bone_name(b)) == want:
					i = b
					break
		if i >= 0:
			return [node, i]
	if node is Spatial and node.name == name and not (node is Skeleton):
		return node
	for c in node.get_children():
		var t = find_target(c, name)
		if t != null:
			return t
	return null


var padding = RegEx.new()


func loose(name):
	if not padding.is_valid():
		padding.compile("0+(\\d+)")
	return padding.sub(name.to_lower().replace("_", ""), "$1", true)


func global_of(target):
	if target is Array:
		var skel = target[0]
		return skel.global_transform * skel.get_bone_global_pose(target[1])
	return target.global_transform

