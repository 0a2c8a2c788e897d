"""Godot 4 client check: bake's glTF, imported by Godot 4 (4.6 from Debian
sid) with bake's `.import` sidecar (`bake --godot 4`), must play what bake's
JSON export says.

    python3 godot4_check.py plan PROJECT [--test-scenes DIR] DIR_OR_FILE...   # copy triples in, write plan.json
    python3 godot4_check.py imported PROJECT              # did Godot import them all?
    python3 godot4_check.py compare PROJECT [--world BAKE SOURCE]
    python3 godot4_check.py selftest                      # the name and key rules, hand-worked

`plan` copies every glTF output that has a JSON sibling and a `.import`
sidecar into the Godot project PROJECT, one folder per triple, and writes
PROJECT/plan.json. Pairs under --test-scenes DIR without a sidecar (the
exporter's asset scene, written by a Go test, which animates every pointer
kind) get one written like bake's (test_sidecar). godot4_check.gd (run by godot4_check.sh after Godot has
imported the project) writes PROJECT/actual.json and poses.bin; `compare`
checks them:

- every file (with or without animation) imports and shows what bake's
  JSON lists: a Skeleton3D for a skin, a MeshInstance3D per mesh node,
  albedo textures, and, in a file without animation, every node by name
  (godot_check.check_assets, check_still_nodes);
- clip names: bake's, as Godot 4 renames them (the first of the hints
  loop_mode, loop, cycle ending the name after '-' or '_' is removed; see
  docs/names.md rule 6), all present;
- loop modes: 1 (linear) exactly for bake's repeat and ping-pong clips;
- keys: every animated node has its transform tracks, with one key per
  step of the sidecar's animation/fps and one at the clip's end;
- poses: at each of Godot's own key times, the global transform of every
  node (a Node3D, or a Skeleton3D bone: skeleton global × bone global pose)
  equals what bake's JSON gives there (glTF interpolation, composed from the
  root in float64): translation and scale within 1e-5, relative above
  magnitude 1, rotation as a quaternion within 1e-5 per component;
- pointer tracks: every KHR_animation_pointer channel of a kind Godot 4.6
  imports (material colour and alpha, base-colour UV offset and scale, node
  visibility, light colour and energy, camera FOV) arrives as a value track
  whose values at bake's sample times equal the JSON channel's (colour
  channels raw, FOV in degrees), within 1e-5 relative. Kinds Godot does not
  import (UV rotation, other texture slots), and targets it has no property
  for (a bone's visibility, a material no mesh draws), are counted, not
  failed. A jump
  written as two keys closer than Godot's key tolerance (1e-5 s, relative
  above 1 s) loses its earlier key in Godot (Animation._insert replaces a
  key at an approximately equal time); such channels are compared with the
  earlier key removed and counted apart (docs/clients.md).

With --world BAKE SOURCE, each clip's bone and node origins at Godot's key
times are also compared with `BAKE eval --world --axes gltf SOURCE` at the
source frames those times fall on (the clip's rate equals the file's), and
the largest distance is printed; over 1e-4 m fails.

Needs numpy (Debian: python3-numpy). Exit status 1 on any failure.
"""

import json
import math
import os
import struct
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from godot_check import (  # noqa: E402  the Godot 3 check's JSON-side helpers
    check_assets, check_still_nodes, copy_in, expected_worlds, f32, find_triples, godot_rows, imported, loaded_files,
    material_drawn, pose_deviation, read_run, sample_times, sidecar_fps)

TOLERANCE = 1e-5
WORLD_TOLERANCE = 1e-4  # metres, against bake eval --world
HINTS = ("loop_mode", "loop", "cycle")
# Animation.TYPE_POSITION_3D, TYPE_ROTATION_3D, TYPE_SCALE_3D
TRS_TYPES = {1: "translation", 2: "rotation", 3: "scale"}
VALUE_TYPE = 0


