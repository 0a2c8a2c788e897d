"""Godot 3 client check: bake's glTF, imported by Godot 3.2 with bake's
`.import` sidecar (`bake --godot 3`), must play what bake's JSON export says.

    python3 godot_check.py plan PROJECT DIR_OR_FILE...   # copy pairs in, write plan.json
    python3 godot_check.py imported PROJECT              # did the editor import them all?
    python3 godot_check.py compare PROJECT               # read actual.json, report

`plan` copies every glTF output that has a JSON sibling and a `.import`
sidecar (and a `.gltf`'s `.bin`) into the Godot project PROJECT, one folder
per pair, and writes PROJECT/plan.json: for each scene, the animations to
play (under the names Godot gives them) at every baked sample time, and the
nodes to read. godot_check.gd (run by godot_check.sh after Godot's editor
has imported the project) writes PROJECT/actual.json; `compare` checks it:

- the animation count and names: bake's clip names, a repeating or
  ping-pong clip with its "-loop" suffix (Godot 3 loops only names ending in
  "loop"; `--godot 3` implies `--loop-suffix`);
- loop flags: true exactly for bake's repeat and ping-pong clips;
- keys: every transform track has one key per baked sample, at the baked
  sample times (Godot resamples at the sidecar's animation/fps);
- poses: at every baked sample time, the global transform of every node
  (a Spatial, or a Skeleton bone: skeleton global × bone global pose)
  equals the one bake's JSON gives (rest or channel values, composed from
  the root in float64): translation and scale within 1e-5, relative above
  magnitude 1 (Godot holds transforms in float32), and the rotation as a
  quaternion within 1e-5 per component, sign-free, as the three.js and
  Blender checks compare rotations.
- what a user sees of every file, with or without animation: a file with
  a skin has a Skeleton, every JSON node with a mesh is a MeshInstance of
  its name (as Godot 3.2 writes names: characters other than letters,
  digits, '_', '-' and space dropped), and every material a mesh draws whose
  base-colour texture bake stored has an albedo texture; in a file without
  animation, every JSON node is found in the scene by name (a Spatial, or a
  Skeleton bone matched without case and '_').

Needs numpy (Debian: python3-numpy). Exit status 1 on any failure.
"""

import json
import math
import os
import re
import shutil
import sys
from array import array

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from blender_expected import slerp_rows, values_at  # noqa: E402  glTF interpolation, in numpy
from blender_world import gltf_trs_matrices  # noqa: E402  glTF T·R·S rows to matrices, in numpy

TOLERANCE = 1e-5
TRS = ("translation", "rotation", "scale")
LOOP_SUFFIX = "-loop"


def f32(values):
    return array("f", [math.nan if v is None else v for v in values]).tolist()


def find_triples(roots):
    """(glTF, JSON, sidecar) for every glTF output with both siblings."""
    found, missing = [], []
    for root in roots:
        if os.path.isfile(root):
            files = [root]
            folder = os.path.dirname(root) or "."
            present = {os.path.join(os.path.dirname(root), f) for f in os.listdir(folder)}
        else:
            files = sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs)
            present = set(files)
        for f in files:
            stem, ext = os.path.splitext(f)
            if ext.lower() not in (".glb", ".gltf") or stem + ".json" not in present:
                continue
            if f + ".import" in present:
                found.append((f, stem + ".json", f + ".import"))
            else:
                missing.append(f)
    return found, missing


def godot_name(anim):
    """The name Godot 3 shows: bake's, with the loop suffix on repeating clips."""
    name = anim["name"]
    if anim["loop"] != "once" and not name.endswith(LOOP_SUFFIX):
        name += LOOP_SUFFIX
    return name


def sample_times(anim):
    """The clip's --fps grid in seconds, as bake samples it
    (sample.SampleFrames): k / fps up to the end, which is added as a last
    sample (or replaces a grid point within a thousandth of a step of it).
    bake's keys are a subset of it (--tolerance drops keys the curve does not
    need; --tolerance 0 keeps them all); Godot resamples on this grid."""
    fps, end = anim["fps"], anim["duration"]
    if not fps or end <= 0:
        return [0.0]
    n = int(math.floor(end * fps + 1e-6))
    times = [k / fps for k in range(n + 1)]
    last = times[-1]
    if end - last > 1e-3 / fps and array("f", [last])[0] != array("f", [end])[0]:
        times.append(end)
    else:
        times[-1] = end
    return f32(times)


