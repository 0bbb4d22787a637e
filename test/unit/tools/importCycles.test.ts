/**
 * No module of the app or its tooling reaches itself again through its imports (type-only imports
 * count too: a cycle of types is still a knot a reader has to untie), and no folder does either:
 * a capability of src/ (src/photos, src/sas, ...) that imports another never gets imported back.
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

/** Every cycle of a graph's nodes, found by depth-first search. */
function cycles(files: string[], graph = fileGraph(files)): string[][] {
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

/** Each file and the project files it imports. */
function fileGraph(files: string[]): Map<string, string[]> {
  return new Map(files.map((file) => [file, importsOf(file)]));
}

/**
 * The folder a file belongs to: a capability of src/ (`src/photos`, `src/orchestrations`, with
 * its subfolders), `src` for the files at its top, or the top-level folder (functions, tools...).
 */
function folderOf(file: string): string {
  const parts = path.relative(root, file).split(path.sep);
  return parts[0] === 'src' && parts.length > 2 ? `src/${parts[1]}` : parts[0]!;
}

/** The folders' graph: one node per folder, an edge where a file imports another folder's. */
function folderGraph(files: string[]): Map<string, string[]> {
  const edges = new Map<string, Set<string>>();
  for (const [file, imports] of fileGraph(files)) {
    const from = folderOf(file);
    const targets = edges.get(from) ?? new Set<string>();
    for (const target of imports) if (folderOf(target) !== from) targets.add(folderOf(target));
    edges.set(from, targets);
  }
  return new Map([...edges].map(([folder, targets]) => [folder, [...targets]]));
}

const appFiles = FOLDERS.flatMap((folder) => sourceFiles(path.join(root, folder)));

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
    expect(appFiles.length).toBeGreaterThan(100);
    expect(cycles(appFiles)).toEqual([]);
  });

  it('finds a folder cycle that no file cycle shows (the folder detector works)', () => {
    const graph = new Map([
      ['src/sas', ['src/photos']],
      ['src/photos', ['src/storage', 'src/sas']],
      ['src/storage', []],
    ]);
    expect(cycles([...graph.keys()], graph)).toEqual([['src/sas', 'src/photos']]);
  });

  it('has no folder-level cycle (src/photos and src/sas once imported each other)', () => {
    const graph = folderGraph(appFiles);
    expect(graph.get('src/sas')).toContain('src/photos');
    expect(cycles([...graph.keys()], graph)).toEqual([]);
  });
});
