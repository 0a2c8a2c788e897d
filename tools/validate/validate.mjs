// Validates every .glb and .gltf under the given folders with the Khronos
// glTF-Validator and exits 1 if any file has an error. Usage:
//   node tools/validate/validate.mjs baked [more folders or files]
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import validator from 'gltf-validator';

async function* walk(p) {
  const st = await stat(p);
  if (st.isFile()) { yield p; return; }
  const entries = (await readdir(p)).sort();
  for (const e of entries) yield* walk(path.join(p, e));
}

const args = process.argv.slice(2);
if (args.length === 0) {
  console.error('usage: node validate.mjs PATH...');
  process.exit(2);
}
let files = 0, bad = 0, warnings = 0;
for (const root of args) {
  for await (const file of walk(root)) {
    if (!/\.(glb|gltf)$/i.test(file)) continue;
    files++;
    const data = new Uint8Array(await readFile(file));
    const report = await validator.validateBytes(data, {
      uri: file,
      maxIssues: 50,
      externalResourceFunction: (uri) =>
        readFile(path.resolve(path.dirname(file), decodeURIComponent(uri))).then((b) => new Uint8Array(b)),
    });
    const { numErrors, numWarnings } = report.issues;
    warnings += numWarnings;
    if (numErrors > 0) {
      bad++;
      console.error(`${file}: ${numErrors} errors`);
      for (const m of report.issues.messages.filter((m) => m.severity === 0)) {
        console.error(`  ${m.code} ${m.pointer ?? ''}: ${m.message}`);
      }
    }
  }
}
console.log(`glTF-Validator: ${files} files, ${bad} with errors, ${warnings} warnings`);
if (files === 0) {
  console.error('no glTF files found');
  process.exit(1);
}
process.exit(bad > 0 ? 1 : 0);
