// Plays bake's glTF output in three.js (GLTFLoader + AnimationMixer, in
// Node) and compares every node's local transform with bake's JSON export
// of the same input, at every baked sample time and at every midpoint
// between samples. Usage:
//   node tools/clients/three_check.mjs DIR_OR_FILE...
// Exits 1 on any mismatch, on a file three.js cannot load, or when no
// glTF file with a JSON sibling is found.
import './node_env.mjs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { AnimationMixer, LoopOnce } from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { findPairs } from './pairs.mjs';
import { TRS, toFloat32, restOf, trsChannels, queryTimes, valueAt, threeQuantizedRotationAt, deviation, matrixDeviation } from './expected.mjs';
import { jointIndices, composeWorlds } from './three_bones.mjs';

/** The empty node bake adds for clips that animate no node (see export/gltf). */
const DATA_NODE = 'bake_data';
const IDENTITY = { translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] };

/** three.js's own warnings, collected per file instead of flooding stderr. */
const warnings = [];
console.warn = (...args) => warnings.push(args.map(String).join(' '));

async function loadGLTF(file) {
  const bytes = await readFile(file);
  const data = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const base = pathToFileURL(path.dirname(path.resolve(file))).href + '/';
  return new GLTFLoader().parseAsync(data, base);
}

/** Failures of one file, grouped by clip, node and path, keeping the worst. */
class Failures {
  constructor() {
    this.groups = new Map();
    this.count = 0;
  }
  add(clip, node, path, t, kind, dev, got, want) {
    this.count++;
    // A copy: got may be three.js's live matrix, which the next pose overwrites.
    got = Array.from(got);
    const key = `${clip}\u0000${node}\u0000${path}`;
    const g = this.groups.get(key);
    if (!g) this.groups.set(key, { clip, node, path, n: 1, first: t, worst: { t, kind, dev, got, want } });
    else {
      g.n++;
      if (!(g.worst.dev >= dev)) g.worst = { t, kind, dev, got, want };
    }
  }
  print(file) {
    for (const g of this.groups.values()) {
      const w = g.worst;
      console.error(
        `${file}: clip ${JSON.stringify(g.clip)} node ${JSON.stringify(g.node)} ${g.path}: ` +
          `${g.n} mismatches from t=${g.first}s; worst at t=${w.t}s (${w.kind}): ` +
          `three.js ${fmt(w.got)} vs JSON ${fmt(w.want)} (${w.dev.toPrecision(3)}× tolerance)`,
      );
    }
  }
}

function fmt(v) {
  return `[${Array.from(v, (x) => (typeof x === 'number' ? +x.toPrecision(9) : x)).join(', ')}]`;
}

function localTRS(obj) {
  return { translation: obj.position.toArray(), rotation: obj.quaternion.toArray(), scale: obj.scale.toArray() };
}

/**
 * Checks that three.js built the node tree bake wrote: JSON nodes[i] is glTF
 * node i (a trailing bake_data node may follow), with the same parent.
 */
function checkStructure(doc, gltf, objects, problems) {
  const gnodes = gltf.parser.json.nodes ?? [];
  for (let i = doc.nodes.length; i < gnodes.length; i++) {
    if (gnodes[i].name !== DATA_NODE) problems.push(`glTF node ${i} ${JSON.stringify(gnodes[i].name)} is not in the JSON`);
  }
  if (gnodes.length < doc.nodes.length) problems.push(`glTF has ${gnodes.length} nodes, JSON ${doc.nodes.length}`);
  const index = new Map(doc.nodes.map((n, i) => [n.name, i]));
  doc.nodes.forEach((n, i) => {
    if (i >= gnodes.length) return;
    if (gnodes[i].name !== n.name) problems.push(`node ${i}: glTF ${JSON.stringify(gnodes[i].name)}, JSON ${JSON.stringify(n.name)}`);
    const want = n.parent === null ? gltf.scene : objects[index.get(n.parent)];
    if (objects[i].parent !== want) problems.push(`node ${JSON.stringify(n.name)}: three.js parent is not ${JSON.stringify(n.parent)}`);
  });
}