def sidecar_fps(path, default=15.0):
    """The animation/fps of a Godot sidecar; default when it has none
    (Godot 3's is 15, Godot 4's 30)."""
    with open(path) as fh:
        for line in fh:
            if line.startswith("animation/fps="):
                return float(line.split("=", 1)[1])
    return default


def bake_rate(anims):
    """The rate bake's --godot 3 sidecar must hold, worked out from the JSON
    alone (docs/clients.md): the clips' one rate; else the least common
    multiple of whole rates up to 300; else the highest; Godot 3 takes it
    rounded up to a whole number."""
    rates = sorted({a["fps"] for a in anims if len(sample_times(a)) > 1})
    rate = 30.0
    if len(rates) == 1:
        rate = rates[0]
    elif rates:
        rate = rates[-1]
        if all(abs(r - round(r)) < 1e-9 for r in rates):
            lcm = 1
            for r in rates:
                lcm = lcm * int(round(r)) // math.gcd(lcm, int(round(r)))
            if lcm <= 300:
                rate = lcm
    return float(math.ceil(rate - 1e-9))


def query(anim, rate):
    """What to read of one clip: its Godot name, bake's sample times and the
    stride from one sample to the next in Godot's keys (the file's rate over
    the clip's). A clip whose rate does not divide the file's cannot keep its
    keys in Godot 3 (bake warned when it wrote the sidecar): it is skipped."""
    q = {"anim": godot_name(anim), "times": sample_times(anim)}
    stride = rate / anim["fps"] if anim["fps"] else 1.0
    if len(q["times"]) > 1 and abs(stride - round(stride)) > 1e-6:
        q["skip"] = "%.6g fps clip in a %g fps Godot file" % (anim["fps"], rate)
        q["stride"] = 0
    else:
        q["stride"] = max(1, int(round(stride)))
    return q


def copy_in(project, i, gltf, paths):
    """Copies paths (a glTF output, its JSON, its sidecar) into the project's
    folder f<i>, with a .gltf's external buffers; returns the folder."""
    folder = os.path.join(project, "f%03d" % i)
    os.makedirs(folder)
    for src in paths:
        shutil.copy(src, folder)
    if gltf.endswith(".gltf"):
        with open(gltf) as fh:
            for buf in json.load(fh).get("buffers", []):
                uri = buf.get("uri", "")
                if uri and not uri.startswith("data:"):
                    shutil.copy(os.path.join(os.path.dirname(gltf), uri), folder)
    return folder


def plan(project, roots):
    """Copies every triple into project (files without animation too: they
    must import and show their nodes, meshes and textures) and writes the
    plan; returns the planned files and the glTFs left out, with why."""
    triples, missing = find_triples(roots)
    skipped = ["%s: no .import sidecar (bake with --godot 3)" % m for m in missing]
    files = []
    for gltf, js, sidecar in triples:
        with open(js) as fh:
            doc = json.load(fh)
        i = len(files)
        copy_in(project, i, gltf, (gltf, js, sidecar))
        rate = sidecar_fps(sidecar)
        files.append({
            "scene": "res://f%03d/%s" % (i, os.path.basename(gltf)),
            "source": gltf,
            "json": js,
            "fps": rate,
            "nodes": [n["name"] for n in doc["nodes"]],
            "queries": [query(a, rate) for a in doc["animations"]],
        })
    with open(os.path.join(project, "plan.json"), "w") as fh:
        json.dump({"files": files}, fh)
    return files, skipped


# --- what bake's JSON says ---------------------------------------------------

