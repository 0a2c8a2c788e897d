// bake view's page: the outputs of conversion runs, one glTF in three.js
// (GLTFLoader with the KHR_animation_pointer plugin), its clips played at
// source-frame precision, and beside the export the engine's pose at the
// displayed time (the server evaluates the source: /api/eval) drawn as a
// ghost skeleton, with the error between the two and, for a picked node,
// the engine's curves and the glTF's keys (/api/curve).
//
// window.bakeView is the page's programmatic face (tools/view drives it).
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { GLTFAnimationPointerExtension } from 'three-animation-pointer';

const $ = (id) => document.getElementById(id);
const canvas = $('view');
const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
renderer.setPixelRatio(1);
renderer.setSize(canvas.width, canvas.height, false);
renderer.setClearColor(0x20242a, 1);
const world = new THREE.Scene();
world.add(new THREE.HemisphereLight(0xffffff, 0x404040, 1.5));
const sun = new THREE.DirectionalLight(0xffffff, 1.5);
sun.position.set(1, 2, 1.5);
world.add(sun);
const orbitCamera = new THREE.PerspectiveCamera(45, canvas.width / canvas.height, 0.01, 1000);
const controls = new OrbitControls(orbitCamera, canvas);

// Two skeletons drawn over the meshes: the export's joints (three.js's
// posed nodes) and the engine's (the server's), bone lines and joints.
function skeletonLines(color, size, order) {
  const group = new THREE.Group();
  const lines = new THREE.LineSegments(new THREE.BufferGeometry(),
    new THREE.LineBasicMaterial({ color, depthTest: false, transparent: true }));
  const points = new THREE.Points(new THREE.BufferGeometry(),
    new THREE.PointsMaterial({ color, size, sizeAttenuation: false, depthTest: false, transparent: true }));
  lines.renderOrder = points.renderOrder = order;
  lines.frustumCulled = points.frustumCulled = false;
  group.add(lines, points);
  group.set = (pos, parents) => {
    const seg = [];
    for (let i = 0; i < parents.length; i++) {
      const p = parents[i];
      if (p >= 0) seg.push(pos[3 * p], pos[3 * p + 1], pos[3 * p + 2], pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]);
    }
    lines.geometry.setAttribute('position', new THREE.Float32BufferAttribute(seg, 3));
    points.geometry.setAttribute('position', new THREE.Float32BufferAttribute(pos, 3));
  };
  return group;
}
// The ghost's joints are larger and drawn first, so both show where they meet.
const exportSkeleton = skeletonLines(0x38c8f0, 5, 11);
const ghost = skeletonLines(0xff9a2e, 11, 10);
exportSkeleton.visible = false;
world.add(exportSkeleton, ghost);

const st = {
  outputs: [], output: null, gltf: null, mixer: null, action: null, clip: null, info: null,
  time: 0, playing: false, speed: 1, eval: null, evalFrame: null, pending: null, nodes: null,
  node: '', curve: null, camera: null, loadMs: null, firstFrameMs: null, drawn: 0, error: null,
};

const fmt = (x, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : '–');

async function api(path) {
  const r = await fetch(path);
  if (!r.ok) throw new Error(`${path}: ${r.status} ${(await r.text()).trim()}`);
  return r.json();
}

function listOutputs() {
  const ul = $('outputs');
  const f = $('filter').value.toLowerCase();
  ul.replaceChildren();
  for (const o of st.outputs) {
    if (f && !`${o.id} ${o.source} ${o.format}`.toLowerCase().includes(f)) continue;
    const li = document.createElement('li');
    li.dataset.id = o.id;
    li.className = st.output === o ? 'on' : '';
    const warn = o.warnings.length ? ` <span class="warn">⚠ ${o.warnings.length}</span>` : '';
    li.innerHTML = `<div></div><div class="src"></div><div class="meta"></div>`;
    li.children[0].textContent = o.path;
    li.children[0].insertAdjacentHTML('beforeend', warn);
    li.children[1].textContent = o.source;
    li.children[2].textContent = `${o.format} · ${o.clips.length} clips · ${(o.size / 1024).toFixed(0)} KiB`;
    li.onclick = () => selectOutput(o.id);
    ul.appendChild(li);
  }
}

