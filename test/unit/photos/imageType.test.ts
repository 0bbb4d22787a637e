/**
 * Photo type sniffing from bytes: the four raster formats are recognised from their leading bytes
 * alone; empty, truncated, look-alike and document bodies (SVG, HTML) are not photos, whatever
 * they are declared as.
 */
import {
  declaredPhotoType,
  PHOTO_SNIFF_BYTES,
  servedPhotoContentType,
  sniffPhotoType,
  UNCHECKED_PHOTO_CONTENT_TYPE,
} from '../../../src/photos/imageType';
import {
  gifBytes,
  htmlBytes,
  jpegBytes,
  pngImage,
  svgBytes,
  webpBytes,
} from '../../support/images';

const png = pngImage();

describe('sniffPhotoType', () => {
  it.each([
    ['image/png', png],
    ['image/jpeg', jpegBytes],
    ['image/gif', gifBytes],
    ['image/webp', webpBytes],
  ])(
    'recognises %s from the whole body and from its first PHOTO_SNIFF_BYTES bytes',
    (type, bytes) => {
      expect(sniffPhotoType(bytes)).toBe(type);
      expect(sniffPhotoType(bytes.subarray(0, PHOTO_SNIFF_BYTES))).toBe(type);
    },
  );

  it('recognises other JPEG first segments (Exif, quantisation table) and GIF87a', () => {
    expect(sniffPhotoType(Buffer.from([0xff, 0xd8, 0xff, 0xe1, 0, 0]))).toBe('image/jpeg');
    expect(sniffPhotoType(Buffer.from([0xff, 0xd8, 0xff, 0xdb, 0, 0]))).toBe('image/jpeg');
    const gif87 = Buffer.from(gifBytes);
    gif87.write('GIF87a', 'latin1');
    expect(sniffPhotoType(gif87)).toBe('image/gif');
  });

  it('refuses empty input and every truncated header', () => {
    expect(sniffPhotoType(new Uint8Array(0))).toBeUndefined();
    for (const [bytes, needed] of [
      [png, 16],
      [jpegBytes, 4],
      [gifBytes, 13],
      [webpBytes, 16],
    ] as const) {
      for (let length = 0; length < needed; length++) {
        expect(sniffPhotoType(bytes.subarray(0, length))).toBeUndefined();
      }
    }
  });

  it('refuses SVG, HTML, text and JSON, also with leading whitespace or a byte-order mark', () => {
    for (const body of [
      svgBytes,
      htmlBytes,
      Buffer.from('   <svg xmlns="http://www.w3.org/2000/svg"></svg>'),
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), svgBytes]),
      Buffer.from('plain text that is long enough'),
      Buffer.from('{"image":"png"}'),
    ]) {
      expect(sniffPhotoType(body)).toBeUndefined();
    }
  });

  it('refuses look-alikes: a PNG signature without IHDR, RIFF that is not WebP, a bad JPEG marker', () => {
    const noIhdr = Buffer.from(png);
    noIhdr.write('IDAT', 12, 'latin1');
    expect(sniffPhotoType(noIhdr)).toBeUndefined();
    const wave = Buffer.from(webpBytes);
    wave.write('WAVE', 8, 'latin1');
    expect(sniffPhotoType(wave)).toBeUndefined();
    const unknownChunk = Buffer.from(webpBytes);
    unknownChunk.write('VP9 ', 12, 'latin1');
    expect(sniffPhotoType(unknownChunk)).toBeUndefined();
    expect(sniffPhotoType(Buffer.from([0xff, 0xd8, 0xff, 0x00, 0, 0]))).toBeUndefined();
    expect(sniffPhotoType(Buffer.from([0xff, 0xd8, 0xff, 0xff, 0, 0]))).toBeUndefined();
    expect(sniffPhotoType(Buffer.from('GIF90a1234567890', 'latin1'))).toBeUndefined();
  });

  it('reads only the start: an image header followed by HTML is that image type', () => {
    // A polyglot is harmless once every read pins `image/png`; the sniffer does not pretend to
    // validate the whole file.
    expect(sniffPhotoType(Buffer.concat([png.subarray(0, 16), htmlBytes]))).toBe('image/png');
  });
});

describe('declaredPhotoType', () => {
  it('accepts the four photo types, ignoring case, parameters and surrounding blanks', () => {
    expect(declaredPhotoType('image/png')).toBe('image/png');
    expect(declaredPhotoType('Image/JPEG; q=0.9')).toBe('image/jpeg');
    expect(declaredPhotoType(' image/gif ')).toBe('image/gif');
    expect(declaredPhotoType('image/webp')).toBe('image/webp');
  });

  it('refuses SVG, HTML, wildcards, other images and nothing', () => {
    for (const type of [
      'image/svg+xml',
      'text/html',
      'image/*',
      'image/bmp',
      'image/x-icon',
      'application/octet-stream',
      'image/png+xml',
      '',
      undefined,
    ]) {
      expect(declaredPhotoType(type)).toBeUndefined();
    }
  });
});

describe('servedPhotoContentType', () => {
  it('serves a checked type as is and anything else as an opaque download', () => {
    expect(servedPhotoContentType('image/webp')).toBe('image/webp');
    for (const stored of [undefined, '', 'text/html', 'image/svg+xml', 'IMAGE/PNG', 42]) {
      expect(servedPhotoContentType(stored)).toBe(UNCHECKED_PHOTO_CONTENT_TYPE);
    }
  });
});
