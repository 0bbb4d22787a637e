/**
 * The README's `func start` recipe starts Azurite the way the launcher does: every flag of
 * {@link AZURITE_FLAGS} (without `--skipApiVersionCheck` the pinned SDKs' blob and queue calls are
 * refused), data in `.azurite`, the standard ports that `UseDevelopmentStorage=true` points to.
 */
import fs from 'node:fs';
import path from 'node:path';
import { AZURITE_FLAGS } from '../../../tools/azurite';

const ROOT = path.resolve(__dirname, '../../..');
const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** The fenced shell blocks of the README that run `func start`. */
function funcStartBlocks(): string[] {
  return [...readme.matchAll(/^```(?:bash|sh)\n([\s\S]*?)^```/gm)]
    .map((m) => m[1]!)
    .filter((block) => /^func start\b/m.test(block));
}

/** The words of the command on a line (comment and trailing `&` dropped). */
function commandWords(line: string): string[] {
  return line
    .replace(/\s#.*$/, '')
    .replace(/&\s*$/, '')
    .trim()
    .split(/\s+/);
}

describe("README's func start recipe", () => {
  const blocks = funcStartBlocks();

  it('exists once', () => {
    expect(blocks).toHaveLength(1);
  });

  const lines = (blocks[0] ?? '').split('\n');
  const azuriteLine = lines.find((line) => /\bazurite\b/.test(line)) ?? '';

  it('starts Azurite with every flag the launcher passes', () => {
    const words = commandWords(azuriteLine);
    expect(words.slice(0, 2)).toEqual(['npx', 'azurite']);
    expect(AZURITE_FLAGS.filter((flag) => !words.includes(flag))).toEqual([]);
    expect(words[words.indexOf('--location') + 1]).toBe('.azurite');
  });

  it('leaves Azurite on the standard ports that UseDevelopmentStorage=true expects', () => {
    const words = commandWords(azuriteLine);
    expect(words.filter((word) => /Port$/.test(word))).toEqual([]);
    const sample = JSON.parse(
      fs.readFileSync(path.join(ROOT, 'local.settings.sample.json'), 'utf8'),
    ) as { Values: Record<string, string> };
    expect(sample.Values.AzureWebJobsStorage).toBe('UseDevelopmentStorage=true');
    expect(lines[0]).toMatch(/^cp local\.settings\.sample\.json local\.settings\.json\b/);
  });

  it('builds before func start and starts Azurite in the background before it', () => {
    const order = ['npm run build', 'azurite', 'func start'].map((step) =>
      lines.findIndex((line) => line.includes(step)),
    );
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(azuriteLine.replace(/\s#.*$/, '').trim()).toMatch(/&$/);
  });

  it('names `npm run azurite`, a script that starts the same Azurite', () => {
    expect(readme).toContain('`npm run azurite`');
    const scripts = (
      JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    expect(scripts.azurite).toBe('node -r @swc-node/register tools/runAzurite.ts');
    const tool = fs.readFileSync(path.join(ROOT, 'tools/runAzurite.ts'), 'utf8');
    // The same launcher function, hence the same flags, as npm start.
    expect(tool).toMatch(/startAzurite\(\{ ports: \{ \.\.\.chosen \}, location \}\)/);
    // Recorded as this checkout's emulator, so `npm start` reuses it (and nobody else's).
    expect(tool).toMatch(/recordEmulator\(location, azurite\.process\.pid, chosen\)/);
  });
});
