"""Pointer animations in Blender: what KHR_animation_pointer channels play.

Blender's importer (4.2 and later; 3.x ignores KHR_animation_pointer)
turns bake's pointer channels into F-curves on the material's node tree,
the light or the camera, stashed on an NLA track per clip like the
objects' actions. For every JSON channel bake writes as a pointer, this
finds those F-curves (by the clip's track on the target) and compares
their values at sampled frames with the JSON's, converted the way the
importer converts them:

- material alpha (baseColorFactor, its colour the material's constant
  base colour): the 'Alpha Factor' Math node's factor (or the Principled
  BSDF's Alpha when the material has no texture) is the alpha, the
  'Color Factor' Mix node's colour (or Base Color) the material's colour;
- UV scale: the texture's Mapping node's Scale; UV offset: its Location,
  (offset.x + scale.y sin r, 1 - offset.y - scale.y cos r) as the importer
  converts it (only when the clip's offset, rotation and scale keys share
  their times; otherwise the importer keys the raw offset: not compared);
- light colour: the light's colour; intensity: its energy, proportional
  (the importer's unit conversion is a constant factor): energy(t) /
  energy(rest) against intensity(t) / intensity(rest);
- camera field of view: lens, proportional to 1 / tan(yfov / 2).

Blender imports no node visibility (KHR_node_visibility) and no UV
rotation it can key faithfully: those are counted as not imported.
"""

import math

import numpy as np

import bake_import
import blender_expected as ex
import bpy

TOLERANCE = 1e-5
QUERIES = 24  # sampled times per channel: keys and midpoints, spread over the clip


def sample_times(channel):
    """Up to QUERIES of the channel's key times and midpoints, first and last kept."""
    keys = sorted(set(channel["times"]))
    t = sorted(set(keys) | {(a + b) / 2 for a, b in zip(keys, keys[1:])})
    if len(t) > QUERIES:
        t = [t[i] for i in sorted(set(np.linspace(0, len(t) - 1, QUERIES).round().astype(int).tolist()))]
    return np.array(t)


def track_fcurves(owner, clip):
    """The F-curves of owner's NLA track for clip ([] when none)."""
    ad = getattr(owner, "animation_data", None)
    if ad is None:
        return []
    for track in ad.nla_tracks:
        if track.name == clip and track.strips and track.strips[0].action is not None:
            return bake_import.strip_fcurves(track.strips[0])
    return []


def socket_of(tree, fc):
    """The node socket an F-curve on a node tree keys (its default_value), or None."""
    path = fc.data_path
    if not path.endswith(".default_value"):
        return None
    try:
        return tree.path_resolve(path[: -len(".default_value")])
    except ValueError:
        return None


def rest_value(owner, path):
    """A keyed property's rest as the add-on recorded it (bake_import.REST_PROP),
    else its value now (the stock import leaves the first clip's)."""
    import json
    for p, index, value in json.loads(owner.get(bake_import.REST_PROP, "[]")):
        if p == path and index == 0:
            return value
    return getattr(owner, path)


