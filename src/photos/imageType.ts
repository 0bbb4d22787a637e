/**
 * What kind of image a photo is, decided from its bytes (magic numbers), never from a declared
 * content type. Only raster formats that browsers render as images and never as documents are
 * photos: PNG, JPEG, GIF and WebP. SVG (XML that may carry scripts), HTML and anything else are
 * not.
 *
 * Pure: no I/O. The photo feature sniffs a direct upload's body and the first bytes of a blob
 * uploaded through a write SAS, then pins the sniffed type on every read token (`rsct`).
 */

/** The content types a photo may have, each the type of one sniffable raster format. */
export const PHOTO_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** A content type a photo may have. */
export type PhotoContentType = (typeof PHOTO_CONTENT_TYPES)[number];

/**
 * How many leading bytes {@link sniffPhotoType} needs at most: reading this many from the start
 * of a blob is enough to decide.
 */
export const PHOTO_SNIFF_BYTES = 16;

/**
 * The type pinned on read tokens of a photo whose type the app never checked (one adopted before
 * types were checked): browsers download it rather than render it as a document, and an `<img>`
 * still shows a real image.
 */
export const UNCHECKED_PHOTO_CONTENT_TYPE = 'application/octet-stream';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: Uint8Array, expected: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + expected.length) return false;
  return expected.every((value, index) => bytes[offset + index] === value);
}

function ascii(text: string): number[] {
  return [...text].map((char) => char.charCodeAt(0));
}

/** PNG: the 8-byte signature, then the first chunk, which is always a 13-byte `IHDR`. */
function isPng(bytes: Uint8Array): boolean {
  return (
    startsWith(bytes, PNG_SIGNATURE) &&
    startsWith(bytes, [0x00, 0x00, 0x00, 0x0d], 8) &&
    startsWith(bytes, ascii('IHDR'), 12)
  );
}

/** JPEG: start-of-image `FF D8`, then the first segment's marker `FF xx` (xx from C0 to FE). */
function isJpeg(bytes: Uint8Array): boolean {
  return (
    startsWith(bytes, [0xff, 0xd8, 0xff]) &&
    bytes.length >= 4 &&
    bytes[3]! >= 0xc0 &&
    bytes[3]! <= 0xfe
  );
}

/** GIF: `GIF87a` or `GIF89a`, then the 7-byte logical screen descriptor. */
function isGif(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 13 && (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a')))
  );
}

/** WebP: a RIFF container of form `WEBP` whose first chunk is `VP8 `, `VP8L` or `VP8X`. */
function isWebp(bytes: Uint8Array): boolean {
  return (
    startsWith(bytes, ascii('RIFF')) &&
    startsWith(bytes, ascii('WEBP'), 8) &&
    (startsWith(bytes, ascii('VP8 '), 12) ||
      startsWith(bytes, ascii('VP8L'), 12) ||
      startsWith(bytes, ascii('VP8X'), 12))
  );
}

/**
 * The photo type of these bytes, read from their first {@link PHOTO_SNIFF_BYTES} bytes.
 *
 * @param bytes - the whole image or at least its first {@link PHOTO_SNIFF_BYTES} bytes.
 * @returns the content type, or `undefined` when the bytes are no PNG, JPEG, GIF or WebP (empty,
 *   truncated header, SVG, HTML, text, other formats). Never throws.
 */
export function sniffPhotoType(bytes: Uint8Array): PhotoContentType | undefined {
  if (isPng(bytes)) return 'image/png';
  if (isJpeg(bytes)) return 'image/jpeg';
  if (isGif(bytes)) return 'image/gif';
  if (isWebp(bytes)) return 'image/webp';
  return undefined;
}

/**
 * A declared content type (a `Content-Type` header value) as a photo type: parameters dropped,
 * case folded (media types are case-insensitive).
 *
 * @returns the photo type, or `undefined` when it names anything else (`image/svg+xml`,
 *   `text/html`, `image/*`, empty). Never throws.
 */
export function declaredPhotoType(contentType: string | undefined): PhotoContentType | undefined {
  const essence = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return isPhotoContentType(essence) ? essence : undefined;
}

/** Whether `value` is exactly one of {@link PHOTO_CONTENT_TYPES}. */
export function isPhotoContentType(value: unknown): value is PhotoContentType {
  return (PHOTO_CONTENT_TYPES as readonly unknown[]).includes(value);
}

/**
 * The content type to pin on a read token (`rsct`) for a stored photo type: the type the app
 * checked, or {@link UNCHECKED_PHOTO_CONTENT_TYPE} when none was recorded or the record is not a
 * photo type. Never throws.
 */
export function servedPhotoContentType(checked: unknown): string {
  return isPhotoContentType(checked) ? checked : UNCHECKED_PHOTO_CONTENT_TYPE;
}
