"""What a glTF client must show, from bake's JSON export alone, in numpy.

The same rules as expected.mjs (glTF 2.0 §3.11 and Appendix C: LINEAR is
component-wise lerp and slerp the short way for rotations, STEP holds the
earlier key, ends are held), evaluated for all query times of a clip at
once, and the glTF-to-Blender axis change of Blender's importer.
"""

import math
import os
from array import array

import numpy as np

TRS = {"translation": 3, "rotation": 4, "scale": 3}
TOLERANCE = 1e-5
IDENTITY = {"translation": [0, 0, 0], "rotation": [0, 0, 0, 1], "scale": [1, 1, 1]}

# Columns of a node's row in Blender's order: location x y z, rotation w x y z, scale x y z.
COLUMNS = {"translation": slice(0, 3), "rotation": slice(3, 7), "scale": slice(7, 10)}
BLENDER_PATHS = {"location": 0, "rotation_quaternion": 3, "scale": 7}


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
    """Numbers rounded to float32; None (bake's NaN) becomes NaN."""
    return array("f", [math.nan if v is None else v for v in values]).tolist()


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


# Blender 4.3 and 5.2 (not 3.4) merge the keys of an F-curve that lie within
# this many frames of each other when the importer calls FCurve.update(),
# keeping the last one's value (BEZT_BINARYSEARCH_THRESH).
MERGE_FRAMES = 0.01


def merge_close_keys(channel, fps):
    """The channel as Blender 4.3+ keeps it: of each run of keys closer than
    MERGE_FRAMES on Blender's frame axis, the last. A jump that bake writes
    as two keys one float32 step apart so becomes a ramp from the key
    before. Returns (channel, number of keys dropped)."""
    frames = blender_frames(channel["times"], fps)
    keep = np.append(np.diff(frames) >= MERGE_FRAMES, True)
    if keep.all():
        return channel, 0
    idx = np.nonzero(keep)[0]
    return dict(channel, times=[channel["times"][i] for i in idx],
                values=[channel["values"][i] for i in idx]), int(len(keep) - len(idx))


PROBES_PER_FRAME = 4  # bake's fidelity metric's regular probes (docs/fidelity.md)


def query_times(anim):
    """Every key time of the clip, each midpoint, and the fidelity metric's
    regular probes (PROBES_PER_FRAME per source frame, float32 seconds), with
    'sample'/'midpoint'/'probe', in time order."""
    keyset = {t for c in anim["channels"] for t in c["times"]}
    samples = sorted(keyset)
    if not samples:
        samples = sorted({0.0, anim["duration"]})
    pairs = []
    for i, t in enumerate(samples):
        pairs.append((t, "sample"))
        if i + 1 < len(samples):
            pairs.append(((t + samples[i + 1]) / 2, "midpoint"))
    rate = PROBES_PER_FRAME * (anim.get("sourceFps") or 0)
    k = 0
    while rate > 0 and k / rate < anim["duration"]:
        t = float(np.float32(k / rate))
        if t not in keyset:
            pairs.append((t, "probe"))
        k += 1
    pairs.sort(key=lambda p: p[0])
    return np.array([p[0] for p in pairs]), [p[1] for p in pairs]


def slerp_rows(a, b, u):
    """Row-wise slerp of unit quaternions the short way (glTF 2.0, Appendix C)."""
    dot = np.sum(a * b, axis=1)
    b = np.where((dot < 0)[:, None], -b, b)
    dot = np.abs(dot)
    near = dot > 1 - 1e-12
    theta = np.arccos(np.clip(dot, -1, 1))
    with np.errstate(divide="ignore", invalid="ignore"):
        sin = np.sin(theta)
        sa = np.where(near, 1 - u, np.sin((1 - u) * theta) / sin)
        sb = np.where(near, u, np.sin(u * theta) / sin)
    q = sa[:, None] * a + sb[:, None] * b
    norm = np.where(near, np.linalg.norm(q, axis=1), 1.0)
    return q / norm[:, None]


def blender_frames(seconds, fps):
    """Where Blender puts a time: its importer keys frame float32(t x fps) (F-curve
    key positions are float32) and evaluates at a float32 frame too."""
    return (np.asarray(seconds, dtype=float) * fps).astype(np.float32).astype(float)


