// Plays every KHR_animation_pointer channel of bake's glTF output in
// three.js (GLTFLoader with Needle's KHR_animation_pointer plugin, in Node)
// and compares the animated property with bake's JSON export of the same
// input at the clip's sampled times (each key time, each midpoint between
// keys and four probes per source frame: expected.mjs queryTimes):
//   - material colour and alpha (baseColorFactor → material.color and
//     .opacity; bake animates alpha, the colour is the material's base
//     colour, in three.js's linear working space);
//   - UV offset and scale of the base-colour and emissive textures
//     (→ map / emissiveMap .offset and .repeat);
//   - node visibility (KHR_node_visibility → .visible; glTF STEP);
//   - light colour and intensity; camera field of view (radians → degrees).
// Kinds the plugin does not play (texture rotation, other texture slots)
// are counted and listed, not failed. Prints counts per kind.
// Usage: node tools/clients/three_pointers.mjs DIR_OR_FILE...
// Exits 1 on any mismatch or load failure.
import './node_images.mjs'; // image decoding in Node, for materials with textures
import { readFile } from 'node:fs/promises';
import { AnimationMixer, LoopOnce, PropertyBinding, MathUtils } from 'three';
import { loadWithPointers } from './three_load.mjs';
import { findPairs } from './pairs.mjs';
import { toFloat32, valueAt, queryTimes } from './expected.mjs';

// three.js reports tracks it cannot bind (a texture rotation the plugin
// leaves unmapped) with console.error; they are counted under their kind.
const warnings = [];
console.warn = (...args) => warnings.push(args.map(String).join(' '));
console.error = (...args) => warnings.push(args.map(String).join(' '));

const TOL = 1e-5;

/** The pointer's kind, as counted and printed. */
function kindOf(ptr) {
  let m;
  if (/^\/nodes\/\d+\/extensions\/KHR_node_visibility\/visible$/.test(ptr)) return 'visibility';
  if (/^\/cameras\/\d+\/perspective\/yfov$/.test(ptr)) return 'camera fov';
  if ((m = ptr.match(/^\/extensions\/KHR_lights_punctual\/lights\/\d+\/(color|intensity)$/))) return `light ${m[1]}`;
  if (/\/baseColorFactor$/.test(ptr)) return 'material colour/alpha';
  if ((m = ptr.match(/^\/materials\/\d+\/(?:pbrMetallicRoughness\/)?(\w+)\/extensions\/KHR_texture_transform\/(\w+)$/))) {
    return `uv ${m[2]} (${m[1]})`;
  }
  return 'other';
}

async function checkFile(pair, problems, kinds, stats) {
  const doc = toFloat32(JSON.parse(await readFile(pair.json, 'utf8')));
  const { gltf, json } = await loadWithPointers(pair.gltf);
  for (let ai = 0; ai < (json.animations ?? []).length; ai++) {
    const ga = json.animations[ai];
    const pointers = ga.channels.map((ch) => ch.target.extensions?.KHR_animation_pointer?.pointer).filter(Boolean);
    if (pointers.length === 0) continue;
    const clip = gltf.animations[ai];
    const janim = doc.animations[ai];
    const mixer = new AnimationMixer(gltf.scene);
    const action = mixer.clipAction(clip);
    action.setLoop(LoopOnce, 1);
    action.clampWhenFinished = true;
    action.play();
    const times = queryTimes(janim).map((q) => q.t);
    for (const ptr of pointers) {
      const kind = kindOf(ptr);
      const k = (kinds[kind] ??= { channels: 0, played: 0, comparisons: 0 });
      k.channels++;
      const probe = await prober(gltf, json, doc, janim, ptr);
      if (probe === null) {
        problems.push(`${pair.gltf}: clip ${ga.name}: pointer ${ptr} has no JSON channel or three.js target`);
        continue;
      }
      if (probe === undefined) continue; // a kind the plugin does not play
      k.played++;
      for (const t of times) {
        action.reset(); // a finished play-once action no longer updates
        mixer.setTime(t);
        const want = probe.want(t);
        const got = probe.read();
        k.comparisons++;
        stats.comparisons++;
        if (got.length !== want.length || !want.every((w, i) => Math.abs(w - got[i]) <= TOL * Math.max(1, Math.abs(w)))) {
          problems.push(`${pair.gltf}: clip ${ga.name}: ${ptr} at t=${t}: three.js ${got} vs bake ${want}`);
          break;
        }
      }
    }
    mixer.stopAllAction();
    mixer.uncacheRoot(gltf.scene);
  }
}

/**
 * How to read a pointer's property in three.js and what bake's JSON says it
 * is at time t: null when the JSON has no channel or three.js no object for
 * it, undefined for a kind the plugin does not play.
 */