def expected_worlds(doc, anim, at=None):
    """World matrices (samples x 4 x 4) of every node at every sample of
    anim (or at the times at), by name, and the clip's TRS channels by
    (node, path)."""
    nodes = doc["nodes"]
    times = np.array(sample_times(anim) if at is None else at, dtype=float)
    count = len(times)
    matrix_nodes = {n["name"] for n in nodes if n.get("matrix")}
    channels = {}
    for c in anim["channels"]:
        node = c.get("node")
        if node and c["path"] in TRS and node not in matrix_nodes:
            # The glTF curve at every grid sample: bake's keys where it kept
            # them, glTF's interpolation between them elsewhere.
            key = dict(c, times=f32(c["times"]), values=[f32(row) for row in c["values"]])
            channels[(node, c["path"])] = values_at(key, c["path"], times, rotation_blend=slerp_rows)
    worlds = {}
    for n in nodes:
        if n.get("matrix"):
            local = np.repeat(np.array(f32(n["matrix"]), dtype=float).reshape(4, 4).T[None], count, axis=0)
        else:
            parts = []
            for path, rest in zip(TRS, ([0, 0, 0], [0, 0, 0, 1], [1, 1, 1])):
                rows = channels.get((n["name"], path))
                parts.append(rows if rows is not None else np.tile(f32(n.get(path) or rest), (count, 1)))
            local = gltf_trs_matrices(*parts)
        parent = n.get("parent")
        worlds[n["name"]] = local if parent is None else np.matmul(worlds[parent], local)
    return worlds, channels


def godot_rows(worlds):
    """A (samples x 4 x 4) stack as Godot's 12 numbers: origin, basis columns."""
    return np.concatenate([worlds[:, :3, 3], worlds[:, :3, 0], worlds[:, :3, 1], worlds[:, :3, 2]], axis=1)


def quaternions(r):
    """Unit quaternions (x, y, z, w) of rotation matrices r (n x 3 x 3),
    taking for each the largest of 4w², 4x², 4y², 4z² to divide by."""
    t = np.stack([1 + r[:, 0, 0] + r[:, 1, 1] + r[:, 2, 2], 1 + r[:, 0, 0] - r[:, 1, 1] - r[:, 2, 2],
                  1 - r[:, 0, 0] + r[:, 1, 1] - r[:, 2, 2], 1 - r[:, 0, 0] - r[:, 1, 1] + r[:, 2, 2]], axis=1)
    k = np.argmax(t, axis=1)
    s = np.sqrt(np.maximum(t[np.arange(len(r)), k], 1e-300)) * 2
    q = np.empty((len(r), 4))
    w = k == 0
    q[w] = np.stack([(r[w, 2, 1] - r[w, 1, 2]) / s[w], (r[w, 0, 2] - r[w, 2, 0]) / s[w], (r[w, 1, 0] - r[w, 0, 1]) / s[w], s[w] / 4], axis=1)
    x = k == 1
    q[x] = np.stack([s[x] / 4, (r[x, 0, 1] + r[x, 1, 0]) / s[x], (r[x, 0, 2] + r[x, 2, 0]) / s[x], (r[x, 2, 1] - r[x, 1, 2]) / s[x]], axis=1)
    y = k == 2
    q[y] = np.stack([(r[y, 0, 1] + r[y, 1, 0]) / s[y], s[y] / 4, (r[y, 1, 2] + r[y, 2, 1]) / s[y], (r[y, 0, 2] - r[y, 2, 0]) / s[y]], axis=1)
    z = k == 3
    q[z] = np.stack([(r[z, 0, 2] + r[z, 2, 0]) / s[z], (r[z, 1, 2] + r[z, 2, 1]) / s[z], s[z] / 4, (r[z, 1, 0] - r[z, 0, 1]) / s[z]], axis=1)
    return q / np.linalg.norm(q, axis=1, keepdims=True)