def values_at(channel, path, t, fps=None, rotation_blend=None):
    """The channel's values at every time in t (shape len(t) x width).

    rotation_blend chooses how rotations go between keys: nlerp_rows
    (Blender's F-curves, the default) or slerp_rows (glTF, Godot).

    With fps, key times and query times are first put on Blender's float32
    frame axis (blender_frames): past frame 1024 one float32 step is 1.2e-4
    frames, which moves a midpoint off u = 0.5 by up to 3e-4 of a 0.4-frame
    sample step, 5 tolerances on the fast Ballance ball; that is Blender's
    own time resolution, not the glTF's, so the expectation follows it.
    """
    times = np.array(channel["times"], dtype=float)
    if fps is not None:
        times, t = blender_frames(times, fps), blender_frames(t, fps)
    values = np.array(channel["values"], dtype=float).reshape(len(times), -1)
    last = len(times) - 1
    lo = np.clip(np.searchsorted(times, t, side="right") - 1, 0, last)
    hi = np.minimum(lo + 1, last)
    out = values[lo].copy()
    if channel["interpolation"] == "STEP":
        return out
    inside = (t > times[0]) & (t < times[last]) & (times[lo] != t)
    if not inside.any():
        return out
    lo, hi = lo[inside], hi[inside]
    u = (t[inside] - times[lo]) / (times[hi] - times[lo])
    a, b = values[lo], values[hi]
    blend = rotation_blend or nlerp_rows
    out[inside] = blend(a, b, u) if path == "rotation" else a + (b - a) * u[:, None]
    return out


def nlerp_rows(a, b, u):
    """What Blender's quaternion F-curves give between two keys (the importer
    flips them to the short way): component-wise lerp, normalised. Equal to
    slerp at midpoints only; bake keeps neighbouring keys close enough that
    the two agree within its tolerance (docs/fidelity.md)."""
    dot = np.sum(a * b, axis=1)
    b = np.where((dot < 0)[:, None], -b, b)
    q = a + (b - a) * u[:, None]
    return q / np.linalg.norm(q, axis=1)[:, None]


def slerp_rows(a, b, u):
    """glTF's LINEAR rotation (spherical, the short way), what Godot and
    three.js play between two keys."""
    dot = np.sum(a * b, axis=1)
    b = np.where((dot < 0)[:, None], -b, b)
    dot = np.clip(np.abs(dot), 0.0, 1.0)
    theta = np.arccos(dot)
    s = np.sin(theta)
    small = s < 1e-9
    with np.errstate(invalid="ignore", divide="ignore"):
        wa = np.where(small, 1 - u, np.sin((1 - u) * theta) / np.where(small, 1, s))
        wb = np.where(small, u, np.sin(u * theta) / np.where(small, 1, s))
    q = wa[:, None] * a + wb[:, None] * b
    return q / np.linalg.norm(q, axis=1)[:, None]


def to_blender(path, v):
    """glTF translation / rotation (x,y,z,w) / scale rows in Blender's Z-up axes,
    as io_scene_gltf2's importer converts them: (x, y, z) -> (x, -z, y)."""
    v = np.asarray(v, dtype=float)
    if path == "translation":
        return np.stack([v[..., 0], -v[..., 2], v[..., 1]], axis=-1)
    if path == "rotation":
        return np.stack([v[..., 3], v[..., 0], -v[..., 2], v[..., 1]], axis=-1)
    return np.stack([v[..., 0], v[..., 2], v[..., 1]], axis=-1)


def matrix_to_blender(m):
    """A column-major glTF matrix as Blender's row-major 4x4 rows: C · M · C⁻¹."""
    return [
        [m[0], -m[8], m[4], m[12]],
        [-m[2], m[10], -m[6], -m[14]],
        [m[1], -m[9], m[5], m[13]],
        [m[3], -m[11], m[7], m[15]],
    ]


def deviation(path, got, want):
    """Distance in units of the tolerance along the last axis (<= 1 passes).

    Rotations are compared sign-free; translations, scales and matrices
    relative above magnitude 1; anything not finite never passes.
    """
    got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    with np.errstate(invalid="ignore"):
        if path == "rotation":
            dev = np.minimum(np.max(np.abs(got - want), axis=-1), np.max(np.abs(got + want), axis=-1)) / TOLERANCE
        else:
            dev = np.max(np.abs(got - want) / (TOLERANCE * np.maximum(1.0, np.abs(want))), axis=-1)
    bad = ~np.all(np.isfinite(got), axis=-1) | ~np.all(np.isfinite(want), axis=-1)
    return np.where(bad, np.inf, dev)


def normalized_rotations(rows):
    """Rows with their rotation columns normalised (Blender does not normalise
    an interpolated quaternion; it normalises when it builds the matrix)."""
    q = rows[..., 3:7]
    n = np.linalg.norm(q, axis=-1, keepdims=True)
    out = rows.copy()
    with np.errstate(invalid="ignore", divide="ignore"):
        out[..., 3:7] = np.where(n > 0, q / n, q)
    return out
