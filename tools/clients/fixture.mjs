// A hand-written glTF + JSON pair, independent of bake, that exercises what
// the client checks must get right: names three.js sanitises and renames
// ("door.left:1" and "doorleft1" both become "doorleft1"), a .gltf with an
// external .bin and the same content as .glb, LINEAR rotations, STEP
// translations, a static matrix node, a data-only clip on a trailing
// bake_data node, and a data channel glTF cannot animate.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

const S = Math.SQRT1_2;
const C8 = Math.cos(Math.PI / 8);
const S8 = Math.sin(Math.PI / 8);

/** Rest matrix of node "fixed": T(1,2,3) · Rz(90°) · S(2,3,4), column-major. */
export const FIXED_MATRIX = [0, 2, 0, 0, -3, 0, 0, 0, 0, 0, 4, 0, 1, 2, 3, 1];

/** Keys of clip "open": times, rotation of node 0 (0°, 45°, 90° about X), translation of node 1. */
export const OPEN = {
  times: [0, 0.5, 1],
  rotation: [[0, 0, 0, 1], [S8, 0, 0, C8], [S, 0, 0, S]],
  translation: [[0, 0, 0], [1, 2, 3], [4, 5, 6]],
};

function f32(values) {
  return Buffer.from(new Float32Array(values.flat()).buffer);
}

/** The glTF document (without buffer URI) and its binary buffer. */
function gltfParts() {
  const parts = [f32(OPEN.times), f32(OPEN.rotation), f32(OPEN.translation), f32([0, 2]), f32([[1, 1, 1], [1, 1, 1]])];
  const bufferViews = [];
  let off = 0;
  for (const p of parts) {
    bufferViews.push({ buffer: 0, byteOffset: off, byteLength: p.length });
    off += p.length;
  }
  const acc = (view, count, type, bounds) => ({ bufferView: view, componentType: 5126, count, type, ...bounds });
  const doc = {
    asset: { version: '2.0', generator: 'clients fixture' },
    scene: 0,
    scenes: [{ name: 'doorleft1', nodes: [0, 2, 3] }],
    nodes: [
      { name: 'door.left:1', children: [1] },
      { name: 'doorleft1', translation: [0, 0, 0] },
      { name: 'fixed', matrix: FIXED_MATRIX },
      { name: 'bake_data' },
    ],
    buffers: [{ byteLength: off }],
    bufferViews,
    accessors: [
      acc(0, 3, 'SCALAR', { min: [0], max: [1] }),
      acc(1, 3, 'VEC4'),
      acc(2, 3, 'VEC3'),
      acc(3, 2, 'SCALAR', { min: [0], max: [2] }),
      acc(4, 2, 'VEC3'),
    ],
    animations: [
      {
        name: 'open',
        samplers: [
          { input: 0, output: 1, interpolation: 'LINEAR' },
          { input: 0, output: 2, interpolation: 'STEP' },
        ],
        channels: [
          { sampler: 0, target: { node: 0, path: 'rotation' } },
          { sampler: 1, target: { node: 1, path: 'translation' } },
        ],
      },
      {
        name: 'blink',
        samplers: [{ input: 3, output: 4, interpolation: 'STEP' }],
        channels: [{ sampler: 0, target: { node: 3, path: 'scale' } }],
      },
    ],
  };
  return { doc, bin: Buffer.concat(parts) };
}

/** bake's JSON form of the same content. */
export function fixtureJSON() {
  const rest = { translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] };
  const { times, rotation, translation } = structuredClone(OPEN);
  return {
    format: 'bake.animation/1',
    source: { file: 'fixture', format: 'fixture', sha256: '' },
    axes: 'gltf',
    nodes: [
      { name: 'door.left:1', parent: null, ...rest },
      { name: 'doorleft1', parent: 'door.left:1', ...rest },
      { name: 'fixed', parent: null, ...rest, matrix: FIXED_MATRIX },
    ],
    animations: [
      {
        name: 'open', loop: 'once', sourceFps: 2, sourceFrames: 2, fps: 2, duration: 1,
        channels: [
          { node: 'door.left:1', path: 'rotation', interpolation: 'LINEAR', times, values: rotation },
          { node: 'doorleft1', path: 'translation', interpolation: 'STEP', times, values: translation },
        ],
        events: [],
      },
      {
        name: 'blink', loop: 'once', sourceFps: 1, sourceFrames: 2, fps: 1, duration: 2,
        channels: [{ node: 'fixed', path: 'visibility', interpolation: 'STEP', times: [0, 1, 2], values: [[1], [0], [1]] }],
        events: [],
      },
    ],
  };
}

function glb(doc, bin) {
  const pad = (b, fill) => Buffer.concat([b, Buffer.alloc((4 - (b.length % 4)) % 4, fill)]);
  const json = pad(Buffer.from(JSON.stringify(doc)), 0x20);
  const data = pad(bin, 0);
  const header = Buffer.alloc(12);
  header.writeUInt32LE(0x46546c67, 0);
  header.writeUInt32LE(2, 4);
  header.writeUInt32LE(12 + 8 + json.length + 8 + data.length, 8);
  const chunk = (b, type) => {
    const h = Buffer.alloc(8);
    h.writeUInt32LE(b.length, 0);
    h.writeUInt32LE(type, 4);
    return Buffer.concat([h, b]);
  };
  return Buffer.concat([header, chunk(json, 0x4e4f534a), chunk(data, 0x004e4942)]);
}

/** Writes fixture.gltf + fixture.bin, fixture.glb and fixture.json into dir. */
export async function writeFixture(dir, json = fixtureJSON()) {
  await mkdir(dir, { recursive: true });
  const { doc, bin } = gltfParts();
  const text = JSON.stringify(json, null, 1);
  await writeFile(path.join(dir, 'fixture.glb'), glb(doc, bin));
  doc.buffers[0].uri = 'fixture.bin';
  await writeFile(path.join(dir, 'fixture.gltf'), JSON.stringify(doc, null, 1));
  await writeFile(path.join(dir, 'fixture.bin'), bin);
  await writeFile(path.join(dir, 'fixture.json'), text);
}
