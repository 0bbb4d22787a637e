/**
 * Small photo bodies for tests: a real 1×1 PNG (decodable), and the leading bytes of the other
 * photo formats followed by filler (enough for type sniffing, not for decoding), plus the hostile
 * bodies photos must never be: SVG with a script and HTML.
 */
import { deflateSync } from 'node:zlib';

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid 1×1 RGB PNG of the given colour. */
export function pngImage(rgb: [number, number, number] = [200, 30, 30]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0); // width
  header.writeUInt32BE(1, 4); // height
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  const scanline = Buffer.from([0, ...rgb]); // filter byte "none", one pixel
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(scanline)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const filler = Buffer.alloc(32, 0x11);

/** JPEG leading bytes (SOI, then an APP0 "JFIF" segment) and filler. */
export const jpegBytes = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from('JFIF\0', 'latin1'),
  filler,
]);

/** GIF89a leading bytes (signature and a 1×1 logical screen descriptor) and filler. */
export const gifBytes = Buffer.concat([
  Buffer.from('GIF89a', 'latin1'),
  Buffer.from([0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00]),
  filler,
]);

/** WebP leading bytes (RIFF container, form `WEBP`, first chunk `VP8L`) and filler. */
export const webpBytes = Buffer.concat([
  Buffer.from('RIFF', 'latin1'),
  Buffer.from([0x2c, 0x00, 0x00, 0x00]),
  Buffer.from('WEBPVP8L', 'latin1'),
  filler,
]);

/** An SVG document carrying a script. */
export const svgBytes = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
);

/** An HTML document carrying a script. */
export const htmlBytes = Buffer.from('<!doctype html><html><script>alert(1)</script></html>');
