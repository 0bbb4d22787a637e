/**
 * tools/ reaches the product (src/, functions/) only through tools/product.ts, and that module
 * says why for each name it passes on. Lint refuses static imports elsewhere; this reads the tree,
 * `import()` and `require()` included, so no way round the door goes unseen.
 */
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const DOOR = 'tools/product.ts';

function toolFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return toolFiles(full);
    return /\.(ts|mjs|js)$/.test(entry.name) ? [full] : [];
  });
}

/** The product files (relative to the root) a tools file names in a relative import. */
function productImports(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specifiers = text.matchAll(
    /(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*)['"](\.[^'"]+)['"]/g,
  );
  return [...specifiers]
    .map((match) => path.relative(root, path.resolve(path.dirname(file), match[1]!)))
    .filter((target) => /^(src|functions)(\/|$)/.test(target.split(path.sep).join('/')));
}

describe('the door from tools/ into the product', () => {
  it('is tools/product.ts alone', () => {
    const reaching = toolFiles(path.join(root, 'tools'))
      .filter((file) => productImports(file).length > 0)
      .map((file) => path.relative(root, file).split(path.sep).join('/'));
    expect(reaching).toEqual([DOOR]);
  });

  it('gives a reason for every name it passes on', () => {
    const lines = fs.readFileSync(path.join(root, DOOR), 'utf8').split('\n');
    const exports = lines.flatMap((line, index) => (/^export\b/.test(line) ? [index] : []));
    expect(exports.length).toBeGreaterThan(0);
    for (const index of exports) {
      expect(lines[index]).toMatch(/^export (type )?\{ \w+ \} from '\.\.\/(src|functions)\//);
      expect(`${lines[index - 1]}`).toMatch(/^\/\*\* .+ \*\/$/);
    }
  });
});