def godot_name(name):
    """The name Godot 4 gives a clip (docs/names.md rule 6): trailing
    digits, spaces and '_' set aside, the first hint found after '$' or
    ending the name after '-'/'_' (any case) removed, the tail put back."""
    for hint in HINTS:
        what = name.rstrip("0123456789_ \t\n\r")
        end = name[len(what):]
        low = what.lower()
        if "$" + hint in low:
            return what.replace("$" + hint, "") + end
        if low.endswith("-" + hint) or low.endswith("_" + hint):
            return what[:len(what) - len(hint) - 1] + end
    return name


def glb_json(path):
    """The glTF JSON of a .glb or .gltf."""
    with open(path, "rb") as fh:
        data = fh.read()
    if data[:4] == b"glTF":
        n = struct.unpack("<I", data[12:16])[0]
        return json.loads(data[20:20 + n])
    return json.loads(data)


def test_sidecar(doc):
    """A Godot 4 sidecar for a glTF + JSON pair bake's command did not
    write (the exporter's asset scene, made by a Go test): the clips' rate
    (the highest), the optimiser and compression off, immutable tracks kept,
    and each clip's loop mode under its Godot name, as `bake --godot 4`
    writes them (docs/clients.md)."""
    rate = max([a["fps"] for a in doc["animations"]] or [30.0])
    loops = ",\n".join('"%s": {\n"settings/loop_mode": %d\n}' % (godot_name(a["name"]), 0 if a["loop"] == "once" else 1)
                       for a in doc["animations"])
    return ('[remap]\n\nimporter="scene"\nimporter_version=1\ntype="PackedScene"\n\n[params]\n\n'
            "meshes/force_disable_compression=true\nanimation/import=true\nanimation/fps=%r\n"
            "animation/trimming=false\nanimation/remove_immutable_tracks=false\nanimation/import_rest_as_RESET=false\n"
            '_subresources={\n"animations": {\n%s\n},\n"nodes": {\n"PATH:AnimationPlayer": {\n'
            '"compression/enabled": false,\n"optimizer/enabled": false\n}\n}\n}\n') % (float(rate), loops)


def plan(project, roots, make_sidecars=()):
    """Copies the triples into project and writes the plan; a pair under
    one of make_sidecars that has no sidecar gets test_sidecar's."""
    triples, missing = find_triples(roots)
    made = []
    for root in make_sidecars:
        found, lone = find_triples([root])
        triples += found
        made += [(g, os.path.splitext(g)[0] + ".json", None) for g in lone]
    skipped = ["%s: no .import sidecar (bake with --godot 4)" % m for m in missing]
    files = []
    for gltf, js, sidecar in triples + made:
        with open(js) as fh:
            doc = json.load(fh)
        i = len(files)
        folder = copy_in(project, i, gltf, [p for p in (gltf, js, sidecar) if p])
        if not sidecar:
            sidecar = os.path.join(folder, os.path.basename(gltf) + ".import")
            with open(sidecar, "w") as fh:
                fh.write(test_sidecar(doc))
        files.append({
            "scene": "res://f%03d/%s" % (i, os.path.basename(gltf)),
            "source": gltf,
            "json": js,
            "fps": sidecar_fps(sidecar, default=30.0),  # Godot 4's default
            "nodes": [n["name"] for n in doc["nodes"]],
            "queries": [{"anim": godot_name(a["name"]), "times": sample_times(a)} for a in doc["animations"]],
        })
    with open(os.path.join(project, "plan.json"), "w") as fh:
        json.dump({"files": files}, fh)
    return files, skipped


# --- pointer channels ---------------------------------------------------------

def channel_at(channel, t):
    """A JSON channel's values at times t (glTF LINEAR or STEP, ends held)."""
    times = np.array(f32(channel["times"]), dtype=float)
    values = np.array([f32(r) for r in channel["values"]], dtype=float)
    t = np.asarray(t, dtype=float)
    last = len(times) - 1
    lo = np.clip(np.searchsorted(times, t, side="right") - 1, 0, last)
    out = values[lo].copy()
    if channel["interpolation"] == "STEP":
        return out
    inside = (t > times[0]) & (t < times[last]) & (times[lo] != t)
    lo = lo[inside]
    hi = np.minimum(lo + 1, last)
    u = (t[inside] - times[lo]) / (times[hi] - times[lo])
    out[inside] = values[lo] + (values[hi] - values[lo]) * u[:, None]
    return out


