/**
 * What a run records about itself: the emulator as installed (patched or as published, with the
 * patch file's hash), the commit, the checkout's root.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { commitInfo, emulatorInfo, projectRoot, runEnvironment } from '../../../bench/machine';

const STORE = path.join('dist', 'src', 'table', 'persistence', 'LokiTableMetadataStore.js');

/** A checkout with `azurite` and `azurite-unpatched` installed, their table stores as given. */
function checkout(installed: string, published: string, patch?: string): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'machine-'));
  for (const [pkg, store] of [
    ['azurite', installed],
    ['azurite-unpatched', published],
  ] as const) {
    const dir = path.join(root, 'node_modules', pkg);
    fs.mkdirSync(path.join(dir, path.dirname(STORE)), { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ version: '3.37.0' }));
    fs.writeFileSync(path.join(dir, STORE), store);
  }
  if (patch !== undefined) {
    fs.mkdirSync(path.join(root, 'patches'));
    fs.writeFileSync(path.join(root, 'patches', 'azurite+3.37.0.patch'), patch);
  }
  return root;
}

describe('the emulator', () => {
  it('is patched when its table store differs from the published one, with the patch file named', () => {
    const info = emulatorInfo(checkout('patched store', 'published store', 'diff --git a b'));
    expect(info).toEqual({
      version: '3.37.0',
      patched: true,
      patch: {
        file: path.join('patches', 'azurite+3.37.0.patch'),
        sha256: expect.stringMatching(/^[0-9a-f]{12}$/),
      },
    });
  });

  it('is as published when the stores are the same, even with a patch file present', () => {
    expect(emulatorInfo(checkout('same', 'same', 'diff'))).toMatchObject({ patched: false });
  });

  it('says unknown when Azurite is not installed', () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'machine-'));
    expect(emulatorInfo(empty)).toEqual({ version: 'unknown', patched: false });
  });
});

describe('the code and the machine', () => {
  it('finds the checkout from a folder inside it, and its commit', () => {
    const root = projectRoot(__dirname);
    expect(fs.existsSync(path.join(root, 'package.json'))).toBe(true);
    expect(commitInfo(root)?.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(commitInfo(fs.mkdtempSync(path.join(os.tmpdir(), 'nogit-')))).toBeUndefined();
  });

  it('records cores, memory, load and Node', () => {
    const env = runEnvironment(projectRoot(__dirname));
    expect(env.cpus).toBe(os.cpus().length);
    expect(env.node).toBe(process.version);
    expect(env.loadAverage).toHaveLength(3);
  });
});
