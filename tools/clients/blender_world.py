"""World-space part of the Blender check: bones and corrected objects.

Blender's glTF importer turns the joints of a skin (and the nodes between
the armature and a joint) into bones of one armature, and rotates every
edit bone (bone_heuristic BLENDER: +90 degrees about X) or camera and light
(camera_correction) so that their local values are no longer glTF's. A node
keeps its world pose through all of that: Blender shows

    world_blender = C . world_gltf . C^-1 . Rb

where C is the glTF-to-Blender axis change ((x, y, z) -> (x, -z, y)) and Rb
the node's own correction (the importer's vnode.rotation_before; a child's
rotation_after cancels its parent's Rb). So these nodes are compared as
world matrices, never as raw pose values: the expected world matrix is the
JSON's local transforms composed down the hierarchy (glTF 2.0 section
3.5.3), and Blender's comes from its own F-curves composed with Blender's
own rules (pose bone: parent pose . parent rest^-1 . rest . basis; object:
parent world . parent inverse . basis, at the bone's tail for a bone
parent), checked against the evaluated scene at three frames per clip.
"""

import numpy as np

import blender_expected as ex

# glTF -> Blender axes: x -> x, y -> z, z -> -y.
C = np.array([[1.0, 0, 0, 0], [0, 0, -1, 0], [0, 1, 0, 0], [0, 0, 0, 1]])
BONE_PROPS = {"location": 0, "rotation_quaternion": 3, "scale": 7}


def trs_matrices(rows):
    """(F, 10) Blender rows (loc, quat w x y z, scale) -> (F, 4, 4) T.R.S."""
    t, q, s = rows[:, 0:3], rows[:, 3:7], rows[:, 7:10]
    n = np.linalg.norm(q, axis=1, keepdims=True)
    q = np.where(n > 0, q / np.where(n > 0, n, 1), np.array([1.0, 0, 0, 0]))
    w, x, y, z = q[:, 0], q[:, 1], q[:, 2], q[:, 3]
    m = np.zeros((len(rows), 4, 4))
    m[:, 0, 0] = 1 - 2 * (y * y + z * z)
    m[:, 0, 1] = 2 * (x * y - z * w)
    m[:, 0, 2] = 2 * (x * z + y * w)
    m[:, 1, 0] = 2 * (x * y + z * w)
    m[:, 1, 1] = 1 - 2 * (x * x + z * z)
    m[:, 1, 2] = 2 * (y * z - x * w)
    m[:, 2, 0] = 2 * (x * z - y * w)
    m[:, 2, 1] = 2 * (y * z + x * w)
    m[:, 2, 2] = 1 - 2 * (x * x + y * y)
    m[:, :3, :3] *= s[:, None, :]
    m[:, :3, 3] = t
    m[:, 3, 3] = 1
    return m


def gltf_trs_matrices(t, q, s):
    """glTF translation, rotation (x y z w) and scale rows -> (F, 4, 4) T.R.S (glTF axes)."""
    rows = np.concatenate([t, q[:, 3:4], q[:, 0:3], s], axis=1)
    return trs_matrices(rows)


def blender_values_at(channel, path, t, fps):
    """A channel's values where Blender evaluates it: on its float32 frame axis
    (blender_expected.blender_frames), and at a key's own value when the frame
    is within RESOLUTION of that key (Blender's evaluation snaps to it)."""
    kf = ex.blender_frames(channel["times"], fps)
    qf = ex.blender_frames(t, fps)
    j = np.clip(np.searchsorted(kf, qf), 1, max(len(kf) - 1, 1))
    for cand in (j - 1, np.minimum(j, len(kf) - 1)):
        near = np.abs(kf[cand] - qf) < RESOLUTION
        qf = np.where(near, kf[cand], qf)
    on_frames = dict(channel, times=kf.tolist())
    return ex.values_at(on_frames, path, qf)


def expected_worlds(doc, by_node, t, fps):
    """Every JSON node's world matrix at the times t, in Blender's axes: (N, F, 4, 4)."""
    nodes = doc["nodes"]
    index = {n["name"]: i for i, n in enumerate(nodes)}
    out = np.empty((len(nodes), len(t), 4, 4))
    for i, n in enumerate(nodes):
        if n.get("matrix"):
            local = np.tile(np.array(n["matrix"], dtype=float).reshape(4, 4).T, (len(t), 1, 1))
        else:
            parts = {}
            for path in ex.TRS:
                c = by_node.get((n["name"], path))
                parts[path] = blender_values_at(c, path, t, fps) if c else np.tile(n[path], (len(t), 1))
            local = gltf_trs_matrices(parts["translation"], parts["rotation"], parts["scale"])
        p = n["parent"]
        out[i] = local if p is None else out[index[p]] @ local
    return C @ out @ C.T


