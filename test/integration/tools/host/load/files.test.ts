/**
 * The host's file lookups on a real (temporary) file system: the entry-point glob, package.json
 * `main`, and finding Core Tools on PATH.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findOnPath } from '../../../../../tools/host/launch';
import { DEFAULT_MAIN, packageMain } from '../../../../../tools/host/load/entryPoints';
import { globFiles } from '../../../../../tools/host/load/glob';

describe('entry points', () => {
  test('finds files under the pattern, sorted, skipping node_modules', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'glob-'));
    for (const file of [
      'dist/functions/b.js',
      'dist/functions/a.js',
      'dist/functions/shared/x.js',
      'dist/node_modules/y.js',
    ]) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), '');
    }
    expect(globFiles(root, 'dist/functions/*.js')).toEqual([
      'dist/functions/a.js',
      'dist/functions/b.js',
    ]);
    expect(globFiles(root, './dist/**/*.js')).toEqual([
      'dist/functions/a.js',
      'dist/functions/b.js',
      'dist/functions/shared/x.js',
    ]);
    expect(globFiles(root, 'dist/functions/a.js')).toEqual(['dist/functions/a.js']);
    expect(globFiles(root, 'missing/*.js')).toEqual([]);
    fs.rmSync(root, { recursive: true });
  });

  test('package.json main, or the default', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'main-'));
    expect(packageMain(root)).toBe(DEFAULT_MAIN);
    fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ main: 'lib/*.js' }));
    expect(packageMain(root)).toBe('lib/*.js');
    fs.rmSync(root, { recursive: true });
  });
});

test('finds an executable on PATH, ignoring directories and non-executables', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'path-'));
  const other = fs.mkdtempSync(path.join(os.tmpdir(), 'path-'));
  fs.mkdirSync(path.join(other, 'func'));
  fs.writeFileSync(path.join(dir, 'func'), '#!/bin/sh\n', { mode: 0o644 });
  const pathVariable = [other, dir].join(path.delimiter);
  expect(findOnPath('func', pathVariable, 'linux')).toBeUndefined();
  fs.chmodSync(path.join(dir, 'func'), 0o755);
  expect(findOnPath('func', pathVariable, 'linux')).toBe(path.join(dir, 'func'));
  expect(findOnPath('func', undefined, 'linux')).toBeUndefined();
  fs.rmSync(dir, { recursive: true });
  fs.rmSync(other, { recursive: true });
});
