// Images for three.js's GLTFLoader in Node: fetch() of the blob: URLs the
// loader makes for images stored in a buffer view, and a createImageBitmap
// that really decodes what it is given far enough to prove the file is a
// valid image of the size it claims (a PNG's zlib stream is inflated and
// its length checked against IHDR; a JPEG's frame header is read). Every
// decoded image is recorded in `decodedImages` for the checks to count.
import { resolveObjectURL } from 'node:buffer';
import { inflateSync } from 'node:zlib';
import './node_env.mjs';

export const decodedImages = [];

const fileFetch = globalThis.fetch;
globalThis.fetch = async function fetchWithBlobs(input, init) {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  if (url.startsWith('blob:')) {
    const blob = resolveObjectURL(url);
    if (!blob) return new Response('no such blob', { status: 404 });
    return new Response(blob, { status: 200 });
  }
  return fileFetch(input, init);
};

const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** Decodes a PNG far enough to check it: signature, IHDR, inflated IDAT size. */
export function checkPNG(b) {
  const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (!sig.every((v, i) => b[i] === v)) throw new Error('not a PNG');
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let off = 8;
  let width = 0, height = 0, depth = 0, type = 0;
  const idat = [];
  while (off + 8 <= b.length) {
    const len = dv.getUint32(off);
    const kind = String.fromCharCode(...b.subarray(off + 4, off + 8));
    const body = b.subarray(off + 8, off + 8 + len);
    if (kind === 'IHDR') {
      width = dv.getUint32(off + 8);
      height = dv.getUint32(off + 12);
      depth = b[off + 16];
      type = b[off + 17];
    } else if (kind === 'IDAT') idat.push(body);
    else if (kind === 'IEND') break;
    off += 12 + len;
  }
  if (!width || !height || !(type in channels)) throw new Error(`PNG header ${width}×${height} type ${type}`);
  const raw = inflateSync(Buffer.concat(idat));
  const rowBytes = Math.ceil((width * channels[type] * depth) / 8);
  if (raw.length !== height * (1 + rowBytes)) throw new Error(`PNG data ${raw.length} bytes for ${width}×${height}`);
  return { width, height };
}

/** Reads a JPEG's frame header for its size. */
export function checkJPEG(b) {
  if (b[0] !== 0xff || b[1] !== 0xd8) throw new Error('not a JPEG');
  let off = 2;
  while (off + 9 < b.length) {
    if (b[off] !== 0xff) throw new Error(`JPEG marker expected at ${off}`);
    const marker = b[off + 1];
    const len = (b[off + 2] << 8) | b[off + 3];
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: (b[off + 5] << 8) | b[off + 6], width: (b[off + 7] << 8) | b[off + 8] };
    }
    off += 2 + len;
  }
  throw new Error('JPEG without a frame header');
}

globalThis.createImageBitmap = async function createImageBitmap(blob) {
  const b = new Uint8Array(await blob.arrayBuffer());
  const size = b[0] === 0x89 ? checkPNG(b) : checkJPEG(b);
  const bitmap = { ...size, close() {} };
  decodedImages.push(bitmap);
  return bitmap;
};