# Blender evaluates an F-curve at a frame within 1e-4 frames of a key as that
# key's value (fcurve_eval_keyframes_interpolate's binary-search threshold),
# so two keys closer than that (a discontinuity written as two keys one
# float32 step apart) cannot both be seen: at such an instant Blender shows
# one of the two values.
RESOLUTION = 1e-4


def frame_step(t, fps, d):
    """The times d float32 frame steps after (d < 0: before) each of t on
    Blender's frame axis (ex.blender_frames)."""
    f = (np.asarray(t, dtype=float) * fps).astype(np.float32)
    for _ in range(abs(d)):
        f = np.nextafter(f, np.float32(np.sign(d) * np.inf))
    return f.astype(float) / fps


def unresolvable_own(doc, by_node, t, fps):
    """(N, F) booleans: queries that fall within RESOLUTION of a pair of the
    node's own keys closer than RESOLUTION on Blender's frame axis, where
    Blender's value is either side of a jump; they are not compared."""
    nodes = doc["nodes"]
    index = {n["name"]: i for i, n in enumerate(nodes)}
    qf = ex.blender_frames(t, fps)
    out = np.zeros((len(nodes), len(t)), dtype=bool)
    for (name, _path), c in by_node.items():
        kf = ex.blender_frames(c["times"], fps)
        for k in np.nonzero(np.diff(kf) < RESOLUTION)[0]:
            out[index[name]] |= (qf >= kf[k] - RESOLUTION) & (qf <= kf[k + 1] + RESOLUTION)
    return out


def unresolvable(doc, by_node, t, fps):
    """unresolvable_own, spread to every descendant (a world matrix jumps
    with its ancestors')."""
    nodes = doc["nodes"]
    index = {n["name"]: i for i, n in enumerate(nodes)}
    out = unresolvable_own(doc, by_node, t, fps)
    for i, n in enumerate(nodes):  # parents come first
        if n["parent"] is not None:
            out[i] |= out[index[n["parent"]]]
    return out


def quat_matrix(q):
    """A mathutils Quaternion as a 4x4 numpy rotation."""
    m = np.eye(4)
    m[:3, :3] = np.array(q.to_matrix())
    return m


class Rig:
    """Blender's side: world matrices of objects and bones from their F-curves."""

    def __init__(self, gltf, bone_type):
        self.gltf = gltf
        self.bone_type = bone_type
        self.bones = {}  # glTF node index -> (armature object, bone name)
        self.rb = {}  # glTF node index -> 4x4 correction Rb
        for i, vnode in gltf.vnodes.items():
            if not isinstance(i, int):
                continue
            self.rb[i] = quat_matrix(vnode.rotation_before)
            if vnode.type == bone_type:
                arma = gltf.vnodes[vnode.bone_arma].blender_object
                self.bones[i] = (arma, vnode.blender_bone_name)
        # Objects' rest rows: the importer plays the first clip onto the
        # objects while importing, so the rest comes from its node table.
        self.object_rest = {}
        for vnode in gltf.vnodes.values():
            obj = getattr(vnode, "blender_object", None)
            if obj is not None:
                t, r, s = vnode.trs()
                self.object_rest[obj.name] = np.array(list(t) + list(r) + list(s), dtype=float)
        self.rest_basis = {}  # (armature name, bone) -> Blender row at the node's rest
        for i, (arma, name) in self.bones.items():
            vnode = gltf.vnodes[i]
            t, r, s = vnode.trs()
            er = vnode.editbone_rot.conjugated()
            loc = er @ (t - vnode.editbone_trans)
            rot = er @ r
            self.rest_basis[(arma.name, name)] = np.array(list(loc) + list(rot) + list(s), dtype=float)

    def armatures(self):
        return list({arma.name: arma for arma, _ in self.bones.values()}.values())

    def put_at_rest(self):
        """Every pose bone back at its node's rest transform, as the importer set it."""
        for (arma_name, name), row in self.rest_basis.items():
            pb = self._arma(arma_name).pose.bones[name]
            pb.location, pb.rotation_quaternion, pb.scale = row[0:3], row[3:7], row[7:10]

    def _arma(self, name):
        for arma, _ in self.bones.values():
            if arma.name == name:
                return arma
        raise KeyError(name)

    def worlds(self, objects, frames):
        """World matrices (F, 4, 4) by glTF node index for the given nodes' objects and
        every bone, from the active actions' F-curves at the frames."""
        self._cache = {}
        self._frames = frames
        out = {}
        for i, (arma, name) in self.bones.items():
            out[i] = self._object_world(arma) @ self._pose(arma, name)
        for i, obj in objects.items():
            out[i] = self._object_world(obj)
        return out

    def _rows(self, owner, prefix, rest):
        """(F, 10) rows of one object's or pose bone's basis, from its F-curves, else rest."""
        rows = np.tile(rest, (len(self._frames), 1)).astype(float)
        import bake_import  # Blender only (the Godot check imports this module in plain Python)

        for fc in bake_import.owner_fcurves(owner):
            if not fc.data_path.startswith(prefix):
                continue
            prop = fc.data_path[len(prefix):]
            col = BONE_PROPS.get(prop)
            if col is not None:
                rows[:, col + fc.array_index] = [fc.evaluate(f) for f in self._frames]
        return rows

    def _object_world(self, obj):
        key = ("object", obj.name)
        if key in self._cache:
            return self._cache[key]
        rest = self.object_rest.get(obj.name)
        if rest is None:
            rest = np.array(list(obj.location) + list(obj.rotation_quaternion) + list(obj.scale), dtype=float)
        local = trs_matrices(self._rows(obj, "", rest))
        mpi = np.array(obj.matrix_parent_inverse)
        if obj.parent is None:
            world = local
        elif obj.parent_type == "BONE" and obj.parent_bone:
            arma = obj.parent
            tail = np.eye(4)
            tail[1, 3] = arma.data.bones[obj.parent_bone].length
            world = self._object_world(arma) @ self._pose(arma, obj.parent_bone) @ tail @ mpi @ local
        else:
            world = self._object_world(obj.parent) @ mpi @ local
        self._cache[key] = world
        return world

    def _pose(self, arma, name):
        """A pose bone's armature-space matrix: parent pose . parent rest^-1 . rest . basis."""
        key = ("bone", arma.name, name)
        if key in self._cache:
            return self._cache[key]
        bone = arma.data.bones[name]
        prefix = 'pose.bones["%s"].' % name.replace("\\", "\\\\").replace('"', '\\"')
        basis = trs_matrices(self._rows(arma, prefix, self.rest_basis[(arma.name, name)]))
        rest = np.array(bone.matrix_local)
        if bone.parent is None:
            m = rest @ basis
        else:
            m = self._pose(arma, bone.parent.name) @ (np.linalg.inv(np.array(bone.parent.matrix_local)) @ rest) @ basis
        self._cache[key] = m
        return m

    def scene_worlds(self, objects, depsgraph):
        """What the evaluated scene shows: world matrices by glTF node index."""
        out = {}
        for i, (arma, name) in self.bones.items():
            a = arma.evaluated_get(depsgraph)
            out[i] = np.array(a.matrix_world) @ np.array(a.pose.bones[name].matrix)
        for i, obj in objects.items():
            out[i] = np.array(obj.evaluated_get(depsgraph).matrix_world)
        return out


