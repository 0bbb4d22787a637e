/**
 * `npm start`: builds dist/ when the sources changed since the last build (tools/sourceStamp.ts),
 * saying so, then runs the launcher (tools/start.ts, from dist/). Runs from its TypeScript source
 * (`node -r @swc-node/register`), so it works before anything is built.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { buildState, writeStamp } from './sourceStamp';
import { parseStartCommand, START_USAGE } from './startup/startOptions';

// `--help` and a mistyped option answer at once, from the sources: not after a minute of building
// (the launcher answers them the same way, tools/start.ts).
const command = parseStartCommand(process.argv.slice(2), process.env);
if (command.kind === 'help') {
  process.stdout.write(START_USAGE);
  process.exit(0);
}
if (command.kind === 'refused') {
  process.stderr.write(`npm start: ${command.message}\n\n${START_USAGE}`);
  process.exit(2);
}
// Run from tools/ (npm start); only the options, the stamp and Node's own modules load before the
// build.
const root = path.resolve(__dirname, '..');
const state = buildState(root);
if (state.current) {
  process.stdout.write(
    `dist/ was built from these sources (${state.files} files hashed): starting without a rebuild.\n`,
  );
} else {
  process.stdout.write(
    `Building dist/ because ${state.reason} (tsc and the console bundle; about a minute)...\n`,
  );
  const started = Date.now();
  const npm = process.env.npm_execpath;
  const build = npm
    ? spawnSync(process.execPath, [npm, 'run', '--silent', 'build'], {
        cwd: root,
        stdio: 'inherit',
      })
    : spawnSync('npm', ['run', '--silent', 'build'], {
        cwd: root,
        stdio: 'inherit',
        shell: process.platform === 'win32',
      });
  if (build.status !== 0) {
    process.stderr.write('npm start: the build failed (above); nothing was started.\n');
    process.exit(build.status ?? 1);
  }
  // The hash of the sources as they were when the build started: an edit made meanwhile makes
  // the next start build again.
  writeStamp(root, state.hash);
  process.stdout.write(`Built in ${Math.round((Date.now() - started) / 1000)} s.\n`);
}
// The launcher runs in this process: Ctrl-C and its exit code need no forwarding.
// eslint-disable-next-line @typescript-eslint/no-require-imports
require(path.join(root, 'dist', 'tools', 'start.js'));
