/**
 * Whether `dist/` was built from the sources as they are now, so `npm start` can skip a build of
 * about a minute when nothing changed. `npm start` hashes the build inputs (the folders tsc and
 * the console bundle read, the package and TypeScript settings: path and bytes of every file)
 * before it builds, and records that hash in `dist/` once the build succeeded. Any other build
 * (`npm run build`, `npm test`) first deletes `dist/` (prebuild), stamp included, so the next
 * start builds again: a stamp only ever names the sources its own build read. Contents are hashed,
 * not modification times: a checkout or a copy changes times without changing sources, and an edit
 * made while a build runs would look older than the build's output.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** What the build reads: tsconfig.build.json's folders, the console, and the settings. */
export const BUILD_INPUTS = {
  directories: ['functions', 'src', 'tools', 'bench', 'console'],
  files: ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'],
} as const;

/** Where the stamp lives, relative to the project root (in dist/, which the build recreates). */
export const STAMP_FILE = path.join('dist', '.sources.sha256');

/** Folders never read as sources wherever they appear. */
const SKIPPED = new Set(['node_modules', 'dist', '.git']);

function filesUnder(root: string, relative: string, into: string[]): void {
  const absolute = path.join(root, relative);
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(absolute, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const child = path.join(relative, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED.has(entry.name)) filesUnder(root, child, into);
    } else if (entry.isFile()) {
      into.push(child);
    }
  }
}

/** The build inputs that exist, as sorted project-relative paths with `/` separators. */
export function buildInputs(root: string): string[] {
  const files: string[] = [];
  for (const directory of BUILD_INPUTS.directories) filesUnder(root, directory, files);
  for (const file of BUILD_INPUTS.files) {
    if (fs.existsSync(path.join(root, file))) files.push(file);
  }
  return files.map((file) => file.split(path.sep).join('/')).sort();
}

/** One hash over every build input's path and bytes. */
export function sourcesHash(root: string): { hash: string; files: number } {
  const hash = createHash('sha256');
  const files = buildInputs(root);
  for (const file of files) {
    const bytes = fs.readFileSync(path.join(root, file));
    hash.update(`${file}\0${bytes.length}\0`);
    hash.update(bytes);
  }
  return { hash: hash.digest('hex'), files: files.length };
}

/** Whether dist/ is current, and if not, why (for the line `npm start` prints). */
export type BuildState = { hash: string; files: number } & (
  { current: true } | { current: false; reason: string }
);

/** Compares the stamp in dist/ with the sources as they are now. */
export function buildState(root: string): BuildState {
  const { hash, files } = sourcesHash(root);
  let stamp: string;
  try {
    stamp = fs.readFileSync(path.join(root, STAMP_FILE), 'utf8').trim();
  } catch {
    const reason = fs.existsSync(path.join(root, 'dist'))
      ? 'dist/ was not built by npm start from these sources'
      : 'there is no dist/ yet';
    return { current: false, reason, hash, files };
  }
  return stamp === hash
    ? { current: true, hash, files }
    : { current: false, reason: 'the sources changed since the last build', hash, files };
}

/** Records that dist/ was built from the sources whose hash (taken before the build) is given. */
export function writeStamp(root: string, hash: string): void {
  fs.writeFileSync(path.join(root, STAMP_FILE), `${hash}\n`);
}
