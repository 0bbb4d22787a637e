/**
 * The rules of docs/architecture.md that lint and types cannot express, checked file by file:
 * opening comments of at most 15 lines, comment lines of at most 100 characters, at most 15
 * modules directly in a folder (functions/ root exempt: one entry file per function group), no
 * plain `new Error(` in src/ outside the error catalogues, and every src/ folder described by a
 * surface (an index.ts that exports) or a README.md.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

interface Report {
  opening: { file: string; lines: number }[];
  wide: { file: string; line: number; width: number }[];
  folders: { folder: string; modules: number }[];
  plainErrors: { file: string; lines: number[] }[];
  entries: { folder: string; problem: string }[];
}

const report = JSON.parse(
  execFileSync(
    process.execPath,
    [path.join(ROOT, 'tools/architectureChecks.mjs'), ROOT, '--json'],
    {
      encoding: 'utf8',
    },
  ),
) as Report;

it('keeps every opening comment within 15 lines', () => {
  expect(report.opening).toEqual([]);
});

it('keeps every comment line within 100 characters', () => {
  expect(report.wide).toEqual([]);
});

it('keeps at most 15 modules directly in a folder, but the functions/ root', () => {
  expect(report.folders.filter((f) => f.folder !== 'functions')).toEqual([]);
});

it('constructs errors of src/ only in the catalogues', () => {
  expect(report.plainErrors.filter((f) => f.file.startsWith('src/'))).toEqual([]);
});

it('describes every folder of src/ in a surface that exports something, or in a README.md', () => {
  expect(report.entries).toEqual([]);
});
