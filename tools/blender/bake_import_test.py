"""Tests the bake_import add-on in Blender, headless:

    blender -b --factory-startup --python-exit-code 1 \\
        -P tools/blender/bake_import_test.py -- DIR_OR_FILE...

For every bake glTF with a JSON sibling (bake -f glb,json) it imports the
file into an empty scene with bake_import.import_bake and checks, against
bake's JSON export and the glTF's own animation list (not the extras the
add-on reads):

- the scene rate render.fps / render.fps_base is the clips' rate (one rate
  per file; a file whose clips differ gets the common multiple bake
  documents, or their highest rate), within 1e-6 relative; Animal_Bass's
  is 30 and MenuLevel's Record Anim clip's (bake --split) 75.026...;
- every clip has an NLA track and strip of its name, and every action of
  it a frame range 0 to duration × rate;
- every key of the clip's actions lies on one of the clip's key frames
  (key time × rate) within 1e-3 of a frame, which holds only if the rate
  was applied exactly;
- repeating and ping-pong clips have a Cycles modifier on every F-curve,
  others none;
- every event is a timeline marker "clip/event" at round(time × rate).

Prints one line per failure and a summary; exits 1 on any failure.
"""

import bisect
import math
import os
import sys

import bpy

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "clients"))
os.environ["BAKE_IMPORT_REGISTER"] = "0"
import bake_import  # noqa: E402
import blender_expected as ex  # noqa: E402  (numpy: Blender's glTF importer needs it too)
import blender_pointers  # noqa: E402
import blender_world as bw  # noqa: E402

# World poses at whole frames (show_clip, then scene.frame_set) within this
# of the JSON's (issue 20's acceptance on Gerudo); at most WORLD_FRAMES
# frames of a clip, spread over it.
WORLD_TOLERANCE = 1e-4
WORLD_FRAMES = 400


def pairs(roots):
    out = []
    for root in roots:
        if os.path.isfile(root):
            files = [root]
            folder = os.path.dirname(root)
            present = {os.path.join(folder, f) for f in os.listdir(folder or ".")}
        else:
            files = sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs)
            present = set(files)
        for f in files:
            stem, ext = os.path.splitext(f)
            if ext.lower() in (".glb", ".gltf") and stem + ".json" in present:
                out.append((f, stem + ".json"))
    return out


def expected_rate(anims):
    """The rate bake documents for a file (sample.CommonRate), from the JSON."""
    rates = sorted({a["fps"] for a in anims if len(sample_times(a)) > 1})
    if not rates:
        return 30.0
    if len(rates) == 1:
        return float(rates[0])
    if all(abs(r - round(r)) < 1e-9 for r in rates):
        lcm = 1
        for r in rates:
            lcm = lcm * int(round(r)) // math.gcd(lcm, int(round(r)))
        if lcm <= 300:
            return float(lcm)
    return float(rates[-1])


def sample_times(anim):
    """Every key time of the clip's channels (bake keeps, per channel, the
    keys its --tolerance needs, all on the --fps grid)."""
    times = sorted({t for c in anim["channels"] for t in c.get("times") or []})
    return times or ([0.0, anim["duration"]] if anim["duration"] > 0 else [0.0])


def nearest(sorted_frames, x):
    """Distance from x to the nearest of sorted_frames."""
    i = bisect.bisect_left(sorted_frames, x)
    return min(abs(x - sorted_frames[j]) for j in (i - 1, i) if 0 <= j < len(sorted_frames))


