/**
 * The tests run on a Node that package.json `engines` admits: through npm scripts that is the
 * pinned `node` devDependency (22) even on a machine whose own node is older; CI runs the e2e
 * suite on 24 too (.ci/run). docs/runtime.md.
 */
import fs from 'node:fs';
import path from 'node:path';

const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
};

it('runs on a Node that package.json engines admits', () => {
  const [, minMajor, minMinor, maxMajor] =
    /^>=(\d+)\.(\d+)\.\d+ <(\d+)$/.exec(pkg.engines.node) ?? [];
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
  expect(major).toBeLessThan(Number(maxMajor));
  expect(major > Number(minMajor) || minor >= Number(minMinor)).toBe(true);
  expect(major).toBeGreaterThanOrEqual(Number(minMajor));
});

it('pins the Node its npm scripts run on to one exact 22.x release', () => {
  expect(pkg.devDependencies.node).toMatch(/^22\.\d+\.\d+$/);
});
