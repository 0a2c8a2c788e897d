// Renders a glTF file to a PNG with three.js in headless Chromium (Debian's
// package, software WebGL), the way a user would see it in a browser.
//   node tools/render/render.mjs MODEL.glb OUT.png [--camera NAME] [--frame]
//        [--clip NAME --t SECONDS] [--size 1280x720]
// It serves the page, three.js (from tools/clients/node_modules) and the
// model on 127.0.0.1, reads the picture the page draws (a data URL in the dumped DOM), and fails when the
// page reports an error.
import { createServer } from 'node:http';
import { readFile, writeFile, mkdtemp, rm } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const threeDir = path.join(here, '..', 'clients', 'node_modules', 'three');
const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  if (i < 0) return null;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const flag = (name) => {
  const i = args.indexOf(name);
  if (i >= 0) args.splice(i, 1);
  return i >= 0;
};
const camera = opt('--camera'), clip = opt('--clip'), t = opt('--t'), size = opt('--size') ?? '1280x720';
const frame = flag('--frame');
if (args.length !== 2) {
  console.error('usage: node render.mjs MODEL.glb OUT.png [--camera NAME] [--frame] [--clip NAME --t S] [--size WxH]');
  process.exit(2);
}
const [model, out] = args;
const [w, h] = size.split('x').map(Number);
const types = { '.html': 'text/html', '.js': 'text/javascript', '.glb': 'model/gltf-binary', '.gltf': 'model/gltf+json', '.png': 'image/png', '.bin': 'application/octet-stream' };

const server = createServer(async (req, res) => {
  const url = new URL(req.url, 'http://x');
  let file;
  if (url.pathname === '/') file = path.join(here, 'page.html');
  else if (url.pathname.startsWith('/three/')) file = path.join(threeDir, decodeURIComponent(url.pathname.slice(7)));
  else if (url.pathname.startsWith('/model/')) file = path.join(path.dirname(path.resolve(model)), decodeURIComponent(url.pathname.slice(7)));
  try {
    const body = await readFile(file);
    res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end();
  }
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const port = server.address().port;
const q = new URLSearchParams({ file: path.basename(model), w, h });
if (camera) q.set('camera', camera);
if (frame) q.set('frame', '1');
if (clip) q.set('clip', clip);
if (t) q.set('t', t);
const profile = await mkdtemp(path.join(tmpdir(), 'bake-chromium-'));
const chromium = process.env.CHROMIUM ?? 'chromium';
const dump = await new Promise((resolve, reject) =>
  execFile(chromium, ['--headless', '--no-sandbox', '--disable-gpu', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
    '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
    `--user-data-dir=${profile}`, `--window-size=${w},${h}`, '--virtual-time-budget=60000', '--run-all-compositor-stages-before-draw',
    '--dump-dom', `http://127.0.0.1:${port}/?${q}`], { maxBuffer: 1 << 24, timeout: 300000 },
  (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout))));
const title = /<title>(.*?)<\/title>/.exec(dump)?.[1] ?? '';
if (title !== 'done') {
  server.close();
  await rm(profile, { recursive: true, force: true });
  console.error(`render failed: ${title || 'the page did not finish'}`);
  process.exit(1);
}
const png = /<pre id="png"[^>]*>data:image\/png;base64,([A-Za-z0-9+/=]+)<\/pre>/.exec(dump)?.[1];
if (!png) {
  console.error('render failed: no picture in the page');
  process.exit(1);
}
await writeFile(out, Buffer.from(png, 'base64'));
server.close();
await rm(profile, { recursive: true, force: true });
console.log(`rendered ${model} → ${out}`);