class PointerCheck:
    """Compares one imported file's pointer F-curves with its JSON."""

    def __init__(self, doc, fps, merges):
        self.doc, self.fps, self.merges = doc, fps, merges
        self.materials = {m["name"]: m for m in (doc.get("assets") or {}).get("materials") or []}
        self.lights = {l["name"]: l for l in (doc.get("assets") or {}).get("lights") or []}
        self.nodes = {n["name"]: n for n in doc["nodes"]}
        self.counts = {"channels": 0, "comparisons": 0, "not_imported": 0, "kinds": set()}
        self.failures = []
        self.supported = bpy.app.version >= (4, 2, 0)

    def run(self):
        for anim in self.doc["animations"]:
            for c in anim["channels"]:
                if c.get("material"):
                    self.material(anim, c)
                elif c["path"] in ("color", "intensity", "fov", "visibility") and c.get("node"):
                    self.node(anim, c)
        return self

    def expect(self, c, t):
        channel = ex.merge_close_keys(c, self.fps)[0] if self.merges else c
        return ex.values_at(channel, c["path"], t, self.fps)

    def compare(self, anim, c, what, fcs, t, want):
        """fcs[k] (an F-curve or None) against column k of want, at times t."""
        self.counts["channels"] += 1
        self.counts["kinds"].add(what)
        if not self.supported:
            self.counts["not_imported"] += 1  # Blender before 4.2: no pointer import
            return
        if any(fc is None for fc in fcs):
            self.failures.append(f"clip {anim['name']!r} {what} of {c.get('material') or c.get('node')!r}: "
                                 f"no F-curve for it in Blender")
            return
        frames = ex.blender_frames(t, self.fps)
        got = np.array([[fc.evaluate(f) for fc in fcs] for f in frames])
        self.counts["comparisons"] += got.size
        dev = np.abs(got - want)
        if not (dev <= TOLERANCE * np.maximum(1, np.abs(want))).all():
            q = int(np.argmax(dev.max(axis=1)))
            self.failures.append(f"clip {anim['name']!r} {what} of {c.get('material') or c.get('node')!r}: "
                                 f"at t={t[q]:.6g}s Blender {got[q].tolist()} vs JSON {want[q].tolist()}")

    def material(self, anim, c):
        mat = bpy.data.materials.get(c["material"])
        info = self.materials.get(c["material"])
        if c["path"] not in ("alpha", "uvScale", "uvOffset", "uvRotation"):
            return  # bake keeps the others as data (docs/clients.md)
        if info is None:
            return  # no such material in the file: bake keeps the channel as data
        if mat is None or mat.node_tree is None:
            self.counts["channels"] += 1
            self.counts["not_imported"] += 1  # a material no mesh uses: Blender makes none
            return
        tree = mat.node_tree
        fcs = track_fcurves(tree, anim["name"])
        t = sample_times(c)
        if c["path"] == "alpha":
            alpha = [fc for fc in fcs if self.socket_kind(tree, fc) == "alpha"]
            color = {fc.array_index: fc for fc in fcs if self.socket_kind(tree, fc) == "color"}
            if info.get("alphaMode", "OPAQUE") != "OPAQUE":  # glTF ignores an opaque material's alpha
                self.compare(anim, c, "alpha", alpha[:1] or [None], t, self.expect(c, t))
            rgb = np.tile(info["baseColor"][:3], (len(t), 1))
            self.compare(anim, c, "colour", [color.get(k) for k in range(3)], t, rgb)
            return
        slot = (info.get("baseColorTexture") or {})
        mapping = {fc.array_index: fc for fc in fcs if self.socket_of_mapping(tree, fc) == c["path"]}
        if c["path"] == "uvScale":
            self.compare(anim, c, "UV scale", [mapping.get(0), mapping.get(1)], t, self.expect(c, t))
        elif c["path"] == "uvOffset":
            others = [o for o in anim["channels"] if o.get("material") == c["material"]
                      and o["path"] in ("uvScale", "uvRotation")]
            if any(o["times"] != c["times"] for o in others):
                self.counts["not_imported"] += 1  # the importer keys the raw offset then
                return
            by = {o["path"]: o for o in others}
            scale = self.expect(by["uvScale"], t) if "uvScale" in by else np.tile(slot.get("scale", [1, 1]), (len(t), 1))
            rot = self.expect(by["uvRotation"], t)[:, 0] if "uvRotation" in by else np.full(len(t), slot.get("rotation", 0))
            off = self.expect(c, t)
            want = np.stack([off[:, 0] + scale[:, 1] * np.sin(rot), 1 - off[:, 1] - scale[:, 1] * np.cos(rot)], axis=1)
            self.compare(anim, c, "UV offset", [mapping.get(0), mapping.get(1)], t, want)
        else:
            self.counts["not_imported"] += 1  # UV rotation: see the module's doc

    @staticmethod
    def socket_kind(tree, fc):
        s = socket_of(tree, fc)
        if s is None:
            return None
        if s.node.label == "Alpha Factor" or (s.node.type == "BSDF_PRINCIPLED" and s.name == "Alpha"):
            return "alpha"
        if s.node.label == "Color Factor" or (s.node.type == "BSDF_PRINCIPLED" and s.name == "Base Color"):
            return "color"
        return None

    @staticmethod
    def socket_of_mapping(tree, fc):
        s = socket_of(tree, fc)
        if s is None or s.node.type != "MAPPING":
            return None
        return {"Location": "uvOffset", "Scale": "uvScale", "Rotation": "uvRotation"}.get(s.name)

    def node(self, anim, c):
        obj = bpy.data.objects.get(c["node"])
        if c["path"] == "visibility":
            self.counts["channels"] += 1
            self.counts["not_imported"] += 1  # Blender imports no KHR_node_visibility
            return
        if obj is None or obj.type not in ("LIGHT", "CAMERA"):
            return  # bake keeps it as data: not a pointer
        fcs = track_fcurves(obj.data, anim["name"])
        t = sample_times(c)
        want = self.expect(c, t)
        if c["path"] == "color" and obj.type == "LIGHT":
            by = {fc.array_index: fc for fc in fcs if fc.data_path == "color"}
            self.compare(anim, c, "light colour", [by.get(k) for k in range(3)], t, want)
        elif c["path"] == "intensity" and obj.type == "LIGHT":
            rest = self.lights.get(self.nodes[c["node"]].get("light"), {}).get("intensity", 1)
            energy = [fc for fc in fcs if fc.data_path == "energy"]
            self.compare_ratio(anim, c, "light intensity", energy, t, want[:, 0] / rest, rest_value(obj.data, "energy"))
        elif c["path"] == "fov" and obj.type == "CAMERA":
            lens = [fc for fc in fcs if fc.data_path == "lens"]
            rest = self.rest_fov(c["node"])
            ratio = math.tan(rest / 2) / np.tan(want[:, 0] / 2)
            self.compare_ratio(anim, c, "camera field of view", lens, t, ratio, rest_value(obj.data, "lens"))

    def rest_fov(self, node):
        cams = {k["name"]: k for k in (self.doc.get("assets") or {}).get("cameras") or []}
        cam = cams.get(self.nodes[node].get("camera")) or {}
        return cam.get("yfov") or cam.get("fov") or 1.0

    def compare_ratio(self, anim, c, what, fcs, t, ratio, rest_value):
        """A value the importer converts by a constant factor: Blender's value over
        its rest against the JSON's ratio."""
        fcs = fcs[:1] or [None]
        self.compare(anim, c, what, fcs, t, (ratio * rest_value)[:, None])
