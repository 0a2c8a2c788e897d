"""bake import: play bake's glTF output in Blender at the game's own rate.

Install: Edit > Preferences > Add-ons > Install... > pick this file, then
tick "Import-Export: bake import". Use: File > Import > bake glTF
(.glb/.gltf). Headless:

    blender -b --python-expr "import sys; sys.path.insert(0, 'tools/blender'); \\
        import bake_import; bake_import.register(); bake_import.import_bake('out/Bass.glb')"

or, with the add-on enabled, bpy.ops.import_scene.bake_gltf(filepath=...).

It imports the file with Blender's own glTF importer, then uses the clip
table bake writes in the file's scene extras (`bake`: the file's rate, and
per clip its rate, loop mode, last frame and events, each either in the
clip's entry, on the table when every clip shares it, or left at its
default; docs/clients.md):

- the scene rate is the file's rate, exactly as Blender allows it:
  render.fps / render.fps_base (75.0263... fps is 75 / 0.99965...). The
  importer keys a sample at time × render.fps, a whole number, so a
  fractional rate is imported at the nearest whole rate and every key is
  then moved by the ratio;
- each clip keeps the action(s) the importer made for it (one per object,
  or one on the armature), stashed on an NLA track named after the clip;
  each action and strip gets the clip's frame range (0 to frameEnd),
  and the action is tagged with the clip's name, rate and loop mode;
- repeating and ping-pong clips (bake bakes a ping-pong clip as one whole
  cycle) get a Cycles F-modifier on every F-curve;
- events (ccAnm notes, etc.) become timeline markers named "clip/event" at
  their frame at the scene rate (source frame / sourceFps × fps, rounded:
  markers sit on whole frames);
- the first clip (or the one named) is made active, and the scene's range
  is set to it; show_clip(name) switches to another.

Files without the table (not written by bake) import unchanged.

Works on Blender 3.4 to 5.x. Blender 4.4 made actions layered (F-curves
in layers / strips / channel bags, one slot per animated ID; 5.0 removed
Action.fcurves): action_fcurves and assign_action read and switch actions
either way. Two importer bugs are worked around while the add-on imports:
on Blender 3.4 with NumPy 1.24 (Debian) the numpy.bool alias the importer
needs for meshes is restored; on Blender 4.2-4.3 a KHR_animation_pointer
channel on baseColorFactor (also roughness, metallic, transmission) of a
material whose socket is linked (a texture) raises "'NodeSocket' object
has no attribute 'links'" (animation_pointer.py reads socket.links where
socket.socket.links is meant; fixed in 4.4): the add-on gives the
importer's NodeSocket that attribute, so those channels import; and its
playing of the first clip then stops on a material no mesh uses (it reads
that material's node tree): the add-on imports without it (it shows a
clip itself).

Every property a clip keys is recorded at its imported rest value (the
custom property bake_rest on its ID) before any clip is played; show_clip
puts everything back at rest before it activates a clip, so what the clip
does not key shows its rest pose, not the previous clip's.
"""

import contextlib
import json
import math
import os
import struct

import bpy
from bpy.props import StringProperty
from bpy_extras.io_utils import ImportHelper

bl_info = {
    "name": "bake import",
    "author": "bake",
    "version": (1, 0, 0),
    "blender": (3, 4, 0),
    "location": "File > Import > bake glTF (.glb/.gltf)",
    "description": "Import bake's glTF with the game's frame rate, one action and NLA strip per clip, cyclic loops and event markers",
    "category": "Import-Export",
}

CLIPS_KEY = "bake"
CLIP_PROP = "bake_clip"


def read_gltf_json(path):
    """The JSON part of a .gltf or .glb file."""
    with open(path, "rb") as fh:
        data = fh.read()
    if data[:4] == b"glTF":
        length, kind = struct.unpack_from("<II", data, 12)
        if kind != 0x4E4F534A:  # "JSON"
            raise ValueError("%s: the first GLB chunk is not JSON" % path)
        return json.loads(data[20:20 + length].decode("utf-8"))
    return json.loads(data.decode("utf-8"))


def clip_table(doc):
    """bake's clip table from the file's scene extras, or None."""
    scenes = doc.get("scenes") or []
    scene = scenes[doc.get("scene", 0)] if scenes else {}
    table = (scene.get("extras") or {}).get(CLIPS_KEY)
    if not isinstance(table, dict) or "fps" not in table:
        return None
    return table


