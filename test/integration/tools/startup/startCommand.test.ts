/**
 * `npm start -- --help` and a mistyped option, run as a person runs them (what `npm start` runs,
 * tools/npmStart.ts, and the launcher itself, each in a child process): the usage on stdout and
 * exit 0; one line, the usage and exit 2 — no stack, and no build of dist/ before either.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../../..');

describe.each(['tools/npmStart.ts', 'tools/start.ts'])('%s', (entry) => {
  function launch(...args: string[]) {
    return spawnSync(
      process.execPath,
      ['-r', '@swc-node/register', path.join(ROOT, entry), ...args],
      { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
    );
  }

  test('--help lists every option and exits 0 without starting anything', () => {
    const run = launch('--help');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Usage: npm start/);
    expect(run.stdout).toContain('--emulator-ports');
    expect(run.stderr).toBe('');
  });

  test('an unknown option: one line naming it, the usage, exit 2, no stack trace', () => {
    const run = launch('--bogus');
    expect(run.status).toBe(2);
    const [first, ...rest] = run.stderr.split('\n');
    expect(first).toBe("npm start: Unknown option '--bogus'");
    expect(rest.join('\n')).toContain('Usage: npm start');
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(run.stdout).toBe('');
  });
});
