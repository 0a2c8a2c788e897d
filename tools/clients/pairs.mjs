// Finds the glTF outputs that have a JSON export beside them: bake writes
// X.glb, X.gltf (+ X.bin) and X.json for the same input with -f glb,gltf,json.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

async function* walk(p) {
  const st = await stat(p);
  if (st.isFile()) {
    yield p;
    return;
  }
  for (const e of (await readdir(p)).sort()) yield* walk(path.join(p, e));
}

/**
 * Every {gltf, json} pair under the given files and folders, in path order,
 * and the glTF files that had no JSON sibling.
 */
export async function findPairs(roots) {
  const pairs = [];
  const unpaired = [];
  for (const root of roots) {
    const files = [];
    for await (const f of walk(root)) files.push(f);
    const present = new Set(files);
    for (const f of files) {
      if (!/\.(glb|gltf)$/i.test(f)) continue;
      const json = f.replace(/\.(glb|gltf)$/i, '.json');
      if (present.has(json)) pairs.push({ gltf: f, json });
      else unpaired.push(f);
    }
  }
  return { pairs, unpaired };
}
