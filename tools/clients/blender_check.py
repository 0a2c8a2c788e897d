"""Plays bake's glTF output in Blender and compares it with bake's JSON export.

Run headless through blender_check.sh (``blender -b --factory-startup
--python-exit-code 1 -P blender_check.py -- DIR...``). For every .glb/.gltf
with a .json sibling it imports the file with Blender's own glTF importer
into an empty scene, then, for each clip, makes that clip's actions active
(as the importer does for the first clip), puts every object back at its
rest transform, and at every baked sample time and every midpoint between
samples sets the scene frame to time x fps and reads each object's evaluated
location, rotation quaternion and scale. Expected values come from the JSON
by glTF's LINEAR / STEP rules (the same rules as expected.mjs), converted
the way the importer converts glTF's Y-up axes to Blender's Z-up ones.

Blender interpolates quaternion F-curves component by component and does
not normalise the stored value, so the evaluated quaternion is normalised
before comparing; at a midpoint the normalised lerp of two unit
quaternions (made short-way by the importer) equals glTF's slerp exactly.
"""

import contextlib
import io
from array import array
import json
import math
import os
import sys

import bpy
from mathutils import Matrix

TRS = {"translation": 3, "rotation": 4, "scale": 3}
TOLERANCE = 1e-5
DATA_NODE = "bake:data"
IDENTITY = {"translation": [0, 0, 0], "rotation": [0, 0, 0, 1], "scale": [1, 1, 1]}


# --- the JSON side (mirrors expected.mjs) ---------------------------------


def find_pairs(roots):
    """Every (gltf, json) pair under the given files and folders, in path order."""
    pairs, unpaired = [], []
    for root in roots:
        files = [root] if os.path.isfile(root) else sorted(
            os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs)
        present = set(files)
        for f in files:
            stem, ext = os.path.splitext(f)
            if ext.lower() not in (".glb", ".gltf"):
                continue
            if stem + ".json" in present:
                pairs.append((f, stem + ".json"))
            else:
                unpaired.append(f)
    return pairs, unpaired


def f32(values):
    """Numbers rounded to float32 (None, written for NaN, stays None)."""
    if any(v is None for v in values):
        return [None if v is None else array("f", [v])[0] for v in values]
    return array("f", values).tolist()


def to_float32(doc):
    """Rounds a parsed JSON export back to the float32s it names (see expected.mjs)."""
    for n in doc["nodes"]:
        for k in ("translation", "rotation", "scale", "matrix"):
            if n.get(k):
                n[k] = f32(n[k])
    for a in doc["animations"]:
        a["duration"] = f32([a["duration"]])[0]
        for c in a["channels"]:
            c["times"] = f32(c["times"])
            c["values"] = [f32(row) for row in c["values"]]
    return doc


def trs_channels(doc, anim):
    """The clip's glTF-animatable channels by (node, path), and how many are data."""
    matrix_nodes = {n["name"] for n in doc["nodes"] if n.get("matrix")}
    by_node, data = {}, 0
    for c in anim["channels"]:
        node = c.get("node")
        if not node or c["path"] not in TRS or node in matrix_nodes:
            data += 1
            continue
        by_node[(node, c["path"])] = c
    return by_node, data


def query_times(anim):
    """Every baked sample time of the clip and each midpoint between two samples."""
    samples = sorted({t for c in anim["channels"] for t in c["times"]})
    if not samples:
        samples = sorted({0.0, anim["duration"]})
    out = []
    for i, t in enumerate(samples):
        out.append((t, "sample"))
        if i + 1 < len(samples):
            out.append(((t + samples[i + 1]) / 2, "midpoint"))
    return out


def value_at(channel, path, t):
    """The channel's value at time t under glTF's LINEAR or STEP rules."""
    times, values = channel["times"], channel["values"]
    last = len(times) - 1
    if t <= times[0]:
        return values[0]
    if t >= times[last]:
        return values[last]
    lo, hi = 0, last
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if times[mid] <= t:
            lo = mid
        else:
            hi = mid
    if channel["interpolation"] == "STEP" or times[lo] == t:
        return values[lo]
    u = (t - times[lo]) / (times[hi] - times[lo])
    if path == "rotation":
        return slerp(values[lo], values[hi], u)
    return [a + (b - a) * u for a, b in zip(values[lo], values[hi])]