def merged_keys(channel):
    """The channel as Godot 4 stores it: a key at a time within Godot's
    tolerance of the next key's (max(1e-5, 1e-5 × t) s, Math::is_equal_approx)
    is replaced by that next key. None when no keys merge."""
    times, values = channel["times"], channel["values"]
    keep = [k for k in range(len(times))
            if k + 1 >= len(times) or abs(times[k + 1] - times[k]) >= max(1e-5, 1e-5 * abs(times[k]))]
    if len(keep) == len(times):
        return None
    return dict(channel, times=[times[k] for k in keep], values=[values[k] for k in keep])


# Pointer kinds, from the glTF pointer string; the Godot property each
# becomes (Godot 4.6: measured) and how bake's values map to it.
def pointer_kind(ptr):
    parts = ptr.strip("/").split("/")
    if parts[0] == "nodes" and parts[-1] == "visible":
        return "visibility"
    if parts[0] == "cameras" and parts[-1] == "yfov":
        return "camera fov"
    if parts[0] == "extensions" and parts[-1] in ("color", "intensity"):
        return "light " + parts[-1]
    if parts[0] == "materials":
        if parts[-1] == "baseColorFactor":
            return "material colour/alpha"
        slot = parts[2] if parts[2] != "pbrMetallicRoughness" else parts[3]
        return "uv %s (%s)" % (parts[-1], slot)
    return "other"


IMPORTED_KINDS = {"visibility", "camera fov", "light color", "light intensity", "material colour/alpha",
                  "uv offset (baseColorTexture)", "uv scale (baseColorTexture)"}


def pointer_targets(gltf, doc, anim_index):
    """(kind, target) of every pointer channel of a clip: the target is the
    node name (visibility, camera, light) or the material name."""
    g = gltf["animations"][anim_index] if anim_index < len(gltf.get("animations", [])) else {"channels": []}
    out = []
    for ch in g["channels"]:
        ptr = ch["target"].get("extensions", {}).get("KHR_animation_pointer", {}).get("pointer")
        if not ptr:
            continue
        kind = pointer_kind(ptr)
        parts = ptr.strip("/").split("/")
        index = int(parts[1]) if parts[0] in ("nodes", "materials", "cameras") else int(parts[3])
        if parts[0] == "nodes":
            target = gltf["nodes"][index]["name"]
        elif parts[0] == "materials":
            target = gltf["materials"][index].get("name", "")
        elif parts[0] == "cameras":
            target = next((n["name"] for n in gltf["nodes"] if n.get("camera") == index), "")
        else:
            target = next((n["name"] for n in gltf["nodes"]
                           if n.get("extensions", {}).get("KHR_lights_punctual", {}).get("light") == index), "")
        out.append((kind, target))
    return out


def expected_track(doc, anim, path):
    """(kind, target, JSON channel, mapping of its rows to Godot's numbers)
    for a Godot value track path, or None."""
    node_part, _, prop = path.partition(":")
    node = node_part.split("/")[-1]
    channels = anim["channels"]

    def find(**want):
        for c in channels:
            if all(c.get(k) == v for k, v in want.items()):
                return c
        return None

    if prop == "visible":
        c = find(node=node, path="visibility")
        return c and ("visibility", node, dict(c, interpolation="STEP"), lambda r: [1.0 if r[0] != 0 else 0.0])
    if prop == "fov":
        c = find(node=node, path="fov")
        return c and ("camera fov", node, c, lambda r: [math.degrees(r[0])])
    if prop == "light_color":
        c = find(node=node, path="color")
        return c and ("light color", node, c, lambda r: list(r[:3]) + [1.0])
    if prop == "light_energy":
        c = find(node=node, path="intensity")
        return c and ("light intensity", node, c, lambda r: list(r))
    if prop.startswith("mesh:surface_") and "/material:" in prop:
        surface, _, mprop = prop[len("mesh:surface_"):].partition("/material:")
        n = next((x for x in doc["nodes"] if x["name"] == node), None)
        meshes = {m["name"]: m for m in doc.get("assets", {}).get("meshes", [])}
        prims = meshes.get(n and n.get("mesh"), {}).get("primitives", [])
        if not surface.isdigit() or int(surface) >= len(prims):
            return None
        material = prims[int(surface)].get("material")
        mats = {m["name"]: m for m in doc.get("assets", {}).get("materials", [])}
        if mprop == "albedo_color":
            c = find(material=material, path="alpha")
            base = (mats.get(material) or {}).get("baseColor", [1, 1, 1, 1])
            return c and ("material colour/alpha", material, c, lambda r: list(base[:3]) + [r[0]])
        for godot_prop, bake_path, kind in (("uv1_offset", "uvOffset", "uv offset (baseColorTexture)"),
                                            ("uv1_scale", "uvScale", "uv scale (baseColorTexture)")):
            if mprop == godot_prop:
                c = next((x for x in channels if x.get("material") == material and x["path"] == bake_path
                          and x.get("textureSlot") in (None, "", "baseColor")), None)
                return c and (kind, material, c, lambda r: list(r[:2]))
    return None