def check(gltf, js, failures, stats):
    import json
    with open(js) as fh:
        doc = json.load(fh)
    names = [a.get("name", "") for a in bake_import.read_gltf_json(gltf).get("animations", [])]
    bpy.ops.wm.read_factory_settings(use_empty=True)
    info = bake_import.import_bake(gltf)
    scene = bpy.context.scene
    where = os.path.basename(gltf)

    def fail(what):
        failures.append("%s: %s" % (where, what))

    if not doc["animations"]:
        return 0
    rate = scene.render.fps / scene.render.fps_base
    want = expected_rate(doc["animations"])
    if abs(rate - want) > 1e-6 * want:
        fail("scene rate %.9g fps, want %.9g" % (rate, want))
    if where.startswith("Animal_Bass_Animation.") and abs(rate - 30) > 1e-9:
        fail("Animal_Bass scene rate %.9g, want 30" % rate)
    if "Record" in where and where.startswith("MenuLevel") and not (75.02 < rate < 75.03):
        fail("MenuLevel Record Anim scene rate %.9g, want 75.026..." % rate)
    markers = {(m.name, m.frame) for m in scene.timeline_markers}
    want_markers = 0
    for anim, name in zip(doc["animations"], names):
        tracks = [(obj, t) for obj, t in bake_import.clip_tracks(name)]
        if not tracks:
            fail("clip %s: no NLA track" % name)
            continue
        end = anim["duration"] * want
        frames = sorted(t * want for t in sample_times(anim))
        cyclic = anim["loop"] != "once"
        for obj, track in tracks:
            if len(track.strips) != 1 or track.strips[0].name != name:
                fail("clip %s on %s: strips %s" % (name, obj.name, [s.name for s in track.strips]))
                continue
            action = track.strips[0].action
            if end > 0 and (not action.use_frame_range or abs(action.frame_start) > 1e-4 or abs(action.frame_end - end) > 1e-3):
                fail("clip %s action %s: frame range %s-%s, want 0-%.6g" % (
                    name, action.name, action.frame_start, action.frame_end, end))
            for fc in bake_import.strip_fcurves(track.strips[0]):
                has_cycles = any(m.type == "CYCLES" for m in fc.modifiers)
                if has_cycles != cyclic:
                    fail("clip %s (%s) %s[%d]: Cycles modifier %s" % (name, anim["loop"], fc.data_path, fc.array_index, has_cycles))
                    break
                # Every key must sit on one of the clip's key frames.
                off = max((nearest(frames, kp.co.x) for kp in fc.keyframe_points), default=0.0)
                if off > 1e-3:
                    fail("clip %s %s: a key %.3g frames off the clip's key frames (time x rate)" % (name, fc.data_path, off))
                    break
        for e in anim.get("events") or []:
            want_markers += 1
            m = ("%s/%s" % (name, e["name"]), int(round(e["time"] * want)))
            if m not in markers:
                fail("no marker %s at frame %d" % m)
    if len(scene.timeline_markers) != want_markers:
        fail("%d markers, want %d (one per event)" % (len(scene.timeline_markers), want_markers))
    if info["active"] and scene.frame_end < 0:
        fail("scene range not set")
    pointers = blender_pointers.PointerCheck(ex.to_float32(doc), want, stats["merges"]).run()
    for f in pointers.failures:
        fail(f)
    for k in ("channels", "comparisons", "not_imported"):
        stats["pointer_" + k] += pointers.counts[k]
    if pointers.counts["channels"]:
        stats["pointer_files"].append("%s: %d pointer channels (%s), %d not imported" % (
            where, pointers.counts["channels"], ", ".join(sorted(pointers.counts["kinds"])),
            pointers.counts["not_imported"]))
    world_poses(ex.to_float32(doc), names, want, where, stats)
    return len(doc["animations"])


def blender_nodes(doc):
    """Each JSON node's Blender counterpart: (armature, pose bone name) for a
    bone, (object, None) for an object; None when there is none (a skinned
    mesh's node, whose transform glTF ignores, is left out)."""
    out = []
    for n in doc["nodes"]:
        found = None
        if not n.get("skin"):
            for obj in bpy.context.scene.objects:
                if obj.type == "ARMATURE" and n["name"] in obj.pose.bones:
                    found = (obj, n["name"])
                    break
            if found is None and n["name"] in bpy.context.scene.objects:
                found = (bpy.context.scene.objects[n["name"]], None)
        out.append(found)
    return out