def slerp(a, b, u):
    """Spherical linear interpolation the short way (glTF 2.0, Appendix C)."""
    dot = sum(x * y for x, y in zip(a, b))
    sign = 1.0
    if dot < 0:
        sign, dot = -1.0, -dot
    if dot > 1 - 1e-12:
        q = [x + (sign * y - x) * u for x, y in zip(a, b)]
        n = math.sqrt(sum(x * x for x in q))
        return [x / n for x in q]
    theta = math.acos(min(1.0, dot))
    sa = math.sin((1 - u) * theta) / math.sin(theta)
    sb = sign * math.sin(u * theta) / math.sin(theta)
    return [sa * x + sb * y for x, y in zip(a, b)]


def finite(v):
    return all(isinstance(x, (int, float)) and math.isfinite(x) for x in v)


def deviation(path, got, want):
    """Distance in units of the tolerance (<= 1 passes); rotations sign-free."""
    if not finite(got) or not finite(want) or len(got) != len(want):
        return math.inf
    if path == "rotation":
        plus = max(abs(g - w) for g, w in zip(got, want))
        minus = max(abs(g + w) for g, w in zip(got, want))
        return min(plus, minus) / TOLERANCE
    return max(abs(g - w) / (TOLERANCE * max(1.0, abs(w))) for g, w in zip(got, want))


# --- glTF (Y-up) to Blender (Z-up), as io_scene_gltf2's importer does ------


def to_blender(path, v):
    """A glTF translation / rotation (x,y,z,w) / scale in Blender's axes."""
    if path == "translation":
        return [v[0], -v[2], v[1]]
    if path == "rotation":
        return [v[3], v[0], -v[2], v[1]]  # Blender quaternions are (w, x, y, z)
    return [v[0], v[2], v[1]]


def matrix_to_blender(m):
    """A column-major glTF matrix as a Blender Matrix: C · M · C⁻¹."""
    return Matrix((
        (m[0], -m[8], m[4], m[12]),
        (-m[2], m[10], -m[6], -m[14]),
        (m[1], -m[9], m[5], m[13]),
        (m[3], -m[11], m[7], m[15]),
    ))


def blender_trs(obj):
    q = list(obj.rotation_quaternion)
    n = math.sqrt(sum(x * x for x in q))
    if n > 0:
        q = [x / n for x in q]
    return {"translation": list(obj.location), "rotation": q, "scale": list(obj.scale)}


# --- Blender side ------------------------------------------------------------


class Failures:
    """Mismatches of one file, grouped by clip, node and path, keeping the worst."""

    def __init__(self):
        self.groups = {}
        self.count = 0

    def add(self, clip, node, path, t, kind, dev, got, want):
        self.count += 1
        g = self.groups.get((clip, node, path))
        if g is None:
            self.groups[(clip, node, path)] = {"n": 1, "first": t, "worst": (t, kind, dev, got, want)}
            return
        g["n"] += 1
        if not g["worst"][2] >= dev:
            g["worst"] = (t, kind, dev, got, want)

    def print(self, file):
        for (clip, node, path), g in self.groups.items():
            t, kind, dev, got, want = g["worst"]
            print(f"{file}: clip {json.dumps(clip)} node {json.dumps(node)} {path}: {g['n']} mismatches "
                  f"from t={g['first']}s; worst at t={t}s ({kind}): Blender {fmt(got)} vs JSON "
                  f"{fmt(want)} (Blender axes; {dev:.3g}x tolerance)", file=sys.stderr)


def fmt(v):
    return "[" + ", ".join(f"{x:.9g}" for x in v) + "]"


