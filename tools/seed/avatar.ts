/**
 * Simple drawn avatars as real PNG files for the sample directory: a head and shoulders in one of
 * several skin tones, hair styles and colours, clothes and backgrounds, chosen from a seed so an
 * employee always gets the same picture. Drawn by sampling shapes (3×3 samples per pixel, so edges
 * are smooth) and encoded with node:zlib (deflate and CRC-32) as an 8-bit RGB PNG.
 */
import { crc32, deflateSync } from 'node:zlib';
import { seededRandom, pick } from './people';

type Rgb = readonly [number, number, number];

const SKIN: readonly Rgb[] = [
  [255, 224, 196],
  [241, 194, 160],
  [224, 172, 128],
  [198, 134, 94],
  [161, 102, 66],
  [120, 74, 48],
  [88, 54, 36],
];
const HAIR: readonly Rgb[] = [
  [35, 28, 24],
  [64, 44, 32],
  [110, 72, 40],
  [168, 120, 64],
  [222, 188, 120],
  [150, 60, 34],
  [120, 120, 124],
];
const CLOTHES: readonly Rgb[] = [
  [38, 84, 160],
  [30, 120, 110],
  [150, 44, 64],
  [70, 70, 84],
  [200, 120, 40],
  [96, 60, 140],
  [44, 110, 60],
];
const BACKGROUND: readonly Rgb[] = [
  [214, 232, 250],
  [222, 242, 228],
  [250, 230, 214],
  [236, 226, 248],
  [250, 244, 208],
  [220, 238, 240],
  [246, 222, 230],
];

type Style = 'short' | 'long' | 'bun' | 'bald' | 'curly';
const STYLES: readonly Style[] = ['short', 'long', 'bun', 'short', 'curly', 'long', 'bald'];

/** True inside the ellipse centred at (cx, cy) with radii rx, ry. */
const inEllipse = (x: number, y: number, cx: number, cy: number, rx: number, ry: number): boolean =>
  ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1;

const shade = (c: Rgb, f: number): Rgb => [c[0] * f, c[1] * f, c[2] * f];

/** The colour at (x, y), both in 0..1, of the avatar described by the choices. */
function colourAt(
  x: number,
  y: number,
  look: { skin: Rgb; hair: Rgb; clothes: Rgb; background: Rgb; style: Style },
): Rgb {
  const { skin, hair, clothes, background, style } = look;
  const head = inEllipse(x, y, 0.5, 0.43, 0.165, 0.2);
  // Facial features first (they sit on the head).
  if (head) {
    const eye =
      inEllipse(x, y, 0.44, 0.44, 0.016, 0.02) || inEllipse(x, y, 0.56, 0.44, 0.016, 0.02);
    if (eye) return [40, 34, 32];
    const r = Math.hypot(x - 0.5, y - 0.47);
    if (y > 0.5 && Math.abs(r - 0.065) < 0.009) return shade(skin, 0.62);
  }
  const cap = inEllipse(x, y, 0.5, 0.38, 0.185, 0.17) && y < 0.4;
  const curls =
    style === 'curly' &&
    [0.34, 0.42, 0.5, 0.58, 0.66].some((cx, i) =>
      inEllipse(x, y, cx, 0.27 + (i % 2) * 0.02, 0.07, 0.07),
    );
  if (style !== 'bald' && (cap || curls)) return hair;
  if (style === 'bun' && inEllipse(x, y, 0.5, 0.18, 0.08, 0.07)) return hair;
  if (style === 'bald' && inEllipse(x, y, 0.5, 0.43, 0.175, 0.21) && !head) return shade(skin, 0.9);
  if (head) return skin;
  // Ears.
  if (inEllipse(x, y, 0.335, 0.45, 0.025, 0.04) || inEllipse(x, y, 0.665, 0.45, 0.025, 0.04))
    return shade(skin, 0.92);
  if (style === 'long' && inEllipse(x, y, 0.5, 0.5, 0.22, 0.28) && y > 0.3) return shade(hair, 0.9);
  if (x > 0.445 && x < 0.555 && y > 0.58 && y < 0.72) return shade(skin, 0.88);
  if (inEllipse(x, y, 0.5, 1.02, 0.36, 0.32)) {
    // A collar: a V of skin at the top of the clothes.
    if (y < 0.78 && Math.abs(x - 0.5) < (0.78 - y) * 0.9) return shade(skin, 0.88);
    return clothes;
  }
  return background;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed) >>> 0);
  return Buffer.concat([length, typed, crc]);
}

/** Encodes `rgb` (width × height × 3 bytes, rows top to bottom) as a PNG. */
export function encodePng(width: number, height: number, rgb: Uint8Array): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    rows[y * (width * 3 + 1)] = 0; // filter: none
    Buffer.from(rgb.buffer, rgb.byteOffset + y * width * 3, width * 3).copy(
      rows,
      y * (width * 3 + 1) + 1,
    );
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A `size`×`size` PNG avatar; the same `seed` always draws the same one. */
export function avatarPng(seed: number, size = 160): Buffer {
  const random = seededRandom(seed);
  const look = {
    skin: pick(random, SKIN),
    hair: pick(random, HAIR),
    clothes: pick(random, CLOTHES),
    background: pick(random, BACKGROUND),
    style: pick(random, STYLES),
  };
  const samples = 3;
  const rgb = new Uint8Array(size * size * 3);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const c = colourAt(
            (px + (sx + 0.5) / samples) / size,
            (py + (sy + 0.5) / samples) / size,
            look,
          );
          r += c[0];
          g += c[1];
          b += c[2];
        }
      }
      const n = samples * samples;
      const i = (py * size + px) * 3;
      rgb[i] = Math.round(r / n);
      rgb[i + 1] = Math.round(g / n);
      rgb[i + 2] = Math.round(b / n);
    }
  }
  return encodePng(size, size, rgb);
}

/** A number from a text (FNV-1a), to seed an employee's avatar by their key. */
export function hashSeed(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
