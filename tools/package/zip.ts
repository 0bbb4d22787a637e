/**
 * A zip archive of a folder and back, with Node's zlib only (no `zip` tool on every developer's
 * machine): deflated entries, forward slashes, no extra fields — what zip deploy unpacks. The
 * reader takes archives this writer made (the package test and the cold-start bench unpack the
 * zip that is deployed, not the folder it came from).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

interface Entry {
  name: Buffer;
  crc: number;
  size: number;
  compressed: number;
  offset: number;
}

/** Every file under `dir`, as sorted `/`-separated relative paths. */
export function filesUnder(dir: string, relative = ''): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(path.join(dir, relative), { withFileTypes: true })) {
    const name = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...filesUnder(dir, name));
    else if (entry.isFile()) found.push(name);
  }
  return found.sort();
}

/** Writes every file under `dir` into the zip archive `zipPath` (replaced if it exists). */
export function zipFolder(dir: string, zipPath: string): void {
  const chunks: Buffer[] = [];
  const entries: Entry[] = [];
  let offset = 0;
  for (const file of filesUnder(dir)) {
    const data = fs.readFileSync(path.join(dir, file));
    const deflated = zlib.deflateRawSync(data, { level: 9 });
    const name = Buffer.from(file, 'utf8');
    const entry = { name, crc: zlib.crc32(data), size: data.length, compressed: deflated.length };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(0x00210000, 10); // 1980-01-01 00:00: a reproducible archive
    local.writeUInt32LE(entry.crc, 14);
    local.writeUInt32LE(entry.compressed, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(name.length, 26);
    chunks.push(local, name, deflated);
    entries.push({ ...entry, offset });
    offset += local.length + name.length + deflated.length;
  }
  const directoryStart = offset;
  for (const entry of entries) {
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x031e, 4); // made by: Unix, 3.0
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(0x00210000, 12);
    central.writeUInt32LE(entry.crc, 16);
    central.writeUInt32LE(entry.compressed, 20);
    central.writeUInt32LE(entry.size, 24);
    central.writeUInt16LE(entry.name.length, 28);
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38); // a regular file, rw-r--r--
    central.writeUInt32LE(entry.offset, 42);
    chunks.push(central, entry.name);
    offset += central.length + entry.name.length;
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(offset - directoryStart, 12);
  end.writeUInt32LE(directoryStart, 16);
  chunks.push(end);
  if (entries.length > 0xffff) throw new RangeError(`${entries.length} files: past plain zip`);
  fs.mkdirSync(path.dirname(zipPath), { recursive: true });
  fs.writeFileSync(zipPath, Buffer.concat(chunks));
}

/**
 * Unpacks an archive {@link zipFolder} wrote into `dir`.
 *
 * @throws {RangeError} for an archive it cannot read (no end record, a checksum that differs).
 */
export function unzipTo(zipPath: string, dir: string): string[] {
  const zip = fs.readFileSync(zipPath);
  const endAt = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (endAt < 0) throw new RangeError(`${zipPath}: no end of central directory`);
  const count = zip.readUInt16LE(endAt + 10);
  let at = zip.readUInt32LE(endAt + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zlib.inflateRawSync(zip.subarray(dataAt, dataAt + compressed));
    if (zlib.crc32(data) !== zip.readUInt32LE(at + 16) || name.split('/').includes('..')) {
      throw new RangeError(`${zipPath}: entry ${name} is damaged`);
    }
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), data);
    names.push(name);
    at += 46 + nameLength + extra;
  }
  return names;
}