def import_gltf(path, fps):
    """Imports into a fresh empty scene; returns the importer's state (vnodes, animations)."""
    from io_scene_gltf2.blender.imp.gltf2_blender_gltf import BlenderGlTF

    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps = fps
    scene.render.fps_base = 1.0
    captured = []
    create = BlenderGlTF.create

    def capture(gltf):
        create(gltf)
        captured.append(gltf)

    BlenderGlTF.create = staticmethod(capture)
    log = io.StringIO()
    try:
        with contextlib.redirect_stdout(log):
            result = bpy.ops.import_scene.gltf(filepath=os.path.abspath(path))
    finally:
        BlenderGlTF.create = staticmethod(create)
    if result != {"FINISHED"} or not captured:
        raise RuntimeError(f"import {result}: {log.getvalue()[-2000:]}")
    return captured[0]


def scene_fps(doc):
    """Blender's importer keys frames at time x scene fps (an integer): use the clips' rate."""
    for a in doc["animations"]:
        if a["fps"] and float(a["fps"]).is_integer() and 1 <= a["fps"] <= 1000:
            return int(a["fps"])
    return 24


def activate_clip(objects, track):
    """Makes clip `track` the active action on every object, as the importer does for the first."""
    for obj in objects:
        ad = obj.animation_data
        if ad is None:
            continue
        ad.action = None
        for nla in ad.nla_tracks:
            if nla.name == track and nla.strips:
                ad.action = nla.strips[0].action
                break


def set_frame(scene, frame):
    whole = math.floor(frame)
    scene.frame_set(int(whole), subframe=frame - whole)


