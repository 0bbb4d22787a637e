/**
 * The lint rules that keep the house in order fail on a violation, not only pass on the tree.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');

/** Lints `code` as if it were `file` of the tree, with the project's own ESLint configuration. */
async function ruleIdsFor(file: string, code: string): Promise<string[]> {
  const eslint = path.join(root, 'node_modules/eslint/bin/eslint.js');
  const run = spawnSync(
    process.execPath,
    [eslint, '--format', 'json', '--stdin', '--stdin-filename', file],
    { cwd: root, input: code, encoding: 'utf8' },
  );
  const [result] = JSON.parse(run.stdout) as { messages: { ruleId: string | null }[] }[];
  return (result?.messages ?? []).map((message) => message.ruleId ?? 'fatal');
}

const rogueRoute = `import { app } from '@azure/functions';
app.http('rogue', { route: 'rogue', methods: ['GET'], handler: async () => ({ status: 200 }) });
`;

describe('lint rules', () => {
  it('refuse an HTTP function registered without an access rule in the app', async () => {
    expect(await ruleIdsFor('functions/rogue.ts', rogueRoute)).toContain('no-restricted-syntax');
  });

  it('refuse an entry point that loads anything before telemetry starts', async () => {
    const late =
      "import { app } from '@azure/functions';\nimport './shared/startup';\nexport const a = app;\n";
    expect(await ruleIdsFor('functions/late.ts', late)).toContain('no-restricted-syntax');
    const first =
      "import './shared/startup';\nimport { app } from '@azure/functions';\nexport const a = app;\n";
    expect(await ruleIdsFor('functions/first.ts', first)).toEqual([]);
  });

  it('refuse an adapter that looks its services up instead of receiving them', async () => {
    const head = "import './shared/startup';\nimport { services } from './shared/services';\n";
    const lookup = `${head}export const f = async () => services().directory();\n`;
    expect(await ruleIdsFor('functions/lookup.ts', lookup)).toContain('no-restricted-syntax');
    const received = `${head}export const uses = (s: ReturnType<typeof services>) => s.directory();\n`;
    expect(await ruleIdsFor('functions/received.ts', received)).toEqual([]);
    // The helpers that hand the capabilities over are where the lookup lives.
    const helper = "import { services } from './services';\nexport const s = () => services();\n";
    expect(await ruleIdsFor('functions/shared/helper.ts', helper)).toEqual([]);
  });

  it('leave the host fixture apps, which are not the app, alone', async () => {
    expect(await ruleIdsFor('test/fixtures/hostapp/functions/rogue.ts', rogueRoute)).toEqual([]);
  });

  it('refuse a file inside src/directory imported from another folder, and admit its surface', async () => {
    expect(
      await ruleIdsFor(
        'src/photos/x.ts',
        "import { readEntity } from '../directory/state';\nexport const x = readEntity;\n",
      ),
    ).toContain('no-restricted-imports');
    expect(
      await ruleIdsFor(
        'functions/x.ts',
        "import { createDirectory } from '../src/directory/directory';\nexport const x = createDirectory;\n",
      ),
    ).toContain('no-restricted-imports');
    expect(
      await ruleIdsFor(
        'src/photos/x.ts',
        "import { readEntity } from '../directory';\nexport const x = readEntity;\n",
      ),
    ).toEqual([]);
  });

  it('refuse the layers crossed: src/ importing functions/ or tools/, storage importing the domain', async () => {
    expect(
      await ruleIdsFor(
        'src/directory/x.ts',
        "import { json } from '../../functions/shared/http';\nexport const x = json;\n",
      ),
    ).toContain('no-restricted-imports');
    expect(
      await ruleIdsFor(
        'functions/x.ts',
        "import { startLocalHost } from '../tools/host/host';\nexport const x = startLocalHost;\n",
      ),
    ).toContain('no-restricted-imports');
    expect(
      await ruleIdsFor(
        'src/storage/x.ts',
        "import { createDirectory } from '../directory/directory';\nexport const x = createDirectory;\n",
      ),
    ).toContain('no-restricted-imports');
    expect(
      await ruleIdsFor(
        'src/storage/x.ts',
        "import { ConfigError } from '../config';\nexport const x = ConfigError;\n",
      ),
    ).toEqual([]);
    expect(
      await ruleIdsFor(
        'src/storage/keys/x.ts',
        "import { createDirectory } from '../../directory/directory';\nexport const x = createDirectory;\n",
      ),
    ).toContain('no-restricted-imports');
    expect(
      await ruleIdsFor(
        'src/storage/keys/x.ts',
        "import { ValidationError } from '../../domainErrors';\nexport const x = ValidationError;\n",
      ),
    ).toEqual([]);
    // The sub-folders of storage/ and of the keys hold to the same layers.
    expect(
      await ruleIdsFor(
        'src/storage/tables/x.ts',
        "import { createDirectory } from '../../directory/directory';\nexport const x = createDirectory;\n",
      ),
    ).toContain('no-restricted-imports');
    expect(
      await ruleIdsFor(
        'src/storage/tables/x.ts',
        "import { ValidationError } from '../../domainErrors';\nexport const x = ValidationError;\n",
      ),
    ).toEqual([]);
    expect(
      await ruleIdsFor(
        'src/storage/keys/tables/x.ts',
        "import { text } from '../../clients';\nexport const x = text;\n",
      ),
    ).toContain('no-restricted-imports');
    expect(
      await ruleIdsFor(
        'src/storage/keys/tables/x.ts',
        "import { keyText } from '../text';\nimport { ValidationError } from '../../../domainErrors';\nexport const x = [keyText, ValidationError];\n",
      ),
    ).toEqual([]);
  });

  it('refuse product code in tools/ anywhere but tools/product.ts, the one listed door', async () => {
    const config = "import { loadConfig } from '../../src/config';\nexport const x = loadConfig;\n";
    expect(await ruleIdsFor('tools/host/x.ts', config)).toContain('no-restricted-imports');
    const reexport = "export { encodeQueueMessage } from '../../../src/storage/queue';\n";
    expect(await ruleIdsFor('tools/durable/store/x.ts', reexport)).toContain(
      'no-restricted-imports',
    );
    const adapter = "import { json } from '../functions/shared/http';\nexport const x = json;\n";
    expect(await ruleIdsFor('tools/x.ts', adapter)).toContain('no-restricted-imports');
    const door = "export { loadConfig } from '../src/config';\n";
    expect(await ruleIdsFor('tools/product.ts', door)).toEqual([]);
    // The host's own functions.ts is not the app's functions/.
    const own = "import { stringOption } from '../functions';\nexport const x = stringOption;\n";
    expect(await ruleIdsFor('tools/host/http/x.ts', own)).toEqual([]);
  });

  it('refuse a retry timeout in the app, which hangs an orchestration in Azure (durable-js#629)', async () => {
    const head =
      "import * as df from 'durable-functions';\nconst o = new df.RetryOptions(1000, 3);\n";
    const set = `${head}o.retryTimeoutInMilliseconds = 60_000;\nexport const r = o;\n`;
    expect(await ruleIdsFor('src/orchestrations/x.ts', set)).toContain('no-restricted-syntax');
    const literal = 'export const r = { maxNumberOfAttempts: 3, retryTimeoutInMilliseconds: 1 };\n';
    expect(await ruleIdsFor('functions/shared/x.ts', literal)).toContain('no-restricted-syntax');
    expect(await ruleIdsFor('src/orchestrations/x.ts', `${head}export const r = o;\n`)).toEqual([]);
  });
});