/** Compares every node's transform with `expect(i, path)` (or its matrix), and
 * every bone's world matrix with the composed expectation (three_bones.mjs). */
function compareNodes(doc, objects, extra, expect, where, stats, failures, bones) {
  doc.nodes.forEach((n, i) => {
    const obj = objects[i];
    if (n.matrix) {
      obj.updateMatrix();
      const dev = matrixDeviation(obj.matrix.elements, n.matrix);
      stats.comparisons++;
      if (!(dev <= 1)) failures.add(where.clip, n.name, 'matrix', where.t, where.kind, dev, obj.matrix.elements, n.matrix);
      return;
    }
    const got = localTRS(obj);
    for (const p of Object.keys(TRS)) {
      const want = expect(i, p);
      const dev = deviation(p, got[p], want);
      stats.comparisons++;
      if (!(dev <= 1)) failures.add(where.clip, n.name, p, where.t, where.kind, dev, got[p], want);
    }
  });
  if (bones && bones.joints.size > 0) {
    bones.scene.updateMatrixWorld(true);
    const worlds = composeWorlds(doc, (i) =>
      doc.nodes[i].matrix ? null : { translation: expect(i, 'translation'), rotation: expect(i, 'rotation'), scale: expect(i, 'scale') });
    for (const i of bones.joints) {
      if (i >= doc.nodes.length) continue;
      const got = objects[i].matrixWorld.elements;
      const dev = matrixDeviation(got, worlds[i]);
      stats.comparisons++;
      if (!(dev <= 1)) failures.add(where.clip, doc.nodes[i].name, 'world', where.t, where.kind, dev, got, worlds[i]);
    }
  }
  for (const obj of extra) {
    const got = localTRS(obj);
    for (const p of Object.keys(TRS)) {
      const dev = deviation(p, got[p], IDENTITY[p]);
      stats.comparisons++;
      if (!(dev <= 1)) failures.add(where.clip, DATA_NODE, p, where.t, where.kind, dev, got[p], IDENTITY[p]);
    }
  }
}

/**
 * Names of the nodes whose rotation glTF animation ga (JSON) writes as
 * normalized integers: three.js plays those as threeQuantizedRotationAt says.
 */
function quantizedRotations(json, ga) {
  const names = new Set();
  for (const ch of ga?.channels ?? []) {
    const acc = json.accessors?.[ga.samplers?.[ch.sampler]?.output];
    if (ch.target?.path === 'rotation' && ch.target.node !== undefined && acc?.normalized && acc.componentType !== 5126) {
      names.add(json.nodes[ch.target.node].name);
    }
  }
  return names;
}

/** Plays one clip (LoopOnce, clamped) and compares at every query time. */
function checkClip(doc, anim, clip, gltf, objects, extra, stats, failures, bones, quantized) {
  const { byNode } = trsChannels(doc, anim);
  const rests = doc.nodes.map(restOf);
  const mixer = new AnimationMixer(gltf.scene);
  const action = mixer.clipAction(clip);
  action.setLoop(LoopOnce, 1);
  action.clampWhenFinished = true;
  action.play();
  for (const q of queryTimes(anim)) {
    action.reset();
    mixer.setTime(q.t);
    const expect = (i, p) => {
      const c = byNode.get(doc.nodes[i].name)?.[p];
      if (c && p === 'rotation' && c.interpolation === 'LINEAR' && quantized.has(doc.nodes[i].name)) {
        return threeQuantizedRotationAt(c, q.t);
      }
      return c ? valueAt(c, p, q.t) : rests[i][p];
    };
    compareNodes(doc, objects, extra, expect, { clip: anim.name, t: q.t, kind: q.kind }, stats, failures, bones);
  }
  action.stop();
  mixer.uncacheRoot(gltf.scene);
}

