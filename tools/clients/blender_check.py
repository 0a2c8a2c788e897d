"""Plays bake's glTF output in Blender and compares it with bake's JSON export.

Run headless through blender_check.sh (``blender -b --factory-startup
--python-exit-code 1 -P blender_check.py -- DIR...``). For every .glb/.gltf
with a .json sibling it imports the file with Blender's own glTF importer
into an empty scene, then, for each clip, makes that clip's actions active
(as the importer does for the first clip) and puts every object back at its
rest transform. At every baked sample time and every midpoint between
samples it evaluates each object's F-curves at frame time x fps
(``FCurve.evaluate``, Blender's own evaluation); at the first, middle and
last sample it also sets the scene to that frame and checks that the
evaluated scene shows exactly those values, so the fast path is the scene's.
Expected values come from the JSON (blender_expected.py, the rules of
expected.mjs), converted the way the importer converts glTF's Y-up axes to
Blender's Z-up ones.

Blender interpolates quaternion F-curves component by component and does
not normalise the result, so quaternions are normalised before comparing;
at a midpoint the normalised lerp of two unit quaternions (made short-way
by the importer) is exactly glTF's slerp.
"""

import contextlib
import io
import json
import math
import os
import sys

import bpy

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "blender"))
os.environ["BAKE_IMPORT_REGISTER"] = "0"
import bake_import  # noqa: E402  (its helpers read actions on Blender 3.4 to 5.x)
try:
    import blender_expected as ex  # noqa: E402  (needs numpy, as Blender's glTF importer does)
    import blender_world as bw  # noqa: E402
except ImportError as err:
    print(f"{err}: Blender's glTF importer and this check need numpy (Debian: apt-get install -y python3-numpy)",
          file=sys.stderr)
    sys.exit(2)

DATA_NODE = "bake_data"

# Debian's Blender 3.4 importer calls numpy.bool for meshes, an alias NumPy
# 1.24 removed (as blender_assets.py does).
bake_import.restore_numpy_bool()


class Failures:
    """Mismatches of one file, grouped by clip, node and path, keeping the worst."""

    def __init__(self):
        self.groups = {}
        self.count = 0

    def add(self, clip, node, path, times, kinds, dev, got, want):
        """Records the queries where dev (one per query) is not within tolerance."""
        bad = ex.np.nonzero(~(dev <= 1))[0]
        if len(bad) == 0:
            return
        self.count += len(bad)
        worst = bad[ex.np.argmax(ex.np.nan_to_num(dev[bad], nan=math.inf))]
        w = (float(times[worst]), kinds[worst], float(dev[worst]), list(got[worst]), list(want[worst]))
        g = self.groups.setdefault((clip, node, path), {"n": 0, "first": float(times[bad[0]]), "worst": w})
        g["n"] += len(bad)
        if not g["worst"][2] >= w[2]:
            g["worst"] = w

    def print(self, file):
        for (clip, node, path), g in self.groups.items():
            t, kind, dev, got, want = g["worst"]
            print(f"{file}: clip {json.dumps(clip)} node {json.dumps(node)} {path}: {g['n']} mismatches "
                  f"from t={g['first']:.9g}s; worst at t={t:.9g}s ({kind}): Blender {fmt(got)} vs "
                  f"{'JSON' if path != 'scene' else 'F-curves'} {fmt(want)} (Blender axes; {dev:.3g}x tolerance)",
                  file=sys.stderr)


def fmt(v):
    return "[" + ", ".join(f"{x:.9g}" for x in v) + "]"


def importer_classes():
    """The stock importer's BlenderGlTF and VNode (modules renamed in Blender 4.x)."""
    try:
        from io_scene_gltf2.blender.imp.blender_gltf import BlenderGlTF
        from io_scene_gltf2.blender.imp.vnode import VNode
    except ImportError:
        from io_scene_gltf2.blender.imp.gltf2_blender_gltf import BlenderGlTF
        from io_scene_gltf2.blender.imp.gltf2_blender_vnode import VNode
    return BlenderGlTF, VNode


def import_gltf(path, fps):
    """Imports into a fresh empty scene; returns the importer's state (vnodes, animations)."""
    BlenderGlTF, _ = importer_classes()

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