def compare_values(got, channel, mapping, times):
    """Deviation (in tolerances) of Godot's values from bake's channel at
    bake's sample times; only the components bake gives are compared."""
    want = np.array([mapping(r) for r in channel_at(channel, times)], dtype=float)
    gotv = np.array([g[:want.shape[1]] for g in got], dtype=float)
    if gotv.shape != want.shape:
        return math.inf
    return float(np.max(np.abs(gotv - want) / (TOLERANCE * np.maximum(1.0, np.abs(want))), initial=0.0))


# --- comparing ----------------------------------------------------------------

def world_reference(bake, source, clip, frames):
    """Node origins (name → frames × 3) from `bake eval --world` at frames."""
    out = subprocess.run([bake, "eval", "--json", "--world", "--axes", "gltf", source, "--anim", clip,
                          "--frames", ",".join("%d" % f for f in frames)],
                         check=True, capture_output=True, text=True).stdout
    world = json.loads(out)["world"]
    return {name: np.array(ms, dtype=float)[:, 12:15] for name, ms in world.items()}


def compare(project, world=None):
    planned, actual, poses = read_run(project)
    at = 0
    failures, notes = [], []
    count = {"unresolved": 0, "root visibility": 0, "files": 0, "meshes": 0, "textured": 0, "clips": 0, "tracks": 0, "poses": 0, "pointers": 0, "values": 0, "merged": 0, "not imported": 0,
             "still files": 0, "still nodes": 0}
    kinds = {}
    worst, worst_value, worst_world = 0.0, 0.0, None
    camera_scale = [0.0]

    def fail(where, what):
        failures.append("%s: %s" % (where, what))

    for item, got, doc in loaded_files(planned, actual, fail):
        src = item["source"]
        gltf = glb_json(os.path.join(project, item["scene"][len("res://"):]))
        check_assets(doc, got, src, fail, count)
        check_still_nodes(doc, got, src, fail, count)
        count["files"] += 1
        by_name = {a["name"]: a for a in got.get("animations", [])}
        want_names = sorted(q["anim"] for q in item["queries"])
        if sorted(by_name) != want_names:
            fail(src, "animations %s, want %s" % (sorted(set(by_name) - set(want_names)), sorted(set(want_names) - set(by_name))))
        for ai, (anim, q, pq) in enumerate(zip(doc["animations"], got["queries"], item["queries"])):
            name = pq["anim"]
            where = "%s %s" % (src, name)
            g = by_name.get(name)
            block = found = None
            if "error" not in q:
                n = q["times"]
                times = poses[at:at + n]
                at += n
                found = q["found"]
                block = poses[at:at + n * len(found) * 12].reshape(n, len(found), 12)
                at += n * len(found) * 12
            if g is None:
                continue
            count["clips"] += 1
            want_loop = 0 if anim["loop"] == "once" else 1
            if g["loop"] != want_loop:
                fail(where, "loop mode %s, want %s (bake: %s)" % (g["loop"], want_loop, anim["loop"]))
            if block is None:
                fail(where, "poses not read: %s" % q.get("error"))
                continue
            # Keys: Godot's grid at the sidecar's rate, plus the clip's end.
            worlds, channels = expected_worlds(doc, anim, times.tolist())
            step = 1.0 / item["fps"]
            grid = int(math.floor(anim["duration"] / step + 1e-4)) + 1
            if abs((grid - 1) * step - anim["duration"]) > 1e-4 * step:
                grid += 1
            tracks = {}
            for t in g["tracks"]:
                if t["type"] in TRS_TYPES:
                    node = t["path"].split(":")[-1].split("/")[-1]
                    tracks[(node, TRS_TYPES[t["type"]])] = t
            for node, path in sorted(channels):
                t = tracks.get((node, path))
                if t is None:
                    fail(where, "no %s track for animated node %s" % (path, node))
                    continue
                count["tracks"] += 1
                if anim["duration"] > 0 and len(t["times"]) != grid:
                    fail(where, "track %s has %d keys, want %d (every 1/%g s and the end)" % (t["path"], len(t["times"]), grid, item["fps"]))
            for node in q.get("missing", []):
                fail(where, "node %s not found in the imported scene" % node)
            cameras = {n["name"] for n in doc["nodes"] if n.get("camera")}
            for j, node in enumerate(found):
                got_rows, want_rows = block[:, j, :], godot_rows(worlds[node])
                if node in cameras:
                    # Godot 4's Camera3D keeps no scale (measured: MenuLevel's
                    # camera, scale 0.998, comes back 1): compare its place
                    # and rotation, and count what the scale was.
                    camera_scale[0] = max(camera_scale[0], float(np.max(np.abs(
                        np.linalg.norm(want_rows[:, 3:].reshape(-1, 3, 3), axis=2) - 1))))
                    got_rows, want_rows = unscaled(got_rows), unscaled(want_rows)
                dev = pose_deviation(got_rows, want_rows)
                count["poses"] += len(dev)
                worst = max(worst, float(np.max(dev)))
                bad = int(np.sum(dev > 1))
                if bad:
                    k = int(np.argmax(dev))
                    fail(where, "node %s: %d of %d key times off; worst at t=%.6g: %.2f tolerances\n    got  %s\n    want %s" % (
                        node, bad, len(dev), times[k], dev[k], ["%.6g" % v for v in got_rows[k]], ["%.6g" % v for v in want_rows[k]]))
            if world:
                worst_world = max(worst_world or 0.0, world_check(world, anim, item["fps"], times, found, block, where, fail))
            # Pointer tracks: Godot's value tracks against bake's channels.
            arrived, dead = set(), set()
            for v in q["values"]:
                if not v.get("resolved", True):
                    # Godot 4.6 writes a pointer track's path from the glTF
                    # hierarchy; a mesh node it moved below a Skeleton3D is
                    # not found there, so the track plays nothing.
                    count["unresolved"] += 1
                    notes.append("%s: value track %s does not resolve in the scene Godot built: it plays nothing" % (where, v["path"]))
                    exp = expected_track(doc, anim, v["path"])
                    if exp:
                        dead.add(exp[:2])
                    continue
                exp = expected_track(doc, anim, v["path"])
                if exp is None and v["path"] == ":visible" and joint_visibility(doc, anim):
                    # Godot 4.6 bug: a skin joint's visibility pointer (a
                    # bone, no node) becomes a track on the scene's root.
                    count["root visibility"] += 1
                    notes.append("%s: Godot animates the scene root's visibility for joint visibility (%s)" % (
                        where, ", ".join(joint_visibility(doc, anim))))
                    continue
                if exp is None:
                    fail(where, "value track %s matches no bake channel" % v["path"])
                    continue
                kind, target, channel, mapping = exp
                arrived.add((kind, target))
                count["values"] += len(v["values"])
                dev = compare_values(v["values"], channel, mapping, pq["times"])
                if dev > 1:
                    merged = merged_keys(channel)
                    if merged is not None and compare_values(v["values"], merged, mapping, pq["times"]) <= 1:
                        count["merged"] += 1
                        notes.append("%s: %s: a jump of %s keys closer than Godot's key tolerance; Godot keeps the later key" % (where, v["path"], kind))
                        continue
                    fail(where, "value track %s: %.3g tolerances from bake's %s" % (v["path"], dev, kind))
                worst_value = max(worst_value, dev)
            for kind, target in pointer_targets(gltf, doc, ai):
                k = kinds.setdefault(kind, [0, 0, 0])
                k[0] += 1
                count["pointers"] += 1
                if (kind, target) in arrived:
                    k[1] += 1
                    k[2] += 1
                elif (kind, target) in dead:
                    k[1] += 1
                elif kind in IMPORTED_KINDS and not unplayable(doc, kind, target):
                    fail(where, "pointer %s of %s arrived as no Godot track" % (kind, target))
                else:
                    count["not imported"] += 1
    for line in notes:
        print("(%s)" % line)
    for line in failures:
        print(line)
    print("Godot 4 pointers by kind (in glTF / value tracks in Godot / tracks that play): " +
          (", ".join("%s %d/%d/%d" % (k, v[0], v[1], v[2]) for k, v in sorted(kinds.items())) or "none"))
    if world:
        print("Godot 4 vs bake eval --world: worst node origin %.3g m (limit %g m)" % (worst_world or 0.0, WORLD_TOLERANCE))
    print("Godot 4 assets: %d mesh nodes, %d textured materials; %d files without animation, their %d nodes looked up by name; "
          "camera nodes compared without scale (Godot's Camera3D keeps none; bake's camera scales differ from 1 by up to %.3g)" % (
              count["meshes"], count["textured"], count["still files"], count["still nodes"], camera_scale[0]))
    print("Godot 4 check: %d files (%d imported), %d clips, %d transform tracks, %d pose comparisons (worst %.3g tolerances), "
          "%d pointer channels (%d not imported by Godot), %d value comparisons (worst %.3g tolerances; %d jumps Godot merges; "
          "%d joint-visibility tracks Godot puts on the scene root; %d tracks whose path does not resolve), %d failures" % (
              len(planned), count["files"], count["clips"], count["tracks"], count["poses"], worst, count["pointers"],
              count["not imported"], count["values"], worst_value, count["merged"], count["root visibility"],
              count["unresolved"], len(failures)))
    return 1 if failures or not planned else 0