def clip_value(table, info, key, default=None):
    """A clip's value for key: its entry's, else the table's (a value every
    clip shares is written once, on the table), else the default."""
    if key in info:
        return info[key]
    return table.get(key, default)


def rate_parts(rate):
    """render.fps (whole) and fps_base with fps / fps_base = rate."""
    fps = max(1, int(round(rate)))
    return fps, fps / rate


def restore_numpy_bool():
    """Blender 3.4's glTF importer calls numpy.bool for every mesh, an alias
    NumPy 1.24 removed (Debian ships Blender 3.4 with NumPy 1.24.2), so a
    file with a mesh fails to import. The alias is the builtin bool."""
    try:
        import numpy
    except ImportError:
        return
    if "bool" not in vars(numpy):
        numpy.bool = bool


def patch_pointer_links():
    """Blender 4.2-4.3's importer reads `socket.links` on its own NodeSocket
    wrapper (animation_pointer.py, baseColorFactor and the other factors of
    a material whose socket is linked) where the Blender socket's links,
    `socket.socket.links`, are meant; the import stops with AttributeError.
    Giving the wrapper that attribute makes the buggy line do what 4.4+
    does. Versions whose wrapper has no such bug never read it."""
    try:
        from io_scene_gltf2.blender.exp.material.search_node_tree import NodeSocket
    except ImportError:  # Blender 3.x: no pointer import at all
        return
    if not hasattr(NodeSocket, "links"):
        NodeSocket.links = property(lambda self: self.socket.links)


# Blender 4.2-4.3's importer stops on bake's pointer channels in two places:
# patch_pointer_links's, and its playing of the first clip, which reads the
# node tree of every material, also of one no mesh uses (restore_animation:
# "'Material' object has no attribute 'blender_nodetree'"; S01 has such).
POINTER_BUGS = ("'NodeSocket' object has no attribute 'links'",
                "'Material' object has no attribute 'blender_nodetree'")


def is_pointer_bug(err):
    """Whether err is one of Blender 4.2-4.3's pointer bugs (POINTER_BUGS)."""
    return any(b in str(err) for b in POINTER_BUGS) and (4, 2) <= tuple(bpy.app.version[:2]) < (4, 4)


@contextlib.contextmanager
def importer_workarounds():
    """For the duration: numpy.bool restored, the importer's NodeSocket given
    `links` (patch_pointer_links), and the importer's playing of the first
    clip switched off, so every property keeps the value the importer gave
    it from the file (its rest) and 4.2-4.3's restore_animation never reads
    the node tree of a material no mesh uses."""
    restore_numpy_bool()
    try:
        from io_scene_gltf2.blender.exp.material.search_node_tree import NodeSocket
    except ImportError:  # Blender 3.x
        NodeSocket = None
    had_links = NodeSocket is None or hasattr(NodeSocket, "links")
    patch_pointer_links()
    animation = importer_animation_class()
    restore = animation.__dict__["restore_animation"]
    animation.restore_animation = staticmethod(lambda gltf, name: None)
    try:
        yield
    finally:
        animation.restore_animation = restore
        if not had_links:
            del NodeSocket.links


def importer_animation_class():
    """The stock importer's BlenderAnimation (its module was renamed in 4.x)."""
    try:
        from io_scene_gltf2.blender.imp.animation import BlenderAnimation
    except ImportError:
        from io_scene_gltf2.blender.imp.gltf2_blender_animation import BlenderAnimation
    return BlenderAnimation


def action_fcurves(action, slot=None):
    """The F-curves of an action: Action.fcurves before Blender 4.4; on 4.4+
    (layered actions; 5.0 removed Action.fcurves) those of every channel bag
    of every strip and layer, or only slot's when slot is given."""
    layers = getattr(action, "layers", None)
    if layers is not None and len(layers) > 0:
        return [fc for layer in layers for strip in layer.strips for bag in getattr(strip, "channelbags", [])
                if slot is None or bag.slot == slot for fc in bag.fcurves]
    return list(getattr(action, "fcurves", []))