def pose_deviation(got, want):
    """Deviation in tolerances of global poses given as Godot's 12 numbers,
    compared the way the project's other client checks compare poses:
    translation and scale (the basis columns' lengths) within 1e-5,
    relative above magnitude 1, and the rotation as a quaternion, sign-free,
    within 1e-5 per component (a basis element can move by twice that)."""
    out = []
    for rows in (got, want):
        cols = rows[:, 3:].reshape(-1, 3, 3).transpose(0, 2, 1)  # matrix with the columns
        scale = np.linalg.norm(cols, axis=1)  # length of each column
        rot = cols / np.where(scale > 0, scale, 1)[:, None, :]
        if np.any(np.linalg.det(rot) < 0):  # a mirror: keep it on the first axis
            neg = np.linalg.det(rot) < 0
            scale[neg, 0] *= -1
            rot[neg, :, 0] *= -1
        out.append((rows[:, :3], scale, quaternions(rot)))
    (gt, gs, gq), (wt, ws, wq) = out
    rel = lambda g, w: np.max(np.abs(g - w) / (TOLERANCE * np.maximum(1.0, np.abs(w))), axis=1)
    dq = np.minimum(np.max(np.abs(gq - wq), axis=1), np.max(np.abs(gq + wq), axis=1)) / TOLERANCE
    dev = np.maximum(np.maximum(rel(gt, wt), rel(gs, ws)), dq)
    return np.where(np.all(np.isfinite(got), axis=1), dev, np.inf)


# --- what a user sees --------------------------------------------------------

# Godot's class names per major version, for the messages.
GODOT_CLASSES = {3: ("MeshInstance", "Skeleton"), 4: ("MeshInstance3D", "Skeleton3D")}


def godot3_node_name(name):
    """The name Godot 3.2's glTF importer gives a node
    (EditorSceneImporterGLTF::_sanitize_scene_name): the name without the
    characters other than letters, digits, '_', '-' and space. (It also
    appends " 2", " 3"... to a name already taken; no output of the demo
    or the samples needs that.)"""
    return re.sub(r"[^a-zA-Z0-9_ -]+", "", name)


def loose_bone(name):
    """A bone name as compared with the one Godot 3.2 gives it
    (EditorSceneImporterGLTF::_sanitize_bone_name: lower case, '_' before
    inner capitals, a run of zeros before a digit dropped, so
    SkyWorldCloudBonusExStep003 becomes sky_world_cloud_bonus_ex_step3):
    lower case, without '_' and those zeros."""
    return re.sub(r"0+(\d+)", r"\1", name.lower().replace("_", ""))


def check_assets(doc, got, src, fail, count, godot=4, node_name=lambda name: name):
    """A file with a skin has a skeleton; every JSON node with a mesh is a
    mesh instance of that name (node_name: as the Godot version writes it),
    and every material a mesh draws whose base-colour texture bake stored
    has an albedo texture in Godot."""
    mesh_class, skeleton_class = GODOT_CLASSES[godot]
    assets = doc.get("assets", {})
    if assets.get("skins") and not got.get("skeletons"):
        fail(src, "a skin, but no %s" % skeleton_class)
    want_meshes = sorted(n["name"] for n in doc["nodes"] if n.get("mesh"))
    got_meshes = set(got.get("meshes", []))
    lost = [m for m in want_meshes if node_name(m) not in got_meshes]
    if lost:
        fail(src, "%d mesh nodes not imported as %s: %s" % (len(lost), mesh_class, lost[:5]))
    stored = {t["name"] for t in assets.get("textures", []) if t.get("image") not in (None, "missing")}
    want_tex = sorted(m["name"] for m in assets.get("materials", [])
                      if (m.get("baseColorTexture") or {}).get("texture") in stored and material_drawn(doc, m["name"]))
    # A material a pointer animates is copied per mesh by Godot 4 and
    # named MATERIAL_NODE (the node of the mesh's first user).
    nodes = {n["name"] for n in doc["nodes"]}
    got_tex = set(got.get("textured", []))
    got_tex |= {g[:len(m)] for g in got_tex for m in want_tex if g.startswith(m + "_") and g[len(m) + 1:] in nodes}
    lost = [m for m in want_tex if m not in got_tex]
    if lost:
        fail(src, "%d textured materials without an albedo texture in Godot: %s" % (len(lost), lost[:5]))
    count["meshes"] += len(want_meshes)
    count["textured"] += len(want_tex)


def material_drawn(doc, material):
    """Whether a mesh primitive uses the material (Godot animates a
    material only through a mesh surface that draws it)."""
    return any(p.get("material") == material for m in doc.get("assets", {}).get("meshes", []) for p in m["primitives"])