function disposeOutput() {
  if (!st.gltf) return;
  st.mixer?.stopAllAction();
  world.remove(st.gltf.scene);
  st.gltf.scene.traverse((o) => {
    o.geometry?.dispose();
    for (const m of [].concat(o.material ?? [])) {
      for (const v of Object.values(m)) if (v?.isTexture) v.dispose();
      m.dispose();
    }
  });
  Object.assign(st, { gltf: null, mixer: null, action: null, clip: null, info: null, eval: null, evalFrame: null, nodes: null, curve: null });
}

// selectOutput loads an output and resolves once its first frame is drawn.
async function selectOutput(id) {
  const o = st.outputs.find((x) => x.id === id);
  if (!o) throw new Error(`no output ${id}`);
  disposeOutput();
  Object.assign(st, { output: o, node: '', loadMs: null, firstFrameMs: null });
  listOutputs();
  $('title').textContent = o.path;
  $('facts').textContent = `from ${o.source} (${o.format})` + (o.others?.length ? ` · also ${o.others.join(', ')}` : '');
  $('warnings').replaceChildren(...o.warnings.map((w) => Object.assign(document.createElement('li'), { textContent: w })));
  const t0 = performance.now();
  const loader = new GLTFLoader();
  loader.register((p) => new GLTFAnimationPointerExtension(p));
  const gltf = await loader.loadAsync(o.url);
  st.loadMs = performance.now() - t0;
  st.gltf = gltf;
  world.add(gltf.scene);
  st.mixer = new THREE.AnimationMixer(gltf.scene);
  const cams = $('camera');
  cams.replaceChildren(new Option('orbit', ''));
  gltf.cameras.forEach((c, i) => cams.add(new Option(c.name || c.parent?.name || `camera ${i}`, String(i))));
  setCamera(gltf.cameras.length ? '0' : '');
  fillClips();
  if (o.clips.length) await selectClip(o.clips[0].name, false);
  else frameScene();
  await drawn();
  st.firstFrameMs = performance.now() - t0;
}

// frameScene points the orbit camera at the whole scene: its meshes at
// rest and every node where the current clip takes it (sampled at 17
// times; a jump leaves the rest pose's box).
function frameScene() {
  const scene = st.gltf.scene;
  scene.updateMatrixWorld(true);
  const box = new THREE.Box3().setFromObject(scene);
  // Meshes reach around their nodes: about half their rest size.
  const reach = box.isEmpty() ? 0 : box.getSize(new THREE.Vector3()).length() / 4;
  const v = new THREE.Vector3(), r = new THREE.Vector3(reach, reach, reach);
  const near = new THREE.Box3();
  const nodes = () => scene.traverse((o) => {
    v.setFromMatrixPosition(o.matrixWorld);
    box.union(near.set(v.clone().sub(r), v.clone().add(r)));
  });
  nodes();
  if (st.info) {
    const keep = st.time;
    for (let k = 0; k <= 16; k++) {
      st.time = (k / 16) * st.info.duration;
      pose();
      nodes();
    }
    st.time = keep;
    pose();
  }
  if (box.isEmpty()) box.set(new THREE.Vector3(-1, -1, -1), new THREE.Vector3(1, 1, 1));
  const size = Math.max(box.getSize(new THREE.Vector3()).length(), 0.01);
  const center = box.getCenter(new THREE.Vector3());
  orbitCamera.near = size / 1000;
  orbitCamera.far = size * 20;
  orbitCamera.position.copy(center).add(new THREE.Vector3(0.6, 0.45, 0.8).multiplyScalar(size * 0.9));
  orbitCamera.updateProjectionMatrix();
  controls.target.copy(center);
  controls.update();
}

function setCamera(value) {
  $('camera').value = value;
  const c = value === '' ? null : st.gltf?.cameras[+value];
  if (c) {
    c.aspect = canvas.width / canvas.height;
    c.updateProjectionMatrix();
  }
  st.camera = c ?? null;
  controls.enabled = !c;
}

function fillClips() {
  const tb = $('clips').tBodies[0];
  tb.replaceChildren();
  for (const c of st.output.clips) {
    const tr = document.createElement('tr');
    tr.dataset.clip = c.name;
    for (const v of [c.name, `${fmt(c.duration)} s`, fmt(c.sourceFrames, 2), `${+c.sourceFps.toFixed(4)} fps`, c.loop, c.sourceName || '']) {
      tr.appendChild(Object.assign(document.createElement('td'), { textContent: v }));
    }
    tr.onclick = () => selectClip(c.name, true);
    tb.appendChild(tr);
  }
}

