// Loads bake's glTF output with meshes, materials, textures, cameras and
// lights in three.js (GLTFLoader, with Needle's KHR_animation_pointer
// plugin, in Node) and checks what a user would see against bake's JSON
// export of the same input:
//   - every mesh node carries as many three.js meshes as the JSON has
//     primitives, and its world bounding box at rest equals the JSON's
//     (local position bounds through the node's world matrix; skinned
//     meshes: their bind-space bounds);
//   - every stored texture decodes (PNG inflated and sized, JPEG header
//     read) and every material that binds one has it as its map;
// (KHR_animation_pointer channels are played by three_pointers.mjs.)
// Usage: node tools/clients/three_assets.mjs DIR_OR_FILE...
// Exits 1 on any mismatch or load failure.
import { decodedImages } from './node_images.mjs';
import { readFile } from 'node:fs/promises';
import { Box3, Matrix4, Quaternion, Vector3 } from 'three';
import { loadWithPointers } from './three_load.mjs';
import { findPairs } from './pairs.mjs';
import { toFloat32 } from './expected.mjs';

const warnings = [];
console.warn = (...args) => warnings.push(args.map(String).join(' '));

/** The world matrix of a JSON node from its rest transforms up the chain. */
function worldOf(doc, name, byName) {
  const n = byName.get(name);
  const local = new Matrix4();
  if (n.matrix) local.fromArray(n.matrix);
  else local.compose(new Vector3(...n.translation), new Quaternion(...n.rotation), new Vector3(...n.scale));
  return n.parent === null ? local : worldOf(doc, n.parent, byName).multiply(local);
}

function boxDeviation(got, want) {
  const size = Math.max(1, want.getSize(new Vector3()).length());
  return Math.max(got.min.distanceTo(want.min), got.max.distanceTo(want.max)) / size;
}

const TOL = 1e-4;

async function checkFile(pair, problems) {
  const doc = toFloat32(JSON.parse(await readFile(pair.json, 'utf8')));
  if (!doc.assets) return null;
  const before = decodedImages.length;
  const { gltf, json } = await loadWithPointers(pair.gltf);
  const byName = new Map(doc.nodes.map((n) => [n.name, n]));
  const meshes = new Map((doc.assets.meshes ?? []).map((m) => [m.name, m]));
  const stats = { meshes: 0, textures: 0 };
  gltf.scene.updateMatrixWorld(true);
  // Meshes, by glTF node index (names may be sanitised by three.js).
  for (let i = 0; i < (json.nodes ?? []).length; i++) {
    const jn = byName.get(json.nodes[i].name);
    if (!jn || !jn.mesh) continue;
    const obj = await gltf.parser.getDependency('node', i);
    // A primitive loads as a Mesh, or as LineSegments / Points for lines and points.
    const drawn = (o) => o.isMesh || o.isLine || o.isPoints;
    const objs = drawn(obj) ? [obj] : obj.children.filter((c) => drawn(c) && !json.nodes[i].children?.some((k) => gltf.parser.associations.get(c)?.nodes === k));
    const m = meshes.get(jn.mesh);
    if (objs.length !== m.primitives.length) {
      problems.push(`${pair.gltf}: node ${jn.name}: ${objs.length} three.js objects drawn for ${m.primitives.length} primitives`);
      continue;
    }
    stats.meshes++;
    const want = new Box3();
    for (const p of m.primitives) want.union(new Box3(new Vector3(...p.min), new Vector3(...p.max)));
    const got = new Box3();
    for (const o of objs) {
      // The base positions only: three.js's own bounding box also spans
      // the morph targets.
      const b = new Box3().setFromBufferAttribute(o.geometry.attributes.position);
      got.union(o.isSkinnedMesh ? b : b.applyMatrix4(o.matrixWorld));
    }
    if (!jn.skin) want.applyMatrix4(worldOf(doc, jn.name, byName));
    const dev = boxDeviation(got, want);
    if (!(dev <= TOL)) {
      problems.push(`${pair.gltf}: node ${jn.name}: world box ${fmtBox(got)} vs bake ${fmtBox(want)}`);
    }
  }
  // Textures: every stored image decoded, every bound map present.
  // three.js loads an image when a mesh's material uses it: count those.
  const used = new Set();
  const usedMaterials = new Set();
  for (const m of json.meshes ?? []) for (const p of m.primitives) if (p.material !== undefined) usedMaterials.add(p.material);
  for (const mi of usedMaterials) {
    const m = json.materials[mi];
    for (const info of [m.pbrMetallicRoughness?.baseColorTexture, m.pbrMetallicRoughness?.metallicRoughnessTexture,
      m.normalTexture, m.occlusionTexture, m.emissiveTexture]) {
      if (info) used.add(json.textures[info.index].source);
    }
  }
  const decoded = decodedImages.length - before;
  const external = (json.images ?? []).some((im) => im.uri);
  if (!external && decoded !== used.size) {
    problems.push(`${pair.gltf}: ${decoded} images decoded of the ${used.size} its materials use`);
  }
  stats.textures = decoded;
  const materials = new Map();
  gltf.scene.traverse((o) => {
    if (o.isMesh || o.isLine || o.isPoints) for (const mat of [].concat(o.material)) materials.set(mat.name, mat);
  });
  for (const jm of doc.assets.materials ?? []) {
    const mat = materials.get(jm.name);
    const tex = jm.baseColorTexture && (doc.assets.textures ?? []).find((t) => t.name === jm.baseColorTexture.texture);
    if (mat && tex && tex.image !== 'missing' && !external && !mat.map) {
      problems.push(`${pair.gltf}: material ${jm.name} lost its texture ${tex.name}`);
    }
  }
  return stats;
}

function fmtBox(b) {
  const f = (v) => `(${v.toArray().map((x) => x.toPrecision(6)).join(', ')})`;
  return `${f(b.min)}–${f(b.max)}`;
}

const args = process.argv.slice(2);
if (args.length === 0) {
  console.error('usage: node three_assets.mjs DIR_OR_FILE...');
  process.exit(2);
}
const { pairs } = await findPairs(args);
const problems = [];
const total = { files: 0, meshes: 0, textures: 0 };
for (const pair of pairs) {
  let stats;
  try {
    stats = await checkFile(pair, problems);
  } catch (err) {
    problems.push(`${pair.gltf}: ${err.stack ?? err}`);
    continue;
  }
  if (!stats) continue;
  total.files++;
  for (const k of ['meshes', 'textures']) total[k] += stats[k];
}
for (const p of problems) console.error(p);
console.log(
  `three.js assets: ${total.files} files with assets, ${total.meshes} mesh nodes, ${total.textures} images decoded; ` +
    `${problems.length} problems`,
);
process.exit(problems.length > 0 ? 1 : 0);
