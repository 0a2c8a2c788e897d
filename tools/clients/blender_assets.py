"""Imports bake's glTF outputs that carry meshes into Blender (headless,
stock importer) and checks what a user would see against bake's JSON
export: every mesh node is a mesh object (skinned ones deformed by an
armature), its vertices lie within the JSON's position bounds (in Blender's
Z-up axes; Blender drops vertices no index uses), its material slots hold the JSON's materials, and every stored
texture is an image of the JSON's size that Blender can read. Where the
objects stand is blender_check.py's part.

Run: blender -b --factory-startup --python-exit-code 1 -P blender_assets.py -- DIR...
"""

import json
import os
import sys

import bpy

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
from mathutils import Vector

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "blender"))
os.environ["BAKE_IMPORT_REGISTER"] = "0"
import bake_import  # noqa: E402
from blender_expected import find_pairs  # noqa: E402

# Debian's Blender 3.4 importer calls numpy.bool, an alias NumPy 1.24 removed
# (Debian ships 1.24.2), so every mesh import fails with AttributeError
# whatever the file holds. bake's Blender add-on restores the alias; this
# check does the same, as a user of the add-on would have it.
bake_import.restore_numpy_bool()

TOL = 1e-4
pointer_bug = []  # files Blender 4.2-4.3's stock import refuses (its pointer bug)


def gltf_to_blender(v):
    """glTF's +Y-up point in Blender's +Z-up axes (the importer's conversion)."""
    return Vector((v[0], -v[2], v[1]))


def box_of(points):
    lo = Vector([min(p[i] for p in points) for i in range(3)])
    hi = Vector([max(p[i] for p in points) for i in range(3)])
    return lo, hi


def corners(lo, hi):
    return [Vector((x, y, z)) for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])]


def check(pair, problems):
    with open(pair["json"], encoding="utf-8") as f:
        doc = json.load(f)
    assets = doc.get("assets") or {}
    if not assets.get("meshes"):
        return None
    bpy.ops.wm.read_factory_settings(use_empty=True)
    try:
        bpy.ops.import_scene.gltf(filepath=pair["gltf"])
    except RuntimeError as err:
        if not bake_import.is_pointer_bug(err):
            raise
        # Blender 4.2-4.3's pointer bug (docs/clients.md): counted, and the
        # file checked as the add-on imports it.
        pointer_bug.append(pair["gltf"])
        bpy.ops.wm.read_factory_settings(use_empty=True)
        with bake_import.importer_workarounds():
            bpy.ops.import_scene.gltf(filepath=pair["gltf"])
    bpy.context.view_layer.update()
    meshes = {m["name"]: m for m in assets["meshes"]}
    stats = {"objects": 0, "images": 0}
    for n in doc["nodes"]:
        if not n.get("mesh"):
            continue
        obj = bpy.data.objects.get(n["name"])
        if obj is None or obj.type != "MESH":
            problems.append(f"{pair['gltf']}: node {n['name']}: no mesh object in Blender")
            continue
        stats["objects"] += 1
        m = meshes[n["mesh"]]
        lo, hi = box_of([Vector(p["min"]) for p in m["primitives"]] + [Vector(p["max"]) for p in m["primitives"]])
        # The mesh's own vertices in Blender's Z-up axes against the JSON's
        # position bounds: object placement is blender_check.py's job, and
        # the importer poses animated objects at frame 1 of their first
        # action, so world boxes would compare a pose, not the geometry.
        if n.get("skin") and not any(mod.type == "ARMATURE" and mod.object for mod in obj.modifiers):
            problems.append(f"{pair['gltf']}: node {n['name']}: skinned mesh without an armature modifier")
        want = box_of([gltf_to_blender(c) for c in corners(lo, hi)])
        got = box_of([Vector(v.co) for v in obj.data.vertices])
        # Blender keeps only the vertices the indices use (a BFRES vertex
        # buffer also holds the coarser LODs' vertices), so its box must lie
        # inside bake's, which spans every stored vertex, and be no point.
        size = max(1.0, (want[1] - want[0]).length)
        outside = max(max(want[0][k] - got[0][k], got[1][k] - want[1][k], 0.0) for k in range(3)) / size
        if not outside <= TOL or not (got[1] - got[0]).length > 0:
            problems.append(f"{pair['gltf']}: node {n['name']}: Blender box {tuple(got[0])}–{tuple(got[1])} "
                            f"vs bake {tuple(want[0])}–{tuple(want[1])}")
        want_mats = {p["material"] for p in m["primitives"] if p.get("material")}
        got_mats = {s.material.name for s in obj.material_slots if s.material}
        missing = {x for x in want_mats if not any(g == x or g.startswith(x[:60]) for g in got_mats)}
        if missing:
            problems.append(f"{pair['gltf']}: node {n['name']}: materials {sorted(missing)} missing (has {sorted(got_mats)})")
    # Blender makes images for the textures of materials that meshes use.
    used_mats = {p.get("material") for m in assets["meshes"] for p in m["primitives"]}
    used = set()
    for m in assets.get("materials") or []:
        if m["name"] in used_mats:
            for slot in ("baseColorTexture", "normalTexture", "occlusionTexture", "emissiveTexture"):
                if m.get(slot):
                    used.add(m[slot]["texture"])
    for t in assets.get("textures") or []:
        if t["name"] not in used or (t["image"] != "pixels" and not t["image"].startswith("image/")):
            continue
        img = bpy.data.images.get(t["name"])
        if img is None:
            problems.append(f"{pair['gltf']}: texture {t['name']}: no image in Blender")
            continue
        if t.get("width") and tuple(img.size) != (t["width"], t["height"]):
            problems.append(f"{pair['gltf']}: texture {t['name']}: Blender reads {tuple(img.size)}, "
                            f"bake wrote {t['width']}×{t['height']}")
        stats["images"] += 1
    return stats


def main():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    if not argv:
        print("usage: blender -b -P blender_assets.py -- DIR...", file=sys.stderr)
        sys.exit(2)
    pairs = [{"gltf": g, "json": j} for g, j in find_pairs(argv)[0]]
    problems = []
    files = objects = images = 0
    for pair in pairs:
        if not pair["gltf"].endswith(".glb"):
            continue  # the .gltf twin holds the same scene
        try:
            stats = check(pair, problems)
        except Exception as err:  # a file Blender cannot import is a failure
            problems.append(f"{pair['gltf']}: {err!r}")
            continue
        if stats:
            files += 1
            objects += stats["objects"]
            images += stats["images"]
    for p in problems:
        print(p, file=sys.stderr)
    bug = ""
    if pointer_bug:
        bug = (f" ({len(pointer_bug)} files hit Blender {bpy.app.version_string}'s pointer bug, docs/clients.md, "
               f"and were checked with the add-on's workaround)")
    print(f"Blender assets: {files} files with meshes, {objects} mesh objects, {images} images; "
          f"{len(problems)} problems{bug}")
    sys.exit(1 if problems else 0)


main()