// selectClip makes a clip the one played; the page keeps the clip time
// itself (st.time, wrapped or held as the clip loops) and poses the mixer
// at it, so a step lands exactly on a source frame.
async function selectClip(name, play) {
  const info = st.output.clips.find((c) => c.name === name);
  const clip = st.gltf.animations.find((a) => a.name === name);
  if (!info || !clip) throw new Error(`no clip ${name}`);
  st.mixer.stopAllAction();
  st.action = st.mixer.clipAction(clip);
  st.action.setLoop(THREE.LoopRepeat, Infinity);
  st.action.play();
  Object.assign(st, { clip, info, time: 0, playing: play, eval: null, evalFrame: null, curve: null });
  for (const tr of $('clips').tBodies[0].rows) tr.className = tr.dataset.clip === name ? 'on' : '';
  const tl = $('timeline');
  tl.max = String(info.sourceFrames);
  $('play').textContent = play ? 'pause' : 'play';
  pose();
  frameScene();
  await evaluate();
  fillNodes();
  if (!st.nodes?.includes(st.node)) st.node = '';
  await loadCurve();
}

// pose applies the clip at st.time.
function pose() {
  if (!st.action) return;
  st.action.time = st.time;
  st.mixer.update(0);
  st.gltf.scene.updateMatrixWorld(true);
}

// setPointers plays the clip with (on) or without its pointer tracks
// (material, light, camera, visibility: everything but node transforms
// and morph weights), to see what they change.
function setPointers(on) {
  if (!st.clip) return;
  const clip = on ? st.clip : new THREE.AnimationClip(st.clip.name, st.clip.duration,
    st.clip.tracks.filter((t) => /\.(position|quaternion|scale|morphTargetInfluences)$/.test(t.name)));
  st.mixer.stopAllAction();
  st.mixer.uncacheClip(st.action.getClip());
  st.action = st.mixer.clipAction(clip);
  st.action.setLoop(THREE.LoopRepeat, Infinity);
  st.action.play();
  pose();
}

const frameNow = () => (st.info ? st.time * st.info.sourceFps : 0);

// evaluate asks the server for the engine's pose at the displayed frame
// (one request at a time; the latest frame wins).
async function evaluate() {
  if (!st.info) return;
  const frame = frameNow();
  if (st.pending) return st.pending;
  const q = new URLSearchParams({ output: st.output.id, clip: st.info.name, frame: String(frame) });
  st.pending = api('/api/eval?' + q).then((e) => {
    st.eval = e;
    st.evalFrame = frame;
    st.error = null;
    showEval();
  }).catch((err) => {
    st.error = String(err);
    $('error').textContent = 'engine unavailable';
    $('error').title = st.error;
  }).finally(() => { st.pending = null; });
  await st.pending;
  if (frameNow() !== frame && !st.playing) await evaluate();
}

function showEval() {
  const e = st.eval;
  ghost.set(e.engine, e.parents);
  const el = $('error');
  el.textContent = `${e.error.toExponential(3)} m`;
  el.dataset.error = String(e.error);
  el.dataset.frame = String(e.frame);
  const where = e.distance === 'mesh' ? "at the mesh's farthest vertices" : 'at the 3 cm shell';
  el.title = `at source frame ${e.frame} (${e.time} s), the largest distance between the engine's and the glTF's virtual vertices (${where}; slerp and nlerp, the worse)`;
  $('worst').textContent = e.worstNode || '–';
  // The importer's warnings on reading the source, after the output's.
  const all = [...st.output.warnings, ...e.warnings.map((w) => `${st.output.source}: ${w}`)];
  const ul = $('warnings');
  if (ul.children.length !== all.length) {
    ul.replaceChildren(...all.map((w) => Object.assign(document.createElement('li'), { textContent: w })));
  }
  $('interp').textContent = (e.worstNode ? `(${e.interpolation}) · ` : '') + `virtual vertices ${where}`;
}

function fillNodes() {
  if (!st.eval || st.nodes === st.eval.nodes) return;
  st.nodes = st.eval.nodes;
  const sel = $('node');
  sel.replaceChildren(new Option('–', ''), ...st.nodes.map((n) => new Option(n, n)));
  sel.value = st.nodes.includes(st.node) ? st.node : '';
}

async function pickNode(name) {
  st.node = name;
  $('node').value = name;
  await loadCurve();
}

async function loadCurve() {
  st.curve = null;
  if (st.node && st.info) {
    const q = new URLSearchParams({ output: st.output.id, clip: st.info.name, node: st.node });
    st.curve = await api('/api/curve?' + q);
  }
  drawCurve();
}