class FileCheck:
    """Checks one (glTF, JSON) pair."""

    def __init__(self, gltf_path, json_path, stats):
        self.path = gltf_path
        self.stats = stats
        self.failures = Failures()
        self.problems = []
        with open(json_path, encoding="utf-8") as f:
            self.doc = to_float32(json.load(f))

    def run(self):
        doc = self.doc
        fps = scene_fps(doc)
        try:
            gltf = import_gltf(self.path, fps)
        except Exception as err:  # the importer's own failure is the finding
            print(f"{self.path}: Blender cannot import it: {err}", file=sys.stderr)
            return 1
        self.scene = bpy.context.scene
        self.fps = self.scene.render.fps
        n = len(doc["nodes"])
        gnodes = gltf.data.nodes or []
        for i in range(n, len(gnodes)):
            if gnodes[i].name != DATA_NODE:
                self.problems.append(f"glTF node {i} {json.dumps(gnodes[i].name)} is not in the JSON")
        if len(gnodes) < n:
            self.problems.append(f"glTF has {len(gnodes)} nodes, JSON {n}")
        else:
            names = [doc["nodes"][i]["name"] if i < n else gnodes[i].name for i in range(len(gnodes))]
            self.objects = [self.object_of(gltf, i, names[i]) for i in range(len(gnodes))]
            self.check_structure()
        if self.problems:
            return self.report()
        # The importer has already played the first clip at the scene's current
        # frame onto the objects, so the rest is what it set before that.
        self.rest = [gltf.vnodes[i].trs() for i in range(len(self.objects))]
        self.put_at_rest()
        self.compare(lambda i, p: self.rest_of(i, p), ("(rest)", 0.0, "rest"), evaluated=False)
        anims = gltf.data.animations or []
        if len(anims) != len(doc["animations"]):
            self.problems.append(f"Blender has {len(anims)} clips, JSON {len(doc['animations'])}")
        for ai, anim in enumerate(doc["animations"][:len(anims)]):
            if anims[ai].name != anim["name"]:
                self.problems.append(f"clip {ai}: glTF {json.dumps(anims[ai].name)}, JSON {json.dumps(anim['name'])}")
            self.check_clip(anim, anims[ai].track_name)
        return self.report()

    def object_of(self, gltf, i, name):
        vnode = gltf.vnodes[i]
        obj = getattr(vnode, "blender_object", None)
        if obj is None or obj.type != "EMPTY":
            self.problems.append(f"node {i} {json.dumps(name)} did not become an empty object")
        return obj

    def check_structure(self):
        index = {n["name"]: i for i, n in enumerate(self.doc["nodes"])}
        for i, n in enumerate(self.doc["nodes"]):
            obj = self.objects[i]
            if obj is None:
                continue
            want = None if n["parent"] is None else self.objects[index[n["parent"]]]
            if obj.parent != want:
                self.problems.append(f"node {json.dumps(n['name'])}: Blender parent is not {json.dumps(n['parent'])}")
            if obj.rotation_mode != "QUATERNION":
                self.problems.append(f"node {json.dumps(n['name'])}: rotation mode {obj.rotation_mode}")

    def put_at_rest(self):
        """Every object back at its imported rest transform (Blender leaves objects
        that the active clip does not animate wherever the last clip put them)."""
        for obj, (loc, rot, scale) in zip(self.objects, self.rest):
            obj.location, obj.rotation_quaternion, obj.scale = loc, rot, scale

    def rest_of(self, i, path):
        nodes = self.doc["nodes"]
        return nodes[i][path] if i < len(nodes) else IDENTITY[path]

    def compare(self, expect, where, evaluated=True):
        """Compares every object's local transform with expect(i, path) (glTF axes)."""
        clip, t, kind = where
        depsgraph = bpy.context.evaluated_depsgraph_get() if evaluated else None
        for i, obj in enumerate(self.objects):
            name = self.doc["nodes"][i]["name"] if i < len(self.doc["nodes"]) else DATA_NODE
            shown = obj.evaluated_get(depsgraph) if evaluated else obj
            matrix = self.doc["nodes"][i].get("matrix") if i < len(self.doc["nodes"]) else None
            self.stats["comparisons"] += 1 if matrix else 3
            if matrix:
                got = [x for col in shown.matrix_basis.col for x in col]
                want = [x for col in matrix_to_blender(matrix).col for x in col]
                dev = deviation("translation", got, want)
                if not dev <= 1:
                    self.failures.add(clip, name, "matrix", t, kind, dev, got, want)
                continue
            got = blender_trs(shown)
            for path in TRS:
                want = to_blender(path, expect(i, path))
                dev = deviation(path, got[path], want)
                if not dev <= 1:
                    self.failures.add(clip, name, path, t, kind, dev, got[path], want)

    def check_clip(self, anim, track):
        self.stats["clips"] += 1
        by_node, data = trs_channels(self.doc, anim)
        self.stats["data_channels"] += data
        activate_clip(self.objects, track)
        self.put_at_rest()
        names = [n["name"] for n in self.doc["nodes"]]
        for t, kind in query_times(anim):
            set_frame(self.scene, t * self.fps)

            def expect(i, path, t=t):
                c = by_node.get((names[i], path)) if i < len(names) else None
                return value_at(c, path, t) if c else self.rest_of(i, path)

            self.compare(expect, (anim["name"], t, kind))

    def report(self):
        for p in self.problems:
            print(f"{self.path}: {p}", file=sys.stderr)
        self.failures.print(self.path)
        return len(self.problems) + self.failures.count


def main():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    if not argv:
        print("usage: blender -b --python-exit-code 1 -P blender_check.py -- DIR_OR_FILE...", file=sys.stderr)
        sys.exit(2)
    try:
        import numpy  # noqa: F401  (Blender's glTF importer needs it; Debian: python3-numpy)
    except ImportError:
        print("Blender's glTF importer needs numpy: apt-get install -y python3-numpy", file=sys.stderr)
        sys.exit(2)
    pairs, unpaired = find_pairs(argv)
    stats = {"files": 0, "clips": 0, "comparisons": 0, "data_channels": 0}
    failed = 0
    for gltf_path, json_path in pairs:
        stats["files"] += 1
        failed += FileCheck(gltf_path, json_path, stats).run()
    if unpaired:
        print(f"({len(unpaired)} glTF files without a JSON sibling not checked)")
    print(f"Blender check: {stats['files']} files, {stats['clips']} clips, {stats['comparisons']} comparisons, "
          f"{failed} failures ({stats['data_channels']} data channels glTF cannot animate not compared; "
          f"Blender {bpy.app.version_string})")
    if stats["files"] == 0:
        print("no glTF file with a JSON sibling found", file=sys.stderr)
        sys.exit(1)
    sys.exit(1 if failed else 0)


main()