def world_poses(doc, names, rate, where, stats):
    """Every clip shown with show_clip, at whole frames: each node's world
    position in Blender against the JSON's (its local transforms composed,
    glTF's interpolation between keys, as blender_world.expected_worlds),
    keyed by the clip or not (then at rest). Records the worst."""
    targets = blender_nodes(doc)
    scene = bpy.context.scene
    for anim, name in zip(doc["animations"], names):
        by_node = ex.trs_channels(doc, anim)[0]
        if stats["merges"]:
            by_node = {k: ex.merge_close_keys(c, rate)[0] for k, c in by_node.items()}
        keyed = {node for node, _ in by_node}
        last = int(math.floor(anim["duration"] * rate + 1e-6))
        frames = sorted({int(round(x)) for x in ex.np.linspace(0, last, min(last + 1, WORLD_FRAMES))})
        t = ex.np.array(frames, dtype=float) / rate
        want = bw.expected_worlds(doc, by_node, t, rate)[:, :, :3, 3]
        # Blender holds frame numbers and key positions as float32: late in a
        # long clip (MenuLevel's Record Anim: frame 4244 at 75 fps) it cannot
        # address a time finer than one float32 step of the frame number, so
        # the JSON's pose is also taken that step either side and the nearest
        # of the three counts.
        step = ex.np.spacing(ex.np.array(frames, dtype=ex.np.float32)).astype(float) / rate
        wants = [want] + [bw.expected_worlds(doc, by_node, t + d, rate)[:, :, :3, 3] for d in (-step, step)]
        # On a jump that Blender 3.4 keeps as two keys at one frame, each
        # F-curve shows either side (blender_world.RESOLUTION), so a node and
        # its descendants show a mix of the two poses: not compared, counted.
        # (4.3 and 5.2 merge such keys; the merged curves are expected.)
        skip = bw.unresolvable(doc, by_node, t, rate)
        bake_import.show_clip(name)
        for q, f in enumerate(frames):
            scene.frame_set(f)
            for i, target in enumerate(targets):
                if target is None:
                    continue
                if skip[i, q]:
                    stats["world_unresolvable"] += 1
                    continue
                obj, bone = target
                m = obj.matrix_world @ obj.pose.bones[bone].matrix if bone else obj.matrix_world
                got = ex.np.array(m.translation)
                err = min(float(ex.np.linalg.norm(got - w[i, q])) for w in wants)
                stats["world_comparisons"] += 1
                kind = "keyed" if doc["nodes"][i]["name"] in keyed else "unkeyed"
                if err > stats["world_worst"][kind][0]:
                    stats["world_worst"][kind] = (err, "%s clip %s node %s frame %d" % (
                        where, name, doc["nodes"][i]["name"], f))


def check_clip_values(failures):
    """The table's lookup rule on a hand-made table (docs/clients.md): a
    clip's own value, else the table's, else the default."""
    table = {"fps": 60, "loop": "repeat", "clips": {"a": {"frameEnd": 18, "loop": "once"}, "b": {"frameEnd": 12}}}
    a, b = table["clips"]["a"], table["clips"]["b"]
    got = [bake_import.clip_value(table, a, "loop", "once"), bake_import.clip_value(table, b, "loop", "once"),
           bake_import.clip_value(table, b, "fps", 30), bake_import.clip_value(table, b, "events", None),
           bake_import.clip_value(table, b, "frameEnd", 0)]
    want = ["once", "repeat", 60, None, 12]
    if got != want:
        failures.append("clip_value: %s, want %s" % (got, want))


def main():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    found = pairs(argv)
    failures, clips = [], 0
    stats = {"merges": bw.merges_keys(), "pointer_channels": 0, "pointer_comparisons": 0,
             "pointer_not_imported": 0, "pointer_files": [], "world_comparisons": 0, "world_unresolvable": 0,
             "world_worst": {"keyed": (0.0, ""), "unkeyed": (0.0, "")}}
    check_clip_values(failures)
    for gltf, js in found:
        try:
            clips += check(gltf, js, failures, stats)
        except Exception as err:  # report and go on with the other files
            failures.append("%s: %s: %s" % (gltf, type(err).__name__, err))
    worst = stats["world_worst"]
    for kind in ("keyed", "unkeyed"):
        if worst[kind][0] > WORLD_TOLERANCE:
            failures.append("world pose %.3g m off the JSON's (%s node): %s" % (worst[kind][0], kind, worst[kind][1]))
    for f in failures:
        print(f)
    for line in stats["pointer_files"]:
        print("(pointers: %s)" % line)
    print("(world poses at whole frames: %d comparisons; worst %.3g m (%s) for nodes the clip keys, "
          "%.3g m (%s) for nodes it does not; %d on jumps Blender keeps as two keys at one frame not compared)" % (
              stats["world_comparisons"], worst["keyed"][0], worst["keyed"][1],
              worst["unkeyed"][0], worst["unkeyed"][1], stats["world_unresolvable"]))
    print("bake_import add-on test: %d files, %d clips, %d pointer channels (%d comparisons, %d not imported by "
          "Blender %s or absent there), %d world comparisons, %d failures" % (
              len(found), clips, stats["pointer_channels"], stats["pointer_comparisons"],
              stats["pointer_not_imported"], bpy.app.version_string, stats["world_comparisons"], len(failures)))
    if failures or not found:
        sys.exit(1)


main()
