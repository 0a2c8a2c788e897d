// Hand-worked values for the expectation rules both client checks use
// (glTF 2.0 §3.11 "Animations" and Appendix C "Interpolation").
import test from 'node:test';
import assert from 'node:assert/strict';
import { toFloat32, slerp, lerp, valueAt, deviation, matrixDeviation, queryTimes, trsChannels, threeSlerpFlat, threeQuantizedRotationAt } from './expected.mjs';

const S = Math.SQRT1_2;
const close = (got, want, eps = 1e-12) =>
  assert.ok(got.every((x, i) => Math.abs(x - want[i]) <= eps), `${got} != ${want}`);

test('Appendix C slerp: halfway from identity to 90° about X is 45° about X', () => {
  close(slerp([0, 0, 0, 1], [S, 0, 0, S], 0.5), [Math.sin(Math.PI / 8), 0, 0, Math.cos(Math.PI / 8)]);
});

test('Appendix C slerp takes the short way: -q is the same key', () => {
  close(slerp([0, 0, 0, 1], [-S, 0, 0, -S], 0.5), [Math.sin(Math.PI / 8), 0, 0, Math.cos(Math.PI / 8)]);
});

test('Appendix C slerp is not nlerp away from the midpoint: a quarter of 180° about Z is 45°', () => {
  close(slerp([0, 0, 0, 1], [0, 0, 1, 0], 0.25), [0, 0, Math.sin(Math.PI / 8), Math.cos(Math.PI / 8)]);
});

test('Appendix C linear: component-wise', () => {
  close(lerp([0, 10, -4], [2, 20, 4], 0.25), [0.5, 12.5, -2]);
});

const scalar = (interpolation) => ({ interpolation, times: [0, 1, 2], values: [[0], [10], [20]] });

test('§3.11 LINEAR between keys, held before the first and after the last', () => {
  assert.deepEqual(valueAt(scalar('LINEAR'), 'translation', 0.25), [2.5]);
  assert.deepEqual(valueAt(scalar('LINEAR'), 'translation', 1.5), [15]);
  assert.deepEqual(valueAt(scalar('LINEAR'), 'translation', -1), [0]);
  assert.deepEqual(valueAt(scalar('LINEAR'), 'translation', 3), [20]);
});

test('§3.11 STEP holds the previous key until the next key time', () => {
  assert.deepEqual(valueAt(scalar('STEP'), 'scale', 0.999), [0]);
  assert.deepEqual(valueAt(scalar('STEP'), 'scale', 1), [10]);
  assert.deepEqual(valueAt(scalar('STEP'), 'scale', 1.5), [10]);
});

test('rotations compare sign-free; translations relative above 1; non-numbers always fail', () => {
  assert.equal(deviation('rotation', [-S, 0, 0, -S], [S, 0, 0, S]), 0);
  assert.ok(deviation('translation', [1000.005, 0, 0], [1000, 0, 0]) <= 1);
  assert.ok(deviation('translation', [1.00002, 0, 0], [1, 0, 0]) > 1);
  assert.equal(deviation('scale', [NaN, 1, 1], [1, 1, 1]), Infinity);
  assert.equal(deviation('scale', [1, 1, 1], [null, 1, 1]), Infinity);
  assert.equal(matrixDeviation(new Array(16).fill(0), new Array(15).fill(0)), Infinity);
});

test('query times: every sample and every midpoint', () => {
  const anim = { duration: 1, channels: [{ times: [0, 0.5, 1] }, { times: [0, 0.5, 1] }] };
  assert.deepEqual(queryTimes(anim).map((q) => q.t), [0, 0.25, 0.5, 0.75, 1]);
  assert.deepEqual(queryTimes({ duration: 2, channels: [] }).map((q) => q.t), [0, 1, 2]);
});

test('channels glTF cannot animate are counted, not compared', () => {
  const doc = { nodes: [{ name: 'a' }, { name: 'm', matrix: new Array(16).fill(0) }] };
  const anim = {
    channels: [
      { node: 'a', path: 'rotation' },
      { node: 'a', path: 'visibility' },
      { material: 'x', path: 'alpha' },
      { node: 'm', path: 'translation' },
    ],
  };
  const { byNode, data } = trsChannels(doc, anim);
  assert.deepEqual([...byNode.keys()], ['a']);
  assert.equal(data, 3);
});

test('docs/json.md float32 numbers: 75.3 is read back as the float32 75 + 39322/2^17', () => {
  const doc = toFloat32({
    nodes: [{ translation: [0.1, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] }],
    animations: [{ duration: 75.3, channels: [{ times: [0, 75.3], values: [[0.1], [null]] }] }],
  });
  assert.equal(doc.animations[0].channels[0].times[1], 75 + 39322 / 131072);
  assert.equal(doc.animations[0].duration, 75.30000305175781);
  assert.equal(doc.nodes[0].translation[0], 13421773 / 134217728);
  assert.equal(doc.animations[0].channels[0].values[1][0], null);
});

// three.js's playback of keys off unit length (bake's 16-bit rotations),
// worked from Quaternion.slerpFlat's three cases.
test('three.js slerpFlat: equal keys as stored, close keys normalised, far keys not', () => {
  close(threeSlerpFlat([0, 0, 0.75, 0.75], [0, 0, 0.75, 0.75], 0.5), [0, 0, 0.75, 0.75]);
  // dot 4 ≥ 0.9995: lerp (0, 0, 0.01, 2), over √4.0001 = 2.000025.
  close(threeSlerpFlat([0, 0, 0, 2], [0, 0, 0.02, 2], 0.5), [0, 0, 0.01 / 2.000025, 2 / 2.000025], 1e-9);
  // a = s·identity, b = s·(90° about z), s² = 1.00003: at u = ½ the weights
  // are 1/(2cos(θ'/2)) with cos θ' = s²·cos45°, so |r|² = 1 + (s² − 1)/(1 + s²cos45°)
  // = 1 + 3e-5/1.70712799 = 1 + 1.757337e-5; at u = 0 the key as stored.
  const s = Math.sqrt(1.00003);
  const r = threeSlerpFlat([0, 0, 0, s], [0, 0, s * S, s * S], 0.5);
  assert.ok(Math.abs(r[2] ** 2 + r[3] ** 2 - 1 - 1.757337e-5) < 1e-11, `${r}`);
  close(threeSlerpFlat([0, 0, 0, s], [0, 0, s * S, s * S], 0), [0, 0, 0, s]);
});

test('three.js holds the first key as stored before it and the last from its time on', () => {
  const c = { interpolation: 'LINEAR', times: [0, 1], values: [[0, 0, 0, 2], [0, 0, 0.02, 2]] };
  close(threeQuantizedRotationAt(c, -1), [0, 0, 0, 2]);
  close(threeQuantizedRotationAt(c, 1), [0, 0, 0.02, 2]);
  close(threeQuantizedRotationAt(c, 2), [0, 0, 0.02, 2]);
  // At the first key's own time it interpolates (fraction 0): close keys, normalised.
  close(threeQuantizedRotationAt(c, 0), [0, 0, 0, 1]);
});