def owner_fcurves(owner):
    """The F-curves that animate owner (an ID) now: its active action's,
    its own slot's on Blender 4.4+."""
    ad = getattr(owner, "animation_data", None)
    if ad is None or ad.action is None:
        return []
    return action_fcurves(ad.action, getattr(ad, "action_slot", None))


def assign_action(ad, strip):
    """Makes the NLA strip's action (and on 4.4+ its slot) the active one."""
    if strip is None:
        if getattr(ad, "action_slot", None) is not None and ad.action is not None:
            ad.action_slot = None
        ad.action = None
        return
    ad.action = strip.action
    slot = getattr(strip, "action_slot", None)
    if slot is not None:
        ad.action_slot = slot


def strip_fcurves(strip):
    """The F-curves an NLA strip plays (its slot's on 4.4+)."""
    return action_fcurves(strip.action, getattr(strip, "action_slot", None))


def import_stock(filepath):
    """Blender's own glTF import, with importer_workarounds."""
    with importer_workarounds():
        return bpy.ops.import_scene.gltf(filepath=filepath)


def import_bake(filepath, clip=""):
    """Imports a bake glTF into the current scene and sets it up (see the
    module's doc). Returns {"fps": rate, "clips": [names], "active": name,
    "markers": count}."""
    table = clip_table(read_gltf_json(filepath)) or {}
    scene = bpy.context.scene
    rate = float(table.get("fps") or scene.render.fps / scene.render.fps_base)
    fps, base = rate_parts(rate)
    # The importer keys sample times at t × render.fps and starts its NLA
    # strips at frame_start.
    scene.render.fps, scene.render.fps_base = fps, 1.0
    scene.frame_start = 0
    before = set(bpy.data.actions)
    result = import_stock(filepath)
    if "FINISHED" not in result:
        raise RuntimeError("Blender's glTF importer failed on %s" % filepath)
    new_actions = [a for a in bpy.data.actions if a not in before]
    if abs(fps - rate) > 1e-9 * rate:
        scale = rate / fps
        for action in new_actions:
            for fc in action_fcurves(action):
                for kp in fc.keyframe_points:
                    kp.co.x *= scale
                    kp.handle_left.x *= scale
                    kp.handle_right.x *= scale
                fc.update()
    scene.render.fps, scene.render.fps_base = fps, base
    clips = table.get("clips") or {}
    markers = 0
    for name in sorted(clips):
        info = clips[name]
        end = float(clip_value(table, info, "frameEnd", 0))
        clip_fps = float(clip_value(table, info, "fps", rate))
        loop = clip_value(table, info, "loop", "once")
        source_fps = float(clip_value(table, info, "sourceFps", clip_fps))
        for owner, track in clip_tracks(name):
            for strip in track.strips:
                action = strip.action
                if action is None:
                    continue
                action[CLIP_PROP] = name
                action["bake_fps"] = clip_fps
                action["bake_loop"] = loop
                strip.name = name
                if end > 0:  # a one-sample clip keeps the importer's range
                    action.use_frame_range = True
                    action.frame_start, action.frame_end = 0.0, end
                    strip.action_frame_start, strip.action_frame_end = 0.0, end
                    strip.frame_start = 0.0
                    strip.frame_end = end
                fcurves = strip_fcurves(strip)
                record_rest(owner, fcurves)
                if loop != "once":
                    for fc in fcurves:
                        if not any(m.type == "CYCLES" for m in fc.modifiers):
                            fc.modifiers.new("CYCLES")
        for event in clip_value(table, info, "events", None) or []:
            # An event's frame is the source's: time = frame / sourceFps.
            frame = int(round(float(event.get("frame", 0)) / source_fps * rate))
            scene.timeline_markers.new("%s/%s" % (name, event.get("name", "")), frame=frame)
            markers += 1
    active = clip if clip else (min(clips) if clips else "")
    if active:
        show_clip(active)
    return {"fps": rate, "clips": sorted(clips), "active": active, "markers": markers}


REST_PROP = "bake_rest"


def record_rest(owner, fcurves):
    """Records, in owner's custom property bake_rest (JSON: [data path,
    index, value] rows), the value now held by every property the F-curves
    key, unless already recorded: import_stock leaves every property at
    the rest the importer gave it."""
    rows = json.loads(owner.get(REST_PROP, "[]"))
    have = {(path, index) for path, index, _ in rows}
    for fc in fcurves:
        if (fc.data_path, fc.array_index) in have:
            continue
        try:
            value = owner.path_resolve(fc.data_path)
        except ValueError:
            continue
        if hasattr(value, "__getitem__"):
            value = value[fc.array_index]
        rows.append([fc.data_path, fc.array_index, float(value)])
        have.add((fc.data_path, fc.array_index))
    owner[REST_PROP] = json.dumps(rows)