def check_still_nodes(doc, got, src, fail, count):
    """In a file without animation (no pose query looks for its nodes),
    every JSON node is in the scene Godot built (the script lists the
    ones it did not find)."""
    if doc["animations"]:
        return
    count["still files"] += 1
    count["still nodes"] += len(doc["nodes"])
    missing = got.get("missing", [])
    if missing:
        fail(src, "%d of %d nodes not found in the imported scene: %s" % (len(missing), len(doc["nodes"]), missing[:5]))


# --- comparing ----------------------------------------------------------------

def read_run(project):
    """The plan, what Godot recorded (by scene) and the poses it wrote."""
    with open(os.path.join(project, "plan.json")) as fh:
        planned = json.load(fh)["files"]
    with open(os.path.join(project, "actual.json")) as fh:
        actual = {f["scene"]: f for f in json.load(fh)["files"]}
    poses = np.fromfile(os.path.join(project, "poses.bin"), dtype="<f4").astype(float)
    return planned, actual, poses


def loaded_files(planned, actual, fail):
    """(plan item, what Godot recorded, bake's JSON) for every planned file
    Godot loaded; the others are failures."""
    for item in planned:
        got = actual.get(item["scene"])
        if got is None or "error" in got:
            fail(item["source"], got.get("error") if got else "not checked")
            continue
        with open(item["json"]) as fh:
            yield item, got, json.load(fh)


