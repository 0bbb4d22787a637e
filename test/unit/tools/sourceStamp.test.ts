/**
 * `npm start` skips the build only when dist/ was built from exactly the sources there are now:
 * any edit, added or removed file of a build input makes it build again, whatever the files'
 * times say; what the build does not read (node_modules, docs) does not.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildInputs, buildState, STAMP_FILE, writeStamp } from '../../../tools/sourceStamp';

let root: string;

function write(relative: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
  fs.writeFileSync(path.join(root, relative), text);
}

/** What `npm start` does after a build it ran: stamp with the hash taken before the build. */
function built(): void {
  const { hash } = buildState(root);
  fs.mkdirSync(path.join(root, 'dist'), { recursive: true });
  writeStamp(root, hash);
}

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'stamp-'));
  write('package.json', '{}');
  write('tsconfig.json', '{}');
  write('src/a.ts', 'export const a = 1;\n');
  write('functions/f.ts', 'export {};\n');
  write('console/index.html', '<html></html>');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

it('builds the first time, and says why', () => {
  expect(buildState(root)).toMatchObject({ current: false, reason: 'there is no dist/ yet' });
  fs.mkdirSync(path.join(root, 'dist'));
  expect(buildState(root)).toMatchObject({
    current: false,
    reason: 'dist/ was not built by npm start from these sources',
  });
});

it('skips the build while nothing changed, even when file times do', () => {
  built();
  expect(buildState(root)).toMatchObject({ current: true, files: 5 });
  const later = new Date(Date.now() + 60_000);
  fs.utimesSync(path.join(root, 'src/a.ts'), later, later);
  expect(buildState(root).current).toBe(true);
});

it.each([
  ['an edited source', () => write('src/a.ts', 'export const a = 2;\n')],
  ['a new source', () => write('src/b.ts', 'export {};\n')],
  ['a removed source', () => fs.rmSync(path.join(root, 'functions/f.ts'))],
  [
    'a renamed source',
    () => fs.renameSync(path.join(root, 'src/a.ts'), path.join(root, 'src/c.ts')),
  ],
  ['a changed console page', () => write('console/index.html', '<html>2</html>')],
  ['changed package settings', () => write('package.json', '{"x":1}')],
])('builds again after %s', (_what, change) => {
  built();
  change();
  expect(buildState(root)).toMatchObject({
    current: false,
    reason: 'the sources changed since the last build',
  });
});

it('ignores what the build does not read', () => {
  built();
  write('src/node_modules/x/index.js', 'x');
  write('docs/page.md', '# page');
  write('dist/functions/f.js', 'changed output');
  expect(buildState(root).current).toBe(true);
});

it('builds again when another build removed dist/ and its stamp', () => {
  built();
  fs.rmSync(path.join(root, STAMP_FILE));
  expect(buildState(root).current).toBe(false);
});

it('reads the folders tsc and the console bundle read', () => {
  expect(buildInputs(root)).toEqual([
    'console/index.html',
    'functions/f.ts',
    'package.json',
    'src/a.ts',
    'tsconfig.json',
  ]);
});