async function checkFile(pair, stats) {
  const failures = new Failures();
  const problems = [];
  warnings.length = 0;
  let gltf;
  const doc = toFloat32(JSON.parse(await readFile(pair.json, 'utf8')));
  try {
    gltf = await loadGLTF(pair.gltf);
  } catch (err) {
    console.error(`${pair.gltf}: three.js cannot load it: ${err?.stack ?? err}`);
    return 1;
  }
  const gnodes = gltf.parser.json.nodes ?? [];
  const objects = await Promise.all(doc.nodes.map((_, i) => (i < gnodes.length ? gltf.parser.getDependency('node', i) : null)));
  const extra = [];
  for (let i = doc.nodes.length; i < gnodes.length; i++) extra.push(await gltf.parser.getDependency('node', i));
  checkStructure(doc, gltf, objects, problems);
  // Joints of a skin (with or without a mesh) must be Bones.
  const bones = { scene: gltf.scene, joints: jointIndices(gltf.parser.json) };
  for (const i of bones.joints) {
    if (i < doc.nodes.length && !objects[i]?.isBone) {
      problems.push(`node ${JSON.stringify(doc.nodes[i].name)} is a joint but three.js did not make it a Bone`);
    }
  }
  stats.bones += bones.joints.size;
  if (problems.length === 0) {
    const rests = doc.nodes.map(restOf);
    compareNodes(doc, objects, extra, (i, p) => rests[i][p], { clip: '(rest)', t: 0, kind: 'rest' }, stats, failures, bones);
    if (gltf.animations.length !== doc.animations.length) {
      problems.push(`three.js has ${gltf.animations.length} clips, JSON ${doc.animations.length}`);
    }
    doc.animations.forEach((anim, ai) => {
      const clip = gltf.animations[ai];
      if (!clip) return;
      if (clip.name !== anim.name) problems.push(`clip ${ai}: three.js ${JSON.stringify(clip.name)}, JSON ${JSON.stringify(anim.name)}`);
      // A looping player wraps at the clip's duration: it must be the JSON's.
      if (clip.duration !== anim.duration) {
        problems.push(`clip ${JSON.stringify(anim.name)}: three.js duration ${clip.duration}s, JSON ${anim.duration}s`);
      }
      stats.clips++;
      stats.dataChannels += trsChannels(doc, anim).data;
      const quantized = quantizedRotations(gltf.parser.json, gltf.parser.json.animations?.[ai]);
      stats.quantized += quantized.size;
      checkClip(doc, anim, clip, gltf, objects, extra, stats, failures, bones, quantized);
    });
  }
  for (const p of problems) console.error(`${pair.gltf}: ${p}`);
  failures.print(pair.gltf);
  const unique = [...new Set(warnings)];
  for (const w of unique) console.error(`${pair.gltf}: three.js warning: ${w}`);
  return problems.length + failures.count;
}

async function main() {
  const roots = process.argv.slice(2);
  if (roots.length === 0) {
    console.error('usage: node three_check.mjs DIR_OR_FILE...');
    process.exit(2);
  }
  const { pairs, unpaired } = await findPairs(roots);
  const stats = { files: 0, clips: 0, comparisons: 0, dataChannels: 0, bones: 0, quantized: 0 };
  let failed = 0;
  for (const pair of pairs) {
    stats.files++;
    failed += await checkFile(pair, stats);
  }
  if (unpaired.length > 0) console.log(`(${unpaired.length} glTF files without a JSON sibling not checked)`);
  console.log(
    `three.js check: ${stats.files} files, ${stats.clips} clips, ${stats.comparisons} comparisons, ${failed} failures` +
      ` (${stats.dataChannels} data channels glTF cannot animate not compared; ${stats.quantized} 16-bit rotation channels` +
      `${stats.bones ? `; ${stats.bones} joints as Bones, world matrices compared` : ''})`,
  );
  if (stats.files === 0) {
    console.error('no glTF file with a JSON sibling found');
    process.exit(1);
  }
  process.exit(failed > 0 ? 1 : 0);
}

await main();
