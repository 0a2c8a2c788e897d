// Runs both client checks on the hand-written fixture (fixture.mjs): they
// must pass on it, and must fail, naming the node and path, when the JSON
// says something the glTF does not play.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFixture, fixtureJSON } from './fixture.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const hasBlender = spawnSync('sh', ['-c', 'command -v blender'], { encoding: 'utf8' }).status === 0;

// Per file: 3 TRS paths on door.left:1, doorleft1 and bake_data, 1 matrix on
// fixed = 10 comparisons, at rest and at 11 times in each of 2 clips:
// "open" (2 source frames/s, 1 s, keys 0, 0.5, 1): 3 keys, 2 midpoints
// (0.25, 0.75) and the 4-per-frame probes every 1/8 s that are not keys
// (0.125, 0.25, 0.375, 0.625, 0.75, 0.875); "blink" (1 frame/s, 2 s, keys
// 0, 1, 2): 3 keys, 2 midpoints, 6 probes every 1/4 s. 10 + 110 + 110 = 230.
const SUMMARY = '2 files, 4 clips, 460 comparisons';

async function withFixture(json, fn) {
  const dir = await mkdtemp(path.join(tmpdir(), 'bake-clients-'));
  try {
    await writeFixture(dir, json);
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const three = (dir) => spawnSync('node', [path.join(here, 'three_check.mjs'), dir], { encoding: 'utf8' });
const blender = (dir) => spawnSync('bash', [path.join(here, 'blender_check.sh'), dir], { encoding: 'utf8' });

function tampered(edit) {
  const json = fixtureJSON();
  edit(json);
  return json;
}

const cases = [
  ['a STEP translation key', (j) => (j.animations[0].channels[1].values[1] = [1, 2, 3.001]), /node "doorleft1" translation/],
  ['a LINEAR rotation key', (j) => (j.animations[0].channels[0].values[2] = [0.7072, 0, 0, 0.7070]), /node "door.left:1" rotation/],
  ['a static matrix', (j) => (j.nodes[2].matrix = j.nodes[2].matrix.map((x, i) => (i === 12 ? 1.01 : x))), /node "fixed" matrix/],
  // Every query strictly between keys differs: 2 midpoints and 6 probes.
  ['STEP read as LINEAR', (j) => (j.animations[0].channels[1].interpolation = 'LINEAR'), /node "doorleft1" translation: 8 mismatches/],
];

for (const [name, run] of [['three.js', three], ['Blender', blender]]) {
  const skip = name === 'Blender' && !hasBlender ? 'blender not installed' : false;

  test(`${name} check passes the hand-written fixture`, { skip }, () =>
    withFixture(fixtureJSON(), (dir) => {
      const r = run(dir);
      assert.equal(r.status, 0, r.stderr + r.stdout);
      assert.match(r.stdout, new RegExp(`${name} check: ${SUMMARY}, 0 failures \\(2 data channels`));
    }));

  for (const [what, edit, want] of cases) {
    test(`${name} check catches ${what}`, { skip }, () =>
      withFixture(tampered(edit), (dir) => {
        const r = run(dir);
        assert.equal(r.status, 1, r.stdout);
        assert.match(r.stderr, want);
      }));
  }
}

test('three.js check catches a clip duration a looping player would wrap at wrongly', () =>
  withFixture(tampered((j) => (j.animations[1].duration = 2.5)), (dir) => {
    const r = three(dir);
    assert.equal(r.status, 1, r.stdout);
    assert.match(r.stderr, /clip "blink": three.js duration 2s, JSON 2.5s/);
  }));

test('three.js check refuses an empty folder', () =>
  withFixture(fixtureJSON(), (dir) => {
    const r = three(path.join(dir, 'fixture.bin'));
    assert.equal(r.status, 1);
    assert.match(r.stderr, /no glTF file with a JSON sibling/);
  }));
