// What a glTF client must show, worked out from bake's JSON export alone:
// each node's rest transform, and each clip's node-local translation,
// rotation and scale at any time, interpolated the way glTF 2.0 defines
// LINEAR (component-wise lerp; slerp for rotations, the short way) and STEP
// (hold the previous key). The same rules are written in blender_check.py.

/** The three glTF-animatable paths, with their component counts. */
export const TRS = { translation: 3, rotation: 4, scale: 3 };

/** Absolute tolerance, scaled by max(1, |value|) for translations and scales. */
export const TOLERANCE = 1e-5;

/**
 * Rounds a parsed JSON export's numbers back to float32 in place. bake
 * writes them as the shortest decimal that names the float32 (docs/json.md),
 * which parses to a nearby double, not to the float32 itself: 75.3 is not
 * the glTF key time 75.30000305…, and asking a client at the double would
 * land just before the key.
 */
export function toFloat32(doc) {
  const round = (v) => (typeof v === 'number' ? Math.fround(v) : v);
  const rows = (r) => r.map((row) => row.map(round));
  for (const n of doc.nodes) {
    for (const k of ['translation', 'rotation', 'scale', 'matrix']) if (n[k]) n[k] = n[k].map(round);
  }
  for (const a of doc.animations) {
    a.duration = round(a.duration);
    for (const c of a.channels) {
      c.times = c.times.map(round);
      c.values = rows(c.values);
    }
  }
  return doc;
}

/**
 * Rest TRS of every JSON node (null where the node's rest is a matrix,
 * which glTF writes as `matrix` and clients decompose).
 */
export function restOf(node) {
  if (node.matrix) return null;
  return { translation: node.translation, rotation: node.rotation, scale: node.scale };
}

/**
 * The animated TRS channels of one JSON animation, keyed by node name and
 * path. Channels that glTF cannot animate (material targets, data paths,
 * nodes whose rest is a matrix) are counted in `data` instead.
 */
export function trsChannels(doc, anim) {
  const matrixNodes = new Set(doc.nodes.filter((n) => n.matrix).map((n) => n.name));
  const byNode = new Map();
  let data = 0;
  for (const c of anim.channels) {
    if (!c.node || !(c.path in TRS) || matrixNodes.has(c.node)) {
      data++;
      continue;
    }
    if (!byNode.has(c.node)) byNode.set(c.node, {});
    byNode.get(c.node)[c.path] = c;
  }
  return { byNode, data };
}

/** Regular probes per source frame: bake's fidelity metric's density (docs/fidelity.md). */
export const PROBES_PER_FRAME = 4;

/**
 * Every time a client is asked about: each key time of the clip, the
 * midpoint between each pair of consecutive key times, and the fidelity
 * metric's regular probes (PROBES_PER_FRAME per source frame, in float32
 * seconds), where `bake stats` measures the same keys against the engine.
 */
export function queryTimes(anim) {
  const set = new Set();
  for (const c of anim.channels) for (const t of c.times) set.add(t);
  if (set.size === 0) {
    set.add(0);
    set.add(anim.duration);
  }
  const samples = [...set].sort((a, b) => a - b);
  const out = [];
  for (let i = 0; i < samples.length; i++) {
    out.push({ t: samples[i], kind: 'sample' });
    if (i + 1 < samples.length) out.push({ t: (samples[i] + samples[i + 1]) / 2, kind: 'midpoint' });
  }
  const rate = PROBES_PER_FRAME * (anim.sourceFps || 0);
  for (let k = 0; rate > 0 && k / rate < anim.duration; k++) {
    const t = Math.fround(k / rate);
    if (!set.has(t)) out.push({ t, kind: 'probe' });
  }
  return out.sort((a, b) => a.t - b.t);
}

/** The channel's value at time t under glTF's LINEAR or STEP rules. */
export function valueAt(channel, path, t) {
  const { times, values } = channel;
  const last = times.length - 1;
  if (t <= times[0]) return values[0];
  if (t >= times[last]) return values[last];
  let lo = 0;
  let hi = last;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= t) lo = mid;
    else hi = mid;
  }
  if (channel.interpolation === 'STEP' || times[lo] === t) return values[lo];
  const u = (t - times[lo]) / (times[hi] - times[lo]);
  return path === 'rotation' ? slerp(values[lo], values[hi], u) : lerp(values[lo], values[hi], u);
}

