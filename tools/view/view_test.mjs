// Drives bake view's page in headless Chromium (Debian's chromium, through
// puppeteer-core) and checks what it draws and reads out:
//   - traversal attempts on the server are refused (raw HTTP requests);
//   - on the demo outputs: a clip with KHR_animation_pointer channels
//     changes the rendered colour (the same frame drawn with and without
//     the clip's pointer tracks differs);
//   - on the samples' outputs (when given): the Bass plays Jump, steps to
//     source frames, and the page's error readout equals `bake stats
//     --at-frame` there within 1e-9 m; the engine ghost, the export's
//     skeleton and the meshes are each drawn (pixels differ from a
//     screenshot without them); Gerudo's output is loaded and the time to
//     a first drawn frame measured (reported, not asserted).
// Usage (from the repository root, where the outputs' manifests name
// their inputs from):
//   node tools/view/view_test.mjs BAKE DEMO_OUT [SAMPLES_OUT] [--pictures DIR]
// Prints what it checked; exits 1 on any failure.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtemp, rm, symlink, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import http from 'node:http';
import puppeteer from 'puppeteer-core';

const args = process.argv.slice(2);
const pi = args.indexOf('--pictures');
const pictures = pi >= 0 ? args.splice(pi, 2)[1] : null;
if (args.length < 2) {
  console.error('usage: node tools/view/view_test.mjs BAKE DEMO_OUT [SAMPLES_OUT] [--pictures DIR]');
  process.exit(2);
}
const [bake, demoOut, samplesOut] = args;
const failures = [];
const checked = [];
const check = (ok, what) => {
  (ok ? checked : failures).push(what);
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
};

// Start bake view on a free loopback port.
const roots = [demoOut, ...(samplesOut ? [samplesOut] : [])];
const server = spawn(bake, ['view', ...roots], { stdio: ['ignore', 'pipe', 'inherit'] });
const base = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (d) => {
    out += d;
    const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
    if (m) resolve(m[0]);
  });
  server.on('exit', (code) => reject(new Error(`bake view exited with ${code}: ${out}`)));
});
console.log(`bake view serving at ${base}`);

