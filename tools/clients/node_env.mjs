// The little of a browser that three.js's GLTFLoader needs in Node for
// animation-only files: `self`, ProgressEvent (FileLoader reports progress
// while it reads a response body), and fetch() of file: URLs, so a .gltf's
// external .bin buffer is loaded through the loader's own URI resolution.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

globalThis.self ??= globalThis;

globalThis.ProgressEvent ??= class ProgressEvent extends Event {
  constructor(type, init = {}) {
    super(type);
    this.lengthComputable = init.lengthComputable ?? false;
    this.loaded = init.loaded ?? 0;
    this.total = init.total ?? 0;
  }
};

const networkFetch = globalThis.fetch;

globalThis.fetch = async function fetchWithFiles(input, init) {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  if (!url.startsWith('file:')) return networkFetch(input, init);
  try {
    const body = await readFile(fileURLToPath(url));
    return new Response(body, { status: 200 });
  } catch (err) {
    return new Response(String(err), { status: 404, statusText: 'Not Found' });
  }
};
