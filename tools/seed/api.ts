/**
 * How the seed (run.ts) talks to the app: one HTTP call with a hand-made principal (the admin's
 * by default, the telemetry writer's for messages and log lines), and a small pool of workers.
 */
import { encodePrincipalHeader } from '../easyauth/principalHeader';

/** The directory administrator the seed writes as. */
const ADMIN = encodePrincipalHeader({
  userId: 'seed',
  name: 'Sample data',
  roles: ['DirectoryAdmin'],
});
/** The telemetry writer the seed posts message counts and log lines as. */
export const TELEMETRY = encodePrincipalHeader({
  userId: 'seed-telemetry',
  roles: ['TelemetryWriter'],
});

/** A failed call, with what the API said. */
class SeedError extends Error {}

/** Options of one {@link Call}. */
export interface CallOptions {
  json?: unknown;
  raw?: Buffer;
  type?: string;
  principal?: string;
  /** Statuses besides 2xx that are fine (the body is returned all the same). */
  ok?: number[];
}

/** One request to the app: its parsed JSON answer (`undefined` when empty). */
export type Call = (method: string, path: string, options?: CallOptions) => Promise<unknown>;

/**
 * The {@link Call} of the app at `baseUrl`.
 *
 * @throws {SeedError} (from the call) when the app cannot be reached or refuses a request.
 */
export function apiCaller(baseUrl: string): Call {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { 'x-ms-client-principal': options.principal ?? ADMIN };
    let body: string | Buffer | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.raw) {
      headers['content-type'] = options.type ?? 'application/octet-stream';
      body = options.raw;
    }
    let response: Response;
    try {
      response = await fetch(`${baseUrl}${path}`, { method, headers, body });
    } catch {
      throw new SeedError(`Nothing answers at ${baseUrl}: start the app with "npm start" first.`);
    }
    const text = await response.text();
    if (!response.ok && !(options.ok ?? []).includes(response.status)) {
      if (response.status === 401)
        throw new SeedError(
          `${baseUrl} does not believe hand-made principals: seed a local "npm start" (not --azure).`,
        );
      throw new SeedError(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
    }
    return text ? (JSON.parse(text) as unknown) : undefined;
  };
}

/** Runs `work` over `items`, at most `limit` at a time. */
export async function inPool<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}