def sampled(t, kinds, most):
    """At most `most` of the queries, spread evenly over the clip (its first and
    last sample kept): the quick comparison of the Blenders that do not run
    the dense one (docs/clients.md, the client matrix)."""
    if not most or len(t) <= most:
        return t, kinds
    keep = sorted(set(ex.np.linspace(0, len(t) - 1, most).round().astype(int).tolist()))
    return t[keep], [kinds[q] for q in keep]


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
        bake_import.assign_action(ad, None)
        for nla in ad.nla_tracks:
            if nla.name == track and nla.strips:
                bake_import.assign_action(ad, nla.strips[0])
                break


def set_frame(scene, frame):
    whole = math.floor(frame)
    scene.frame_set(int(whole), subframe=frame - whole)


def rows_of(objects):
    """Location, rotation quaternion (w, x, y, z) and scale of each object: an N x 10 array
    (zeros for a node without an object: a bone)."""
    return ex.np.array([list(o.location) + list(o.rotation_quaternion) + list(o.scale) if o is not None
                        else [0.0] * 10 for o in objects])


def matrix_rows(obj):
    return [list(r) for r in obj.matrix_basis]


class FileCheck:
    """Checks one (glTF, JSON) pair."""

    def __init__(self, gltf_path, json_path, stats):
        self.path = gltf_path
        self.stats = stats
        self.failures = Failures()
        self.problems = []
        with open(json_path, encoding="utf-8") as f:
            self.doc = ex.to_float32(json.load(f))

    def run(self):
        doc = self.doc
        try:
            gltf = import_gltf(self.path, scene_fps(doc))
        except Exception as err:  # the importer's own failure is the finding
            if not bake_import.is_pointer_bug(err):
                print(f"{self.path}: Blender cannot import it: {err}", file=sys.stderr)
                return 1
            # Blender 4.2-4.3's pointer bug (docs/clients.md): counted, and the
            # file checked as the add-on imports it, with the bug worked around.
            self.stats["pointer_bug"] += 1
            with bake_import.importer_workarounds():
                gltf = import_gltf(self.path, scene_fps(doc))
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
            self.names = [doc["nodes"][i]["name"] if i < n else gnodes[i].name for i in range(len(gnodes))]
            self.matrices = [doc["nodes"][i].get("matrix") if i < n else None for i in range(len(gnodes))]
            self.classify(gltf, gnodes)
            self.check_structure()
        if self.problems:
            return self.report()
        # The importer has already played the first clip at the scene's current
        # frame onto the objects, so the rest is what it set before that.
        self.rest = [gltf.vnodes[i].trs() for i in range(len(self.objects))]
        self.heads = 0.0
        self.put_at_rest()
        self.rest_rows = rows_of(self.objects)
        self.check_rest()
        anims = gltf.data.animations or []
        if len(anims) != len(doc["animations"]):
            self.problems.append(f"Blender has {len(anims)} clips, JSON {len(doc['animations'])}")
        for ai, anim in enumerate(doc["animations"][:len(anims)]):
            if anims[ai].name != anim["name"]:
                self.problems.append(f"clip {ai}: glTF {json.dumps(anims[ai].name)}, JSON {json.dumps(anim['name'])}")
            self.check_clip(anim, anims[ai].track_name)
        return self.report()

    def classify(self, gltf, gnodes):
        """Sorts the nodes: plain objects compared by local values (self.local); bones, objects
        the importer corrects (cameras, lights) or puts under an armature or a bone, compared
        as world matrices (self.world_nodes, blender_world.py); nodes with a skinned mesh, whose
        transform glTF ignores (glTF 2.0 section 3.7.3.3), not compared."""
        _, VNode = importer_classes()
        self.rig = bw.Rig(gltf, VNode.Bone)
        index = {n["name"]: i for i, n in enumerate(self.doc["nodes"])}
        self.objects, self.local, self.world_nodes = [], [], []
        for i in range(len(gnodes)):
            vnode = gltf.vnodes[i]
            obj = getattr(vnode, "blender_object", None)
            self.objects.append(obj)
            if gnodes[i].skin is not None:
                continue
            if i in self.rig.bones:
                self.world_nodes.append(i)
                continue
            if obj is None:
                self.problems.append(f"node {i} {json.dumps(self.names[i])} became neither an object nor a bone")
                continue
            parent = self.doc["nodes"][i]["parent"] if i < len(self.doc["nodes"]) else None
            parent_obj = None if parent is None else getattr(gltf.vnodes[index[parent]], "blender_object", None)
            plain = obj.parent == parent_obj and obj.parent_type == "OBJECT" and \
                vnode.rotation_before == vnode.rotation_before.__class__((1, 0, 0, 0)) and \
                vnode.rotation_after == vnode.rotation_after.__class__((1, 0, 0, 0))
            (self.local if plain else self.world_nodes).append(i)

    def check_structure(self):
        index = {n["name"]: i for i, n in enumerate(self.doc["nodes"])}
        for i in self.local:
            if i >= len(self.doc["nodes"]):
                continue
            n, obj = self.doc["nodes"][i], self.objects[i]
            if obj.rotation_mode != "QUATERNION":
                self.problems.append(f"node {json.dumps(n['name'])}: rotation mode {obj.rotation_mode}")
        # A bone's parent bone is its node's parent when that is a bone too.
        for i, (arma, name) in self.rig.bones.items():
            if i >= len(self.doc["nodes"]):
                continue
            parent = self.doc["nodes"][i]["parent"]
            want = self.rig.bones.get(index[parent]) if parent is not None else None
            got = arma.data.bones[name].parent
            if (want is None) != (got is None) or want is not None and (want[0] != arma or want[1] != got.name):
                self.problems.append(f"bone {json.dumps(self.names[i])}: Blender parent bone is not {json.dumps(parent)}")

    def put_at_rest(self):
        """Every object back at its imported rest transform (Blender leaves objects
        that the active clip does not animate wherever the last clip put them)."""
        for obj, (loc, rot, scale) in zip(self.objects, self.rest):
            if obj is not None:
                obj.location, obj.rotation_quaternion, obj.scale = loc, rot, scale
        self.rig.put_at_rest()

    def rest_of(self, i, path):
        nodes = self.doc["nodes"]
        return nodes[i][path] if i < len(nodes) else ex.IDENTITY[path]

    def expected(self, i, by_node, t):
        """Node i's expected rows (len(t) x 10, Blender axes) in a clip with these channels.

        Rotations are normalised, keys included: Blender builds an object's or
        a pose bone's matrix from its quaternion normalised (BKE_object_rot_to_mat3,
        BKE_pchan_to_mat4: "quats are normalized before use"), and the check
        compares the F-curves' values normalised too. That matters for bake's
        16-bit rotation keys, |q|² up to 4.6e-5 off 1 (docs/fidelity.md);
        float keys are unit within float32."""
        out = ex.np.empty((len(t), 10))
        for path, cols in ex.COLUMNS.items():
            c = by_node.get((self.names[i], path)) if i < len(self.doc["nodes"]) else None
            vals = ex.values_at(c, path, t, self.fps) if c else ex.np.tile(self.rest_of(i, path), (len(t), 1))
            out[:, cols] = ex.to_blender(path, vals)
        return ex.normalized_rotations(out)

    def compare(self, clip, t, kinds, got, expect_of, skip=None, near_of=None):
        """Compares got (len(t) x N x 10) with expect_of(i) for every plain
        object, leaving out the queries skip marks (N x len(t), jumps Blender
        cannot resolve, see blender_world.unresolvable_own). With near_of(i)
        (expectations up to two float32 frame steps either side), a query passes
        when it matches any of them, as in check_world."""
        for i in self.local:
            if self.matrices[i]:
                continue  # compared as matrices by check_matrices
            want = expect_of(i)
            near = near_of(i) if near_of else []
            keep = ex.np.arange(len(t))
            if skip is not None and i < len(skip):
                keep = ex.np.nonzero(~skip[i])[0]
                self.stats["unresolvable"] += len(t) - len(keep)
            for path, cols in ex.COLUMNS.items():
                self.stats["comparisons"] += len(keep)
                dev = ex.deviation(path, got[keep][:, i, cols], want[keep][:, cols])
                for n in near:
                    dev = ex.np.minimum(dev, ex.deviation(path, got[keep][:, i, cols], n[keep][:, cols]))
                self.failures.add(clip, self.names[i], path, t[keep], [kinds[q] for q in keep], dev,
                                  got[keep][:, i, cols], want[keep][:, cols])

    def check_matrices(self, clip, t, kinds):
        """Static matrix nodes: glTF cannot animate them, so Blender shows the rest at every time."""
        for i, m in enumerate(self.matrices):
            if not m or i not in self.local:
                continue
            self.stats["comparisons"] += len(t)
            got = ex.np.array(matrix_rows(self.objects[i].evaluated_get(bpy.context.evaluated_depsgraph_get())))
            want = ex.np.array(ex.matrix_to_blender(m))
            dev = ex.np.full(len(t), ex.deviation("matrix", got.ravel(), want.ravel()))
            rows = ex.np.tile(got.ravel(), (len(t), 1))
            self.failures.add(clip, self.names[i], "matrix", t, kinds, dev, rows, ex.np.tile(want.ravel(), (len(t), 1)))

    def check_rest(self):
        t, kinds = ex.np.zeros(1), ["rest"]
        got = ex.normalized_rotations(self.rest_rows)[None]
        self.compare("(rest)", t, kinds, got, lambda i: self.expected(i, {}, t))
        self.check_matrices("(rest)", t, kinds)

    def fcurve_rows(self, frames):
        """Every object's location, rotation and scale at each frame, from its active action's F-curves."""
        got = ex.np.tile(self.rest_rows, (len(frames), 1, 1)).astype(float)
        for i in self.local:
            obj = self.objects[i]
            fcurves = bake_import.owner_fcurves(obj)
            if fcurves and self.matrices[i]:
                self.problems.append(f"matrix node {json.dumps(self.names[i])} has F-curves")
            for fc in fcurves:
                if obj.type == "ARMATURE" and fc.data_path.startswith("pose.bones["):
                    continue  # its bones' curves: compared in world space (check_world)
                col = ex.BLENDER_PATHS.get(fc.data_path)
                if col is None:
                    self.problems.append(f"node {json.dumps(self.names[i])}: unexpected F-curve {fc.data_path}")
                    continue
                got[:, i, col + fc.array_index] = [fc.evaluate(f) for f in frames]
        return ex.normalized_rotations(got)

    def check_scene(self, clip, t, kinds, frames, got):
        """At the first, middle and last sample, the evaluated scene must show the F-curves' values."""
        samples = [q for q, k in enumerate(kinds) if k == "sample"]
        for q in sorted({samples[0], samples[len(samples) // 2], samples[-1]}):
            set_frame(self.scene, frames[q])
            depsgraph = bpy.context.evaluated_depsgraph_get()
            shown = ex.normalized_rotations(rows_of([o.evaluated_get(depsgraph) if o is not None else None
                                                     for o in self.objects]))
            for i in self.local:
                if self.matrices[i]:
                    continue
                for path, cols in ex.COLUMNS.items():
                    dev = ex.deviation(path, shown[None, i, cols], got[q, None, i, cols])
                    self.failures.add(clip, self.names[i], "scene", t[q:q + 1], kinds[q:q + 1], dev,
                                      shown[None, i, cols], got[q, None, i, cols])
        self.check_matrices(clip, t, kinds)

    def check_clip(self, anim, track):
        self.stats["clips"] += 1
        by_node, data = ex.trs_channels(self.doc, anim)
        self.stats["data_channels"] += data
        if self.stats["merges"]:
            for key, c in by_node.items():
                by_node[key], dropped = ex.merge_close_keys(c, self.fps)
                self.stats["merged"] += dropped
        activate_clip([o for o in self.objects if o is not None] + self.rig.armatures(), track)
        self.put_at_rest()
        t, kinds = sampled(*ex.query_times(anim), self.stats["most"])
        frames = (t * self.fps).tolist()
        got = self.fcurve_rows(frames)
        near_t = [bw.frame_step(t, self.fps, d) for d in (-2, -1, 1, 2)]
        self.compare(anim["name"], t, kinds, got, lambda i: self.expected(i, by_node, t),
                     bw.unresolvable_own(self.doc, by_node, t, self.fps),
                     lambda i: [self.expected(i, by_node, tt) for tt in near_t])
        self.check_scene(anim["name"], t, kinds, frames, got)
        self.check_world(anim["name"], t, kinds, frames, by_node)

    def check_world(self, clip, t, kinds, frames, by_node):
        """Bones and corrected objects: Blender's world matrices (from its F-curves, and the
        evaluated scene at the first, middle and last sample) against the JSON's composed
        world matrices with the importer's correction (blender_world.py)."""
        if not self.world_nodes:
            return
        objs = {i: self.objects[i] for i in self.world_nodes if i not in self.rig.bones}
        got = self.rig.worlds(objs, frames)
        want = bw.expected_worlds(self.doc, by_node, t, self.fps)
        # Blender interpolates in float32 on a float32 frame axis: late in a
        # long clip its result may be the curve a float32 frame step or two
        # away (3e-5 frames at frame 357). Those neighbours' expectations pass.
        near = [bw.expected_worlds(self.doc, by_node, bw.frame_step(t, self.fps, d), self.fps) for d in (-2, -1, 1, 2)]
        skip = bw.unresolvable(self.doc, by_node, t, self.fps)
        extra = len(self.objects) - len(want)  # the trailing bake_data node rests at identity
        if extra > 0:
            rest = ex.np.tile(ex.np.eye(4), (extra, len(t), 1, 1))
            want = ex.np.concatenate([want, rest])
            near = [ex.np.concatenate([n, rest]) for n in near]
            skip = ex.np.concatenate([skip, ex.np.zeros((extra, len(t)), dtype=bool)])
        samples = [q for q, k in enumerate(kinds) if k == "sample"]
        for i in self.world_nodes:
            keep = ex.np.nonzero(~skip[i])[0]
            self.stats["unresolvable"] += len(t) - len(keep)
            w = want[i] @ self.rig.rb[i]
            self.stats["comparisons"] += len(keep)
            dev = bw.matrix_deviation(got[i][keep], w[keep])
            for n in near:
                dev = ex.np.minimum(dev, bw.matrix_deviation(got[i][keep], (n[i] @ self.rig.rb[i])[keep]))
            self.failures.add(clip, self.names[i], "world", t[keep], [kinds[q] for q in keep], dev,
                              got[i][keep].reshape(-1, 16), w[keep].reshape(-1, 16))
            if i in self.rig.bones:
                kept = [q for q in samples if not skip[i][q]]
                self.heads = max(self.heads, bw.heads_distance(got[i][kept], w[kept]))
        for q in sorted({samples[0], samples[len(samples) // 2], samples[-1]}):
            set_frame(self.scene, frames[q])
            shown = self.rig.scene_worlds(objs, bpy.context.evaluated_depsgraph_get())
            for i in self.world_nodes:
                dev = bw.matrix_deviation(shown[i][None], got[i][q:q + 1])
                self.failures.add(clip, self.names[i], "scene", t[q:q + 1], kinds[q:q + 1], dev,
                                  shown[i].reshape(1, 16), got[i][q].reshape(1, 16))

    def report(self):
        for p in dict.fromkeys(self.problems):
            print(f"{self.path}: {p}", file=sys.stderr)
        self.failures.print(self.path)
        rig = getattr(self, "rig", None)
        if rig is not None and rig.bones:
            self.stats["bones"] += len(self.rig.bones)
            self.stats["heads"] = max(self.stats["heads"], self.heads)
        return len(set(self.problems)) + self.failures.count


def main():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    most = 0
    if argv[:1] == ["--sampled"] and len(argv) > 1:
        most, argv = int(argv[1]), argv[2:]
    if not argv:
        print("usage: blender -b --python-exit-code 1 -P blender_check.py -- [--sampled N] DIR_OR_FILE...",
              file=sys.stderr)
        sys.exit(2)
    pairs, unpaired = ex.find_pairs(argv)
    stats = {"files": 0, "clips": 0, "comparisons": 0, "data_channels": 0, "bones": 0, "heads": 0.0,
             "unresolvable": 0, "most": most, "pointer_bug": 0, "merges": bw.merges_keys(), "merged": 0}
    failed = 0
    for gltf_path, json_path in pairs:
        stats["files"] += 1
        failed += FileCheck(gltf_path, json_path, stats).run()
    if unpaired:
        print(f"({len(unpaired)} glTF files without a JSON sibling not checked)")
    bones = ""
    if stats["bones"]:
        bones = f"; {stats['bones']} bones, heads at samples within {stats['heads']:.2g} m of the JSON's world"
    if stats["unresolvable"]:
        bones += (f"; {stats['unresolvable']} queries at jumps Blender cannot resolve "
                  f"(keys < {bw.RESOLUTION} frame apart) not compared")
    if stats["pointer_bug"]:
        bones += (f"; {stats['pointer_bug']} files hit Blender {bpy.app.version_string}'s pointer bug "
                  f"(docs/clients.md) and were checked with the add-on's workaround")
    if stats["merged"]:
        bones += (f"; {stats['merged']} keys within {ex.MERGE_FRAMES} frame of the next merged by Blender "
                  f"(a jump becomes a ramp from the key before), expected so")
    if most:
        bones += f"; at most {most} queries per clip"
    print(f"Blender check: {stats['files']} files, {stats['clips']} clips, {stats['comparisons']} comparisons, "
          f"{failed} failures ({stats['data_channels']} data channels glTF cannot animate not compared; "
          f"Blender {bpy.app.version_string}{bones})")
    if stats["files"] == 0:
        print("no glTF file with a JSON sibling found", file=sys.stderr)
        sys.exit(1)
    sys.exit(1 if failed else 0)


main()