const compColors = ['#ff6b6b', '#6bd66b', '#6b9bff', '#e0e0e0'];

// drawCurve plots the picked node's channels, one panel each: the
// engine's curve (lines) and the glTF's keys (dots), every component.
function drawCurve() {
  const c = $('curve');
  const g = c.getContext('2d');
  g.clearRect(0, 0, c.width, c.height);
  const chans = st.curve?.channels ?? [];
  if (!chans.length) {
    g.fillStyle = '#8d96a3';
    g.fillText(st.node ? `${st.node} has no channel in this clip` : 'pick a node to plot its channels', 10, 20);
    return;
  }
  const h = c.height / chans.length, dur = Math.max(st.info.duration, 1e-9);
  chans.forEach((ch, k) => {
    const top = k * h + 14, bottom = (k + 1) * h - 6;
    let lo = Infinity, hi = -Infinity;
    for (const v of ch.engine.concat(ch.keys ?? [])) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
    if (hi - lo < 1e-9) { lo -= 1; hi += 1; }
    const X = (t) => 30 + (t / dur) * (c.width - 40);
    const Y = (v) => bottom - ((v - lo) / (hi - lo)) * (bottom - top);
    g.fillStyle = '#8d96a3';
    g.fillText(`${ch.path} [${+lo.toPrecision(4)}, ${+hi.toPrecision(4)}]`, 30, top - 3);
    for (let j = 0; j < ch.width; j++) {
      g.strokeStyle = g.fillStyle = compColors[j % 4];
      g.beginPath();
      ch.engineTimes.forEach((t, i) => (i ? g.lineTo(X(t), Y(ch.engine[i * ch.width + j])) : g.moveTo(X(t), Y(ch.engine[j]))));
      g.stroke();
      (ch.keyTimes ?? []).forEach((t, i) => g.fillRect(X(t) - 1.5, Y(ch.keys[i * ch.width + j]) - 1.5, 3, 3));
    }
    g.fillStyle = '#ffffff55';
    g.fillRect(X(st.time), top, 1, bottom - top);
  });
}

// The export's skeleton: the posed three.js nodes of the engine's node
// list (names as GLTFLoader sanitises them).
function updateExportSkeleton() {
  if (!st.eval || !st.gltf) return;
  const pos = [], v = new THREE.Vector3();
  for (const n of st.eval.nodes) {
    const o = st.gltf.scene.getObjectByName(THREE.PropertyBinding.sanitizeNodeName(n));
    if (o) v.setFromMatrixPosition(o.matrixWorld); else v.set(0, 0, 0);
    pos.push(v.x, v.y, v.z);
  }
  exportSkeleton.set(pos, st.eval.parents);
}

function showTime() {
  if (!st.info) return;
  $('timeline').value = String(frameNow());
  $('time').textContent = `frame ${fmt(frameNow(), 2)} / ${fmt(st.info.sourceFrames, 2)} · ${fmt(st.time)} s / ${fmt(st.info.duration)} s`;
}

// advance moves the clip time as the clip loops: repeat and ping-pong
// (baked as one whole cycle) wrap, once holds at the end and stops.
function advance(dt) {
  const d = st.info.duration;
  let t = st.time + dt * st.speed;
  if (st.info.loop === 'once') {
    if (t >= d) { t = d; setPlaying(false); }
  } else if (d > 0) {
    t %= d;
  }
  st.time = t;
}

function setPlaying(on) {
  st.playing = on;
  $('play').textContent = on ? 'pause' : 'play';
}

async function seekFrame(frame) {
  if (!st.info) return;
  setPlaying(false);
  const f = Math.min(Math.max(frame, 0), st.info.sourceFrames);
  st.time = f / st.info.sourceFps;
  pose();
  await evaluate();
}

const step = (n) => seekFrame(Math.round(frameNow()) + n);

const clock = new THREE.Timer();
let drawnWaiters = [];
function loop() {
  clock.update();
  const dt = Math.min(clock.getDelta(), 0.25);
  if (st.playing && st.info) {
    advance(dt);
    pose();
    evaluate();
  }
  ghost.visible = $('showGhost').checked && !!st.eval;
  exportSkeleton.visible = $('showSkeleton').checked && !!st.eval;
  if (st.gltf) st.gltf.scene.visible = $('showModel').checked;
  updateExportSkeleton();
  showTime();
  if (st.curve && st.playing) drawCurve();
  renderer.render(world, st.camera ?? orbitCamera);
  st.drawn++;
  const w = drawnWaiters;
  drawnWaiters = [];
  w.forEach((r) => r());
  requestAnimationFrame(loop);
}

