// Checks skinning in three.js against an independent CPU skinning: for the
// first three clips of a bake GLB, at the first, middle and last key time,
// every vertex of every SkinnedMesh as three.js computes it
// (SkinnedMesh.applyBoneTransform, then the mesh's world matrix) must equal
//   Σ weight · W_joint · IBM_joint · position
// where W_joint is the joint node's world matrix that `bake eval --world
// --axes gltf` prints for the same input at the same time, and IBM, joint
// indices, weights and positions are the glTF file's own accessors.
//
// Usage: node tools/clients/three_skinning.mjs BAKE INPUT GLB [--frames CLIP,CLIP,...] [BAKE EVAL FLAGS...]
//   BAKE   the bake binary; INPUT the file bake converted into GLB.
//   --frames  instead, the named clips at every source frame k/sourceFps
//             (float64, as an application asks for frame k), where error-
//             bounded keys promise the tolerance: 1e-4 m (issue 20).
// Exits 1 when a vertex is further than 1e-5 (metres; 1e-4 with --frames)
// from its reference.
import './node_env.mjs';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { AnimationMixer, LoopOnce, Matrix4, Vector3, Vector4 } from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';

const [bake, input, glb, ...rest] = process.argv.slice(2);
let frameClips = null;
const extra = [];
for (let i = 0; i < rest.length; i++) {
  if (rest[i] === '--frames') frameClips = rest[++i].split(',');
  else extra.push(rest[i]);
}
const TOL = frameClips ? 1e-4 : 1e-5;
if (!glb) {
  console.error('usage: node three_skinning.mjs BAKE INPUT GLB [eval flags...]');
  process.exit(2);
}

const bytes = await readFile(glb);
const json = JSON.parse(bytes.subarray(20, 20 + bytes.readUInt32LE(12)).toString('utf8'));
const gltf = await new GLTFLoader().parseAsync(
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
  pathToFileURL(path.dirname(path.resolve(glb))).href + '/');

// Skinned meshes with the glTF names of their joints (three.js may
// sanitise its own object names; the parser's associations give the nodes).
const skinned = [];
gltf.scene.traverse((o) => {
  if (!o.isSkinnedMesh) return;
  const joints = o.skeleton.bones.map((b) => json.nodes[gltf.parser.associations.get(b).nodes].name);
  skinned.push({ mesh: o, joints });
});
if (skinned.length === 0) {
  console.error(`${glb}: no skinned mesh`);
  process.exit(1);
}

let failures = 0;
let compared = 0;
let largest = 0;
// The source frame rate of a clip, from the scene's clip table.
function sourceFps(name) {
  const table = json.scenes?.[json.scene ?? 0]?.extras?.bake ?? {};
  const entry = table.clips?.[name] ?? {};
  return entry.sourceFps ?? table.sourceFps ?? entry.fps ?? table.fps;
}

const clips = frameClips
  ? frameClips.map((n) => gltf.animations.find((c) => c.name === n) ?? (() => { throw new Error(`${glb}: no clip ${n}`); })())
  : gltf.animations.slice(0, 3);
for (const clip of clips) {
  const keyTimes = [...new Set(clip.tracks.flatMap((t) => Array.from(t.times)))].sort((a, b) => a - b);
  if (keyTimes.length === 0) continue;
  let times = [keyTimes[0], keyTimes[Math.floor(keyTimes.length / 2)], keyTimes[keyTimes.length - 1]];
  if (frameClips) {
    const fps = sourceFps(clip.name);
    times = [];
    for (let k = 0; k / fps <= clip.duration + 1e-9; k++) times.push(k / fps);
  }
  const ev = JSON.parse(execFileSync(bake, ['eval', '--json', input, '--anim', clip.name, '--times', times.join(','),
    '--world', '--axes', 'gltf', ...extra], { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] }).toString('utf8'));
  const mixer = new AnimationMixer(gltf.scene);
  const action = mixer.clipAction(clip);
  action.setLoop(LoopOnce, 1);
  action.clampWhenFinished = true;
  action.play();
  times.forEach((t, ti) => {
    mixer.setTime(t);
    gltf.scene.updateMatrixWorld(true);
    for (const { mesh, joints } of skinned) {
      mesh.skeleton.update();
      const world = joints.map((name) => {
        const m = ev.world[name]?.[ti];
        if (!m) throw new Error(`bake eval gives no world matrix for joint ${name}`);
        return new Matrix4().fromArray(m);
      });
      const skinMats = world.map((w, j) => w.clone().multiply(mesh.skeleton.boneInverses[j]));
      const pos = mesh.geometry.attributes.position;
      const idx = mesh.geometry.attributes.skinIndex;
      const wts = mesh.geometry.attributes.skinWeight;
      let worst = 0;
      let worstVertex = -1;
      for (let v = 0; v < pos.count; v++) {
        const p = new Vector3().fromBufferAttribute(pos, v);
        const got = p.clone();
        mesh.applyBoneTransform(v, got);
        got.applyMatrix4(mesh.matrixWorld);
        const ji = new Vector4().fromBufferAttribute(idx, v);
        const wi = new Vector4().fromBufferAttribute(wts, v);
        const want = new Vector3();
        for (let k = 0; k < 4; k++) {
          const w = wi.getComponent(k);
          if (w === 0) continue;
          want.addScaledVector(p.clone().applyMatrix4(skinMats[ji.getComponent(k)]), w);
        }
        const d = got.distanceTo(want);
        compared++;
        if (d > worst) {
          worst = d;
          worstVertex = v;
        }
      }
      largest = Math.max(largest, worst);
      if (worst > TOL) {
        failures++;
        console.error(`${glb}: ${clip.name} t=${t} mesh ${mesh.name}: vertex ${worstVertex} off by ${worst.toExponential(3)}`);
      }
    }
  });
  mixer.uncacheRoot(gltf.scene);
}
console.log(`three.js skinning: ${skinned.length} skinned meshes, ${compared} vertex positions compared, largest difference ${largest.toExponential(2)}, ${failures} failures`);
process.exit(failures > 0 ? 1 : 0);