/**
 * What three.js shows of a LINEAR rotation channel whose keys are 16-bit
 * (normalized SHORT outputs, which bake writes where they fit its error
 * budget, docs/fidelity.md). Such a key's |q|² is off 1 (by up to 4.6e-5),
 * and glTF does not say how a client treats the difference; so the
 * expectation follows what three.js 0.187 does, read from its source:
 * GLTFLoader dequantizes (c × 1/32767, into a Float32Array) without
 * normalising; Interpolant.evaluate holds the first key as stored before its
 * time and the last key from its time on, and otherwise calls
 * QuaternionLinearInterpolant, i.e. Quaternion.slerpFlat(a, b, α) with
 * α = (t − t0)/(t1 − t0) (0 at an interior key): equal keys give a as stored;
 * keys flipped to the short way with dot ≥ 0.9995 give the normalised lerp;
 * otherwise the slerp formula with θ = acos(dot), not normalised. The mixer
 * sets the result as it is (one action, weight 1) and Matrix4.compose builds
 * the matrix from it, 1 − 2(y² + z²) on the diagonal, which trsMatrix
 * (three_bones.mjs) does too. Float rotation channels keep glTF's rule
 * (valueAt): they are unit within float32, where three.js's nlerp branch and
 * normalisation differ from Appendix C's slerp by less than 3e-6.
 */
export function threeQuantizedRotationAt(channel, t) {
  const { times, values } = channel;
  const last = times.length - 1;
  if (t < times[0] || last === 0) return values[0];
  if (t >= times[last]) return values[last];
  let lo = 0;
  let hi = last;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= t) lo = mid;
    else hi = mid;
  }
  return threeSlerpFlat(values[lo], values[hi], (t - times[lo]) / (times[hi] - times[lo]));
}

/** three.js's Quaternion.slerpFlat, on plain arrays (see threeQuantizedRotationAt). */
export function threeSlerpFlat(a, b, u) {
  if (a.every((x, i) => x === b[i])) return a.slice();
  let dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  if (dot < 0) {
    b = b.map((x) => -x);
    dot = -dot;
  }
  let s = 1 - u;
  let v = u;
  if (dot < 0.9995) {
    const theta = Math.acos(dot);
    const sin = Math.sin(theta);
    s = Math.sin(s * theta) / sin;
    v = Math.sin(v * theta) / sin;
    return a.map((x, i) => x * s + b[i] * v);
  }
  return normalize(a.map((x, i) => x * s + b[i] * v));
}

/** Component-wise linear interpolation. */
export function lerp(a, b, u) {
  return a.map((x, i) => x + (b[i] - x) * u);
}

/** Spherical linear interpolation of unit quaternions the short way (glTF 2.0, Appendix C). */
export function slerp(a, b, u) {
  let dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  let sign = 1;
  if (dot < 0) {
    sign = -1;
    dot = -dot;
  }
  if (dot > 1 - 1e-12) return normalize(lerp(a, b.map((x) => sign * x), u));
  const theta = Math.acos(Math.min(1, dot));
  const sa = Math.sin((1 - u) * theta) / Math.sin(theta);
  const sb = (sign * Math.sin(u * theta)) / Math.sin(theta);
  return a.map((x, i) => sa * x + sb * b[i]);
}

function normalize(q) {
  const n = Math.hypot(...q);
  return q.map((x) => x / n);
}

/**
 * How far a client's value is from the expected one, in units of the
 * tolerance (≤ 1 passes). Rotations are compared sign-free: q and −q are the
 * same rotation. Translations and scales are relative above magnitude 1,
 * since a client may hold interpolated values in float32.
 */
export function deviation(path, got, want) {
  if (!allFinite(got) || !allFinite(want) || got.length !== want.length) return Infinity;
  if (path === 'rotation') {
    let plus = 0;
    let minus = 0;
    for (let i = 0; i < 4; i++) {
      plus = Math.max(plus, Math.abs(got[i] - want[i]));
      minus = Math.max(minus, Math.abs(got[i] + want[i]));
    }
    return Math.min(plus, minus) / TOLERANCE;
  }
  let worst = 0;
  for (let i = 0; i < want.length; i++) {
    worst = Math.max(worst, Math.abs(got[i] - want[i]) / (TOLERANCE * Math.max(1, Math.abs(want[i]))));
  }
  return worst;
}

/** Matrix difference in the same units (column-major 4×4, relative above 1). */
export function matrixDeviation(got, want) {
  if (!allFinite(got) || !allFinite(want) || got.length !== 16 || want.length !== 16) return Infinity;
  let worst = 0;
  for (let i = 0; i < 16; i++) {
    worst = Math.max(worst, Math.abs(got[i] - want[i]) / (TOLERANCE * Math.max(1, Math.abs(want[i]))));
  }
  return worst;
}

function allFinite(v) {
  return Array.isArray(v) || ArrayBuffer.isView(v) ? Array.prototype.every.call(v, Number.isFinite) : false;
}
