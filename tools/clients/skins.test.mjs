// Runs both client checks on the hand-written skinned fixture
// (fixture_skin.mjs): they pass on it, and a bone that the JSON moves
// differently fails in world space (path "world"), for the bone and its child.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeSkinFixture, skinFixtureJSON } from './fixture_skin.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const hasBlender = spawnSync('sh', ['-c', 'command -v blender'], { encoding: 'utf8' }).status === 0;

async function withFixture(json, fn) {
  const dir = await mkdtemp(path.join(tmpdir(), 'bake-skin-'));
  try {
    await writeSkinFixture(dir, json);
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const three = (dir) => spawnSync('node', [path.join(here, 'three_check.mjs'), dir], { encoding: 'utf8' });
const blender = (dir) => spawnSync('bash', [path.join(here, 'blender_check.sh'), dir], { encoding: 'utf8' });

for (const [name, run, summary] of [
  ['three.js', three, /three\.js check: 1 files, 1 clips, .* 0 failures .*2 joints as Bones/],
  ['Blender', blender, /Blender check: 1 files, 1 clips, .* 0 failures .*2 bones, heads at samples within/],
]) {
  const skip = name === 'Blender' && !hasBlender ? 'blender not installed' : false;

  test(`${name} check passes the skinned fixture`, { skip }, () =>
    withFixture(skinFixtureJSON(), (dir) => {
      const r = run(dir);
      assert.equal(r.status, 0, r.stderr + r.stdout);
      assert.match(r.stdout, summary);
    }));

  test(`${name} check catches a bone rotation in world space`, { skip }, () => {
    const json = skinFixtureJSON();
    json.animations[0].channels[0].values[1] = [0, 0, 0.7, 0.714142842854285]; // ~88.9°, not 90°
    return withFixture(json, (dir) => {
      const r = run(dir);
      assert.equal(r.status, 1, r.stdout);
      assert.match(r.stderr, /clip "bend" node "knee" world/);
    });
  });
}
