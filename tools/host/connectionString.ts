/**
 * Storage connection strings as the Functions host reads them (its own parser, not the app's):
 * `Key=Value;` pairs, keys case-insensitive, and `UseDevelopmentStorage=true` standing for the
 * emulator's well-known account on its standard local ports.
 */

/** The emulator's well-known account and key (public, the same for every Azurite). */
const DEV_ACCOUNT = 'devstoreaccount1';
const DEV_KEY =
  'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

/** What `UseDevelopmentStorage=true` expands to. */
const DEV_CONNECTION_STRING =
  `DefaultEndpointsProtocol=http;AccountName=${DEV_ACCOUNT};AccountKey=${DEV_KEY};` +
  `BlobEndpoint=http://127.0.0.1:10000/${DEV_ACCOUNT};` +
  `QueueEndpoint=http://127.0.0.1:10001/${DEV_ACCOUNT};` +
  `TableEndpoint=http://127.0.0.1:10002/${DEV_ACCOUNT};`;

/** The pairs of a connection string, keys lower-cased (`UseDevelopmentStorage=true` expanded). */
export function parseConnectionString(connectionString: string): Map<string, string> {
  const text = /^\s*UseDevelopmentStorage\s*=\s*true\s*;?\s*$/i.test(connectionString)
    ? DEV_CONNECTION_STRING
    : connectionString;
  const pairs = new Map<string, string>();
  for (const part of text.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    pairs.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
  }
  return pairs;
}