// drawn resolves after the next frame has been rendered.
const drawn = () => new Promise((r) => drawnWaiters.push(r));

$('filter').oninput = listOutputs;
$('play').onclick = () => setPlaying(!st.playing);
$('back').onclick = () => step(-1);
$('fwd').onclick = () => step(1);
$('speed').onchange = (e) => { st.speed = +e.target.value; };
$('timeline').oninput = (e) => seekFrame(+e.target.value);
$('camera').onchange = (e) => setCamera(e.target.value);
$('node').onchange = (e) => pickNode(e.target.value);
$('worst').onclick = (e) => { e.preventDefault(); if (st.eval?.worstNode) pickNode(st.eval.worstNode); };
document.addEventListener('keydown', (e) => {
  if (e.target.tagName === 'INPUT' && e.target.type !== 'range') return;
  if (e.key === ' ') { e.preventDefault(); setPlaying(!st.playing); }
  if (e.key === 'ArrowLeft') step(-1);
  if (e.key === 'ArrowRight') step(1);
});

// Everything settles: the evaluation of the displayed frame has arrived
// and a frame has been drawn with it.
async function settle() {
  while (st.pending) await st.pending;
  if (st.info && st.evalFrame !== frameNow()) await evaluate();
  drawCurve();
  await drawn();
  await drawn();
}

window.bakeView = {
  ready: (async () => {
    const d = await api('/api/outputs');
    st.outputs = d.outputs;
    listOutputs();
    requestAnimationFrame(loop);
  })(),
  selectOutput,
  selectClip: (name) => selectClip(name, false),
  play: () => setPlaying(true),
  pause: () => setPlaying(false),
  step,
  seekFrame,
  pickNode,
  settle,
  pointers: setPointers,
  camera: (v) => setCamera(v),
  show: ({ model, skeleton, ghost: g } = {}) => {
    if (model !== undefined) $('showModel').checked = model;
    if (skeleton !== undefined) $('showSkeleton').checked = skeleton;
    if (g !== undefined) $('showGhost').checked = g;
  },
  // state: what the page shows, for tests.
  state: () => ({
    output: st.output?.id ?? null, clip: st.info?.name ?? null, time: st.time, frame: frameNow(), playing: st.playing,
    error: st.eval?.error ?? null, worstNode: st.eval?.worstNode ?? null, evalFrame: st.evalFrame,
    readout: $('error').dataset.error, ghostJoints: st.eval ? st.eval.engine.length / 3 : 0,
    loadMs: st.loadMs, firstFrameMs: st.firstFrameMs, drawn: st.drawn, failure: st.error,
    curveChannels: st.curve?.channels.length ?? 0, sourceFrames: st.info?.sourceFrames ?? 0,
  }),
  // project returns where a world point lands on the canvas (pixels).
  project: (x, y, z) => {
    const v = new THREE.Vector3(x, y, z).project(st.camera ?? orbitCamera);
    return [(v.x + 1) / 2 * canvas.width, (1 - v.y) / 2 * canvas.height];
  },
  ghostPositions: () => st.eval?.engine ?? [],
  nodes: () => st.eval?.nodes ?? [],
  tracks: () => st.action?.getClip().tracks.map((t) => t.name) ?? [],
  // sceneInfo counts what the scene holds and where it is.
  sceneInfo: () => {
    const info = { meshes: 0, skinned: 0, bones: 0, cameras: st.gltf?.cameras.length ?? 0 };
    st.gltf?.scene.traverse((o) => { info.meshes += !!o.isMesh; info.skinned += !!o.isSkinnedMesh; info.bones += !!o.isBone; });
    const box = st.gltf ? new THREE.Box3().setFromObject(st.gltf.scene) : null;
    info.box = box ? [box.min.toArray(), box.max.toArray()] : null;
    info.camera = (st.camera ?? orbitCamera).position.toArray();
    return info;
  },
  // materials returns the colour, opacity and texture offset of every
  // material of the scene, and every light's colour and intensity: what
  // pointer animations move.
  materials: () => {
    const out = [];
    st.gltf?.scene.traverse((o) => {
      for (const m of [].concat(o.material ?? [])) {
        out.push({ name: m.name, color: m.color?.toArray(), opacity: m.opacity, offset: m.map?.offset.toArray() });
      }
      if (o.isLight) out.push({ light: o.name, color: o.color.toArray(), intensity: o.intensity });
    });
    return out;
  },
};
