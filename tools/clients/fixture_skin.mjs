// A hand-written skinned glTF + JSON pair, independent of bake: a plain
// root node "rig" holding a two-bone chain "hip" → "knee" (knee 1 m above
// the hip), joined by a mesh-less skin, and a clip "bend" that turns the hip
// 90° about Z in one second. Blender makes the chain an armature and three.js
// makes the joints Bones; both checks compare the bones in world space: at
// t = 1 s the knee's head is at (−1, 0, 0) in glTF axes.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

const S = Math.SQRT1_2;

/** Keys of clip "bend": the hip's rotation at 0 and 1 s. */
export const BEND = { times: [0, 1], rotation: [[0, 0, 0, 1], [0, 0, S, S]] };

// Inverse bind matrices (column-major): hip at the origin, knee at (0, 1, 0).
const IBM = [
  [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
  [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1],
];

function f32(values) {
  return Buffer.from(new Float32Array(values.flat()).buffer);
}

function gltfDoc() {
  const parts = [f32(BEND.times), f32(BEND.rotation), f32(IBM)];
  const bufferViews = [];
  let off = 0;
  for (const p of parts) {
    bufferViews.push({ buffer: 0, byteOffset: off, byteLength: p.length });
    off += p.length;
  }
  const doc = {
    asset: { version: '2.0', generator: 'clients skin fixture' },
    scene: 0,
    scenes: [{ name: 'skin', nodes: [0] }],
    nodes: [
      { name: 'rig', children: [1] },
      { name: 'hip', children: [2] },
      { name: 'knee', translation: [0, 1, 0] },
    ],
    skins: [{ name: 'legs', joints: [1, 2], skeleton: 0, inverseBindMatrices: 2 }],
    buffers: [{ byteLength: off }],
    bufferViews,
    accessors: [
      { bufferView: 0, componentType: 5126, count: 2, type: 'SCALAR', min: [0], max: [1] },
      { bufferView: 1, componentType: 5126, count: 2, type: 'VEC4' },
      { bufferView: 2, componentType: 5126, count: 2, type: 'MAT4' },
    ],
    animations: [{
      name: 'bend',
      samplers: [{ input: 0, output: 1, interpolation: 'LINEAR' }],
      channels: [{ sampler: 0, target: { node: 1, path: 'rotation' } }],
    }],
  };
  return { doc, bin: Buffer.concat(parts) };
}

/** bake's JSON form of the same content. */
export function skinFixtureJSON() {
  const rest = { translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] };
  return {
    format: 'bake.animation/1',
    source: { file: 'fixture', format: 'fixture', sha256: '' },
    axes: 'gltf',
    nodes: [
      { name: 'rig', parent: null, ...rest },
      { name: 'hip', parent: 'rig', kind: 'bone', ...rest },
      { name: 'knee', parent: 'hip', kind: 'bone', ...rest, translation: [0, 1, 0] },
    ],
    animations: [{
      name: 'bend', loop: 'once', sourceFps: 1, sourceFrames: 1, fps: 1, duration: 1,
      channels: [{ node: 'hip', path: 'rotation', interpolation: 'LINEAR', times: [...BEND.times], values: structuredClone(BEND.rotation) }],
      events: [],
    }],
  };
}

/** Writes skin.gltf + skin.bin and skin.json into dir. */
export async function writeSkinFixture(dir, json = skinFixtureJSON()) {
  await mkdir(dir, { recursive: true });
  const { doc, bin } = gltfDoc();
  doc.buffers[0].uri = 'skin.bin';
  await writeFile(path.join(dir, 'skin.gltf'), JSON.stringify(doc, null, 1));
  await writeFile(path.join(dir, 'skin.bin'), bin);
  await writeFile(path.join(dir, 'skin.json'), JSON.stringify(json, null, 1));
}