def put_at_rest(owner):
    """Every property of owner a bake clip keys back at its recorded rest."""
    for path, index, value in json.loads(owner.get(REST_PROP, "[]")):
        try:
            prop = owner.path_resolve(path)
        except ValueError:
            continue
        if hasattr(prop, "__setitem__"):
            prop[index] = value
        else:
            holder, _, attr = path.rpartition(".")
            setattr(owner.path_resolve(holder) if holder else owner, attr, type(prop)(value))


def animated_ids():
    """Every ID that may hold a bake clip's animation: the scene's objects,
    their shape keys, cameras and lights, and materials and their node
    trees (where the importer puts KHR_animation_pointer channels)."""
    seen = set()
    ids = []
    for obj in bpy.context.scene.objects:
        ids.append(obj)
        data = obj.data
        if data is not None and obj.type in ("CAMERA", "LIGHT"):
            ids.append(data)
        keys = getattr(data, "shape_keys", None)
        if keys is not None:
            ids.append(keys)
    for mat in bpy.data.materials:
        ids.append(mat)
        if mat.node_tree is not None:
            ids.append(mat.node_tree)
    for owner in ids:
        if owner.as_pointer() not in seen and getattr(owner, "animation_data", None) is not None:
            seen.add(owner.as_pointer())
            yield owner, owner.animation_data


def clip_tracks(name):
    """(ID, NLA track) for every track the importer made for clip name."""
    for owner, ad in animated_ids():
        for track in ad.nla_tracks:
            if track.name == name:
                yield owner, track


def show_clip(name):
    """Makes clip name the active action of every ID it animates; every ID a
    bake clip animates is first put back at its rest (what this clip does
    not key shows its rest, not the last clip's pose); anything else is left
    alone. Sets the scene range to the clip and shows its frame 0."""
    scene = bpy.context.scene
    end = None
    for owner, ad in animated_ids():
        tracks = [t for t in ad.nla_tracks if t.strips and t.strips[0].action is not None
                  and CLIP_PROP in t.strips[0].action]
        if not tracks:
            continue  # not moved by any bake clip: left alone
        assign_action(ad, None)
        put_at_rest(owner)
        for track in tracks:
            if track.name == name:
                assign_action(ad, track.strips[0])
                end = track.strips[0].action.frame_end
    if end is None:
        raise KeyError("no clip named %r" % name)
    scene.frame_start = 0
    scene.frame_end = max(0, int(math.ceil(end - 1e-6)))
    scene.frame_set(0)


class ImportBakeGLTF(bpy.types.Operator, ImportHelper):
    """Import a bake glTF at the game's frame rate, with one action and NLA strip per clip"""

    bl_idname = "import_scene.bake_gltf"
    bl_label = "Import bake glTF"
    bl_options = {"REGISTER", "UNDO"}

    filter_glob: StringProperty(default="*.glb;*.gltf", options={"HIDDEN"})
    clip: StringProperty(name="Clip", description="Clip to make active (default: the first)", default="")

    def execute(self, context):
        try:
            info = import_bake(self.filepath, self.clip)
        except Exception as err:  # the importer's own errors, a missing clip
            self.report({"ERROR"}, str(err))
            return {"CANCELLED"}
        self.report({"INFO"}, "%d clips at %.6g fps" % (len(info["clips"]), info["fps"]))
        return {"FINISHED"}


def menu_import(self, context):
    self.layout.operator(ImportBakeGLTF.bl_idname, text="bake glTF (.glb/.gltf)")


def register():
    bpy.utils.register_class(ImportBakeGLTF)
    bpy.types.TOPBAR_MT_file_import.append(menu_import)


def unregister():
    bpy.types.TOPBAR_MT_file_import.remove(menu_import)
    bpy.utils.unregister_class(ImportBakeGLTF)


if __name__ == "__main__" and os.environ.get("BAKE_IMPORT_REGISTER", "1") == "1":
    register()
