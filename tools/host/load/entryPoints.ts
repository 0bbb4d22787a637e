/**
 * Loads the app's entry points: package.json `main` (a file or a glob; the host's override wins),
 * each file required in order, with the functions it registers attributed to it, as the Node.js
 * worker does. A file that fails to load stops the host (Node 20 workers block on it too).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FunctionAppRegistry } from '../core/registry';
import { globFiles } from './glob';

/** The entry points `main` names when package.json names none. */
export const DEFAULT_MAIN = 'dist/functions/*.js';

/** An entry point is missing or threw while loading. */
export class EntryPointError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EntryPointError';
  }
}

/** The `main` of the app's package.json, or the default when it has none. */
export function packageMain(appRoot: string): string {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(appRoot, 'package.json'), 'utf8')) as {
      main?: unknown;
    };
    return typeof pkg.main === 'string' && pkg.main.trim() !== '' ? pkg.main : DEFAULT_MAIN;
  } catch {
    return DEFAULT_MAIN;
  }
}

/**
 * Requires every file matching `pattern` under `appRoot`.
 *
 * @returns the loaded files, relative to `appRoot`.
 * @throws {EntryPointError} when nothing matches or a file throws while loading.
 */
export function loadEntryPoints(
  appRoot: string,
  pattern: string,
  registry: FunctionAppRegistry,
): string[] {
  const files = globFiles(appRoot, pattern);
  if (files.length === 0) {
    throw new EntryPointError(
      `Found zero files matching the entry point pattern "${pattern}" under ${appRoot}. Build the app first (npm run build) or pass another pattern.`,
    );
  }
  for (const file of files) {
    const fullPath = path.join(appRoot, file);
    registry.currentEntryPoint = fullPath;
    try {
      // Node's loader (not a bundler's): the app's own `require` calls then go through the
      // host's `@azure/functions-core` interception.
      createRequire(fullPath)(fullPath);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const wrapped = new EntryPointError(
        `Worker was unable to load entry point "${file}": ${reason}`,
      );
      wrapped.cause = error;
      throw wrapped;
    } finally {
      registry.currentEntryPoint = undefined;
    }
  }
  return files;
}