/** A raw GET: the path goes out exactly as written (no normalisation). */
function raw(p, { method = 'GET', host } = {}) {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path: p, method, headers: host ? { host } : {} }, (res) => {
      let body = '';
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

let browser, profile, link;
try {
  // Traversal and other refused requests.
  link = path.join(demoOut, 'escape-link');
  await symlink('/etc', link);
  const refused = [
    '/files/0/../../../../etc/passwd',
    '/files/0/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
    '/files/0/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd',
    '/files/0/..%2f..%2f..%2fetc%2fpasswd',
    '/files/0//etc/passwd',
    '/files/0/%2fetc%2fpasswd',
    '/files/0/..\\..\\..\\etc\\passwd',
    '/files/0/./bake-manifest.json',
    '/files/0/escape-link/passwd',
    '/files/7/bake-manifest.json',
    '/files/-1/bake-manifest.json',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/vendor/../../etc/passwd',
    '/api/eval?output=0/../../etc/passwd&clip=x&frame=0',
    '/api/eval?output=0/escape-link/passwd&clip=x&frame=0',
  ];
  let n = 0;
  for (const p of refused) {
    const r = await raw(p);
    const ok = r.status >= 400 && !r.body.includes('root:');
    if (!ok) check(false, `refused ${p} (got ${r.status})`);
    n += ok;
  }
  const post = await raw('/api/outputs', { method: 'POST' });
  const rebind = await raw('/api/outputs', { host: 'attacker.example:80' });
  const manifestOK = await raw('/files/0/bake-manifest.json');
  check(n === refused.length && post.status === 405 && rebind.status === 403 && manifestOK.status === 200,
    `traversal: ${n}/${refused.length} attempts refused (.., encoded dots and slashes, absolute, backslashes, a symlink out, ` +
    `unknown folders, outputs the manifest does not name), POST ${post.status}, foreign Host ${rebind.status}; the manifest itself served (${manifestOK.status})`);
  await rm(link);
  link = null;

  profile = await mkdtemp(path.join(tmpdir(), 'bake-view-chromium-'));
  browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    userDataDir: profile,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--window-size=1400,1100'],
    defaultViewport: { width: 1400, height: 1100 },
    protocolTimeout: 600000,
  });
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  // Nothing but the server itself may be asked for.
  const foreign = [];
  page.on('request', (r) => { if (!r.url().startsWith(base) && !r.url().startsWith('blob:') && !r.url().startsWith('data:')) foreign.push(r.url()); });
  await page.goto(base + '/', { waitUntil: 'load' });
  await page.evaluate(() => window.bakeView.ready);
  const nOutputs = await page.$$eval('#outputs li', (l) => l.length);
  check(nOutputs > 0, `the page lists ${nOutputs} outputs`);

  const view = (fn, ...a) => page.evaluate(fn, ...a);
  const canvasShot = async () => {
    const el = await page.$('#view');
    return Buffer.from(await el.screenshot({ encoding: 'binary', type: 'png' }));
  };
  // Pixels of two same-sized screenshots, decoded in the page: how many
  // differ (by more than threshold, summed over R, G and B), and of the given canvas points how many have a differing
  // pixel within 6 px.
  const compare = (a, b, points = [], threshold = 24) => view(async (a64, b64, points, threshold) => {
    const img = async (s) => {
      const bm = await createImageBitmap(await (await fetch('data:image/png;base64,' + s)).blob());
      const c = new OffscreenCanvas(bm.width, bm.height);
      const g = c.getContext('2d');
      g.drawImage(bm, 0, 0);
      return [g.getImageData(0, 0, bm.width, bm.height).data, bm.width, bm.height];
    };
    const [[x, w, h], [y]] = [await img(a64), await img(b64)];
    const diff = (i) => Math.abs(x[i] - y[i]) + Math.abs(x[i + 1] - y[i + 1]) + Math.abs(x[i + 2] - y[i + 2]) > threshold;
    let n = 0;
    for (let i = 0; i < x.length; i += 4) n += diff(i);
    let inside = 0, seen = 0;
    for (const [px, py] of points) {
      if (px < 0 || py < 0 || px >= w || py >= h) continue;
      inside++;
      let hit = false;
      for (let dy = -6; dy <= 6 && !hit; dy++) {
        for (let dx = -6; dx <= 6 && !hit; dx++) {
          const X = Math.round(px) + dx, Y = Math.round(py) + dy;
          if (X >= 0 && Y >= 0 && X < w && Y < h) hit = diff(4 * (Y * w + X));
        }
      }
      seen += hit;
    }
    return { n, inside, seen };
  }, a.toString('base64'), b.toString('base64'), points, threshold);
  const differ = async (a, b, threshold) => (await compare(a, b, [], threshold)).n;

  // pointerColour checks that a clip's pointer tracks change what is drawn:
  // at the first frame where a material or light value differs from frame
  // 0 (else at frame 0), the view drawn with and without the clip's
  // pointer tracks (material, light, camera, visibility).
  async function pointerColour(label, clips, assert = true) {
    const changed = [];
    for (const clip of clips) {
      const { frame, moved } = await view(async (clip) => {
        const bv = window.bakeView;
        bv.camera('');
        bv.show({ model: true, skeleton: false, ghost: false });
        await bv.selectClip(clip);
        await bv.seekFrame(0);
        const m0 = JSON.stringify(bv.materials());
        const last = Math.floor(bv.state().sourceFrames);
        for (let f = 1; f <= Math.min(last, 120); f++) {
          await bv.seekFrame(f);
          if (JSON.stringify(bv.materials()) !== m0) return { frame: f, moved: true };
        }
        await bv.seekFrame(0);
        return { frame: 0, moved: false };
      }, clip);
      const withValues = await view(async () => { await window.bakeView.settle(); return JSON.stringify(window.bakeView.materials()); });
      const withPointers = await canvasShot();
      const again = await differ(withPointers, await canvasShot(), 0);
      if (again !== 0) check(false, `${label} ${clip}: the same frame drawn twice differs in ${again} pixels`);
      const withoutValues = await view(async () => { window.bakeView.pointers(false); await window.bakeView.settle(); return JSON.stringify(window.bakeView.materials()); });
      const without = await canvasShot();
      await view(async () => { window.bakeView.pointers(true); await window.bakeView.settle(); });
      // Any change counts: the same frame drawn twice is the same.
      const d = await differ(withPointers, without, 0);
      console.log(`     ${label} ${clip} at frame ${frame}: material/light values ${moved ? 'move over the clip' : 'constant over the clip'}, ` +
        `${withValues === withoutValues ? 'the same' : 'other'} without the pointer tracks; drawn without them, ${d} pixels differ`);
      if (d > 0) changed.push(`${clip} (${d} pixels at frame ${frame})`);
    }
    const what = `${label}: a pointer animation changes the rendered colour: ${changed.join(', ') || 'none'}`;
    if (assert) check(changed.length > 0, what);
    else console.log(`     ${what} (reported, not asserted)`);
  }

  // Demo: a pointer animation changes the rendered colour.
  await view(() => window.bakeView.selectOutput('0/ccs/demo_ccs.glb'));
  await pointerColour('demo ccs/demo_ccs.glb', ['ANM_crate', 'ANM_water']);

  if (samplesOut) {
    // S01: material colour and light colour pointers.
    await view(() => window.bakeView.selectOutput('1/ccsf/S01.glb'));
    // (Alpha fades and a light colour: whether they change pixels of the
    // whole-stage view depends on what is in view; reported only.)
    await pointerColour('samples ccsf/S01.glb', ['ANM_stalig00', 'ANM_s01efe00_a0', 'ANM_s01gim060_a2'], false);

    // The Bass: Jump played, paused, stepped; readout against bake stats.
    const bassID = '1/bfres/Animal_Bass_Animation_bfres.glb';
    await page.click(`#outputs li[data-id="${bassID}"]`);
    await page.waitForFunction((id) => window.bakeView.state().output === id && window.bakeView.state().firstFrameMs !== null, { timeout: 120000 }, bassID);
    await page.click('#clips tr[data-clip="Jump"]');
    await page.waitForFunction(() => window.bakeView.state().clip === 'Jump' && window.bakeView.state().playing);
    await new Promise((r) => setTimeout(r, 500));
    const played = await view(() => window.bakeView.state().time);
    await page.click('#play');
    check(played > 0, `samples Animal_Bass Jump plays (clip time ${played.toFixed(3)} s after 0.5 s) and pauses`);
    const frames = [11, 23, 44];
    for (const f of frames) {
      await view((f) => window.bakeView.seekFrame(f - 1), f);
      await page.click('#fwd');
      await view(() => window.bakeView.settle());
      const s = await view(() => window.bakeView.state());
      const readout = Number(await page.$eval('#error', (e) => e.dataset.error));
      const want = JSON.parse(execFileSync(bake, ['stats', '--json', '--at-frame', String(f), '../shared/samples/bfres/Animal_Bass_Animation.bfres'],
        { stdio: ['ignore', 'pipe', 'ignore'] }).toString()).files[0].animations.find((a) => a.name === 'Jump');
      const diff = Math.abs(readout - want.maxError);
      check(s.frame === f && diff <= 1e-9 && s.worstNode === want.worstNode,
        `samples Animal_Bass Jump stepped to source frame ${s.frame}: readout ${readout} m at ${s.worstNode}, bake stats --at-frame ${f}: ${want.maxError} m at ${want.worstNode} (|Δ| = ${diff})`);
    }
    // The Bass model with its animations (Animal_Bass.bfres bundles
    // Animal_Bass_Animation.bfres): readout again, then ghost, export
    // skeleton and meshes each drawn.
    const modelID = '1/bfres/Animal_Bass.glb';
    await view(async (id) => { await window.bakeView.selectOutput(id); await window.bakeView.selectClip('Jump'); }, modelID);
    await view(async () => { await window.bakeView.seekFrame(30); await window.bakeView.settle(); });
    {
      const readout = Number(await page.$eval('#error', (e) => e.dataset.error));
      const want = JSON.parse(execFileSync(bake, ['stats', '--json', '--at-frame', '30', '../shared/samples/bfres/Animal_Bass.bfres'],
        { stdio: ['ignore', 'pipe', 'ignore'] }).toString()).files.flatMap((f) => f.animations).find((a) => a.name === 'Jump');
      const diff = Math.abs(readout - want.maxError);
      check(diff <= 1e-9, `samples Animal_Bass.glb Jump at source frame 30: readout ${readout} m, bake stats --at-frame 30 Animal_Bass.bfres: ${want.maxError} m (|Δ| = ${diff})`);
    }
    await view(() => { window.bakeView.camera(''); });
    const shots = {};
    for (const [name, show] of Object.entries({ none: [false, false, false], ghost: [false, false, true], skeleton: [false, true, false], model: [true, false, false] })) {
      await view(async (m, k, g) => { window.bakeView.show({ model: m, skeleton: k, ghost: g }); await window.bakeView.settle(); }, ...show);
      shots[name] = await canvasShot();
    }
    const joints = await view(() => window.bakeView.state().ghostJoints);
    const ghostPx = await view(() => {
      const p = window.bakeView.ghostPositions();
      const out = [];
      for (let i = 0; i < p.length; i += 3) out.push(window.bakeView.project(p[i], p[i + 1], p[i + 2]));
      return out;
    });
    for (const name of ['ghost', 'skeleton', 'model']) {
      const d = await compare(shots.none, shots[name], name === 'model' ? [] : ghostPx);
      const where = name === 'model' ? '' : `; ${d.seen} of the ${d.inside} joints in view have changed pixels within 6 px`;
      check(d.n > 20 && d.seen === d.inside && d.inside > 0 || (name === 'model' && d.n > 20),
        `samples Animal_Bass.glb Jump frame 30: the ${name === 'ghost' ? `engine ghost (${joints} joints)` : name === 'skeleton' ? "export's skeleton" : 'meshes'} drawn: ${d.n} pixels differ from the empty view${where}`);
    }
    // The ghost is what bake eval --world gives (glTF axes).
    {
      const ev = await view(async () => {
        const s = window.bakeView.state();
        return { frame: s.frame, nodes: window.bakeView.nodes(), pos: window.bakeView.ghostPositions() };
      });
      const world = JSON.parse(execFileSync(bake, ['eval', '--json', '--world', '--axes', 'gltf', '../shared/samples/bfres/Animal_Bass.bfres',
        '--anim', 'Jump', '--frames', String(ev.frame)], { stdio: ['ignore', 'pipe', 'ignore'] }).toString()).world;
      let worst = 0, matched = 0;
      ev.nodes.forEach((n, i) => {
        const m = world[n]?.[0];
        if (!m) return;
        matched++;
        worst = Math.max(worst, Math.hypot(m[12] - ev.pos[3 * i], m[13] - ev.pos[3 * i + 1], m[14] - ev.pos[3 * i + 2]));
      });
      check(matched === ev.nodes.length && worst <= 1e-9,
        `samples Animal_Bass.glb Jump frame ${ev.frame}: the ghost's ${matched} joints are bake eval --world --axes gltf's (largest distance ${worst} m)`);
    }
    if (pictures) {
      await view(async () => {
        const bv = window.bakeView;
        bv.show({ model: true, skeleton: true, ghost: true });
        await bv.seekFrame(12);
        await bv.pickNode('Spine_3');
        await bv.settle();
      });
      // Tall enough for the warnings, the clips and the curves.
      await page.setViewport({ width: 1400, height: 1380 });
      await view(() => window.bakeView.settle());
      await page.screenshot({ path: path.join(pictures, 'view-bass-jump.png') });
      await page.setViewport({ width: 1400, height: 1100 });
      console.log(`wrote ${path.join(pictures, 'view-bass-jump.png')}`);
    }

    // Gerudo's 11 MB output: time to a first drawn frame (measured only).
    const gerudo = '1/bfres/Npc_Gerudo_Queen_Animation.glb';
    const size = (await readFile(path.join(samplesOut, 'bfres/Npc_Gerudo_Queen_Animation.glb'))).length;
    const t0 = Date.now();
    const g = await view(async (id) => { await window.bakeView.selectOutput(id); return window.bakeView.state(); }, gerudo);
    const wall = Date.now() - t0;
    await view(() => window.bakeView.settle());
    const g2 = await view(() => window.bakeView.state());
    console.log(`measured: Npc_Gerudo_Queen_Animation.glb (${(size / 1e6).toFixed(1)} MB): loaded and parsed in ${g.loadMs.toFixed(0)} ms, ` +
      `first frame drawn ${g.firstFrameMs.toFixed(0)} ms after the click (${wall} ms round trip from the test, including the engine's first evaluation); ` +
      `clip ${g2.clip}, error at frame 0 ${g2.error} m`);
    check(g2.error !== null, `samples Npc_Gerudo_Queen_Animation: drawn, engine evaluated (${g2.ghostJoints} joints)`);
    const clip2 = await view(() => document.querySelectorAll('#clips tbody tr')[1].dataset.clip);
    const t1 = Date.now();
    await view(async (c) => { await window.bakeView.selectClip(c); await window.bakeView.settle(); }, clip2);
    console.log(`measured: Npc_Gerudo_Queen_Animation.glb: another clip (${clip2}) played and evaluated ${Date.now() - t1} ms after choosing it`);
  }
  check(errors.length === 0, `no page errors${errors.length ? ': ' + errors.join('; ') : ''}`);
  check(foreign.length === 0, `no request left the server${foreign.length ? ': ' + foreign.join(', ') : ''}`);
} catch (err) {
  failures.push(String(err.stack ?? err));
  console.log(`FAIL ${err.stack ?? err}`);
} finally {
  if (link) await rm(link, { force: true });
  await browser?.close();
  server.kill();
  if (profile) await rm(profile, { recursive: true, force: true });
}
console.log(`bake view browser test: ${checked.length} checks passed, ${failures.length} failed`);
process.exit(failures.length ? 1 : 0);