def unscaled(rows):
    """Godot's 12 numbers with the basis columns made unit length."""
    out = rows.copy()
    for c in range(3, 12, 3):
        n = np.linalg.norm(out[:, c:c + 3], axis=1, keepdims=True)
        out[:, c:c + 3] /= np.where(n > 0, n, 1)
    return out


def joint_visibility(doc, anim):
    """The skin joints whose visibility the clip animates."""
    joints = {j for sk in doc.get("assets", {}).get("skins", []) for j in sk.get("joints", [])}
    return sorted(c["node"] for c in anim["channels"] if c["path"] == "visibility" and c.get("node") in joints)


def unplayable(doc, kind, target):
    """Whether Godot 4 has nothing to animate for a pointer of an imported
    kind: a material no mesh draws (Godot animates materials through mesh
    surfaces), or the visibility of a skin joint (it becomes a Skeleton3D
    bone, which has no visibility; Godot 4.6 prints "Index parent_index = -1
    is out of bounds" and drops the track)."""
    if kind == "material colour/alpha":
        return not material_drawn(doc, target)
    if kind == "visibility":
        return any(target in s.get("joints", []) for s in doc.get("assets", {}).get("skins", []))
    return False


def world_check(world, anim, fps, times, found, block, where, fail):
    """Largest distance between Godot's node origins at its key times and
    bake eval --world at the source frames they fall on."""
    bake, source = world
    src_fps = anim.get("sourceFps") or anim["fps"]
    frames = np.round(times * src_fps).astype(int)
    if np.max(np.abs(frames / src_fps - times)) > 1e-4 / src_fps:
        fail(where, "Godot's key times are not on source frames (file rate %g, source %g fps)" % (fps, src_fps))
        return 0.0
    # A repeating clip's last sample is its first frame again (bake closes
    # the loop, docs/json.md), and a ping-pong clip is baked out and back:
    # compare with the source frame the engine plays there.
    period = anim.get("sourceFrames") or 0
    if anim["loop"] == "repeat" and period > 0:
        frames = frames % period
    elif anim["loop"] == "pingpong" and period > 0:
        frames = frames % (2 * period)
        frames = np.where(frames > period, 2 * period - frames, frames)
    clip = (anim.get("extras") or {}).get("sourceName", anim["name"])
    ref = world_reference(bake, source, clip, frames.tolist())
    worst = 0.0
    for j, node in enumerate(found):
        want = ref.get(node)
        if want is None:
            continue
        d = float(np.max(np.linalg.norm(block[:, j, :3] - want, axis=1)))
        worst = max(worst, d)
    if worst > WORLD_TOLERANCE:
        fail(where, "node origins %.3g m from bake eval --world (limit %g m)" % (worst, WORLD_TOLERANCE))
    return worst


