/**
 * Loading an app: the entry-point glob and local.settings.json.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { globFiles } from '../../../../../tools/host/load/glob';
import {
  applyLocalSettings,
  parseLocalSettings,
} from '../../../../../tools/host/load/localSettings';

describe('glob', () => {
  test.each([
    ['dist/functions/*.js', 'dist/functions/health.js', true],
    ['dist/functions/*.js', 'dist/functions/shared/http.js', false],
    ['dist/functions/*.js', 'dist/functions/health.js.map', false],
    ['dist/**/*.js', 'dist/a/b/c.js', true],
    ['dist/**/*.js', 'dist/c.js', true],
    ['functions/{health,sas}.ts', 'functions/sas.ts', true],
    ['functions/{health,sas}.ts', 'functions/logs.ts', false],
    ['functions/?.ts', 'functions/a.ts', true],
    ['functions/[ab].ts', 'functions/c.ts', false],
    ['functions/[!ab].ts', 'functions/c.ts', true],
    ['a.b/*.js', 'aXb/x.js', false],
  ])('%s against %s: %s', (pattern, file, expected) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'glob-case-'));
    try {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), '');
      expect(globFiles(root, pattern)).toEqual(expected ? [file] : []);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('local.settings.json', () => {
  test('values and the local port are read', () => {
    const settings = parseLocalSettings(
      JSON.stringify({
        IsEncrypted: false,
        Values: { A: 'x', N: 3, B: true },
        Host: { LocalHttpPort: 7072 },
      }),
    );
    expect(settings).toEqual({ values: { A: 'x', N: '3', B: 'true' }, localHttpPort: 7072 });
  });

  test('the environment wins over the file, as with Core Tools', () => {
    const env: Record<string, string | undefined> = { A: 'from-env' };
    expect(applyLocalSettings({ A: 'from-file', B: 'b' }, env)).toEqual(['A']);
    expect(env).toEqual({ A: 'from-env', B: 'b' });
  });

  test.each([
    ['{', /not valid JSON/],
    ['[]', /must contain a JSON object/],
    ['{"IsEncrypted": true, "Values": {}}', /encrypted/],
    ['{"Values": {"A": {"nested": 1}}}', /Values.A must be a string/],
    ['{"Host": {"LocalHttpPort": "7071"}}', /LocalHttpPort must be a port number/],
  ])('refuses %s', (text, reason) => {
    expect(() => parseLocalSettings(text)).toThrow(reason);
  });
});
