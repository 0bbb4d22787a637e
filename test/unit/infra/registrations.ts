/**
 * Every function the app registers, read the way Azure reads it: each `functions/*.ts` entry point
 * is loaded with a stand-in for the worker's `@azure/functions-core` module, which records the
 * metadata `@azure/functions` and `durable-functions` hand to the host. Read once per test file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './bicep';

/** One binding as registered. */
export interface RegisteredBinding {
  type: string;
  route?: string;
  methods?: string[];
  authLevel?: string;
}

/** One registered function: its name, the entry point that registered it, and its trigger. */
export interface RegisteredFunction {
  name: string;
  file: string;
  trigger: RegisteredBinding | undefined;
}

function load(): RegisteredFunction[] {
  const found: RegisteredFunction[] = [];
  const entryPoints = fs
    .readdirSync(path.join(REPO_ROOT, 'functions'))
    .filter((name) => name.endsWith('.ts'))
    .sort();
  for (const entryPoint of entryPoints) {
    jest.isolateModules(() => {
      const disposable = { dispose: (): void => undefined };
      jest.doMock(
        '@azure/functions-core',
        () => ({
          version: '3.10.1',
          hostVersion: '4.0.0-test',
          registerFunction(metadata: {
            name: string;
            bindings: Record<string, RegisteredBinding>;
          }) {
            found.push({
              name: metadata.name,
              file: `functions/${entryPoint}`,
              trigger: Object.values(metadata.bindings).find((b) => /trigger$/i.test(b.type)),
            });
            return disposable;
          },
          registerHook: () => disposable,
          setProgrammingModel: (): void => undefined,
          getProgrammingModel: (): undefined => undefined,
          log: (): void => undefined,
          Disposable: class {
            dispose(): void {}
          },
        }),
        { virtual: true },
      );
      // A plain require, so the entry point loads inside this isolated registry with the mock.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require(path.join(REPO_ROOT, 'functions', entryPoint));
    });
  }
  return found;
}

let cached: RegisteredFunction[] | undefined;

/** The app's registered functions (loaded on first use). */
export function registeredFunctions(): RegisteredFunction[] {
  cached ??= load();
  return cached;
}
