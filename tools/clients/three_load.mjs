// Loading bake's glTF output in three.js the way the asset and pointer
// checks do: GLTFLoader with Needle's KHR_animation_pointer plugin, from the
// file's bytes, plus the glTF JSON parsed on its own (the plugin rewrites
// the loader's copy).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { GLTFAnimationPointerExtension } from '@needle-tools/three-animation-pointer';

/** The glTF JSON of a .glb or .gltf file's bytes. */
export function gltfJSON(bytes) {
  if (bytes.readUInt32LE(0) !== 0x46546c67) return JSON.parse(bytes.toString('utf8'));
  const len = bytes.readUInt32LE(12);
  return JSON.parse(bytes.subarray(20, 20 + len).toString('utf8'));
}

/** { gltf: what GLTFLoader (with the pointer plugin) made of file, json: its glTF JSON }. */
export async function loadWithPointers(file) {
  const bytes = await readFile(file);
  const data = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const base = pathToFileURL(path.dirname(path.resolve(file))).href + '/';
  const loader = new GLTFLoader();
  loader.register((p) => new GLTFAnimationPointerExtension(p));
  return { gltf: await loader.parseAsync(data, base), json: gltfJSON(bytes) };
}