def compare(project):
    planned, actual, poses = read_run(project)
    at, time_off = 0, 0.0
    failures, comparisons, clips, keys, worst_all, skipped = [], 0, 0, 0, 0.0, []
    count = {"files": 0, "meshes": 0, "textured": 0, "still files": 0, "still nodes": 0}

    def fail(where, what):
        failures.append("%s: %s" % (where, what))

    for item, got, doc in loaded_files(planned, actual, fail):
        src = item["source"]
        count["files"] += 1
        check_assets(doc, got, src, fail, count, godot=3, node_name=godot3_node_name)
        check_still_nodes(doc, got, src, fail, count)
        if item["fps"] != bake_rate(doc["animations"]):
            fail(src, "sidecar animation/fps=%g, want %g" % (item["fps"], bake_rate(doc["animations"])))
        by_name = {a["name"]: a for a in got["animations"]}
        want_names = sorted(q["anim"] for q in item["queries"])
        if sorted(by_name) != want_names:
            fail(src, "animations %s, want %s" % (sorted(by_name), want_names))
        for anim, q, pq in zip(doc["animations"], got["queries"], item["queries"]):
            name = godot_name(anim)
            where = "%s %s" % (src, name)
            times = sample_times(anim)
            stride = pq["stride"]
            # The poses Godot wrote for this query, read in order.
            found = q.get("found", [])
            block, seek = None, None
            if "error" not in q and "skip" not in pq:
                seek = poses[at:at + len(times)]
                at += len(times)
                n = len(times) * len(found) * 12
                block = poses[at:at + n].reshape(len(times), len(found), 12)
                at += n
            g = by_name.get(name)
            if g is None:
                continue
            clips += 1
            want_loop = anim["loop"] != "once"
            if bool(g["loop"]) != want_loop:
                fail(where, "loop %s, want %s (bake: %s)" % (g["loop"], want_loop, anim["loop"]))
            if "skip" in pq:
                skipped.append("%s: %s" % (where, pq["skip"]))
                continue
            # Expected poses at the times Godot shows its keys: Godot 3 puts
            # key k at a float32 running sum of 1/fps and samples the glTF
            # curve there, so on long clips its keys drift from k/fps (the
            # drift is checked above, and reported); the pose is checked
            # against bake's curve at the key's own time.
            worlds, channels = expected_worlds(doc, anim, seek)
            if seek is not None:
                time_off = max(time_off, float(np.max(np.abs(seek - np.array(times)))))
            animated = {node for node, _ in channels}
            # Keys: one transform track per animated node, one key per sample.
            tracks = [t for t in g["tracks"] if t["type"] == 1]  # Godot 3 Animation.TYPE_TRANSFORM
            targets = set()
            loose = {loose_bone(n): n for n in animated}
            for t in tracks:
                # "Path/To/Node" or "Path/Skeleton:bone"; Godot 3.2 renames
                # bones (Skl_Root → skl_root), so match as loose_bone does.
                node = t["path"].split(":")[-1].split("/")[-1]
                node = node if node in animated else loose.get(loose_bone(node), node)
                targets.add(node)
                if node not in animated:
                    continue  # bake's data-only carrier node
                keys += 1
                kt = t["times"]
                if stride == 1 and len(kt) != len(times):
                    fail(where, "track %s has %d keys, want %d (one per baked sample)" % (t["path"], len(kt), len(times)))
                    continue
                if len(kt) < (len(times) - 1) * stride:
                    fail(where, "track %s has %d keys, want every %dth to be a baked sample (%d)" % (t["path"], len(kt), stride, len(times)))
                    continue
                at_samples = [kt[min(k * stride, len(kt) - 1)] for k in range(len(times) - 1)] + [kt[-1]]
                off = max(abs(a - b) for a, b in zip(at_samples, times))  # 6 decimals (JSON)
                if off > 0.02 / anim["fps"]:
                    fail(where, "track %s keys up to %.3g s off the grid (more than 2%% of a step)" % (t["path"], off))
            for node in sorted(animated - targets):
                fail(where, "no track for animated node %s" % node)
            # Poses: within 1e-5, relative above magnitude 1.
            if block is None:
                fail(where, "poses not read: %s" % q["error"])
                continue
            for node in q.get("missing", []):
                fail(where, "node %s not found in the imported scene" % node)
            for j, node in enumerate(found):
                want = godot_rows(worlds[node])
                gotn = block[:, j, :]
                dev = pose_deviation(gotn, want)
                comparisons += len(times)
                worst_all = max(worst_all, float(np.max(dev)))
                bad = int(np.sum(dev > 1))
                if bad:
                    k = int(np.argmax(dev))
                    fail(where, "node %s: %d of %d samples off; worst at t=%.6g: %.2f tolerances\n    got  %s\n    want %s" % (
                        node, bad, len(times), times[k], dev[k],
                        ["%.6g" % v for v in gotn[k]], ["%.6g" % v for v in want[k]]))
    for line in skipped:
        print("(keys and poses not checked: %s; bake warned, see docs/clients.md)" % line)
    for line in failures:
        print(line)
    print("Godot 3 assets: %d mesh nodes, %d textured materials; %d files without animation, their %d nodes looked up by name" % (
        count["meshes"], count["textured"], count["still files"], count["still nodes"]))
    print("Godot check: %d files (%d imported and loaded), %d clips (%d at a rate Godot 3 cannot keep), %d tracks (key times at most %.3g s off), "
          "%d pose comparisons (worst %.3g tolerances), %d failures" % (
              len(planned), count["files"], clips, len(skipped), keys, time_off, comparisons, worst_all, len(failures)))
    return 1 if failures or not planned else 0


def imported(project):
    """Names every planned scene Godot's editor pass did not import (its
    .import sidecar gains a [remap] path to the imported scene)."""
    with open(os.path.join(project, "plan.json")) as fh:
        planned = json.load(fh)["files"]
    missing = []
    for item in planned:
        rel = item["scene"][len("res://"):]
        done = False
        with open(os.path.join(project, rel + ".import")) as fh:
            for line in fh:
                if line.startswith('path="res://'):
                    done = os.path.exists(os.path.join(project, line.strip()[len('path="res://'):-1]))
        if not done:
            missing.append(item["source"])
    for m in missing:
        print("%s: Godot did not import it" % m)
    return 1 if missing else 0


def main(argv):
    if len(argv) >= 3 and argv[1] == "plan":
        files, skipped = plan(argv[2], argv[3:])
        for m in skipped:
            print("(not checked: %s)" % m)
        if not files:
            print("Godot check: no glTF + JSON + .import triple found", file=sys.stderr)
            return 1
        return 0
    if len(argv) == 3 and argv[1] == "imported":
        return imported(argv[2])
    if len(argv) == 3 and argv[1] == "compare":
        return compare(argv[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
