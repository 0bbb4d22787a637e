/**
 * The files package.json `main` names (`dist/functions/*.js`), found with picomatch below the
 * pattern's literal base, skipping node_modules and dot folders.
 */
import fs from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';

function walk(directory: string, relative: string, found: string[]): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(directory, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const childRelative = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isDirectory()) walk(path.join(directory, entry.name), childRelative, found);
    else if (entry.isFile()) found.push(childRelative);
  }
}

/**
 * Files under `root` matching `pattern`, as sorted '/'-separated relative paths.
 * A pattern without wildcards names one file (returned only if it exists).
 */
export function globFiles(root: string, pattern: string): string[] {
  const normalized = pattern.replace(/\\/g, '/').replace(/^\.\//, '');
  const { base, isGlob } = picomatch.scan(normalized);
  if (!isGlob) {
    return fs.existsSync(path.join(root, normalized)) ? [normalized] : [];
  }
  const found: string[] = [];
  walk(path.join(root, base), base, found);
  // `posix`: `[!ab]` negates a bracket as in the shell (without it, `!` is one more member).
  const matches = picomatch(normalized, { posix: true });
  return found.filter((file) => matches(file)).sort();
}
