/**
 * No module of the app or its tooling reaches itself again through its imports (type-only imports
 * count too: a cycle of types is still a knot a reader has to untie).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const FOLDERS = ['src', 'functions', 'tools', 'bench'];

function sourceFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The project files a file imports (relative specifiers only; packages are not ours). */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"](\.[^'"]+)['"]/gm),
  ];
  return specifiers
    .map((match) => path.resolve(path.dirname(file), match[1]!))
    .map((target) =>
      [`${target}.ts`, path.join(target, 'index.ts')].find((candidate) => fs.existsSync(candidate)),
    )
    .filter((target): target is string => target !== undefined);
}

/** Every cycle's files, found by depth-first search. */
function cycles(files: string[]): string[][] {
  const graph = new Map(files.map((file) => [file, importsOf(file)]));
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string): void => {
    state.set(file, 'visiting');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'visiting') {
        found.push(stack.slice(stack.indexOf(next)).map((f) => path.relative(root, f)));
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return found;
}

describe('import graph', () => {
  it('finds a cycle when there is one (the detector works)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cycle-'));
    fs.writeFileSync(path.join(dir, 'a.ts'), "import { b } from './b';\nexport const a = b;\n");
    fs.writeFileSync(
      path.join(dir, 'b.ts'),
      "import type { A } from './a';\nexport const b = 1;\n",
    );
    expect(cycles(sourceFiles(dir))).toHaveLength(1);
    fs.rmSync(dir, { recursive: true });
  });

  it('has no cycle in src/, functions/, tools/ or bench/', () => {
    const files = FOLDERS.flatMap((folder) => sourceFiles(path.join(root, folder)));
    expect(files.length).toBeGreaterThan(100);
    expect(cycles(files)).toEqual([]);
  });
});
