// Skins in three.js: GLTFLoader makes every joint of a glTF skin a Bone
// (a mesh-less skin included). The check asserts that, and compares each
// bone's world matrix (matrixWorld after the mixer has set the pose) with
// the JSON's local transforms composed down the hierarchy (glTF 2.0
// section 3.5.3), computed here without three.js's math.

/** The node indices that are joints of some skin. */
export function jointIndices(json) {
  const joints = new Set();
  for (const s of json.skins ?? []) for (const j of s.joints ?? []) joints.add(j);
  return joints;
}

/** Column-major 4×4 of T·R·S (rotation x, y, z, w). */
export function trsMatrix(t, q, s) {
  const [x, y, z, w] = q;
  const r = [
    1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
    2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
    2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y),
  ]; // columns
  return [
    r[0] * s[0], r[1] * s[0], r[2] * s[0], 0,
    r[3] * s[1], r[4] * s[1], r[5] * s[1], 0,
    r[6] * s[2], r[7] * s[2], r[8] * s[2], 0,
    t[0], t[1], t[2], 1,
  ];
}

/** a·b for column-major 4×4 matrices. */
export function mul(a, b) {
  const m = new Array(16).fill(0);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      let v = 0;
      for (let k = 0; k < 4; k++) v += a[k * 4 + r] * b[c * 4 + k];
      m[c * 4 + r] = v;
    }
  }
  return m;
}

/**
 * Every JSON node's world matrix, given its local transform: localOf(i)
 * returns {translation, rotation, scale}, or null for a static matrix node.
 */
export function composeWorlds(doc, localOf) {
  const index = new Map(doc.nodes.map((n, i) => [n.name, i]));
  const worlds = [];
  doc.nodes.forEach((n, i) => {
    const l = localOf(i);
    const local = l === null ? n.matrix : trsMatrix(l.translation, l.rotation, l.scale);
    worlds.push(n.parent === null ? local : mul(worlds[index.get(n.parent)], local));
  });
  return worlds;
}