def matrix_deviation(got, want):
    """Per-query deviation (in tolerances) of (F, 4, 4) matrices, as the local check's
    matrices, except that the translation column is measured relative to the
    translation's length (above 1), not each component's: Blender composes a
    world matrix in float32, so a small component of a long offset carries the
    rounding of the whole chain (BombHei's foot, 50 units from the origin:
    1.4e-5 off in a component of 0.96, 1.4 tolerances per component, 0.03
    against the offset's length)."""
    n = len(got)
    basis = ex.deviation("matrix", got[:, :3, :3].reshape(n, 9), want[:, :3, :3].reshape(n, 9))
    length = np.maximum(1.0, np.linalg.norm(want[:, :3, 3], axis=1))
    with np.errstate(invalid="ignore"):
        moved = np.max(np.abs(got[:, :3, 3] - want[:, :3, 3]), axis=1) / (ex.TOLERANCE * length)
    moved = np.where(np.all(np.isfinite(got[:, :3, 3]), axis=1), moved, np.inf)
    return np.maximum(basis, moved)


def heads_distance(got, want):
    """Largest distance between bone heads (world translation), in metres."""
    return float(np.max(np.linalg.norm(got[:, :3, 3] - want[:, :3, 3], axis=1))) if len(got) else 0.0


def fmt_matrix(m):
    return "[" + ", ".join(f"{x:.6g}" for x in np.asarray(m).ravel()) + "]"


def merges_keys():
    """Whether this Blender merges an F-curve's keys at one frame on
    FCurve.update() (4.3 and 5.2 do, 3.4 does not; blender_expected.MERGE_FRAMES):
    two keys at frame 1 on a throwaway F-curve, updated, counted."""
    import bpy  # Blender only, as in Rig._rows

    action = bpy.data.actions.new("bake_merge_probe")
    try:
        if hasattr(action, "fcurve_ensure_for_datablock"):  # Blender 4.4+: layered actions
            obj = bpy.data.objects.new("bake_merge_probe", None)
            try:
                obj.animation_data_create().action = action
                fc = action.fcurve_ensure_for_datablock(obj, "location", index=0)
                return count_after_update(fc) == 1
            finally:
                bpy.data.objects.remove(obj)
        return count_after_update(action.fcurves.new("location", index=0)) == 1
    finally:
        bpy.data.actions.remove(action)


def count_after_update(fc):
    fc.keyframe_points.add(2)
    fc.keyframe_points.foreach_set("co", [1.0, 0.0, 1.0, 1.0])
    fc.update()
    return len(fc.keyframe_points)