async function prober(gltf, json, doc, janim, ptr) {
  let m;
  const find = (pred) => janim.channels.find(pred);
  const at = (channel, map) => (t) => map(valueAt(channel, channel.path, t));
  if ((m = ptr.match(/^\/nodes\/(\d+)\/extensions\/KHR_node_visibility\/visible$/))) {
    const name = json.nodes[+m[1]].name;
    const obj = sceneObject(gltf, name, () => true);
    const channel = find((c) => c.node === name && c.path === 'visibility');
    if (!channel || !obj) return null;
    // glTF visibility is boolean and STEP, whatever the JSON's interpolation.
    const step = { ...channel, interpolation: 'STEP' };
    return { read: () => [obj.visible ? 1 : 0], want: at(step, (v) => [v[0] !== 0 ? 1 : 0]) };
  }
  if ((m = ptr.match(/^\/materials\/(\d+)\/(.*)$/))) {
    const name = json.materials[+m[1]].name;
    const mat = await gltf.parser.getDependency('material', +m[1]);
    const live = () => {
      let found = mat;
      gltf.scene.traverse((o) => {
        if (o.isMesh) for (const x of [].concat(o.material)) if (x.name === name) found = x;
      });
      return found;
    };
    const slot = (s) => (c) => c.material === name && (s === 'baseColor' ? !c.textureSlot || c.textureSlot === 'baseColor' : c.textureSlot === s);
    switch (m[2]) {
      case 'pbrMetallicRoughness/baseColorFactor': {
        const channel = find((c) => c.material === name && c.path === 'alpha');
        const base = (doc.assets?.materials ?? []).find((x) => x.name === name)?.baseColor ?? [1, 1, 1, 1];
        return channel ? { read: () => [...live().color.toArray(), live().opacity], want: at(channel, (v) => [...base.slice(0, 3), v[0]]) } : null;
      }
      case 'pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/offset':
      case 'emissiveTexture/extensions/KHR_texture_transform/offset': {
        const [s, map] = m[2].startsWith('emissive') ? ['emissive', 'emissiveMap'] : ['baseColor', 'map'];
        const channel = find((c) => slot(s)(c) && c.path === 'uvOffset');
        return channel ? { read: () => live()[map].offset.toArray(), want: at(channel, (v) => v) } : null;
      }
      case 'pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/scale':
      case 'emissiveTexture/extensions/KHR_texture_transform/scale': {
        const [s, map] = m[2].startsWith('emissive') ? ['emissive', 'emissiveMap'] : ['baseColor', 'map'];
        const channel = find((c) => slot(s)(c) && c.path === 'uvScale');
        return channel ? { read: () => live()[map].repeat.toArray(), want: at(channel, (v) => v) } : null;
      }
    }
    return undefined; // texture rotation, other slots: the plugin does not play them
  }
  if ((m = ptr.match(/^\/cameras\/(\d+)\/perspective\/yfov$/))) {
    const node = json.nodes.find((n) => n.camera === +m[1]);
    const channel = find((c) => c.node === node?.name && c.path === 'fov');
    const cam = node && sceneObject(gltf, node.name, (o) => o.isCamera);
    return channel && cam ? { read: () => [cam.fov], want: at(channel, (v) => [MathUtils.radToDeg(v[0])]) } : null;
  }
  if ((m = ptr.match(/^\/extensions\/KHR_lights_punctual\/lights\/(\d+)\/(color|intensity)$/))) {
    const node = json.nodes.find((n) => n.extensions?.KHR_lights_punctual?.light === +m[1]);
    const channel = find((c) => c.node === node?.name && c.path === m[2]);
    const light = node && sceneObject(gltf, node.name, (o) => o.isLight);
    if (!light || !channel) return null;
    return m[2] === 'color'
      ? { read: () => light.color.toArray(), want: at(channel, (v) => v) }
      : { read: () => [light.intensity], want: at(channel, (v) => v) };
  }
  return null;
}

/**
 * The object of the loaded scene that an animation track names: three.js
 * binds a pointer track by the sanitised node name, and the loader may
 * have cloned cameras and lights into the scene, so look there.
 */
function sceneObject(gltf, name, accept) {
  const want = PropertyBinding.sanitizeNodeName(name);
  let found = null;
  gltf.scene.traverse((o) => {
    if (!found && o.name === want && accept(o)) found = o;
  });
  return found;
}

const args = process.argv.slice(2);
if (args.length === 0) {
  console.error('usage: node three_pointers.mjs DIR_OR_FILE...');
  process.exit(2);
}
const { pairs } = await findPairs(args);
const problems = [];
const kinds = {};
const stats = { files: 0, comparisons: 0 };
for (const pair of pairs) {
  try {
    await checkFile(pair, problems, kinds, stats);
    stats.files++;
  } catch (err) {
    problems.push(`${pair.gltf}: ${err.stack ?? err}`);
  }
}
for (const p of problems) process.stderr.write(`${p}\n`);
const byKind = Object.entries(kinds)
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([k, v]) => `${k} ${v.channels}/${v.played}/${v.comparisons}`);
console.log(`three.js pointers by kind (channels / played by the plugin / comparisons): ${byKind.join(', ') || 'none'}`);
const channels = Object.values(kinds).reduce((s, v) => s + v.channels, 0);
const played = Object.values(kinds).reduce((s, v) => s + v.played, 0);
console.log(
  `three.js pointers: ${stats.files} files, ${channels} pointer channels (${channels - played} of kinds the plugin does not play), ` +
    `${stats.comparisons} value comparisons; ${problems.length} problems`,
);
process.exit(problems.length > 0 ? 1 : 0);