# Names Godot 4.6.3 gave clips of a glTF holding the left-hand names
# (imported headless, listed from the AnimationPlayer; docs/names.md rule 6),
# and a channel whose jump Godot merges: `selftest` checks the rules above
# against them.
MEASURED_NAMES = {"A_Loop": "A", "B-loop": "B", "C_loop_2": "C_2", "D_Cycle_loop": "D_Cycle", "E-loop_mode": "E",
                  "loopF": "loopF", "G_cycle": "G", "H_Loop-loop": "H_Loop", "J_loop_cycle": "J_loop",
                  "Lloop": "Lloop", "M_LOOP": "M", "x_cycle_loop-cycle-loop": "x_cycle_loop-cycle"}


def selftest():
    bad = ["godot_name(%r) = %r, Godot 4.6.3 gave %r" % (k, godot_name(k), v)
           for k, v in MEASURED_NAMES.items() if godot_name(k) != v]
    # Demo.glb's Scroll: keys at 0, 1.9999999 and 2 s; Godot 4.6.3 kept 0 and 2.
    jump = {"times": [0, 1.9999999, 2], "values": [[0, 0], [1, 0], [0, 0]], "interpolation": "LINEAR"}
    merged = merged_keys(jump)
    if merged is None or merged["times"] != [0, 2] or merged["values"] != [[0, 0], [0, 0]]:
        bad.append("merged_keys(Scroll) = %r" % merged)
    if merged_keys(dict(jump, times=[0, 1.99, 2])) is not None:
        bad.append("keys 0.01 s apart merged")
    mid = channel_at(jump, [1.0, 2.0])
    if not np.allclose(mid, [[1 / float(np.float32(1.9999999)), 0], [0, 0]], rtol=1e-12):
        bad.append("channel_at(Scroll, [1, 2]) = %r" % mid.tolist())
    for line in bad:
        print(line)
    print("Godot 4 check self-test: %d names, %d failures" % (len(MEASURED_NAMES), len(bad)))
    return 1 if bad else 0


def main(argv):
    if len(argv) == 2 and argv[1] == "selftest":
        return selftest()
    if len(argv) >= 3 and argv[1] == "plan":
        roots = argv[3:]
        made = [roots[i + 1] for i in range(len(roots) - 1) if roots[i] == "--test-scenes"]
        roots = [r for i, r in enumerate(roots) if r != "--test-scenes" and (i == 0 or roots[i - 1] != "--test-scenes")]
        files, skipped = plan(argv[2], roots, made)
        for m in skipped:
            print("(not checked: %s)" % m)
        if not files:
            print("Godot 4 check: no glTF + JSON + .import triple found", file=sys.stderr)
            return 1
        return 0
    if len(argv) == 3 and argv[1] == "imported":
        return imported(argv[2])
    if len(argv) in (3, 6) and argv[1] == "compare":
        world = (argv[4], argv[5]) if len(argv) == 6 and argv[3] == "--world" else None
        return compare(argv[2], world)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
