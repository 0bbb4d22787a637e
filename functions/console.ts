/**
 * `GET /api/console/{*path}` (anonymous): the web console's static files (console/, bundled by
 * esbuild into dist/console/ by `npm run build`), and `config.json`, which tells the page how
 * callers sign in here. Only the files found in dist/console/ when the first request came are
 * served, by exact name, so no request path can reach anything else. The page carries a Content
 * Security Policy that admits scripts and styles from this origin only and lets it talk to this API
 * and to the storage endpoints the SAS URLs point at. Every call the page makes to the API is
 * authorized like any other client's (docs/console.md).
 */
// First: telemetry starts before anything it instruments is loaded (functions/shared/startup.ts).
import './shared/startup';
import fs from 'node:fs';
import path from 'node:path';
import { readPlatformAuth } from '../src/config';
import { NotFoundError } from '../src/domainErrors';
import type { HttpResponseInit } from '@azure/functions';
import { z } from 'zod';
import { json } from './shared/http';
import { publicRoute } from './shared/route';
import type { StorageClients } from '../src/storage/clients';
import type { PrincipalTrust } from '../src/identity/trust';

/** dist/console next to dist/functions when compiled; <root>/dist/console when run from source. */
function consoleDirectory(): string {
  const parent = path.resolve(__dirname, '..');
  return path.basename(parent) === 'dist'
    ? path.join(parent, 'console')
    : path.join(parent, 'dist', 'console');
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

interface StaticFile {
  contentType: string;
  bytes: Buffer;
}

let files: Map<string, StaticFile> | undefined;

/** Every servable file of the console folder, by its path relative to it (`/`-separated). */
function loadFiles(directory: string): Map<string, StaticFile> {
  const found = new Map<string, StaticFile>();
  if (!fs.existsSync(directory)) return found;
  const walk = (relative: string): void => {
    for (const entry of fs.readdirSync(path.join(directory, relative), { withFileTypes: true })) {
      const name = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(name);
      else if (entry.isFile()) {
        const contentType = CONTENT_TYPES[path.extname(entry.name).toLowerCase()];
        if (contentType) {
          found.set(name, { contentType, bytes: fs.readFileSync(path.join(directory, name)) });
        }
      }
    }
  };
  walk('');
  return found;
}

/**
 * The origins of the storage endpoints SAS URLs point at (for the CSP): every account's, since a
 * department's photos, expenses and log lines live in its own account; none when unknown.
 */
function storageOrigins(storage: () => readonly StorageClients[]): string[] {
  let accounts: readonly StorageClients[];
  try {
    accounts = storage();
  } catch {
    return [];
  }
  const origins = new Set<string>();
  for (const clients of accounts) {
    try {
      for (const url of [clients.blobService().url, clients.tableService().url]) {
        origins.add(new URL(url).origin);
      }
    } catch {
      // An account whose clients cannot be built (an unresolved key): its SAS are not issued.
    }
  }
  return [...origins];
}

/** The console's Content Security Policy. */
export function consolePolicy(storage: readonly string[]): string {
  const stores = storage.join(' ');
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: ${stores}`.trim(),
    `connect-src 'self' ${stores}`.trim(),
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** How callers sign in here: a developer sign-in only where hand-sent principals are believed. */
export function consoleConfig(trusted: PrincipalTrust): { signIn: 'developer' | 'appService' } {
  const platform = readPlatformAuth();
  if (!platform.inAzure && trusted.trusted) return { signIn: 'developer' };
  return { signIn: 'appService' };
}

publicRoute('webConsole', {
  route: 'console/{*path}',
  methods: ['GET'],
  schemas: {
    responses: {
      200: {
        description:
          'A file of the console; `config.json` is `{"signIn": "developer" | "appService"}`.',
        body: z.unknown(),
        rawBodies: [
          ...new Set(Object.values(CONTENT_TYPES).map((type) => type.split(';')[0]!)),
        ].filter((type) => type !== 'application/json'),
      },
      308: {
        description: '`/api/console` → `/api/console/`.',
        headers: { location: { description: 'The same path with a trailing slash.' } },
      },
    },
  },
  // The clients are built on use: a console without a storage setting still loads.
  uses: (s) => ({
    clients: () => s.accounts()?.accounts.all.map((account) => account.clients) ?? [s.clients()],
    trust: s.principalTrust(),
  }),
  handler: async ({ request, use: { clients, trust } }): Promise<HttpResponseInit> => {
    const requested = request.params.path ?? '';
    // `/api/console` → `/api/console/`, so the page's relative URLs resolve under it.
    if (requested === '' && !new URL(request.url).pathname.endsWith('/')) {
      return { status: 308, headers: { location: `${new URL(request.url).pathname}/` } };
    }
    const security: Record<string, string> = {
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'content-security-policy': consolePolicy(storageOrigins(clients)),
    };
    if (requested === 'config.json') {
      return json(200, consoleConfig(trust), { 'cache-control': 'no-store', ...security });
    }
    // Read once; an empty folder (the console not built yet) is looked at again next time.
    if (!files || files.size === 0) files = loadFiles(consoleDirectory());
    const file = files.get(requested === '' ? 'index.html' : requested);
    if (!file) {
      throw new NotFoundError(
        'ConsoleFileNotFound',
        files.size === 0
          ? 'The console is not built: run "npm run build".'
          : 'There is no such file in the console.',
      );
    }
    return {
      status: 200,
      body: file.bytes,
      headers: {
        'content-type': file.contentType,
        'cache-control': 'no-cache',
        ...security,
      },
    };
  },
});
